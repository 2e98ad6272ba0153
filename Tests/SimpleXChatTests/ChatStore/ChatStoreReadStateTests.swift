import Foundation
import Testing
import TestSupport

@testable import SimpleXChat

/// Read and unread per item and per chat, and the chat list built from them.
struct ChatStoreReadStateTests {
    @Test func chatListIsOrderedByActivityWithLastItemsAndUnreadCounts() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let carol = try fixture.contact("carol")
        let dan = try fixture.contact("dan")
        fixture.clock.advance(by: 1)
        let eve = try fixture.contact("eve")  // no items: ordered by when the contact was made
        let carolFirst = try fixture.text(carol, "c1")
        let bobFirst = try fixture.text(bob, "b1")
        try fixture.text(bob, "b2")
        let carolLast = try fixture.text(carol, "c2", sent: true)
        try fixture.store.setReaction(carolLast, emoji: "👍", byUser: false, add: true)
        try fixture.text(dan, "d1")
        try fixture.store.markRead(fixture.user, dan)
        let list = try fixture.store.chatList(fixture.user)
        #expect(list.map(\.contact.localDisplayName) == ["dan", "carol", "bob", "eve"])
        #expect(list.map(\.lastItem?.text) == ["d1", "c2", "b2", nil])
        #expect(list.map(\.unreadCount) == [0, 1, 2, 0])
        #expect(list.map(\.minUnreadItemId) == [0, carolFirst.itemId, bobFirst.itemId, 0])
        #expect(list[1].lastItem?.reactions == [ChatItemReaction(emoji: "👍", byUser: false)])
        #expect(list.allSatisfy { $0.contact.ready })
        #expect(list[3].contact == eve)
        // New activity moves a chat to the top.
        try fixture.text(bob, "b3", sent: true)
        #expect(
            try fixture.store.chatList(fixture.user).map(\.contact.localDisplayName) == [
                "bob", "dan", "carol", "eve",
            ])
    }

    @Test func perItemReadAndUnreadKeepTheCountsRight() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let items = try (0..<6).map { try fixture.text(bob, "m\($0)") }
        try fixture.text(bob, "mine", sent: true)
        let store = fixture.store, user = fixture.user
        #expect(
            try store.markRead(user, contactId: bob.contactId, itemIds: [items[1].itemId, items[3].itemId])
                == 2)
        // Marking read twice, or a sent item, changes nothing.
        #expect(try store.markRead(user, contactId: bob.contactId, itemIds: [items[1].itemId]) == 0)
        let page = try store.items(user, contactId: bob.contactId, .last(count: 10))
        #expect(page.map(\.status) == [.rcvNew, .rcvRead, .rcvNew, .rcvRead, .rcvNew, .rcvNew, .sndSent])
        #expect(try store.chatList(user)[0].unreadCount == 4)
        #expect(try store.markUnread(user, contactId: bob.contactId, itemIds: [items[3].itemId]) == 1)
        #expect(try store.chatList(user)[0].unreadCount == 5)
        #expect(try fixture.countedUnread(bob) == 5)
        // Reading is recorded in the item's status history (item info).
        let info = try store.info(items[3])
        #expect(info.statuses.map(\.status) == [.rcvNew, .rcvRead, .rcvNew])
        #expect(try store.markRead(user, contactId: bob.contactId) == 5)
        #expect(try store.chatList(user)[0].unreadCount == 0)
        #expect(try fixture.countedUnread(bob) == 0)
    }

    @Test func anotherChatsItemsAreNotMarkedRead() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let carol = try fixture.contact("carol")
        let carolItem = try fixture.text(carol, "hi")
        try fixture.text(bob, "hi")
        #expect(
            try fixture.store.markRead(fixture.user, contactId: bob.contactId, itemIds: [carolItem.itemId])
                == 0)
        #expect(try fixture.store.markRead(fixture.user, contactId: bob.contactId) == 1)
        #expect(try fixture.countedUnread(carol) == 1)
    }

    @Test func chatUnreadMarkIsSetAndClearedByReadingTheChat() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        try fixture.text(bob, "hi")
        try fixture.store.markRead(fixture.user, bob)
        try fixture.store.setUnreadChat(contactId: bob.contactId, true)
        var preview = try fixture.store.chatList(fixture.user)[0]
        #expect(preview.unreadChat && preview.unreadCount == 0)
        // Reading single items keeps the user's mark; reading the chat clears it.
        try fixture.store.markRead(fixture.user, contactId: bob.contactId, itemIds: [1])
        #expect(try fixture.store.chatList(fixture.user)[0].unreadChat)
        try fixture.store.markRead(fixture.user, bob)
        preview = try fixture.store.chatList(fixture.user)[0]
        #expect(!preview.unreadChat)
    }

    @Test func deletingItemsMovesTheLastItemBackAndKeepsCounts() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let first = try fixture.text(bob, "first")
        let second = try fixture.text(bob, "second")
        let third = try fixture.text(bob, "third")
        try fixture.store.deleteItem(third)
        var preview = try fixture.store.chatList(fixture.user)[0]
        #expect(preview.lastItem?.itemId == second.itemId)
        #expect(preview.unreadCount == 2)
        try fixture.store.deleteItem(first)
        preview = try fixture.store.chatList(fixture.user)[0]
        #expect(preview.lastItem?.itemId == second.itemId)
        #expect(preview.unreadCount == 1)
        try fixture.store.deleteItem(second)
        preview = try fixture.store.chatList(fixture.user)[0]
        #expect(preview.lastItem == nil && preview.unreadCount == 0)
    }

    /// Counts kept by triggers agree with counting, through any mix of changes.
    @Test func unreadCountsAgreeWithTheItemsAfterManyChanges() throws {
        let fixture = try ChatStoreFixture()
        let contacts = try ["bob", "carol", "dan"].map { try fixture.contact($0) }
        var generator = SystemRandomNumberGenerator()
        var items: [ChatItem] = []
        for step in 0..<300 {
            let contact = contacts[Int.random(in: 0..<3, using: &generator)]
            switch Int.random(in: 0..<10, using: &generator) {
            case 0 where !items.isEmpty:
                try fixture.store.deleteItem(
                    items.remove(at: Int.random(in: 0..<items.count, using: &generator)))
            case 1:
                try fixture.store.markRead(fixture.user, contact)
            case 2 where !items.isEmpty:
                let item = items[Int.random(in: 0..<items.count, using: &generator)]
                try fixture.store.markUnread(fixture.user, contactId: item.contactId, itemIds: [item.itemId])
            default:
                items.append(try fixture.text(contact, "step \(step)", sent: step % 5 == 0))
            }
        }
        for preview in try fixture.store.chatList(fixture.user) {
            #expect(preview.unreadCount == (try fixture.countedUnread(preview.contact)))
            let first = try fixture.store.firstUnread(fixture.user, contactId: preview.contact.contactId)
            #expect(preview.minUnreadItemId == first ?? 0)
            let last = try fixture.store.items(
                fixture.user, contactId: preview.contact.contactId, .last(count: 1)
            ).first
            #expect(preview.lastItem == last)
        }
    }

    @Test func chatsAreNamedByDisplayNameOrAlias() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let carol = try fixture.contact("carol")
        try fixture.store.setAlias(carol, "cc")
        #expect(try fixture.store.contact(named: "bob", fixture.user).contactId == bob.contactId)
        #expect(try fixture.store.contact(named: "cc", fixture.user).contactId == carol.contactId)
        #expect(try fixture.store.contact(named: "carol", fixture.user).contactId == carol.contactId)
        #expect(throws: ChatError.contactNotFound("dan")) {
            try fixture.store.contact(named: "dan", fixture.user)
        }
        try fixture.store.deleteContact(bob)
        #expect(throws: ChatError.contactNotFound("bob")) {
            try fixture.store.contact(named: "bob", fixture.user)
        }
    }

    /// A chat database migrated up to (not including) `migration`, in `directory`.
    private func database(before migration: String, in directory: TemporaryDirectory) throws -> Database {
        let database = try Database(path: directory.appending("chat.db"))
        try database.migrate(Array(ChatSchema.migrations.prefix { $0.name != migration }))
        return database
    }

    /// A database from before 20261202_receipts: its users had receipts sent whatever the
    /// column said, and keep them on; a contact's own setting stays.
    @Test func usersMadeBeforeTheReceiptsSettingKeepSendingReceipts() throws {
        let directory = try TemporaryDirectory("chat-store")
        let database = try database(before: "20261202_receipts", in: directory)
        let user = try database.insertUser("alice")
        let bob = try database.insertContact("bob", userID: user)
        try database.execute("UPDATE contacts SET send_rcpts = 0 WHERE contact_id = ?", arguments: [bob])
        try database.migrate(ChatSchema.migrations)
        #expect(
            try database.fetchValue(Bool.self, "SELECT send_rcpts_contacts FROM users WHERE user_id = ?", arguments: [user])
                == true)
        // A contact's own setting is left as it was.
        #expect(
            try database.fetchValue(Bool?.self, "SELECT send_rcpts FROM contacts WHERE contact_id = ?", arguments: [bob])
                == .some(false))
    }

    /// A database from before 20261201_chat_list_unread gets each chat's oldest unread item, and
    /// the replaced triggers keep it from then on.
    @Test func chatListUnreadMigrationFillsTheOldestUnreadItem() throws {
        let directory = try TemporaryDirectory("chat-store")
        let database = try database(before: "20261201_chat_list_unread", in: directory)
        let user = try database.insertUser("alice")
        let bob = try database.insertContact("bob", userID: user)
        let carol = try database.insertContact("carol", userID: user)
        var bobItems: [Int64] = []
        for index in 0..<4 {
            bobItems.append(
                try database.insertItem(
                    userID: user, contactID: bob, text: "\(index)",
                    status: index == 0 ? "rcv_read" : "rcv_new"))
        }
        _ = try database.insertItem(userID: user, contactID: carol, text: "read", status: "rcv_read")
        try database.migrate(ChatSchema.migrations)
        func oldestUnread(_ contact: Int64) throws -> Int64? {
            try database.fetchValue(
                Int64?.self, "SELECT min_unread_item_id FROM contacts WHERE contact_id = ?",
                arguments: [contact])
                ?? nil
        }
        #expect(try oldestUnread(bob) == bobItems[1])
        #expect(try oldestUnread(carol) == nil)
        try database.execute(
            "UPDATE chat_items SET item_status = 'rcv_read' WHERE chat_item_id = ?", arguments: [bobItems[1]])
        #expect(try oldestUnread(bob) == bobItems[2])
        let newest = try database.insertItem(userID: user, contactID: carol, text: "new")
        #expect(try oldestUnread(carol) == newest)
    }

    /// A database from before the reading migration gets its counts and last items filled in.
    @Test func migrationFillsCountsAndLastItemsOfExistingChats() throws {
        let directory = try TemporaryDirectory("chat-store")
        let path = directory.appending("chat.db")
        let database = try Database(path: path)
        try database.migrate(Array(ChatSchema.migrations.prefix(2)))
        let user = try database.insertUser("alice")
        let bob = try database.insertContact("bob", userID: user)
        var last: Int64 = 0
        for index in 0..<5 {
            last = try database.insertItem(
                userID: user, contactID: bob, text: "\(index)", status: index < 2 ? "rcv_read" : "rcv_new")
        }
        try database.migrate(ChatSchema.migrations)
        let row = try #require(
            try database.fetchOne(
                "SELECT last_chat_item_id, unread_count FROM contacts WHERE contact_id = ?", arguments: [bob])
        )
        #expect(try row["last_chat_item_id"] as Int64 == last)
        #expect(try row["unread_count"] as Int == 3)
        #expect(
            try database.fetchValue(
                Int64.self, "SELECT min_unread_item_id FROM contacts WHERE contact_id = ?", arguments: [bob])
                == last - 2)
        #expect(
            try database.fetchValue(String.self, "SELECT msg_content_tag FROM chat_items LIMIT 1")
                == "rcvMsgContent")
    }
}
