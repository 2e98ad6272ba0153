import Foundation

/// The host's record of the introductions it made.
extension ChatStore {
    /// How far the host got in connecting member `re` (there before) with member `to` (new); the
    /// two sides tell it they connected one at a time (`con_re`, `con_to`), then `con`.
    enum IntroStatus: String {
        case new, inv, fwd, con
        case reConnected = "con_re"
        case toConnected = "con_to"
    }

    func insertIntro(re: GroupMember, to: GroupMember) throws(ChatError) {
        try run(
            """
            INSERT OR IGNORE INTO group_member_intros (re_group_member_id, to_group_member_id, intro_status, created_at, updated_at)
            VALUES (?, ?, 'new', ?, ?)
            """, [re.groupMemberId, to.groupMemberId, now(), now()])
    }

    func introStatus(re: GroupMember, to: GroupMember) throws(ChatError) -> IntroStatus? {
        guard
            let row = try row(
                "SELECT intro_status FROM group_member_intros WHERE re_group_member_id = ? AND to_group_member_id = ?",
                [re.groupMemberId, to.groupMemberId])
        else { return nil }
        return IntroStatus(rawValue: try value(row, "intro_status"))
    }

    func setIntroStatus(re: GroupMember, to: GroupMember, _ status: IntroStatus) throws(ChatError) {
        try run(
            """
            UPDATE group_member_intros SET intro_status = ?, updated_at = ?
            WHERE re_group_member_id = ? AND to_group_member_id = ?
            """, [status.rawValue, now(), re.groupMemberId, to.groupMemberId])
    }

    /// Member `a` told the host (`x.grp.mem.con`) it is connected to `b`, in whichever order the
    /// host introduced them: `a` now sends to `b` itself. `b` may not be connected yet (each side
    /// gets its CON in turn), so the pair is connected only once both have said so.
    func setIntroConnected(_ a: GroupMember, _ b: GroupMember) throws(ChatError) {
        try run(
            """
            UPDATE group_member_intros SET intro_status = CASE
                WHEN re_group_member_id = ?2 THEN CASE WHEN intro_status IN ('con', 'con_to') THEN 'con' ELSE 'con_re' END
                ELSE CASE WHEN intro_status IN ('con', 'con_re') THEN 'con' ELSE 'con_to' END
              END, updated_at = ?1
            WHERE (re_group_member_id = ?2 AND to_group_member_id = ?3) OR (re_group_member_id = ?3 AND to_group_member_id = ?2)
            """, [now(), a.groupMemberId, b.groupMemberId])
    }

    /// The members the host introduced to or with `member` to whom `member` has not told it it is
    /// connected: the host forwards `member`'s messages to them (stopping at the other side's word
    /// alone lost the messages `member` could not send itself yet).
    func unconnectedIntroduced(_ member: GroupMember) throws(ChatError) -> [Int64] {
        try rows(
            """
            SELECT to_group_member_id AS other FROM group_member_intros
              WHERE re_group_member_id = ?1 AND intro_status NOT IN ('con', 'con_re')
            UNION SELECT re_group_member_id AS other FROM group_member_intros
              WHERE to_group_member_id = ?1 AND intro_status NOT IN ('con', 'con_to')
            """, [member.groupMemberId]
        ).map { row throws(ChatError) in try value(row, "other") }
    }
}
