import Foundation

/// The host's record of the introductions it made.
extension ChatStore {
    /// How far the host got in connecting member `re` (there before) with member `to` (new).
    enum IntroStatus: String { case new, inv, fwd, con }

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

    /// The pair (`a`, `b`) in whichever order the host introduced them: marked connected.
    func setIntroConnected(_ a: GroupMember, _ b: GroupMember) throws(ChatError) {
        try run(
            """
            UPDATE group_member_intros SET intro_status = 'con', updated_at = ?1
            WHERE (re_group_member_id = ?2 AND to_group_member_id = ?3) OR (re_group_member_id = ?3 AND to_group_member_id = ?2)
            """, [now(), a.groupMemberId, b.groupMemberId])
    }

    /// The members the host introduced to or with `member` who have not told it they connected:
    /// the host forwards `member`'s messages to them.
    func unconnectedIntroduced(_ member: GroupMember) throws(ChatError) -> [Int64] {
        try rows(
            """
            SELECT to_group_member_id AS other FROM group_member_intros WHERE re_group_member_id = ?1 AND intro_status != 'con'
            UNION SELECT re_group_member_id AS other FROM group_member_intros WHERE to_group_member_id = ?1 AND intro_status != 'con'
            """, [member.groupMemberId]
        ).map { row throws(ChatError) in try value(row, "other") }
    }
}
