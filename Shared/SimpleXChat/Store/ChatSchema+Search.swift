extension ChatSchema {
    /// The tenth migration: a word index of chat items' text (SQLite FTS5), so a search reads the
    /// matching items instead of every item of the chat (a LIKE scan). Existing items are indexed
    /// here, so an upgraded database finds its whole history.
    ///
    /// - **Contentless** (`content=''`): the index holds tokens and row ids only, never a copy of
    ///   the text, so a deleted message's text is gone with its `chat_items` row (a plain FTS5
    ///   table would keep a second copy in `chat_item_search_content`; an external-content table
    ///   claims to mirror `chat_items`, which this one does not: it leaves out deleted items).
    ///   Debian's SQLite (3.40) predates `contentless_delete=1` (3.43), so removal is FTS5's
    ///   `'delete'` command with the values once indexed, which the triggers have in `OLD`.
    ///   That command writes a delete marker: MATCH and fts5vocab stop seeing the words at
    ///   once, but their bytes stay in an older segment of `chat_item_search_data` until FTS5
    ///   merges it ('optimize' merges everything: about 1 s for a 1M-item index). SQLite 3.42's
    ///   `secure-delete` option would drop them at once; 3.40 lacks it.
    /// - Only items not deleted are indexed: a message marked deleted (the views still show it)
    ///   leaves the index when it is marked, and search can never find it.
    /// - `chat` holds a token for the user (`u1`) and one for the contact (`c42`), so a search
    ///   scoped to one chat is an AND of two doclists inside the index (FTS5 skips through the
    ///   longer one) rather than a walk through every match in all chats, filtered row by row.
    ///   The query names the column of each phrase (`item_text : …`), so users' words never
    ///   match these tokens.
    /// - `unicode61 remove_diacritics 2`: case- and diacritics-insensitive for Latin scripts
    ///   (`cafe` finds `café`). It does not segment CJK or Thai; `ChatSearchQuery` matches words
    ///   in those scripts (and words with punctuation or emoji, which it drops) by LIKE instead.
    /// - No `prefix=` index: it would triple the index and the write cost of every message; a
    ///   prefix query of one or two letters costs a few tens of milliseconds in a
    ///   500,000-item chat without it.
    static let chatItemSearch = """
        CREATE VIRTUAL TABLE chat_item_search USING fts5(
          chat, item_text, content = '', tokenize = 'unicode61 remove_diacritics 2'
        );

        INSERT INTO chat_item_search (rowid, chat, item_text)
        SELECT chat_item_id, \(searchChat("")), item_text FROM chat_items WHERE item_deleted = 0;

        CREATE TRIGGER chat_items_search_insert AFTER INSERT ON chat_items
        WHEN NEW.item_deleted = 0
        BEGIN
          INSERT INTO chat_item_search (rowid, chat, item_text)
          VALUES (NEW.chat_item_id, \(searchChat("NEW.")), NEW.item_text);
        END;

        CREATE TRIGGER chat_items_search_delete AFTER DELETE ON chat_items
        WHEN OLD.item_deleted = 0
        BEGIN
          INSERT INTO chat_item_search (chat_item_search, rowid, chat, item_text)
          VALUES ('delete', OLD.chat_item_id, \(searchChat("OLD.")), OLD.item_text);
        END;

        -- An edit, a deletion mark (or its undoing): the old entry out, the new one in.
        CREATE TRIGGER chat_items_search_update
        AFTER UPDATE OF item_text, item_deleted, user_id, contact_id ON chat_items
        WHEN OLD.item_text IS NOT NEW.item_text OR (OLD.item_deleted = 0) != (NEW.item_deleted = 0)
          OR OLD.user_id IS NOT NEW.user_id OR OLD.contact_id IS NOT NEW.contact_id
        BEGIN
          INSERT INTO chat_item_search (chat_item_search, rowid, chat, item_text)
          SELECT 'delete', OLD.chat_item_id, \(searchChat("OLD.")), OLD.item_text WHERE OLD.item_deleted = 0;
          INSERT INTO chat_item_search (rowid, chat, item_text)
          SELECT NEW.chat_item_id, \(searchChat("NEW.")), NEW.item_text WHERE NEW.item_deleted = 0;
        END;
        """

    /// The index's terms, one row per occurrence (fts5vocab `instance`), for the connection
    /// (the temp schema: nothing stored). A search asks it for the first term after a word to
    /// learn whether any longer word starts with it: FTS5 reads every posting of a prefix before
    /// its first result (10 ms for a word in a third of a 1M-item index), of a whole word only
    /// the page's. Only `>=` and `LIMIT 1`: it then reads one occurrence.
    static let searchTerms = """
        CREATE VIRTUAL TABLE IF NOT EXISTS temp.chat_item_search_terms
        USING fts5vocab(main, chat_item_search, instance)
        """

    /// The first term at or after `?1` in the index.
    static let termFrom = "SELECT term FROM temp.chat_item_search_terms WHERE term >= ?1 LIMIT 1"

    /// The `chat` column of an item's index entry: `u<user_id> c<contact_id>`. One expression
    /// for indexing and removal, which must give FTS5 the same values.
    private static func searchChat(_ row: String) -> String {
        "'u' || \(row)user_id || coalesce(' c' || \(row)contact_id, '')"
    }

    /// The eleventh migration: a count of the index entries removed since FTS5 last merged its
    /// segments (`chat_item_search_purge.pending`), so the chat core knows when the words of a
    /// deleted or edited message may still lie in an older segment. `ChatStore.purgeSearchIndex`
    /// ('optimize', when the count is not 0) runs as the core stops, and `secure_delete` zeroes
    /// the pages the merge frees: after that no byte of the file holds the words.
    static let chatItemSearchPurge = """
        CREATE TABLE chat_item_search_purge (pending INTEGER NOT NULL);
        INSERT INTO chat_item_search_purge (pending) VALUES (0);

        CREATE TRIGGER chat_items_search_purge_delete AFTER DELETE ON chat_items
        WHEN OLD.item_deleted = 0
        BEGIN
          UPDATE chat_item_search_purge SET pending = pending + 1;
        END;

        CREATE TRIGGER chat_items_search_purge_update AFTER UPDATE OF item_text, item_deleted ON chat_items
        WHEN OLD.item_deleted = 0 AND (OLD.item_text IS NOT NEW.item_text OR NEW.item_deleted != 0)
        BEGIN
          UPDATE chat_item_search_purge SET pending = pending + 1;
        END;
        """
}
