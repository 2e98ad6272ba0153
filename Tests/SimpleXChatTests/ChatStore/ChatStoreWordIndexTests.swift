import Foundation
import Testing

@testable import SimpleXChat

/// The word index behind search (`chat_item_search`, FTS5): kept in step with every change of an
/// item's text, holding nothing of deleted items, and answering what users type.
struct ChatStoreWordIndexTests {
    /// Terms of the index as FTS5 itself lists them (fts5vocab), with the rows holding each.
    private func indexedTerms(_ fixture: ChatStoreFixture) throws -> [String: Int] {
        let database = fixture.store.database
        try database.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_vocab USING fts5vocab(main, chat_item_search, 'row')"
        )
        var terms: [String: Int] = [:]
        for row in try database.fetchAll("SELECT term, doc FROM temp.search_vocab") {
            terms[try row["term"] as String] = try row["doc"] as Int
        }
        return terms
    }

    private func found(_ fixture: ChatStoreFixture, _ text: String, in contact: ChatContact? = nil) throws
        -> [Int64]
    {
        try fixture.store.search(fixture.user, contactId: contact?.contactId, text: text, count: 50).ids
    }

    @Test func theIndexKeepsNoCopyOfTheText() throws {
        let fixture = try ChatStoreFixture()
        let tables = try fixture.store.database.fetchAll(
            "SELECT name FROM sqlite_master WHERE name LIKE 'chat_item_search%' ORDER BY name"
        ).map { try $0["name"] as String }
        // Contentless: no _content table, only the index's own segments, sizes and settings.
        #expect(
            tables == [
                "chat_item_search", "chat_item_search_config", "chat_item_search_data",
                "chat_item_search_docsize", "chat_item_search_idx",
                "chat_item_search_purge",  // a count of removed entries, no text
            ])
    }

    @Test func anEditReindexesTheItem() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let item = try fixture.text(bob, "meet at noon", sent: true)
        try fixture.text(bob, "meet me later")
        try fixture.store.updateContent(item, .text("meet at quarter past five"))
        #expect(try found(fixture, "noon", in: bob).isEmpty)
        #expect(try found(fixture, "quarter", in: bob) == [item.itemId])
        #expect(try found(fixture, "meet", in: bob).count == 2)
        let terms = try indexedTerms(fixture)
        #expect(terms["noon"] == nil)
        #expect(terms["quarter"] == 1 && terms["meet"] == 2)
    }

    @Test func deletedItemsLeaveNoWordInTheIndex() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let carol = try fixture.contact("carol")
        let marked = try fixture.text(bob, "marked aardvark")
        let deleted = try fixture.text(bob, "deleted for me bandicoot")
        let disappearing = try fixture.text(bob, "disappearing chinchilla")
        try fixture.text(carol, "cleared dromedary")
        try fixture.text(carol, "cleared echidna too")
        let kept = try fixture.text(bob, "kept for ferret")
        for word in ["aardvark", "bandicoot", "chinchilla", "dromedary", "echidna", "ferret"] {
            #expect(try indexedTerms(fixture)[word] == 1, "\(word)")
        }

        try fixture.store.markDeleted(marked)
        try fixture.store.deleteItem(deleted)
        _ = try fixture.store.setTimed(disappearing, ttl: 30, startNow: true)
        fixture.clock.advance(by: 31)
        #expect(try fixture.store.deleteExpiredItems(fixture.user).ids == [disappearing.itemId])
        try fixture.store.clearChat(fixture.user, carol)

        let terms = try indexedTerms(fixture)
        for word in ["aardvark", "bandicoot", "chinchilla", "dromedary", "echidna", "marked", "cleared"] {
            #expect(terms[word] == nil, "\(word) is still indexed")
            #expect(try found(fixture, word).isEmpty, "\(word) is still found")
        }
        #expect(terms["ferret"] == 1)
        // The marked item is still in the chat (the views show it as deleted), yet not found.
        #expect(
            try fixture.store.items(fixture.user, contactId: bob.contactId, .last(count: 10)).ids.contains(
                marked.itemId))
        #expect(try found(fixture, "for") == [kept.itemId])
        // The index has one entry per item not deleted (FTS5's own count, from its docsize table).
        let entries = try fixture.store.database.fetchValue(
            Int.self, "SELECT count(*) FROM chat_item_search_docsize")
        #expect(entries == 1)
    }

    /// FTS5's delete only marks the words gone; their bytes stay in the file until the index's
    /// segments are merged. The purge merges them when something was removed, and it runs as
    /// the store closes (the core stopping): then no byte of the database holds the words.
    @Test func theWordsOfADeletedMessageLeaveTheFileWhenTheStoreCloses() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let path = fixture.directory.appending("chat.db")
        func fileHolds(_ word: String) throws -> Bool {
            try fixture.store.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            return bytes.range(of: Data(word.utf8)) != nil
        }
        for index in 0..<20 { try fixture.text(bob, "filler message \(index)") }
        let secret = try fixture.text(bob, "the okapiwhisper plan")
        let edited = try fixture.text(bob, "meet at noon", sent: true)
        for index in 0..<20 { try fixture.text(bob, "more filler \(index)") }
        #expect(try fixture.store.purgeSearchIndex() == false, "nothing was removed yet")

        try fixture.store.deleteItem(secret)
        try fixture.store.updateContent(edited, .text("meet at five"))
        #expect(try found(fixture, "okapiwhisper").isEmpty)
        #expect(try fileHolds("okapiwhisper"), "FTS5 keeps the bytes until a merge")
        #expect(try fixture.store.purgeSearchIndex())
        #expect(try !fileHolds("okapiwhisper"))
        #expect(try found(fixture, "five") == [edited.itemId], "the index still finds what is there")
        #expect(try fixture.store.purgeSearchIndex() == false, "once is enough")

        // Closing purges what was removed since.
        let gone = try fixture.text(bob, "about the wombatsecret")
        try fixture.store.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try fixture.store.deleteItem(gone)
        fixture.store.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.range(of: Data("wombatsecret".utf8)) == nil)
        #expect(bytes.range(of: Data("filler".utf8)) != nil, "the file is read as it is")
    }

    @Test func anUpgradedDatabaseIndexesItsHistory() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let old = try (0..<30).map { try fixture.text(bob, "older message \($0) about trains") }
        let deleted = try fixture.text(bob, "older deleted about trains")
        try fixture.store.markDeleted(deleted)
        // The database as the migration before this one left it: no index, no triggers.
        let database = fixture.store.database
        try database.execute(
            """
            DROP TRIGGER chat_items_search_insert; DROP TRIGGER chat_items_search_delete;
            DROP TRIGGER chat_items_search_update; DROP TABLE chat_item_search;
            DROP TRIGGER chat_items_search_purge_delete; DROP TRIGGER chat_items_search_purge_update;
            DROP TABLE chat_item_search_purge;
            DELETE FROM migrations WHERE name IN ('20261206_chat_item_search', '20261207_chat_item_search_purge');
            """)
        try database.migrate(ChatSchema.migrations)
        // Every migration applied (the two put back now after the later ones).
        #expect(Set(try database.appliedMigrations()) == Set(ChatSchema.migrations.map(\.name)))
        #expect(try found(fixture, "trains", in: bob) == old.reversed().ids)
        #expect(try indexedTerms(fixture)["deleted"] == nil)
        // And the triggers follow the upgraded index.
        let new = try fixture.text(bob, "a new one about trains")
        #expect(try found(fixture, "trains", in: bob).first == new.itemId)
    }

    @Test func theLastWordMatchesAsAPrefixAndEveryWordIsRequired() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let hello = try fixture.text(bob, "hello world")
        let help = try fixture.text(bob, "Help me with the world map")
        let helium = try fixture.text(bob, "helium balloons")
        #expect(try found(fixture, "hel") == [helium.itemId, help.itemId, hello.itemId])
        #expect(try found(fixture, "HELLO") == [hello.itemId])
        // Words before the last are whole words; all are needed, in any order.
        #expect(try found(fixture, "world hel") == [help.itemId, hello.itemId])
        #expect(try found(fixture, "map world") == [help.itemId])
        #expect(try found(fixture, "wor hel").isEmpty)
        // A trailing space ends the word: no word is just "hel".
        #expect(try found(fixture, "hel ").isEmpty)
        #expect(try found(fixture, "balloon").count == 1)
        #expect(try found(fixture, "balloon ").isEmpty)
    }

    @Test func aWholeWordTypedLastStillFindsTheLongerWordsStartingWithIt() throws {
        // The last word is looked up whole when no longer word starts with it (cheaper), as a
        // prefix when one does: either way what a prefix finds.
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let carol = try fixture.contact("carol")
        let hello = try fixture.text(bob, "hello there")
        let hellos = try fixture.text(bob, "hellos to all of you")
        let thereby = try fixture.text(carol, "and thereby Hello")
        #expect(try found(fixture, "hello", in: bob) == [hellos.itemId, hello.itemId])
        #expect(try found(fixture, "HELLO") == [thereby.itemId, hellos.itemId, hello.itemId])
        #expect(try found(fixture, "there") == [thereby.itemId, hello.itemId])
        #expect(try found(fixture, "you", in: bob) == [hellos.itemId])
        // In the page query too (`/_get chat ... search=`).
        let page = try fixture.store.items(
            fixture.user, contactId: bob.contactId, .last(count: 10), search: "hello")
        #expect(page.map(\.itemId) == [hello.itemId, hellos.itemId])
        // The longer word gone, the word alone.
        try fixture.store.deleteItem(hellos)
        #expect(try found(fixture, "hello", in: bob) == [hello.itemId])
        let edited = try fixture.text(bob, "hello")
        try fixture.store.updateContent(edited, .text("hellooo, anyone?"))
        #expect(try found(fixture, "hello", in: bob) == [edited.itemId, hello.itemId])
        // Words outside ASCII keep the prefix lookup (the tokenizer folds them).
        let cafe = try fixture.text(bob, "Cafés open")
        #expect(try found(fixture, "café", in: bob) == [cafe.itemId])
    }

    @Test func caseAndLatinDiacriticsDoNotMatter() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let cafe = try fixture.text(bob, "Meet at the Café Größe")
        let naive = try fixture.text(bob, "a naive plan")
        #expect(try found(fixture, "cafe") == [cafe.itemId])
        #expect(try found(fixture, "CAFÉ") == [cafe.itemId])
        #expect(try found(fixture, "größe") == [cafe.itemId])
        #expect(try found(fixture, "naïve") == [naive.itemId])
        // Decomposed (NFD) accents as some keyboards send them.
        #expect(try found(fixture, "cafe\u{301}") == [cafe.itemId])
    }

    @Test(arguments: [
        "\"", "*", "AND", "OR", "NOT", "-", "^", "(", ")", "NEAR(a b)", "item_text:x", "chat:c1", "a\"b",
        "\"hello", "hello*", "+", ":", "{chat}", "''", "\\",
    ])
    func whatUsersTypeIsNeverFTSSyntax(query: String) throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        try fixture.text(bob, "just a line to see")
        // Finds only items holding the text, never everything, and never throws.
        #expect(try found(fixture, query).isEmpty)
        #expect(try found(fixture, query, in: bob).isEmpty)
        #expect(
            try fixture.store.items(fixture.user, contactId: bob.contactId, .last(count: 10), search: query)
                .isEmpty)
    }

    @Test func punctuationAndOperatorWordsFindTheirText() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let quoted = try fixture.text(bob, #"she said "hi" twice"#)
        let star = try fixture.text(bob, "2 * 3 = 6")
        let and = try fixture.text(bob, "this AND that")
        let mail = try fixture.text(bob, "send an e-mail")
        let emoji = try fixture.text(bob, "great 👍")
        let chatWord = try fixture.text(bob, "u1 c1 chat")
        #expect(try found(fixture, "\"") == [quoted.itemId])
        #expect(try found(fixture, "\"hi\"") == [quoted.itemId])
        #expect(try found(fixture, "*") == [star.itemId])
        #expect(try found(fixture, "and") == [and.itemId])
        #expect(try found(fixture, "e-mail") == [mail.itemId])
        #expect(try found(fixture, "send e-mail") == [mail.itemId])
        #expect(try found(fixture, "👍") == [emoji.itemId])
        // The index's chat tokens are not in the text column: only the item that says them.
        #expect(try found(fixture, "c1", in: bob) == [chatWord.itemId])
        #expect(try found(fixture, "u1") == [chatWord.itemId])
    }

    @Test func wordsOfScriptsWithoutSpacesAreFoundInsideTheirRun() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let chinese = try fixture.text(bob, "你好世界")
        let mixed = try fixture.text(bob, "hello 世界 again")
        let japanese = try fixture.text(bob, "東京に行きます")
        #expect(try found(fixture, "世界") == [mixed.itemId, chinese.itemId])
        #expect(try found(fixture, "hello 世界") == [mixed.itemId])
        #expect(try found(fixture, "東京") == [japanese.itemId])
        #expect(try found(fixture, "行き", in: bob) == [japanese.itemId])
    }

    @Test func pagesOfAPrefixSearchCoverEveryMatchOnce() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let carol = try fixture.contact("carol")
        var matches: [Int64] = []
        for index in 0..<60 {
            let item = try fixture.text(bob, index % 3 == 0 ? "report number \(index)" : "other \(index)")
            if index % 3 == 0 { matches.append(item.itemId) }
            try fixture.text(carol, "reports from carol \(index)")
        }
        var all: [Int64] = []
        var before: Int64?
        while true {
            let page = try fixture.store.search(
                fixture.user, contactId: bob.contactId, text: "rep", before: before, count: 7)
            guard let last = page.last else { break }
            all += page.ids
            before = last.itemId
        }
        #expect(all == matches.reversed())
        // Through the chat's pages too (`/_get chat ... search=`), with `after` and `around`.
        let after = try fixture.store.items(
            fixture.user, contactId: bob.contactId, .after(id: matches[2], count: 3), search: "report num")
        #expect(after.ids == Array(matches[3..<6]))
        let around = try fixture.store.items(
            fixture.user, contactId: bob.contactId, .around(id: matches[10], count: 2), search: "rep")
        #expect(around.ids == Array(matches[8...12]))
    }
}
