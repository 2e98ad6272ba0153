extension ChatSchema {
    /// Files sent and received over SMP (SimpleX's `files`, `snd_files` and `rcv_files`, folded
    /// into one table since a direct chat has one peer per file), with the chunks handed to the
    /// agent and the chunks received, so a transfer resumes after a restart where it stopped.
    static let files = """
        CREATE TABLE files (
          -- AUTOINCREMENT: the number users type (/fr 1) never names another file later.
          file_id INTEGER PRIMARY KEY AUTOINCREMENT,
          user_id INTEGER NOT NULL REFERENCES users ON DELETE CASCADE,
          contact_id INTEGER REFERENCES contacts ON DELETE CASCADE,
          chat_item_id INTEGER REFERENCES chat_items ON DELETE SET NULL,
          file_sent INTEGER NOT NULL, -- 1 sent by the user, 0 received
          file_name TEXT NOT NULL,
          -- Sent: the absolute path read from. Received: where it is saved (chosen on accepting).
          file_path TEXT,
          file_size INTEGER NOT NULL,
          chunk_size INTEGER NOT NULL,
          file_digest BLOB, -- SHA-512 of the file as the sender offered it
          ci_file_status TEXT NOT NULL, -- ChatFileStatus: snd_stored ... rcv_error
          shared_msg_id BLOB, -- of the x.msg.new that offered it (x.file.acpt.inv names it)
          agent_conn_id TEXT UNIQUE, -- the file's own connection, while there is one
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        );
        CREATE INDEX idx_files_contact_shared_msg_id ON files (contact_id, shared_msg_id);
        CREATE INDEX idx_files_chat_item_id ON files (chat_item_id);
        -- Transfers to resume at start.
        CREATE INDEX idx_files_user_status ON files (user_id, ci_file_status);

        -- Chunks handed to the agent (chunk_sent once the relay accepted them).
        CREATE TABLE snd_file_chunks (
          file_id INTEGER NOT NULL REFERENCES files ON DELETE CASCADE,
          chunk_number INTEGER NOT NULL,
          chunk_agent_msg_id INTEGER NOT NULL,
          chunk_sent INTEGER NOT NULL DEFAULT 0,
          PRIMARY KEY (file_id, chunk_number)
        );
        CREATE INDEX idx_snd_file_chunks_agent_msg_id ON snd_file_chunks (file_id, chunk_agent_msg_id);

        -- Chunks written to the partial file in tmp/.
        CREATE TABLE rcv_file_chunks (
          file_id INTEGER NOT NULL REFERENCES files ON DELETE CASCADE,
          chunk_number INTEGER NOT NULL,
          created_at INTEGER NOT NULL,
          PRIMARY KEY (file_id, chunk_number)
        );
        """
}
