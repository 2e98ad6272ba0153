import Foundation
import Testing

@testable import SimpleXChat

/// Pages of a chat: the right items, in order, whatever other chats hold between them.
struct ChatStorePagingTests {
    /// Bob's chat of 30 items interleaved with Carol's; returns Bob's item ids oldest first.
    private func interleaved(_ fixture: ChatStoreFixture) throws -> (ChatContact, [Int64]) {
        let bob = try fixture.contact("bob")
        let carol = try fixture.contact("carol")
        var ids: [Int64] = []
        for index in 0..<30 {
            ids.append(try fixture.text(bob, "bob \(index)", sent: index % 3 == 0).itemId)
            try fixture.text(carol, "carol \(index)")
        }
        return (bob, ids)
    }

    /// Scrolling pages are read on a connection of their own (its own small cache): they see
    /// every committed item, an edit and a deletion at once, and inside a transaction what it
    /// wrote so far (read on the main connection, the only one that sees it).
    @Test func scrollingPagesSeeWhatIsCommittedAndWhatTheOpenTransactionWrote() throws {
        let fixture = try ChatStoreFixture()
        let (bob, ids) = try interleaved(fixture)
        let store = fixture.store, user = fixture.user
        let before = try store.items(user, contactId: bob.contactId, .before(id: ids[20], count: 5))
        #expect(before.ids == Array(ids[15..<20]))
        try store.updateContent(before[0], .text("bob 15, edited"))
        try store.deleteItem(before[1])
        let again = try store.items(user, contactId: bob.contactId, .before(id: ids[20], count: 5))
        #expect(again.ids == [ids[14], ids[15], ids[17], ids[18], ids[19]])
        #expect(again.texts[1] == "bob 15, edited")
        let newer = try store.database.transaction { () throws -> [ChatItem] in
            let added = try fixture.text(bob, "bob new, uncommitted")
            let page = try store.items(user, contactId: bob.contactId, .after(id: ids[28], count: 5))
            #expect(page.last?.itemId == added.itemId)
            return page
        }
        #expect(newer.texts.suffix(2) == ["bob 29", "bob new, uncommitted"])
        #expect(
            try store.items(user, contactId: bob.contactId, .after(id: ids[28], count: 5)).ids == newer.ids,
            "and the history connection sees it once committed")
    }

    @Test func lastBeforeAndAfterPagesComeOldestFirst() throws {
        let fixture = try ChatStoreFixture()
        let (bob, ids) = try interleaved(fixture)
        let store = fixture.store, user = fixture.user
        let last = try store.items(user, contactId: bob.contactId, .last(count: 10))
        #expect(last.ids == Array(ids[20..<30]))
        #expect(last.texts == (20..<30).map { "bob \($0)" })
        #expect(
            try store.items(user, contactId: bob.contactId, .before(id: ids[20], count: 10)).ids
                == Array(ids[10..<20]))
        #expect(
            try store.items(user, contactId: bob.contactId, .before(id: ids[3], count: 10)).ids
                == Array(ids[0..<3]))
        #expect(
            try store.items(user, contactId: bob.contactId, .after(id: ids[9], count: 10)).ids
                == Array(ids[10..<20]))
        #expect(
            try store.items(user, contactId: bob.contactId, .after(id: ids[27], count: 10)).ids
                == Array(ids[28..<30]))
        #expect(try store.items(user, contactId: bob.contactId, .after(id: ids[29], count: 10)).isEmpty)
        #expect(try store.items(user, contactId: bob.contactId, .last(count: 0)).isEmpty)
        // The named wrappers the line mode uses page the same way.
        #expect(try store.lastItems(user, bob, count: 5).ids == Array(ids[25..<30]))
        #expect(try store.items(user, bob, before: ids[25], count: 5).ids == Array(ids[20..<25]))
        #expect(try store.items(user, bob, after: ids[4], count: 5).ids == Array(ids[5..<10]))
    }

    @Test func paging_walksTheWholeChatWithoutGapsOrRepeats() throws {
        let fixture = try ChatStoreFixture()
        let (bob, ids) = try interleaved(fixture)
        var seen: [Int64] = []
        var page = try fixture.store.items(fixture.user, contactId: bob.contactId, .last(count: 7))
        while !page.isEmpty {
            seen = page.ids + seen
            page = try fixture.store.items(
                fixture.user, contactId: bob.contactId, .before(id: page[0].itemId, count: 7))
        }
        #expect(seen == ids)
        var forward: [Int64] = []
        var cursor: Int64 = 0
        while true {
            let next = try fixture.store.items(
                fixture.user, contactId: bob.contactId, .after(id: cursor, count: 4))
            guard let newest = next.last else { break }
            forward += next.ids
            cursor = newest.itemId
        }
        #expect(forward == ids)
    }

    @Test func aroundHasTheItemInTheMiddle() throws {
        let fixture = try ChatStoreFixture()
        let (bob, ids) = try interleaved(fixture)
        let around = try fixture.store.items(
            fixture.user, contactId: bob.contactId, .around(id: ids[15], count: 3))
        #expect(around.ids == Array(ids[12...18]))
        // At the ends of the chat the page is shorter on that side.
        #expect(
            try fixture.store.items(fixture.user, contactId: bob.contactId, .around(id: ids[1], count: 3)).ids
                == Array(ids[0...4]))
        #expect(
            try fixture.store.items(fixture.user, contactId: bob.contactId, .around(id: ids[29], count: 3))
                .ids == Array(ids[26...29]))
    }

    @Test func initialPageOpensAtTheFirstUnreadItem() throws {
        let fixture = try ChatStoreFixture()
        let (bob, ids) = try interleaved(fixture)
        try fixture.store.markRead(fixture.user, bob)
        #expect(
            try fixture.store.items(fixture.user, contactId: bob.contactId, .initial(count: 4)).ids
                == Array(ids[26..<30]))
        // Items 10 and 11 marked unread again: the chat opens around item 10.
        try fixture.store.markUnread(fixture.user, contactId: bob.contactId, itemIds: [ids[10], ids[11]])
        #expect(
            try fixture.store.items(fixture.user, contactId: bob.contactId, .initial(count: 4)).ids
                == Array(ids[6...14]))
    }

    @Test func contentFilterReturnsOnlyThatTypeInPageOrder() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let carol = try fixture.contact("carol")
        var images: [Int64] = []
        var files: [Int64] = []
        for index in 0..<12 {
            switch index % 4 {
            case 0: images.append(try fixture.item(bob, SampleContent.image).itemId)
            case 1: files.append(try fixture.item(bob, SampleContent.file, sent: true).itemId)
            case 2: try fixture.item(bob, SampleContent.link)
            default: try fixture.text(bob, "text \(index)")
            }
            try fixture.item(carol, SampleContent.image)
        }
        let store = fixture.store, user = fixture.user
        let lastImages = try store.items(user, contactId: bob.contactId, .last(count: 2), filter: .images)
        #expect(lastImages.ids == Array(images.suffix(2)))
        #expect(lastImages.allSatisfy { $0.content == SampleContent.image })
        #expect(
            try store.items(user, contactId: bob.contactId, .before(id: images[2], count: 5), filter: .images)
                .ids == Array(images[0..<2]))
        #expect(
            try store.items(user, contactId: bob.contactId, .after(id: 0, count: 10), filter: .files).ids
                == files)
        #expect(try store.items(user, contactId: bob.contactId, .last(count: 10), filter: .links).count == 3)
        #expect(try store.items(user, contactId: bob.contactId, .last(count: 10), filter: .voice).isEmpty)
        // An edit that changes the type moves the item between filters.
        let edited = try store.item(id: files[0])
        try store.updateContent(edited, SampleContent.voice)
        #expect(
            try store.items(user, contactId: bob.contactId, .last(count: 10), filter: .voice).ids == [
                files[0]
            ])
        #expect(
            try store.items(user, contactId: bob.contactId, .last(count: 10), filter: .files).ids
                == Array(files[1...]))
    }

    @Test func pageItemsCarryTheirReactionsQuotesAndTimers() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let first = try fixture.text(bob, "first")
        let second = try fixture.text(bob, "second", sent: true)
        let third = try fixture.text(bob, "third")
        try fixture.store.setReaction(first, emoji: "👍", byUser: true, add: true)
        try fixture.store.setReaction(first, emoji: "❤️", byUser: false, add: true)
        try fixture.store.setReaction(third, emoji: "😂", byUser: false, add: true)
        _ = try fixture.store.setTimed(second, ttl: 60, startNow: true)
        let page = try fixture.store.items(fixture.user, contactId: bob.contactId, .last(count: 10))
        #expect(
            page.map(\.reactions) == [
                [ChatItemReaction(emoji: "👍", byUser: true), ChatItemReaction(emoji: "❤️", byUser: false)], [],
                [ChatItemReaction(emoji: "😂", byUser: false)],
            ])
        #expect(page[1].timed == ChatItemTimed(ttl: 60, deleteAt: fixture.clock.now.addingTimeInterval(60)))
        #expect(page[0].timed == nil)
        // A single item read by id agrees with the page.
        #expect(try fixture.store.item(id: first.itemId) == page[0])
    }

    /// Text items skip the JSON parse; the result must equal parsing, whatever the text holds.
    @Test(arguments: [
        "", "plain", "quote \" and \\ backslash", #"","type":"text"}"#, #"{"text":"x","type":"text"}"#,
        "emoji 😀\n new line",
    ])
    func textContentReadsAsParsed(text: String) throws {
        let json = ChatStore.json(.text(text))
        #expect(ChatStore.content(json: json, text: text) == ChatStore.content(json))
        #expect(ChatStore.content(json: json, text: text) == .text(text))
        // Other types never take the shortcut.
        for content in [
            SampleContent.file, SampleContent.image, SampleContent.link,
            MsgContent.unknown(type: "poll", text: text, json: ["type": "poll", "text": .string(text)]),
        ] {
            #expect(ChatStore.content(json: ChatStore.json(content), text: content.text) == content)
        }
    }

    @Test func anotherUsersChatIsNotReadable() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        try fixture.text(bob, "hello")
        let stranger = ChatUser(
            userId: fixture.user.userId + 1, profile: fixture.user.profile, localDisplayName: "eve")
        #expect(try fixture.store.items(stranger, contactId: bob.contactId, .last(count: 10)).isEmpty)
        #expect(try fixture.store.search(stranger, contactId: nil, text: "hello", count: 10).isEmpty)
    }
}
