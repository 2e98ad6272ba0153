extension ChatSchema {
    /// The third migration: what reading a chat needs to stay fast at any history size.
    ///
    /// - `msg_content_tag`, the message content's `"type"`, for content filters (images, videos,
    ///   voice, files, links), indexed with the page order. SQLite computes it from `item_content`,
    ///   so every writer and every edit keeps it right without code; VIRTUAL, so only the index
    ///   stores it. (`item_content` is always JSON written by `MsgContent.json`.)
    /// - `timed_ttl` and `timed_delete_at` for disappearing messages, as SimpleX names them: a sent
    ///   item's timer starts when it is sent, a received one's when it is read.
    /// - `last_chat_item_id` and `unread_count` per contact, kept by triggers on chat_items, so the
    ///   chat list is one indexed query whatever the histories hold (counting unread items would
    ///   read every unread index entry of every chat on each refresh).
    static let reading = """
        ALTER TABLE chat_items ADD COLUMN msg_content_tag TEXT
          GENERATED ALWAYS AS (json_extract(item_content, '$.type')) VIRTUAL;
        CREATE INDEX idx_chat_items_contact_content_tag
          ON chat_items (user_id, contact_id, msg_content_tag, chat_item_id);

        ALTER TABLE chat_items ADD COLUMN timed_ttl INTEGER; -- seconds
        ALTER TABLE chat_items ADD COLUMN timed_delete_at INTEGER; -- NULL until the timer starts
        CREATE INDEX idx_chat_items_timed_delete_at
          ON chat_items (user_id, timed_delete_at) WHERE timed_delete_at IS NOT NULL;

        ALTER TABLE contacts ADD COLUMN last_chat_item_id INTEGER; -- kept by the triggers below
        ALTER TABLE contacts ADD COLUMN unread_count INTEGER NOT NULL DEFAULT 0;
        UPDATE contacts SET
          last_chat_item_id = (
            SELECT max(chat_item_id) FROM chat_items i
            WHERE i.user_id = contacts.user_id AND i.contact_id = contacts.contact_id),
          unread_count = (
            SELECT count(*) FROM chat_items i
            WHERE i.user_id = contacts.user_id AND i.contact_id = contacts.contact_id
              AND i.item_status = 'rcv_new');
        -- The chat list: a user's chats by last activity.
        CREATE INDEX idx_contacts_chat_ts ON contacts (user_id, chat_ts);
        -- The chat list reads each contact's connection state from the index alone (it replaces
        -- the index on contact_id, its prefix).
        CREATE INDEX idx_connections_contact_state ON connections (contact_id, conn_status, agent_conn_id);
        DROP INDEX idx_connections_contact_id;
        -- Chats are named by display name or alias; with both indexed the lookup is two searches.
        CREATE INDEX idx_contacts_local_alias ON contacts (user_id, local_alias);

        -- Ids only grow (AUTOINCREMENT), so a new item is always its chat's last.
        CREATE TRIGGER chat_items_contact_insert AFTER INSERT ON chat_items
        WHEN NEW.contact_id IS NOT NULL
        BEGIN
          UPDATE contacts SET
            last_chat_item_id = NEW.chat_item_id,
            unread_count = unread_count + (NEW.item_status = 'rcv_new')
          WHERE contact_id = NEW.contact_id;
        END;

        CREATE TRIGGER chat_items_contact_delete AFTER DELETE ON chat_items
        WHEN OLD.contact_id IS NOT NULL
        BEGIN
          UPDATE contacts SET
            unread_count = unread_count - (OLD.item_status = 'rcv_new'),
            last_chat_item_id = CASE WHEN last_chat_item_id = OLD.chat_item_id
              THEN (SELECT max(chat_item_id) FROM chat_items
                    WHERE user_id = OLD.user_id AND contact_id = OLD.contact_id)
              ELSE last_chat_item_id END
          WHERE contact_id = OLD.contact_id;
        END;

        CREATE TRIGGER chat_items_contact_status AFTER UPDATE OF item_status ON chat_items
        WHEN NEW.contact_id IS NOT NULL AND (OLD.item_status = 'rcv_new') != (NEW.item_status = 'rcv_new')
        BEGIN
          UPDATE contacts SET
            unread_count = unread_count + (NEW.item_status = 'rcv_new') - (OLD.item_status = 'rcv_new')
          WHERE contact_id = NEW.contact_id;
        END;
        """

    /// The queries that read chats: pages of a chat (last, before, after, around, with a content
    /// filter or a search), search across chats, the chat list and disappearing items. Each
    /// follows an index (tests check the plans), so its cost is the page, not the history.
    ///
    /// Page queries take up to seven positional parameters, unused ones bound to NULL: `?1`
    /// user_id, `?2` contact_id, `?3` the cursor chat_item_id (exclusive), `?4` count, `?5`
    /// msg_content_tag, `?6` an FTS5 expression over `chat_item_search` (`ChatSearchQuery`),
    /// `?7` and on: LIKE patterns (escaped with `\`) the text must all match.
    public enum Reading {
        /// An item's columns, in the order `ChatStore` decodes them.
        public static let itemColumns = """
            i.chat_item_id, i.contact_id, i.item_sent, i.item_ts, i.item_content, i.item_text, \
            i.item_status, i.item_edited, i.item_deleted, i.item_forwarded, i.shared_msg_id, \
            i.quoted_shared_msg_id, i.quoted_content, i.quoted_sent, i.timed_ttl, i.timed_delete_at
            """

        /// Which way a page goes from its cursor.
        public enum Direction: Sendable {
            /// Older than the cursor, newest first (the last page is the page before +∞).
            case before
            /// Newer than the cursor, oldest first.
            case after
        }

        /// How a page query searches text.
        public enum Search: Sendable, CaseIterable {
            /// No search.
            case none
            /// The word index finds the items (`?6`), in id order; LIKE patterns filter them further.
            case index
            /// No word to look up: the chat's items are read in page order and LIKE patterns
            /// filter them.
            case scan
        }

        /// A page of one chat; `tag` adds the content filter, `search` the text search (which
        /// skips deleted items). Filters keep the plan: the tag has its own index in page order;
        /// an indexed search walks the words' doclists in id order (FTS5 consumes the rowid
        /// range and ORDER BY), each match one primary-key lookup; a scan reads the chat's index
        /// backwards until the page is full.
        /// `literalWords`: how many LIKE patterns follow `?6`.
        public static func page(
            _ direction: Direction, tag: Bool = false, search: Search = .none, literalWords: Int = 0
        ) -> String {
            let id = search == .index ? "s.rowid" : "i.chat_item_id"
            var conditions = search == .index ? ["s.chat_item_search MATCH ?6"] : []
            conditions.append(direction == .before ? "\(id) < ?3" : "\(id) > ?3")
            conditions += ["i.user_id = ?1", "i.contact_id = ?2"]
            // The second condition is the tag index's own (it leaves texts out, which no filter
            // selects): SQLite uses a partial index only for a query that states its condition.
            if tag { conditions.append(contentsOf: ["i.msg_content_tag = ?5", "i.msg_content_tag <> 'text'"]) }
            if search != .none { conditions += ["i.item_deleted = 0"] + likeConditions(literalWords) }
            return """
                SELECT \(itemColumns) FROM \(search == .index ? indexJoin : "chat_items i")
                WHERE \(conditions.joined(separator: " AND "))
                ORDER BY \(id) \(direction == .before ? "DESC" : "ASC") LIMIT ?4
                """
        }

        /// Matches from the word index, each joined to its item by primary key. CROSS JOIN keeps
        /// the index first: its order is the page order.
        static let indexJoin = "chat_item_search s CROSS JOIN chat_items i ON i.chat_item_id = s.rowid"

        /// The text matches each of `count` LIKE patterns, `?7` on. One condition per pattern,
        /// not a `json_each` subquery: that would run for every item a scan reads (4× the scan).
        static func likeConditions(_ count: Int) -> [String] {
            (0..<count).map { "i.item_text LIKE ?\($0 + 7) ESCAPE '\\'" }
        }

        /// Search in all of a user's chats, newest first, before the cursor (`?2` and `?5` are
        /// unused); `index` looks the words up, `scan` reads the user's items in id order.
        public static func searchAll(_ search: Search, literalWords: Int = 0) -> String {
            let id = search == .index ? "s.rowid" : "i.chat_item_id"
            var conditions = search == .index ? ["s.chat_item_search MATCH ?6"] : []
            conditions += ["\(id) < ?3", "i.user_id = ?1", "i.contact_id IS NOT NULL", "i.item_deleted = 0"]
            conditions += likeConditions(literalWords)
            return """
                SELECT \(itemColumns) FROM \(search == .index ? indexJoin : "chat_items i")
                WHERE \(conditions.joined(separator: " AND "))
                ORDER BY \(id) DESC LIMIT ?4
                """
        }

        /// The number of parameters of a page or search query: SQLite counts up to the highest
        /// one used.
        public static func parameterCount(tag: Bool, search: Search, literalWords: Int) -> Int {
            literalWords > 0 ? 6 + literalWords : search == .index ? 6 : tag ? 5 : 4
        }

        /// The reactions of a page's items, whose ids are a JSON array in `?1`. CROSS JOIN keeps
        /// the ids first: the planner may not scan all reactions because the table looks small.
        public static let reactions = """
            SELECT r.chat_item_id, r.reaction, r.reaction_sent
            FROM json_each(?1) AS page CROSS JOIN chat_item_reactions r ON r.chat_item_id = page.value
            ORDER BY r.chat_item_reaction_id
            """

        /// The contact columns the chat list and `ChatStore.contact` decode, in order.
        static let contactColumns = """
            c.contact_id, c.local_display_name, c.local_alias, p.display_name, p.full_name, \
            cn.agent_conn_id, cn.conn_status, c.send_rcpts, c.contact_status, c.enable_ntfs, c.favorite
            """

        /// The chat list of user `?1`: each chat with its last item, unread count and oldest unread
        /// item (where it opens), most recently active first; one pass over `idx_contacts_chat_ts`,
        /// the rest by primary key.
        public static let chatList = """
            SELECT \(contactColumns), c.unread_count, c.unread_chat, coalesce(c.min_unread_item_id, 0),
              \(itemColumns)
            FROM contacts c
            JOIN contact_profiles p ON p.contact_profile_id = c.contact_profile_id
            LEFT JOIN connections cn ON cn.contact_id = c.contact_id
            LEFT JOIN chat_items i ON i.chat_item_id = c.last_chat_item_id
            WHERE c.user_id = ?1 AND c.deleted = 0
            ORDER BY c.chat_ts DESC, c.contact_id DESC
            """

        /// Received items of chat (`?1` user, `?2` contact) still unread, for marking them read;
        /// `?3` narrows to the ids in a JSON array, or NULL for the whole chat.
        public static let unreadItems = """
            SELECT i.chat_item_id FROM chat_items i
            WHERE i.user_id = ?1 AND i.contact_id = ?2 AND i.item_status = 'rcv_new'
              AND (?3 IS NULL OR i.chat_item_id IN (SELECT value FROM json_each(?3)))
            """

        /// Items of user `?1` whose timer ended by `?2` (milliseconds), soonest first.
        public static let expired = """
            SELECT \(itemColumns) FROM chat_items i
            WHERE i.user_id = ?1 AND i.timed_delete_at <= ?2
            ORDER BY i.timed_delete_at LIMIT ?3
            """

        /// When the next timer of user `?1` ends.
        public static let nextExpiry = """
            SELECT min(timed_delete_at) FROM chat_items WHERE user_id = ?1 AND timed_delete_at IS NOT NULL
            """
    }
}
