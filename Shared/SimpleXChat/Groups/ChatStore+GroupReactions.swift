import Foundation
import SimpleXProtocol

/// Reactions to group items (`group_item_reactions`): one row per member and emoji, the user's
/// with no member, so two members' 👍 are two reactions and a member's second 👍 is none.
extension ChatStore {
    /// Adds or removes `member`'s (nil: the user's) `emoji` on `item`; whether anything changed.
    @discardableResult
    func setGroupReaction(_ item: GroupChatItem, member: GroupMember?, emoji: String, add: Bool)
        throws(ChatError) -> Bool
    {
        let before = try groupReactions(itemId: item.itemId).count
        if add {
            try run(
                """
                INSERT OR IGNORE INTO group_item_reactions (chat_item_id, group_member_id, reaction, created_at)
                  VALUES (?, ?, ?, ?)
                """,
                [item.itemId, member?.groupMemberId, emoji, now()])
        } else if let member {
            try run(
                "DELETE FROM group_item_reactions WHERE chat_item_id = ? AND group_member_id = ? AND reaction = ?",
                [item.itemId, member.groupMemberId, emoji])
        } else {
            try run(
                "DELETE FROM group_item_reactions WHERE chat_item_id = ? AND group_member_id IS NULL AND reaction = ?",
                [item.itemId, emoji])
        }
        return try groupReactions(itemId: item.itemId).count != before
    }

    /// The reactions of one item, in the order they came.
    func groupReactions(itemId: Int64) throws(ChatError) -> [GroupItemReaction] {
        var reactions: [GroupItemReaction] = []
        for row in try rows(
            """
            SELECT reaction, group_member_id FROM group_item_reactions WHERE chat_item_id = ?
              ORDER BY group_item_reaction_id
            """, [itemId])
        {
            let member: Int64? = try value(row, "group_member_id")
            reactions.append(GroupItemReaction(emoji: try value(row, "reaction"), groupMemberId: member))
        }
        return reactions
    }

    /// How many of a group's unread items mention the user.
    func groupUnreadMentionCount(groupId: Int64) throws(ChatError) -> Int {
        let row = try row(
            """
            SELECT COUNT(*) AS mentions FROM chat_items
              WHERE group_id = ? AND item_status = 'rcv_new' AND user_mention = 1
            """, [groupId])
        return row.map { (try? value($0, "mentions") as Int64) ?? 0 }.map(Int.init) ?? 0
    }
}
