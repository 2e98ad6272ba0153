import Foundation
import SimpleXChat
import TestSupport
import Testing

@Suite struct ChatSchemaTests {
    @Test func openChatDatabaseCreatesTheSchema() throws {
        let dir = try TemporaryDirectory("store")
        let path = dir.appending("simplex_v1_chat.db")
        let database = try ChatSchema.openChatDatabase(path: path)
        #expect(try database.appliedMigrations() == ChatSchema.migrations.map(\.name))
        #expect(try database.appliedMigrations().first == "20261129_initial")
        let tables = try Set(
            database.fetchAll("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").map { try $0["name"] as String })
        #expect(tables.isSuperset(of: ["chat_items", "connections", "contact_profiles", "contacts", "migrations", "users"]))
        #expect(try permissions(of: path) == 0o600)
    }

    @Test func usersHaveUniqueNamesAndAtMostOneIsActive() throws {
        let dir = try TemporaryDirectory("store")
        let database = try ChatSchema.openChatDatabase(path: dir.appending("chat.db"))
        let alice = try database.insertUser("alice")
        let profileID = try database.fetchValue(
            Int64?.self, "SELECT contact_profile_id FROM users WHERE user_id = ?", arguments: [alice])
        #expect(profileID != nil)

        let sameName = try #require(throws: DatabaseError.self) {
            try database.insertUser("alice", active: false)
        }
        #expect(sameName.message == "UNIQUE constraint failed: users.local_display_name")
        let secondActive = try #require(throws: DatabaseError.self) {
            try database.insertUser("bob", active: true)
        }
        #expect(secondActive.extendedResultCode == .constraintUnique)
        _ = try database.insertUser("bob", active: false)
        #expect(try database.count("users") == 2)
        #expect(try database.count("contact_profiles") == 2)
    }

    @Test func contactNamesAreUniquePerUserOnly() throws {
        let dir = try TemporaryDirectory("store")
        let database = try ChatSchema.openChatDatabase(path: dir.appending("chat.db"))
        let alice = try database.insertUser("alice")
        let bob = try database.insertUser("bob", active: false)
        _ = try database.insertContact("carol", userID: alice)
        _ = try database.insertContact("carol", userID: bob)
        let duplicate = try #require(throws: DatabaseError.self) {
            try database.execute(
                "INSERT INTO contacts (user_id, local_display_name, created_at, updated_at) VALUES (?, ?, ?, ?)",
                arguments: [alice, "carol", testNow, testNow])
        }
        #expect(
            duplicate.message == "UNIQUE constraint failed: contacts.user_id, contacts.local_display_name")
    }

    @Test func foreignKeysRejectItemsOfAnUnknownContact() throws {
        let dir = try TemporaryDirectory("store")
        let database = try ChatSchema.openChatDatabase(path: dir.appending("chat.db"))
        let alice = try database.insertUser("alice")
        let error = try #require(throws: DatabaseError.self) {
            try database.insertItem(userID: alice, contactID: 404, text: "hi")
        }
        #expect(error.extendedResultCode == .constraintForeignKey)
    }

    @Test func deletingAContactDeletesItsItemsAndConnectionOnly() throws {
        let dir = try TemporaryDirectory("store")
        let database = try ChatSchema.openChatDatabase(path: dir.appending("chat.db"))
        let alice = try database.insertUser("alice")
        let bob = try database.insertContact("bob", userID: alice)
        let carol = try database.insertContact("carol", userID: alice)
        for index in 0..<3 {
            _ = try database.insertItem(userID: alice, contactID: bob, text: "to bob \(index)")
            _ = try database.insertItem(userID: alice, contactID: carol, text: "to carol \(index)")
        }
        try database.execute("DELETE FROM contacts WHERE contact_id = ?", arguments: [bob])
        #expect(
            try database.fetchAll("SELECT DISTINCT contact_id FROM chat_items").map { try $0[0] as Int64 }
                == [carol])
        #expect(
            try database.fetchAll("SELECT contact_id FROM connections").map { try $0[0] as Int64 } == [carol])
    }

    @Test func deletingAUserDeletesEverythingItOwns() throws {
        let dir = try TemporaryDirectory("store")
        let database = try ChatSchema.openChatDatabase(path: dir.appending("chat.db"))
        let alice = try database.insertUser("alice")
        let bob = try database.insertContact("bob", userID: alice)
        _ = try database.insertItem(userID: alice, contactID: bob, text: "hi", sharedMsgID: [1, 2, 3])
        try database.execute("DELETE FROM users WHERE user_id = ?", arguments: [alice])
        for table in ["users", "contact_profiles", "contacts", "connections", "chat_items"] {
            #expect(try database.count(table) == 0, "\(table)")
        }
    }

    @Test func pagingReturnsTheRightItemsInOrder() throws {
        let dir = try TemporaryDirectory("store")
        let database = try ChatSchema.openChatDatabase(path: dir.appending("chat.db"))
        let alice = try database.insertUser("alice")
        let bob = try database.insertContact("bob", userID: alice)
        let carol = try database.insertContact("carol", userID: alice)
        var bobItems: [Int64] = []
        try database.transaction {
            for index in 0..<120 {
                bobItems.append(
                    try database.insertItem(
                        userID: alice, contactID: bob, text: "\(index)",
                        status: index < 110 ? "rcv_read" : "rcv_new",
                        sharedMsgID: [UInt8(index)]))
                _ = try database.insertItem(userID: alice, contactID: carol, text: "other")
            }
        }
        func ids(_ sql: String, _ arguments: StatementArguments) throws -> [Int64] {
            try database.fetchAll(sql, arguments: arguments).map { try $0["chat_item_id"] }
        }
        let chat: [String: (any DatabaseValueConvertible)?] = [
            "user_id": alice, "contact_id": bob, "count": 50,
        ]
        let last = try ids(ChatSchema.Paging.last, StatementArguments(named: chat))
        #expect(last == Array(bobItems.suffix(50).reversed()))
        let before = try ids(
            ChatSchema.Paging.before,
            StatementArguments(named: chat.merging(["chat_item_id": last.last]) { $1 }))
        #expect(before == Array(bobItems[20..<70].reversed()))
        let after = try ids(
            ChatSchema.Paging.after,
            StatementArguments(named: chat.merging(["chat_item_id": bobItems[9]]) { $1 }))
        #expect(after == Array(bobItems[10..<60]))

        let chatOnly: [String: (any DatabaseValueConvertible)?] = ["user_id": alice, "contact_id": bob]
        #expect(
            try database.fetchValue(
                Int.self, ChatSchema.Paging.unreadCount, arguments: .init(named: chatOnly)) == 10)
        #expect(try ids(ChatSchema.Paging.firstUnread, .init(named: chatOnly)) == [bobItems[110]])
        let shared = chatOnly.merging(["shared_msg_id": [UInt8(7)]]) { $1 }
        #expect(try ids(ChatSchema.Paging.bySharedMsgId, .init(named: shared)) == [bobItems[7]])
    }

    /// Deleting a contact cascades to its items and connections: each found through an index
    /// that leads with contact_id, not by scanning every chat's items.
    @Test func aContactsItemsAndConnectionsAreFoundByIndexForTheCascade() throws {
        let dir = try TemporaryDirectory("store")
        let database = try ChatSchema.openChatDatabase(path: dir.appending("chat.db"))
        for analyzed in [false, true] {
            if analyzed { try database.execute("ANALYZE") }
            for (sql, index) in [
                ("DELETE FROM chat_items WHERE contact_id = ?", "idx_chat_items_contact_page (contact_id=?)"),
                ("DELETE FROM connections WHERE contact_id = ?", "idx_connections_contact_state (contact_id=?)"),
            ] {
                let plan = try database.fetchAll("EXPLAIN QUERY PLAN " + sql, arguments: [1])
                    .map { try $0.decode(String.self, at: 3) }.joined(separator: "; ")
                #expect(plan.hasPrefix("SEARCH") && plan.contains(index), "\(sql): \(plan)")
            }
        }
        let indexes = try database.fetchAll("SELECT name FROM sqlite_master WHERE type = 'index'")
            .map { try $0.decode(String.self, at: 0) }
        #expect(!indexes.contains("idx_chat_items_contact_id") && !indexes.contains("idx_connections_contact_id"))
    }

    /// The plan is the scaling argument: a SEARCH on the index reads only the page, a SCAN of
    /// chat_items or a temporary sort would read the whole history of every chat.
    @Test(arguments: [
        (ChatSchema.Paging.last, "idx_chat_items_contact_page"),
        (ChatSchema.Paging.before, "idx_chat_items_contact_page"),
        (ChatSchema.Paging.after, "idx_chat_items_contact_page"),
        (ChatSchema.Paging.unreadCount, "idx_chat_items_contact_unread"),
        (ChatSchema.Paging.firstUnread, "idx_chat_items_contact_unread"),
        (ChatSchema.Paging.bySharedMsgId, "idx_chat_items_contact_shared_msg_id"),
    ])
    func chatQueriesSearchTheirIndex(sql: String, index: String) throws {
        let dir = try TemporaryDirectory("store")
        let database = try ChatSchema.openChatDatabase(path: dir.appending("chat.db"))
        let alice = try database.insertUser("alice")
        let bob = try database.insertContact("bob", userID: alice)
        let carol = try database.insertContact("carol", userID: alice)
        try database.transaction {
            for index in 0..<300 {
                _ = try database.insertItem(
                    userID: alice, contactID: index % 3 == 0 ? bob : carol, text: "\(index)",
                    status: index % 7 == 0 ? "rcv_new" : "rcv_read", sharedMsgID: [UInt8(index % 256), 1])
            }
        }
        let arguments: [String: (any DatabaseValueConvertible)?] = [
            "user_id": alice, "contact_id": bob, "count": 50, "chat_item_id": 150,
            "shared_msg_id": [UInt8(3), 1],
        ]
        let parameters = try database.makeStatement(sql).parameterCount
        let used = arguments.filter { sql.contains(":\($0.key)") }
        #expect(used.count == parameters)

        // Checked as the app runs (no statistics) and after ANALYZE, which would let the
        // planner prefer a scan if the index did not fit the query.
        for analyzed in [false, true] {
            if analyzed { try database.execute("ANALYZE") }
            let plan = try database.fetchAll(
                "EXPLAIN QUERY PLAN " + sql, arguments: StatementArguments(named: used)
            )
            .map { try $0["detail"] as String }
            let text = plan.joined(separator: "\n")
            #expect(
                plan.contains { $0.hasPrefix("SEARCH chat_items USING") && $0.contains("INDEX \(index) (") },
                "\(text)")
            #expect(!text.contains("SCAN chat_items"), "\(text)")
            #expect(!text.contains("TEMP B-TREE"), "\(text)")
        }
    }
}
