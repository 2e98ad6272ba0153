extension ChatSchema {
    /// The queries that page a direct chat, written to match `idx_chat_items_contact_page`
    /// and the other chat_items indexes; tests check their query plans, so a change that falls
    /// back to scanning chat_items fails there. Parameters are named: `:user_id`, `:contact_id`,
    /// `:count`, `:chat_item_id`, `:shared_msg_id`.
    public enum Paging {
        static let columns = """
            chat_item_id, user_id, contact_id, item_sent, item_ts, item_content, item_text, \
            item_status, item_deleted, item_deleted_ts, item_edited, item_live, shared_msg_id, \
            quoted_shared_msg_id, quoted_sent_at, quoted_content, quoted_sent, created_at, updated_at
            """

        /// The newest `:count` items of a contact's chat, newest first.
        public static let last = """
            SELECT \(columns) FROM chat_items
            WHERE user_id = :user_id AND contact_id = :contact_id
            ORDER BY chat_item_id DESC LIMIT :count
            """

        /// The `:count` items just older than `:chat_item_id`, newest first.
        public static let before = """
            SELECT \(columns) FROM chat_items
            WHERE user_id = :user_id AND contact_id = :contact_id AND chat_item_id < :chat_item_id
            ORDER BY chat_item_id DESC LIMIT :count
            """

        /// The `:count` items just newer than `:chat_item_id`, oldest first.
        public static let after = """
            SELECT \(columns) FROM chat_items
            WHERE user_id = :user_id AND contact_id = :contact_id AND chat_item_id > :chat_item_id
            ORDER BY chat_item_id ASC LIMIT :count
            """

        /// The number of unread items in a contact's chat.
        public static let unreadCount = """
            SELECT COUNT(*) FROM chat_items
            WHERE user_id = :user_id AND contact_id = :contact_id AND item_status = 'rcv_new'
            """

        /// The oldest unread item of a contact's chat, where the chat opens.
        public static let firstUnread = """
            SELECT chat_item_id FROM chat_items
            WHERE user_id = :user_id AND contact_id = :contact_id AND item_status = 'rcv_new'
            ORDER BY chat_item_id ASC LIMIT 1
            """

        /// The item a peer's update, deletion, reaction or quote refers to.
        public static let bySharedMsgId = """
            SELECT chat_item_id FROM chat_items
            WHERE user_id = :user_id AND contact_id = :contact_id AND shared_msg_id = :shared_msg_id
            """
    }
}
