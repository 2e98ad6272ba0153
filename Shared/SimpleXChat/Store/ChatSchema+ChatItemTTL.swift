extension ChatSchema {
    /// The user's "Delete messages after" (SimpleX `chat_item_ttl`, seconds; NULL: never).
    static let chatItemTTL = """
        ALTER TABLE users ADD COLUMN chat_item_ttl INTEGER;
        CREATE INDEX idx_chat_items_user_created ON chat_items (user_id, created_at);
        """
}
