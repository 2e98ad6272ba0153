extension ChatSchema {
    /// Mentions, replies, reactions and files in groups (SimpleX's `chat_items.user_mention`,
    /// `quoted_member_id`, the member-keyed reactions, and files keyed by group and member).
    static let groupMentions = """
        -- The item mentions the user or quotes the user's message: it notifies in a mentions-only group.
        ALTER TABLE chat_items ADD COLUMN user_mention INTEGER NOT NULL DEFAULT 0;
        -- The author of the quoted item in a group (the user's own membership when it quotes the user).
        ALTER TABLE chat_items ADD COLUMN quoted_member_id INTEGER REFERENCES group_members ON DELETE SET NULL;

        -- Reactions to group items: one row per member (NULL: the user) and emoji.
        CREATE TABLE group_item_reactions (
          group_item_reaction_id INTEGER PRIMARY KEY,
          chat_item_id INTEGER NOT NULL REFERENCES chat_items ON DELETE CASCADE,
          group_member_id INTEGER REFERENCES group_members ON DELETE CASCADE,
          reaction TEXT NOT NULL,
          created_at INTEGER NOT NULL
        );
        CREATE UNIQUE INDEX idx_group_item_reactions_unique
          ON group_item_reactions (chat_item_id, ifnull(group_member_id, 0), reaction);

        -- Files in groups: the user's offer to the group (no member), one transfer per member who
        -- accepted it (no item: the offer has it), and a member's offer to the user.
        ALTER TABLE files ADD COLUMN group_id INTEGER REFERENCES groups ON DELETE CASCADE;
        ALTER TABLE files ADD COLUMN group_member_id INTEGER REFERENCES group_members ON DELETE CASCADE;
        CREATE INDEX idx_files_group_shared_msg_id ON files (group_id, shared_msg_id) WHERE group_id IS NOT NULL;
        """
}
