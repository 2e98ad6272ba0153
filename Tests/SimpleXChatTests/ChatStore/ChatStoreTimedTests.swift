import Foundation
import Testing

@testable import SimpleXChat

/// Disappearing messages: a sent item's timer runs from sending, a received one's from reading;
/// when it ends the item goes, with its history.
struct ChatStoreTimedTests {
    @Test func sentItemsDisappearWhenTheirTimeIsUp() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let keep = try fixture.text(bob, "stays", sent: true)
        let short = try fixture.store.setTimed(
            try fixture.text(bob, "30 s", sent: true), ttl: 30, startNow: true)
        let long = try fixture.store.setTimed(
            try fixture.text(bob, "5 min", sent: true), ttl: 300, startNow: true)
        try fixture.store.setReaction(short, emoji: "👍", byUser: false, add: true)
        try fixture.store.updateContent(short, .text("30 s, edited"))
        #expect(try fixture.store.nextExpiry(fixture.user) == short.timed?.deleteAt)

        // The long one was made a second later, so 28 s more is a second before the short one is due.
        fixture.clock.advance(by: 28)
        #expect(try fixture.store.deleteExpiredItems(fixture.user).isEmpty)
        fixture.clock.advance(by: 1)
        let gone = try fixture.store.deleteExpiredItems(fixture.user)
        #expect(gone.ids == [short.itemId])
        #expect(gone.first?.text == "30 s, edited")
        #expect(
            try fixture.store.items(fixture.user, contactId: bob.contactId, .last(count: 10)).ids == [
                keep.itemId, long.itemId,
            ])
        // Its history and reactions went with it.
        for table in ["chat_item_versions", "chat_item_reactions", "chat_item_status_events"] {
            let left = try fixture.store.database.fetchValue(
                Int.self, "SELECT count(*) FROM \(table) WHERE chat_item_id = ?", arguments: [short.itemId])
            #expect(left == 0, "\(table)")
        }
        #expect(try fixture.store.nextExpiry(fixture.user) == long.timed?.deleteAt)
        fixture.clock.advance(by: 271)
        #expect(try fixture.store.deleteExpiredItems(fixture.user).ids == [long.itemId])
        #expect(try fixture.store.nextExpiry(fixture.user) == nil)
        #expect(try fixture.store.chatList(fixture.user)[0].lastItem?.itemId == keep.itemId)
    }

    @Test func receivedItemsCountDownOnlyOnceRead() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let first = try fixture.store.setTimed(try fixture.text(bob, "one"), ttl: 60, startNow: false)
        let second = try fixture.store.setTimed(try fixture.text(bob, "two"), ttl: 60, startNow: false)
        #expect(first.timed == ChatItemTimed(ttl: 60, deleteAt: nil))
        #expect(try fixture.store.nextExpiry(fixture.user) == nil)

        fixture.clock.advance(by: 600)
        #expect(try fixture.store.deleteExpiredItems(fixture.user).isEmpty)
        try fixture.store.markRead(fixture.user, contactId: bob.contactId, itemIds: [first.itemId])
        let readAt = fixture.clock.now
        #expect(
            try fixture.store.item(id: first.itemId).timed
                == ChatItemTimed(ttl: 60, deleteAt: readAt.addingTimeInterval(60)))
        #expect(try fixture.store.item(id: second.itemId).timed?.deleteAt == nil)

        fixture.clock.advance(by: 30)
        try fixture.store.markRead(fixture.user, bob)  // starts the second one 30 s later
        // Reading again does not restart a running timer.
        try fixture.store.markUnread(fixture.user, contactId: bob.contactId, itemIds: [first.itemId])
        try fixture.store.markRead(fixture.user, bob)
        #expect(try fixture.store.item(id: first.itemId).timed?.deleteAt == readAt.addingTimeInterval(60))

        fixture.clock.advance(by: 30)
        #expect(try fixture.store.deleteExpiredItems(fixture.user).ids == [first.itemId])
        fixture.clock.advance(by: 30)
        #expect(try fixture.store.deleteExpiredItems(fixture.user).ids == [second.itemId])
        #expect(try fixture.store.chatList(fixture.user)[0].lastItem == nil)
    }

    @Test func manyDueItemsAreDeletedInBatches() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        for index in 0..<1_203 {
            _ = try fixture.store.setTimed(
                try fixture.text(bob, "\(index)", sent: true), ttl: 1, startNow: true)
        }
        fixture.clock.advance(by: 2)
        #expect(try fixture.store.deleteExpiredItems(fixture.user).count == 1_203)
        #expect(try fixture.store.items(fixture.user, contactId: bob.contactId, .last(count: 10)).isEmpty)
    }
}

/// "Delete messages after" (SimpleX `chat_item_ttl`): the user's lifetime for every message.
struct ChatStoreItemTTLTests {
    @Test func itemsOlderThanTheLifetimeGoAndNewerOnesStay() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let carol = try fixture.contact("carol")
        #expect(try fixture.store.chatItemTTL(fixture.user) == nil)
        let old = try fixture.text(bob, "two days ago", sent: true)
        let oldCarol = try fixture.text(carol, "also old", sent: false)
        fixture.clock.advance(by: 86_400 + 3_600)
        let recent = try fixture.text(bob, "an hour ago", sent: false)
        fixture.clock.advance(by: 3_600)
        try fixture.store.setChatItemTTL(fixture.user, 86_400)
        #expect(try fixture.store.chatItemTTL(fixture.user) == 86_400)
        let gone = try fixture.store.deleteItems(createdBefore: fixture.clock.now.addingTimeInterval(-86_400), fixture.user)
        #expect(Set(gone.ids) == [old.itemId, oldCarol.itemId])
        #expect(try fixture.store.items(fixture.user, contactId: bob.contactId, .last(count: 10)).ids == [recent.itemId])
        #expect(try fixture.store.items(fixture.user, contactId: carol.contactId, .last(count: 10)).isEmpty)
        try fixture.store.setChatItemTTL(fixture.user, nil)
        #expect(try fixture.store.chatItemTTL(fixture.user) == nil)
    }
}
