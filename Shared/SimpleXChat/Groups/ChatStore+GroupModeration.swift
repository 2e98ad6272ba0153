import Foundation
import SimpleXProtocol

/// Moderation in the store: items hidden by a moderator or by blocking their sender, members
/// blocked for all, moderations waiting for their message, and the quotes reports carry.
extension ChatStore {
    /// `item_deleted` values beside 0 (shown) and 1 (deleted by its sender).
    enum ItemDeletedState: Int64 {
        case markedByModerator = 2, blockedByAdmin = 3, removedByModerator = 4
    }

    /// A moderator (nil: the user) deleted the item for everyone: marked, or with its content gone.
    func moderateGroupItem(_ item: GroupChatItem, by moderator: GroupMember?, fullDelete: Bool)
        throws(ChatError)
    {
        let state: ItemDeletedState = fullDelete ? .removedByModerator : .markedByModerator
        let removed = MsgContent.text("")
        try run(
            """
            UPDATE chat_items SET item_deleted = ?, item_deleted_ts = ?, item_deleted_by_group_member_id = ?,
              item_content = CASE WHEN ? THEN ? ELSE item_content END,
              item_text = CASE WHEN ? THEN '' ELSE item_text END, updated_at = ?
            WHERE chat_item_id = ?
            """,
            [
                state.rawValue, now(), moderator?.groupMemberId, fullDelete, Self.json(removed), fullDelete,
                now(), item.itemId,
            ])
    }

    /// A blocked member's message: kept, hidden as blocked by admin.
    func markGroupItemBlocked(_ item: GroupChatItem) throws(ChatError) {
        try run(
            "UPDATE chat_items SET item_deleted = ?, updated_at = ? WHERE chat_item_id = ?",
            [ItemDeletedState.blockedByAdmin.rawValue, now(), item.itemId])
    }

    func setMemberBlocked(_ member: GroupMember, _ blocked: Bool) throws(ChatError) {
        try run(
            "UPDATE group_members SET member_restriction = ?, updated_at = ? WHERE group_member_id = ?",
            [blocked ? "blocked" : nil, now(), member.groupMemberId])
    }

    /// Keeps a moderation of `author`'s message `sharedMsgId` until the message comes; the first
    /// one kept when it comes again.
    func insertPendingModeration(
        groupId: Int64, author: GroupMember, sharedMsgId: SharedMsgID, moderator: GroupMember
    ) throws(ChatError) {
        try run(
            """
            INSERT OR IGNORE INTO group_pending_moderations (group_id, author_group_member_id, shared_msg_id,
              moderator_group_member_id, created_at) VALUES (?,?,?,?,?)
            """,
            [groupId, author.groupMemberId, sharedMsgId.bytes, moderator.groupMemberId, now()])
    }

    /// The moderator of a moderation waiting for `author`'s message `sharedMsgId`, taken out.
    func takePendingModeration(author: GroupMember, sharedMsgId: SharedMsgID) throws(ChatError)
        -> GroupMember?
    {
        try transaction { () throws(ChatError) in
            guard
                let row = try row(
                    """
                    SELECT group_pending_moderation_id, moderator_group_member_id FROM group_pending_moderations
                    WHERE author_group_member_id = ? AND shared_msg_id = ?
                    """, [author.groupMemberId, sharedMsgId.bytes])
            else { return nil }
            try run(
                "DELETE FROM group_pending_moderations WHERE group_pending_moderation_id = ?",
                [try value(row, "group_pending_moderation_id") as Int64])
            return try member(id: try value(row, "moderator_group_member_id"))
        }
    }

    /// The message a new item quotes (a report's reported message).
    func setGroupItemQuote(_ item: GroupChatItem, _ quote: GroupItemQuote) throws(ChatError) {
        try run(
            """
            UPDATE chat_items SET quoted_shared_msg_id = ?, quoted_content = ?, quoted_sent = ?, quoted_member_id = ?
            WHERE chat_item_id = ?
            """,
            [
                quote.sharedMsgId?.bytes, Self.json(quote.content), quote.byUser,
                quote.member?.groupMemberId, item.itemId,
            ])
    }

    /// The group's reports, newest last (what a moderator's reports view lists).
    func groupReports(groupId: Int64, count: Int) throws(ChatError) -> [GroupChatItem] {
        try groupItems(groupId: groupId, count: count, onlyReports: true)
    }
}
