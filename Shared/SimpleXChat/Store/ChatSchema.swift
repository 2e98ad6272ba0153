/// The chat database's schema: its migrations, oldest first.
///
/// Modelled on SimpleX's chat schema (same table and column names, so its queries and docs carry
/// over), trimmed to what the chat core needs first; groups, files and the rest come as new
/// migrations appended to `migrations`. Two deliberate differences:
/// - Timestamps are INTEGER milliseconds since the Unix epoch (how `Date` binds), not TEXT:
///   exact, compact and ordered numerically. Writers pass them from the injected clock rather
///   than SQL defaults, so tests control time.
/// - Tables are not STRICT: that needs SQLite 3.37, and older distributions could not open the file.
public enum ChatSchema {
    /// Every migration of the chat database. Append only; never edit a shipped entry.
    public static let migrations: [Migration] = [
        Migration("20261129_initial", sql: initial),
        Migration("20261130_chat_core", sql: chatCore),
        Migration("20261130_files", sql: files),
        Migration("20261130_reading", sql: reading),
        Migration("20261201_chat_list_unread", sql: chatListUnread),
        Migration("20261202_receipts", sql: receipts),
        Migration("20261203_redundant_indexes", sql: redundantIndexes),
        Migration("20261204_partial_item_indexes", sql: partialItemIndexes),
        Migration("20261205_incognito", sql: incognito),
        Migration("20261206_chat_item_search", sql: chatItemSearch),
        Migration("20261207_chat_item_search_purge", sql: chatItemSearchPurge),
        Migration("20261208_groups", sql: groups),
        Migration("20261209_group_settings", sql: groupSettings),
        Migration("20261210_group_moderation", sql: groupModeration),
        Migration("20261210_group_links", sql: groupLinks),
        Migration("20261210_group_mentions", sql: groupMentions),
        Migration("20261215_local_file_keys", sql: localFileKeys),
        Migration("20261220_chat_item_ttl", sql: chatItemTTL),
    ]

    /// Opens the chat database at `path` and brings it up to `migrations`.
    ///
    /// Throws `MigrationError.databaseNewerThanApp` (leaving the file unchanged) when a newer
    /// app has migrated it further than this code knows.
    public static func openChatDatabase(path: String, key: DatabaseKey? = nil) throws -> Database {
        let database = try Database(path: path, key: key)
        try database.migrate(migrations)
        return database
    }

    static let initial = """
        CREATE TABLE users (
          user_id INTEGER PRIMARY KEY,
          local_display_name TEXT NOT NULL UNIQUE,
          -- The user's own profile. NULL only inside the transaction that creates the user, since
          -- the profile row needs the user_id first.
          contact_profile_id INTEGER UNIQUE REFERENCES contact_profiles,
          active_user INTEGER NOT NULL DEFAULT 0,
          show_ntfs INTEGER NOT NULL DEFAULT 1,
          send_rcpts_contacts INTEGER NOT NULL DEFAULT 0,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        );
        -- At most one active user, enforced by the file rather than by every process's code.
        CREATE UNIQUE INDEX idx_users_active_user ON users (active_user) WHERE active_user = 1;

        -- The user's own profiles and the profiles of contacts as this user received them.
        CREATE TABLE contact_profiles (
          contact_profile_id INTEGER PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES users ON DELETE CASCADE,
          display_name TEXT NOT NULL,
          full_name TEXT NOT NULL DEFAULT '',
          short_descr TEXT,
          image TEXT, -- a data: URI, as SimpleX profiles carry the picture
          contact_link TEXT,
          preferences TEXT, -- Preferences JSON
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        );
        CREATE INDEX idx_contact_profiles_user_id ON contact_profiles (user_id);

        CREATE TABLE contacts (
          contact_id INTEGER PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES users ON DELETE CASCADE,
          local_display_name TEXT NOT NULL,
          contact_profile_id INTEGER REFERENCES contact_profiles ON DELETE SET NULL,
          local_alias TEXT NOT NULL DEFAULT '',
          contact_status TEXT NOT NULL DEFAULT 'active',
          contact_used INTEGER NOT NULL DEFAULT 0,
          enable_ntfs INTEGER NOT NULL DEFAULT 1,
          send_rcpts INTEGER, -- NULL follows the user's send_rcpts_contacts
          user_preferences TEXT NOT NULL DEFAULT '{}',
          unread_chat INTEGER NOT NULL DEFAULT 0, -- "mark unread" by the user, apart from unread items
          favorite INTEGER NOT NULL DEFAULT 0,
          chat_ts INTEGER, -- last activity, orders the chat list
          -- Deleted contacts keep their row while their connection is being torn down.
          deleted INTEGER NOT NULL DEFAULT 0,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL,
          UNIQUE (user_id, local_display_name)
        );
        CREATE INDEX idx_contacts_contact_profile_id ON contacts (contact_profile_id);

        -- One row per agent connection; a contact has one, pending invitations have none yet.
        CREATE TABLE connections (
          connection_id INTEGER PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES users ON DELETE CASCADE,
          agent_conn_id BLOB NOT NULL UNIQUE,
          conn_type TEXT NOT NULL, -- contact; groups and files add theirs
          conn_status TEXT NOT NULL, -- new, joined, requested, accepted, snd-ready, ready, deleted
          contact_id INTEGER REFERENCES contacts ON DELETE CASCADE,
          local_alias TEXT NOT NULL DEFAULT '',
          peer_chat_min_version INTEGER NOT NULL DEFAULT 1,
          peer_chat_max_version INTEGER NOT NULL DEFAULT 1,
          security_code TEXT,
          security_code_verified_at INTEGER,
          auth_err_counter INTEGER NOT NULL DEFAULT 0,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        );
        CREATE INDEX idx_connections_user_id ON connections (user_id);
        CREATE INDEX idx_connections_contact_id ON connections (contact_id);

        CREATE TABLE chat_items (
          -- AUTOINCREMENT: ids are never reused, so a paging cursor or a quote naming a deleted
          -- item cannot land on another message. Ids follow arrival order, which is the order a
          -- chat is shown and paged in; item_ts is the sender's clock and may go backwards.
          chat_item_id INTEGER PRIMARY KEY AUTOINCREMENT,
          user_id INTEGER NOT NULL REFERENCES users ON DELETE CASCADE,
          -- NULL is left for the chat types later migrations add (groups, notes).
          contact_id INTEGER REFERENCES contacts ON DELETE CASCADE,
          item_sent INTEGER NOT NULL, -- 1 sent by the user, 0 received
          item_ts INTEGER NOT NULL,
          item_content TEXT NOT NULL, -- CIContent JSON
          item_text TEXT NOT NULL, -- plain text for previews, notifications and search
          item_status TEXT NOT NULL, -- snd_new, snd_sent, snd_rcvd, snd_error, rcv_new, rcv_read
          item_deleted INTEGER NOT NULL DEFAULT 0,
          item_deleted_ts INTEGER,
          item_edited INTEGER NOT NULL DEFAULT 0,
          item_live INTEGER NOT NULL DEFAULT 0,
          shared_msg_id BLOB, -- the chat protocol message id both sides know the item by
          quoted_shared_msg_id BLOB,
          quoted_sent_at INTEGER,
          quoted_content TEXT, -- MsgContent JSON as the quote carried it
          quoted_sent INTEGER,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        );
        -- Paging a chat: the last N items, N before or after an item (ChatSchema.Paging).
        CREATE INDEX idx_chat_items_contact_page ON chat_items (user_id, contact_id, chat_item_id);
        -- Unread counts and the first unread item of a chat.
        CREATE INDEX idx_chat_items_contact_status ON chat_items (user_id, contact_id, item_status);
        -- Updates, deletions, reactions and quotes name an item by shared_msg_id within its chat.
        CREATE INDEX idx_chat_items_contact_shared_msg_id
          ON chat_items (user_id, contact_id, shared_msg_id);
        -- Deleting a contact cascades to its items; the indexes above lead with user_id, so
        -- without this one every contact deletion would scan all items.
        CREATE INDEX idx_chat_items_contact_id ON chat_items (contact_id);
        """
}
