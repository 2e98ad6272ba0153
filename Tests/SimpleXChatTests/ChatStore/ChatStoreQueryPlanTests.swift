import Foundation
import Testing

@testable import SimpleXChat

/// The scaling argument for reading: each query SEARCHes an index for its page instead of
/// SCANning chat_items (the whole history) or sorting it in a temporary B-tree. Checked as the app
/// runs (no statistics) and after ANALYZE, with which the planner would prefer a scan if the index
/// did not fit the query.
struct ChatStoreQueryPlanTests {
    struct Query: CustomTestStringConvertible, Sendable {
        let name: String
        let sql: String
        let arguments: [(any DatabaseValueConvertible & Sendable)?]
        /// Indexes the query may search (`INTEGER PRIMARY KEY` for the rowid), with what the
        /// plan must say it looks up.
        let indexes: [String]
        /// A few rows sorted for ORDER BY are fine where the rows are a page's reactions.
        var sortAllowed = false
        /// Whether the plan must start with the word index (`chat_item_search`), not a scan.
        var usesWordIndex = false
        var testDescription: String { name }
    }

    static let pageArguments: [(any DatabaseValueConvertible & Sendable)?] = [1, 2, 150, 50, nil, nil]
    /// A page's arguments with a search: the FTS5 expression and a LIKE pattern.
    static let searchArguments: [(any DatabaseValueConvertible & Sendable)?] = [
        1, 2, 150, 50, nil, #"chat : "c2" AND item_text : ("hel"*)"#, "%o%",
    ]

    static let queries: [Query] = {
        var queries: [Query] = []
        for direction in [ChatSchema.Reading.Direction.before, .after] {
            for tag in [false, true] {
                for search in ChatSchema.Reading.Search.allCases {
                    let indexes =
                        search == .index
                        ? ["i USING INTEGER PRIMARY KEY (rowid=?)"]
                        : [tag ? "idx_chat_items_contact_content_tag" : "idx_chat_items_contact_page"]
                    queries.append(
                        Query(
                            name: "page \(direction) tag=\(tag) search=\(search)",
                            sql: ChatStore.pageSQL(
                                direction, tag: tag, search: search, literalWords: search == .none ? 0 : 1),
                            arguments: search == .none
                                ? pageArguments.prefix(tag ? 5 : 4).map { $0 } : searchArguments,
                            indexes: indexes, usesWordIndex: search == .index))
                }
            }
        }
        let selectRead = "SELECT chat_item_id "
        return queries + [
            // With one user ANALYZE shows user_id selects nothing, and SQLite walks the ids
            // backwards instead of the (user_id, id) index: the same order, the same pages.
            Query(
                name: "search all chats by word", sql: ChatSchema.Reading.searchAll(.index, literalWords: 1),
                arguments: searchArguments, indexes: ["i USING INTEGER PRIMARY KEY (rowid=?)"],
                usesWordIndex: true),
            Query(
                name: "search all chats for punctuation",
                sql: ChatSchema.Reading.searchAll(.scan, literalWords: 1),
                arguments: searchArguments,
                indexes: ["idx_chat_items_user_item", "INTEGER PRIMARY KEY (rowid<?)"]),
            Query(
                name: "reactions of a page", sql: ChatSchema.Reading.reactions, arguments: [nil],
                indexes: ["sqlite_autoindex_chat_item_reactions_1 (chat_item_id=?)"], sortAllowed: true),
            Query(
                name: "chat list", sql: ChatSchema.Reading.chatList, arguments: [1],
                indexes: ["idx_contacts_chat_ts (user_id=?)"]),
            Query(
                name: "chat list connection", sql: ChatSchema.Reading.chatList, arguments: [1],
                indexes: ["COVERING INDEX idx_connections_contact_state (contact_id=?)"]),
            Query(
                name: "chat list last item", sql: ChatSchema.Reading.chatList, arguments: [1],
                indexes: ["i USING INTEGER PRIMARY KEY (rowid=?)"]),
            Query(
                name: "unread items of a chat",
                sql: selectRead + ChatStore.receivedItems(status: "rcv_new", byIds: false),
                arguments: [1, 2],
                indexes: ["idx_chat_items_contact_unread (user_id=? AND contact_id=?)"]),
            // Each id is one lookup, by the primary key or in the unread index, which holds the id.
            Query(
                name: "unread items by id",
                sql: selectRead + ChatStore.receivedItems(status: "rcv_new", byIds: true),
                arguments: [1, 2, nil],
                indexes: [
                    "INTEGER PRIMARY KEY (rowid=?)",
                    "idx_chat_items_contact_unread (user_id=? AND contact_id=? AND chat_item_id=?",
                ]),
            Query(
                name: "first unread", sql: ChatSchema.Paging.firstUnread, arguments: [1, 2],
                indexes: ["idx_chat_items_contact_unread"]),
            Query(
                name: "expired items", sql: ChatSchema.Reading.expired, arguments: [1, 1_000, 500],
                indexes: ["idx_chat_items_timed_delete_at"]),
            Query(
                name: "next expiry", sql: ChatSchema.Reading.nextExpiry, arguments: [1],
                indexes: ["idx_chat_items_timed_delete_at"]),
            Query(
                name: "contact by name or alias", sql: ChatStore.contactIdsNamed, arguments: [1, nil],
                indexes: ["sqlite_autoindex_contacts_1 (user_id=? AND local_display_name=?)"]),
            Query(
                name: "contact by alias", sql: ChatStore.contactIdsNamed, arguments: [1, nil],
                indexes: ["idx_contacts_local_alias (user_id=? AND local_alias=?)"]),
            // The triggers' queries for a chat's oldest unread item, and its last after a delete.
            Query(
                name: "oldest unread after a read or delete",
                sql: "SELECT min(chat_item_id) FROM chat_items WHERE user_id = ?1 AND contact_id = ?2 AND item_status = 'rcv_new'",
                arguments: [1, 2], indexes: ["idx_chat_items_contact_unread (user_id=? AND contact_id=?)"]),
            Query(
                name: "last item after a delete",
                sql: "SELECT max(chat_item_id) FROM chat_items WHERE user_id = ?1 AND contact_id = ?2",
                arguments: [1, 2], indexes: ["idx_chat_items_contact_page"]),
        ]
    }()

    @Test(arguments: queries)
    func readingQuerySearchesItsIndex(query: Query) throws {
        let fixture = try ChatStoreFixture()
        let contacts = try ["bob", "carol", "dan"].map { try fixture.contact($0) }
        let kinds: [MsgContent] = [
            .text("hello"), SampleContent.image, SampleContent.file, SampleContent.link,
        ]
        for index in 0..<400 {
            let item = try fixture.item(contacts[index % 3], kinds[index % 4], sent: index % 2 == 0)
            if index % 7 == 0 { _ = try fixture.store.setTimed(item, ttl: 60, startNow: true) }
            if index % 11 == 0 { try fixture.store.setReaction(item, emoji: "👍", byUser: false, add: true) }
        }
        let database = fixture.store.database
        let arguments = StatementArguments(query.arguments.map { $0 as (any DatabaseValueConvertible)? })
        for index in 0..<400 where index % 5 == 0 {
            try fixture.text(contacts[index % 3], "hello there \(index)")
        }
        #expect(try database.makeStatement(query.sql).parameterCount == query.arguments.count)
        for analyzed in [false, true] {
            if analyzed { try database.execute("ANALYZE") }
            let plan = try database.fetchAll("EXPLAIN QUERY PLAN " + query.sql, arguments: arguments).map {
                try $0["detail"] as String
            }
            let text = plan.joined(separator: "\n")
            let searched = plan.contains { line in
                line.hasPrefix("SEARCH") && query.indexes.contains { line.contains($0) }
            }
            #expect(searched, "analyzed=\(analyzed)\n\(text)")
            // The word index answers the MATCH and the rowid range (FTS5's plan string: `M`
            // and the column for MATCH, `<` or `>` for the range) and consumes ORDER BY (no
            // TEMP B-TREE, checked below): the page is the first matches it yields.
            if query.usesWordIndex {
                let first = plan.first ?? ""
                #expect(
                    first.hasPrefix("SCAN s VIRTUAL TABLE INDEX") && first.contains(":M")
                        && (first.contains("<") || first.contains(">")),
                    "analyzed=\(analyzed)\n\(text)")
            }
            // Only json_each, the list of a page's ids, may be scanned.
            #expect(
                !plan.contains { $0.hasPrefix("SCAN") && !$0.contains("VIRTUAL TABLE") },
                "analyzed=\(analyzed)\n\(text)")
            if !query.sortAllowed { #expect(!text.contains("TEMP B-TREE"), "analyzed=\(analyzed)\n\(text)") }
        }
    }

    /// A received text writes no entry to an index nothing reads it through: each index keyed by
    /// the chat costs a page write per message when messages from many chats commit together.
    /// Texts stay out of the content-filter index, received items out of the agent-id index,
    /// and an item leaves the unread index when it is read; the queries still find everything.
    @Test func receivedTextsStayOutOfTheIndexesNothingReadsThemThrough() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let texts = try (0..<5).map { try fixture.text(bob, "hello \($0)") }
        let image = try fixture.item(bob, SampleContent.image)
        fixture.clock.advance(by: 1)
        let sent = try fixture.store.insertItem(
            fixture.user, contact: bob, direction: .sent, content: .text("hi"), status: .sndNew,
            sharedMsgId: nil, agentMsgID: 7)
        func entries(_ index: String) throws -> Int {
            try #require(
                try fixture.store.database.fetchValue(
                    Int.self, "SELECT sum(ncell) FROM dbstat WHERE name = ?", arguments: [index]))
        }
        #expect(try entries("idx_chat_items_contact_content_tag") == 1)
        #expect(try entries("idx_chat_items_agent_msg_id") == 1)
        #expect(try entries("idx_chat_items_contact_unread") == 6)
        #expect(try entries("idx_chat_items_contact_page") == 7)

        // Found through them all the same.
        let images = try fixture.store.items(fixture.user, contactId: bob.contactId, .last(count: 10), filter: .images)
        #expect(images.map(\.itemId) == [image.itemId])
        #expect(try fixture.store.item(bob, agentMsgID: 7)?.itemId == sent.itemId)
        #expect(try fixture.store.chatList(fixture.user).first?.unreadCount == 6)
        try fixture.store.markRead(fixture.user, contactId: bob.contactId, itemIds: [texts[0].itemId])
        #expect(try entries("idx_chat_items_contact_unread") == 5)
        let preview = try fixture.store.chatList(fixture.user).first
        #expect(preview?.unreadCount == 5 && preview?.minUnreadItemId == texts[1].itemId)
        try fixture.store.markRead(fixture.user, bob)
        #expect(try entries("idx_chat_items_contact_unread") == 0)
        #expect(try fixture.store.chatList(fixture.user).first?.unreadCount == 0)
    }
}
