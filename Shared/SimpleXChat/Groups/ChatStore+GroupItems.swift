import Foundation
import SimpleXProtocol

/// The items of group chats: `chat_items` rows with `group_id` (and the sender's `group_member_id`).
extension ChatStore {
    /// A group item: sent by the user (`member` nil) or received from `member`.
    func insertGroupItem(
        _ user: ChatUser, groupId: Int64, member: GroupMember?, content: MsgContent,
        sharedMsgId: SharedMsgID?,
        forwarded: Bool = false, userMention: Bool = false, quote: GroupItemQuote? = nil, at time: Date? = nil
    ) throws(ChatError) -> GroupChatItem {
        try transaction { () throws(ChatError) in
            let now = self.now()
            let status: ChatItemStatus = member == nil ? .sndNew : .rcvNew
            try run(
                """
                INSERT INTO chat_items (user_id, group_id, group_member_id, item_sent, item_ts, item_content, item_text,
                  item_status, shared_msg_id, item_forwarded, user_mention, quoted_shared_msg_id, quoted_content,
                  quoted_sent, quoted_member_id, created_at, updated_at)
                  VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
                """,
                [
                    user.userId, groupId, member?.groupMemberId, member == nil, time ?? now,
                    Self.json(content),
                    content.text, status.rawValue, sharedMsgId?.bytes, forwarded, userMention,
                    quote?.sharedMsgId?.bytes, quote.map { Self.json($0.content) }, quote.map(\.byUser),
                    quote?.member?.groupMemberId, now, now,
                ])
            try run("UPDATE groups SET chat_ts = ? WHERE group_id = ?", [now, groupId])
            return GroupChatItem(
                itemId: lastID, groupId: groupId, member: member, content: content, timestamp: time ?? now,
                sharedMsgId: sharedMsgId, forwarded: forwarded, userMention: userMention, quote: quote)
        }
    }

    /// How many of a group's received items the user has not seen.
    func groupUnreadCount(groupId: Int64) throws(ChatError) -> Int {
        let row = try row(
            "SELECT COUNT(*) AS unread FROM chat_items WHERE group_id = ? AND item_status = 'rcv_new'", [groupId])
        return row.map { (try? value($0, "unread") as Int64) ?? 0 }.map(Int.init) ?? 0
    }

    /// The group's received items seen (`rcv_read`); returns how many were not.
    @discardableResult
    func markGroupRead(groupId: Int64) throws(ChatError) -> Int {
        let unread = try groupUnreadCount(groupId: groupId)
        if unread > 0 {
            try run(
                "UPDATE chat_items SET item_status = 'rcv_read', updated_at = ? WHERE group_id = ? AND item_status = 'rcv_new'",
                [now(), groupId])
        }
        return unread
    }

    /// Whether `member` already sent message `sharedMsgId` in this group (directly or forwarded).
    func hasGroupItem(groupId: Int64, member: GroupMember, sharedMsgId: SharedMsgID) throws(ChatError) -> Bool
    {
        try row(
            "SELECT 1 FROM chat_items WHERE group_id = ? AND group_member_id = ? AND shared_msg_id = ?",
            [groupId, member.groupMemberId, sharedMsgId.bytes]) != nil
    }

    /// The last `count` items of a group, oldest first.
    func groupItems(groupId: Int64, count: Int, onlyReports: Bool = false) throws(ChatError) -> [GroupChatItem] {
        var items: [GroupChatItem] = []
        let reports = onlyReports ? " AND json_extract(item_content, '$.type') = 'report'" : ""
        for row in try rows(
            Self.groupItemColumns + """
                 WHERE user_id = (SELECT user_id FROM groups WHERE group_id = ?1) AND group_id = ?1\(reports)
                ORDER BY chat_item_id DESC LIMIT ?2
                """, [groupId, count])
        {
            items.append(try groupItem(row, groupId: groupId))
        }
        return items.reversed()
    }

    /// The item `sharedMsgId` of `member` (nil: of the user) in a group.
    func groupItem(groupId: Int64, member: GroupMember?, sharedMsgId: SharedMsgID) throws(ChatError)
        -> GroupChatItem?
    {
        let row =
            if let member {
                try self.row(
                    Self.groupItemColumns
                        + " WHERE group_id = ? AND group_member_id = ? AND shared_msg_id = ?",
                    [groupId, member.groupMemberId, sharedMsgId.bytes])
            } else {
                try self.row(
                    Self.groupItemColumns
                        + " WHERE group_id = ? AND group_member_id IS NULL AND shared_msg_id = ?",
                    [groupId, sharedMsgId.bytes])
            }
        return try row.map { row throws(ChatError) in try groupItem(row, groupId: groupId) }
    }

    func groupItem(id: Int64, groupId: Int64) throws(ChatError) -> GroupChatItem {
        guard
            let row = try row(
                Self.groupItemColumns + " WHERE chat_item_id = ? AND group_id = ?", [id, groupId])
        else {
            throw .itemNotFound("#\(id)")
        }
        return try groupItem(row, groupId: groupId)
    }

    /// New content for an item (its sender edited it); the old text goes to its history.
    func updateGroupItem(_ item: GroupChatItem, _ content: MsgContent, userMention: Bool? = nil)
        throws(ChatError)
    {
        try transaction { () throws(ChatError) in
            try run(
                "INSERT INTO chat_item_versions (chat_item_id, msg_content, item_version_ts, created_at) VALUES (?,?,?,?)",
                [item.itemId, Self.json(item.content), item.timestamp, now()])
            try run(
                """
                UPDATE chat_items SET item_content = ?, item_text = ?, item_edited = 1, user_mention = ?, updated_at = ?
                  WHERE chat_item_id = ?
                """,
                [Self.json(content), content.text, userMention ?? item.userMention, now(), item.itemId])
        }
    }

    /// The sender deleted the item for everyone: kept, marked deleted.
    func markGroupItemDeleted(_ item: GroupChatItem) throws(ChatError) {
        try run(
            "UPDATE chat_items SET item_deleted = 1, item_deleted_ts = ?, updated_at = ? WHERE chat_item_id = ?",
            [now(), now(), item.itemId])
    }

    /// The user's own item, gone (deleted for everyone by the user).
    func deleteGroupItem(_ item: GroupChatItem) throws(ChatError) {
        try run("DELETE FROM chat_items WHERE chat_item_id = ?", [item.itemId])
    }

    private static let groupItemColumns = """
        SELECT chat_item_id, group_member_id, item_ts, item_content, shared_msg_id, item_forwarded, item_edited,
          item_deleted, item_deleted_by_group_member_id, user_mention, quoted_shared_msg_id, quoted_content,
          quoted_member_id FROM chat_items
        """

    private func groupItem(_ row: Row, groupId: Int64) throws(ChatError) -> GroupChatItem {
        let memberId: Int64? = try value(row, "group_member_id")
        let shared: [UInt8]? = try value(row, "shared_msg_id")
        return GroupChatItem(
            itemId: try value(row, "chat_item_id"), groupId: groupId,
            member: try memberId.map { id throws(ChatError) in try member(id: id) },
            content: Self.content(try value(row, "item_content")), timestamp: try value(row, "item_ts"),
            sharedMsgId: shared.map(SharedMsgID.init(bytes:)), forwarded: try value(row, "item_forwarded"),
            edited: try value(row, "item_edited"), deleted: try value(row, "item_deleted") as Int64 == 1,
            moderation: try moderation(row), userMention: try value(row, "user_mention"), quote: try groupQuote(row),
            reactions: try groupReactions(itemId: try value(row, "chat_item_id")),
            file: try file(itemId: try value(row, "chat_item_id")))
    }

    private func moderation(_ row: Row) throws(ChatError) -> GroupItemModeration? {
        let state = ItemDeletedState(rawValue: try value(row, "item_deleted"))
        let by = try (try value(row, "item_deleted_by_group_member_id") as Int64?).map {
            id throws(ChatError) in try member(id: id)
        }
        switch state {
        case .markedByModerator: return .marked(by: by)
        case .removedByModerator: return .removed(by: by)
        case .blockedByAdmin: return .blocked
        case nil: return nil
        }
    }

    /// The quoted message; its author (a member, or the user's own membership) looked up by id.
    private func groupQuote(_ row: Row) throws(ChatError) -> GroupItemQuote? {
        guard let content: String = try value(row, "quoted_content") else { return nil }
        let shared: [UInt8]? = try value(row, "quoted_shared_msg_id")
        let memberId: Int64? = try value(row, "quoted_member_id")
        let author = try memberId.map { id throws(ChatError) in try member(id: id) }
        return GroupItemQuote(
            content: Self.content(content), member: author, sharedMsgId: shared.map(SharedMsgID.init(bytes:)),
            memberId: author?.memberId)
    }
}
