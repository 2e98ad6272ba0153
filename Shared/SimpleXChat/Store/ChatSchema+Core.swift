extension ChatSchema {
    /// The second migration: what the chat core needs beyond the first tables — edit history,
    /// reactions, forwarded items, the agent's message ids (for delivery statuses), the contact
    /// address, contact requests and the user's relays.
    static let chatCore = """
        ALTER TABLE chat_items ADD COLUMN item_forwarded INTEGER NOT NULL DEFAULT 0;
        -- The agent's id of a sent item's message, so SENT and receipts find the item.
        ALTER TABLE chat_items ADD COLUMN agent_msg_id INTEGER;
        CREATE INDEX idx_chat_items_agent_msg_id ON chat_items (contact_id, agent_msg_id);
        -- Search within a chat or across chats pages through item ids.
        CREATE INDEX idx_chat_items_user_item ON chat_items (user_id, chat_item_id);

        -- Earlier texts of an edited item, oldest first (item info: edit history).
        CREATE TABLE chat_item_versions (
          chat_item_version_id INTEGER PRIMARY KEY,
          chat_item_id INTEGER NOT NULL REFERENCES chat_items ON DELETE CASCADE,
          msg_content TEXT NOT NULL,
          item_version_ts INTEGER NOT NULL,
          created_at INTEGER NOT NULL
        );
        CREATE INDEX idx_chat_item_versions_item ON chat_item_versions (chat_item_id);

        CREATE TABLE chat_item_reactions (
          chat_item_reaction_id INTEGER PRIMARY KEY,
          chat_item_id INTEGER NOT NULL REFERENCES chat_items ON DELETE CASCADE,
          reaction TEXT NOT NULL,
          reaction_sent INTEGER NOT NULL,
          created_at INTEGER NOT NULL,
          UNIQUE (chat_item_id, reaction, reaction_sent)
        );

        -- Status changes of an item (item info: status history).
        CREATE TABLE chat_item_status_events (
          chat_item_status_event_id INTEGER PRIMARY KEY,
          chat_item_id INTEGER NOT NULL REFERENCES chat_items ON DELETE CASCADE,
          item_status TEXT NOT NULL,
          created_at INTEGER NOT NULL
        );
        CREATE INDEX idx_chat_item_status_events_item ON chat_item_status_events (chat_item_id);

        CREATE TABLE user_contact_links (
          user_contact_link_id INTEGER PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES users ON DELETE CASCADE,
          agent_conn_id TEXT NOT NULL UNIQUE,
          conn_req_contact TEXT NOT NULL,
          created_at INTEGER NOT NULL
        );

        CREATE TABLE contact_requests (
          contact_request_id INTEGER PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES users ON DELETE CASCADE,
          agent_invitation_id TEXT NOT NULL UNIQUE,
          local_display_name TEXT NOT NULL,
          profile TEXT NOT NULL, -- Profile JSON
          created_at INTEGER NOT NULL,
          UNIQUE (user_id, local_display_name)
        );

        CREATE TABLE smp_servers (
          smp_server_id INTEGER PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES users ON DELETE CASCADE,
          address TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          UNIQUE (user_id, address)
        );
        """
}
