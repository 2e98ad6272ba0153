import Foundation
import Testing

@testable import SimpleXChat

/// Search in one chat and in all chats, a page at a time.
struct ChatStoreSearchTests {
    @Test func searchInOneChatPagesNewestFirst() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let carol = try fixture.contact("carol")
        var matches: [Int64] = []
        for index in 0..<25 {
            let item = try fixture.text(bob, index % 2 == 0 ? "Lunch at \(index)?" : "no \(index)")
            if index % 2 == 0 { matches.append(item.itemId) }
            try fixture.text(carol, "lunch \(index)")
        }
        let store = fixture.store, user = fixture.user
        let first = try store.search(user, contactId: bob.contactId, text: "LUNCH", count: 5)
        #expect(first.ids == Array(matches.suffix(5).reversed()))
        var all: [Int64] = []
        var page = first
        while let oldest = page.last {
            all += page.ids
            page = try store.search(
                user, contactId: bob.contactId, text: "lunch", before: oldest.itemId, count: 5)
        }
        #expect(all == Array(matches.reversed()))
    }

    @Test func searchInAllChatsPagesAcrossChats() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let carol = try fixture.contact("carol")
        var matches: [(Int64, Int64)] = []
        for index in 0..<20 {
            let contact = index % 3 == 0 ? carol : bob
            let item = try fixture.text(
                contact, index % 4 == 0 ? "see the report \(index)" : "other \(index)")
            if index % 4 == 0 { matches.append((item.itemId, contact.contactId)) }
        }
        let store = fixture.store, user = fixture.user
        let first = try store.search(user, contactId: nil, text: "report", count: 3)
        #expect(first.ids == matches.suffix(3).reversed().map(\.0))
        #expect(first.map(\.contactId) == matches.suffix(3).reversed().map(\.1))
        let rest = try store.search(user, contactId: nil, text: "report", before: first[2].itemId, count: 10)
        #expect(rest.ids == matches.prefix(2).reversed().map(\.0))
    }

    @Test func searchSkipsDeletedItemsAndTakesWildcardsLiterally() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let percent = try fixture.text(bob, "100% sure")
        try fixture.text(bob, "1000 sure")
        let underscore = try fixture.text(bob, "snake_case")
        try fixture.text(bob, "snakeXcase")
        let backslash = try fixture.text(bob, #"C:\temp"#)
        try fixture.text(bob, "C:temp")
        let deleted = try fixture.text(bob, "100% gone")
        try fixture.store.markDeleted(deleted)
        let store = fixture.store, user = fixture.user
        #expect(
            try store.search(user, contactId: bob.contactId, text: "0%", count: 10).ids == [percent.itemId])
        #expect(
            try store.search(user, contactId: bob.contactId, text: "e_c", count: 10).ids == [
                underscore.itemId
            ])
        #expect(
            try store.search(user, contactId: bob.contactId, text: #":\t"#, count: 10).ids == [
                backslash.itemId
            ])
        #expect(try store.search(user, contactId: nil, text: "gone", count: 10).isEmpty)
    }

    @Test func searchFindsEditedTextNotTheOldOne() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let item = try fixture.text(bob, "meet at noon", sent: true)
        try fixture.store.updateContent(item, .text("meet at five"))
        #expect(
            try fixture.store.search(fixture.user, contactId: bob.contactId, text: "noon", count: 10).isEmpty)
        #expect(
            try fixture.store.search(fixture.user, contactId: bob.contactId, text: "five", count: 10).ids == [
                item.itemId
            ])
    }
}
