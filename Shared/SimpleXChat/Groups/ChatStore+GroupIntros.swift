import Foundation

/// The host's record of the introductions it made, and the items of group chats.
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

    // MARK: - Items

    /// A group item: sent by the user (`member` nil) or received from `member`.
    func insertGroupItem(
        _ user: ChatUser, groupId: Int64, member: GroupMember?, content: MsgContent,
        sharedMsgId: SharedMsgID?,
        forwarded: Bool = false, at time: Date? = nil
    ) throws(ChatError) -> GroupChatItem {
        try transaction { () throws(ChatError) in
            let now = self.now()
            let status: ChatItemStatus = member == nil ? .sndNew : .rcvNew
            try run(
                """
                INSERT INTO chat_items (user_id, group_id, group_member_id, item_sent, item_ts, item_content, item_text,
                  item_status, shared_msg_id, item_forwarded, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)
                """,
                [
                    user.userId, groupId, member?.groupMemberId, member == nil, time ?? now,
                    Self.json(content),
                    content.text, status.rawValue, sharedMsgId?.bytes, forwarded, now, now,
                ])
            try run("UPDATE groups SET chat_ts = ? WHERE group_id = ?", [now, groupId])
            return GroupChatItem(
                itemId: lastID, groupId: groupId, member: member, content: content, timestamp: time ?? now,
                sharedMsgId: sharedMsgId, forwarded: forwarded)
        }
    }

    /// Whether `member` already sent message `sharedMsgId` in this group (directly or forwarded).
    func hasGroupItem(groupId: Int64, member: GroupMember, sharedMsgId: SharedMsgID) throws(ChatError) -> Bool
    {
        try row(
            "SELECT 1 FROM chat_items WHERE group_id = ? AND group_member_id = ? AND shared_msg_id = ?",
            [groupId, member.groupMemberId, sharedMsgId.bytes]) != nil
    }

    /// The last `count` items of a group, oldest first.
    func groupItems(groupId: Int64, count: Int) throws(ChatError) -> [GroupChatItem] {
        var items: [GroupChatItem] = []
        for row in try rows(
            """
            SELECT chat_item_id, group_member_id, item_ts, item_content, shared_msg_id, item_forwarded FROM chat_items
            WHERE user_id = (SELECT user_id FROM groups WHERE group_id = ?1) AND group_id = ?1
            ORDER BY chat_item_id DESC LIMIT ?2
            """, [groupId, count])
        {
            let memberId: Int64? = try value(row, "group_member_id")
            let shared: [UInt8]? = try value(row, "shared_msg_id")
            items.append(
                GroupChatItem(
                    itemId: try value(row, "chat_item_id"), groupId: groupId,
                    member: try memberId.map { id throws(ChatError) in try member(id: id) },
                    content: Self.content(try value(row, "item_content")),
                    timestamp: try value(row, "item_ts"),
                    sharedMsgId: shared.map(SharedMsgID.init(bytes:)),
                    forwarded: try value(row, "item_forwarded")))
        }
        return items.reversed()
    }
}
