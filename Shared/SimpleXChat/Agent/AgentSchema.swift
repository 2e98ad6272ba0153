/// The agent database's schema (`simplex_v1_agent.db`): connections, their queues on the relays,
/// the send queue and the received messages. Append-only migrations, as `ChatSchema`.
///
/// Modelled on SimpleX's agent schema, trimmed to what the agent does. Columns holding private
/// keys and ratchet state are sealed by `AgentSecrets` (XChaCha20-Poly1305 under a key from the
/// keychain), since the database file itself is not encrypted.
public enum AgentSchema {
    /// Every migration of the agent database. Append only; never edit a shipped entry.
    public static let migrations: [Migration] = [
        Migration("20261129_agent_initial", sql: initial),
        Migration("20261203_acknowledged_bodies", sql: acknowledgedBodies),
        Migration("20261203_rcv_acks_by_id", sql: rcvAcksByID),
        Migration("20261205_app_unacknowledged", sql: appUnacknowledged),
    ]

    /// The fourth migration: the relay is acknowledged once a message is committed here, not
    /// when the app has processed it, so what the app has not acknowledged is delivered to it
    /// again from this table when the agent starts; this index finds those rows (few at any
    /// time) without reading the table.
    static let appUnacknowledged = """
        CREATE INDEX idx_rcv_messages_app_unacked ON rcv_messages (conn_id, agent_msg_id) WHERE user_ack = 0;
        """

    /// The third migration: a relay acknowledgement is recorded by the message's agent id
    /// (`idx_rcv_messages_agent_msg_id`), so the partial index that found it by the relay's id
    /// goes: one index fewer to write with every received message and every acknowledgement.
    static let rcvAcksByID = """
        DROP INDEX idx_rcv_messages_relay_unacked;
        """

    /// The second migration: a received message's body is dropped once the app has acknowledged
    /// it (`AgentStore.setUserAck`); bodies kept by earlier versions go now. With secure_delete
    /// the freed bytes are overwritten, so text the user deleted in the chat is gone from here too.
    static let acknowledgedBodies = """
        UPDATE rcv_messages SET body = x'' WHERE user_ack = 1 AND length(body) > 0;
        """

    static let initial = """
        CREATE TABLE connections (
          conn_id TEXT PRIMARY KEY,
          conn_mode TEXT NOT NULL,        -- invitation | contact
          -- new (invitation made, waiting) | joined (confirmation sent, waiting for theirs) |
          -- confirmed (their confirmation received, waiting for allow) | ready | deleted
          status TEXT NOT NULL,
          x3dh_keys BLOB,                 -- sealed: our X3DH private keys until the ratchet starts
          ratchet BLOB,                   -- sealed: the double ratchet state
          peer_conn_info BLOB,            -- their connInfo, kept until the user allows the connection
          last_snd_id INTEGER NOT NULL DEFAULT 0,
          last_snd_hash BLOB NOT NULL DEFAULT x'',
          last_rcv_id INTEGER NOT NULL DEFAULT 0,
          last_rcv_hash BLOB NOT NULL DEFAULT x'',
          created_at INTEGER NOT NULL
        );

        CREATE TABLE rcv_queues (
          conn_id TEXT NOT NULL REFERENCES connections ON DELETE CASCADE,
          server TEXT NOT NULL,
          rcv_id BLOB NOT NULL,
          snd_id BLOB NOT NULL,
          queue_mode TEXT NOT NULL,       -- messaging | contact
          rcv_auth_key BLOB NOT NULL,     -- sealed
          rcv_dh_key BLOB NOT NULL,       -- sealed: with server_dh_key, opens the relay's layer
          server_dh_key BLOB NOT NULL,
          e2e_key BLOB NOT NULL,          -- sealed: our per-queue e2e key (public in the link)
          e2e_peer_key BLOB,              -- the sender's per-queue key, from its first message
          status TEXT NOT NULL,           -- active | deleted
          PRIMARY KEY (server, rcv_id)
        );
        CREATE INDEX idx_rcv_queues_conn_id ON rcv_queues (conn_id);

        CREATE TABLE snd_queues (
          conn_id TEXT NOT NULL REFERENCES connections ON DELETE CASCADE,
          server TEXT NOT NULL,
          snd_id BLOB NOT NULL,
          snd_auth_key BLOB,              -- sealed; NULL for a contact address (never secured)
          e2e_key BLOB NOT NULL,          -- sealed: our per-queue e2e key (public in PubHeader)
          e2e_peer_key BLOB NOT NULL,     -- the recipient's `dh=` from the queue URI
          status TEXT NOT NULL,           -- new | secured
          PRIMARY KEY (server, snd_id)
        );
        CREATE INDEX idx_snd_queues_conn_id ON snd_queues (conn_id);

        -- The persistent send queue: bodies are encrypted when enqueued (the ratchet state is
        -- written in the same transaction), so a retry resends exactly the same bytes.
        CREATE TABLE snd_messages (
          snd_message_id INTEGER PRIMARY KEY,
          conn_id TEXT NOT NULL REFERENCES connections ON DELETE CASCADE,
          server TEXT NOT NULL,
          snd_id BLOB NOT NULL,
          kind TEXT NOT NULL,             -- confirmation | invitation | message | receipt | hello (| queue_continue, later)
          agent_msg_id INTEGER,           -- sndMsgId of an 'M' message
          msg_hash BLOB,                  -- sha256 of the AgentMessage, for receipts
          body BLOB NOT NULL,             -- the encoded ClientMessage, boxed for the queue when sent
          status TEXT NOT NULL,           -- pending | sent | delivered | error
          created_at INTEGER NOT NULL
        );
        CREATE INDEX idx_snd_messages_pending ON snd_messages (conn_id, snd_message_id) WHERE status = 'pending';
        CREATE INDEX idx_snd_messages_agent_msg_id ON snd_messages (conn_id, agent_msg_id);
        -- Sent messages whose bytes are still kept (the latest per connection).
        CREATE INDEX idx_snd_messages_kept ON snd_messages (conn_id, snd_message_id)
          WHERE status != 'pending' AND length(body) > 0;

        -- Received messages: committed before the relay is ACKed; user_ack says the app has
        -- processed it, relay_ack that the relay has been told.
        CREATE TABLE rcv_messages (
          rcv_message_id INTEGER PRIMARY KEY,
          conn_id TEXT NOT NULL REFERENCES connections ON DELETE CASCADE,
          agent_msg_id INTEGER NOT NULL,
          enc_hash BLOB NOT NULL,         -- sha256 of the per-queue ciphertext: duplicates
          msg_hash BLOB NOT NULL,
          body BLOB NOT NULL,
          integrity TEXT NOT NULL,        -- ok | skipped a-b | badId | badHash
          server TEXT NOT NULL,
          rcv_id BLOB NOT NULL,
          server_msg_id BLOB NOT NULL,
          user_ack INTEGER NOT NULL DEFAULT 0,
          relay_ack INTEGER NOT NULL DEFAULT 0,
          created_at INTEGER NOT NULL,
          UNIQUE (conn_id, enc_hash)
        );
        CREATE INDEX idx_rcv_messages_agent_msg_id ON rcv_messages (conn_id, agent_msg_id);
        -- Messages the relay has not been told about yet (few at any time).
        CREATE INDEX idx_rcv_messages_relay_unacked ON rcv_messages (conn_id, server_msg_id) WHERE relay_ack = 0;

        -- Requests that arrived on a contact address, until accepted or rejected.
        CREATE TABLE contact_requests (
          invitation_id TEXT PRIMARY KEY,
          conn_id TEXT NOT NULL REFERENCES connections ON DELETE CASCADE,
          conn_request TEXT NOT NULL,
          conn_info BLOB NOT NULL,
          enc_hash BLOB NOT NULL UNIQUE,
          created_at INTEGER NOT NULL
        );
        CREATE INDEX idx_contact_requests_conn_id ON contact_requests (conn_id);
        """
}
