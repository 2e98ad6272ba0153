extension ChatSchema {
    /// Moderation in groups: who marked an item deleted when not its sender, the quote of a report,
    /// members blocked for all, and moderations that came before the message they delete.
    ///
    /// `chat_items.item_deleted` keeps 0 (shown) and 1 (deleted by its sender) and gains 2 (marked
    /// deleted by a moderator), 3 (a blocked member's message) and 4 (removed by a moderator, the
    /// group having full delete); `item_deleted_by_group_member_id` is the moderator, NULL for the user.
    static let groupModeration = """
        ALTER TABLE chat_items ADD COLUMN item_deleted_by_group_member_id INTEGER
          REFERENCES group_members ON DELETE SET NULL;
        -- 'blocked' when a moderator blocked the member for all; NULL otherwise.
        ALTER TABLE group_members ADD COLUMN member_restriction TEXT;

        -- A moderator's x.msg.del for a message not received yet, applied when it comes.
        CREATE TABLE group_pending_moderations (
          group_pending_moderation_id INTEGER PRIMARY KEY,
          group_id INTEGER NOT NULL REFERENCES groups ON DELETE CASCADE,
          author_group_member_id INTEGER NOT NULL REFERENCES group_members ON DELETE CASCADE,
          shared_msg_id BLOB NOT NULL,
          moderator_group_member_id INTEGER NOT NULL REFERENCES group_members ON DELETE CASCADE,
          created_at INTEGER NOT NULL,
          UNIQUE (author_group_member_id, shared_msg_id)
        );
        """
}
