import Foundation
import Testing

@testable import SimpleXChat
@testable import SimpleXTUI

/// The chat list's rows kept between frames draw exactly what a fresh layout draws, and follow
/// every change of a chat.
@Suite struct ChatListRowCacheTests {
    @Test func cachedRowsAreTheRowsAndFollowChanges() {
        let cache = ChatListRowCache()
        var list = ChatListView(entries: [
            AppFixture.entry(AppFixture.contact(1, "alice"), last: AppFixture.item(1, "hello"), unread: 2),
            AppFixture.entry(AppFixture.contact(2, "bob"), last: AppFixture.item(2, "hi", contact: 2)),
        ])
        let style = ChatListStyle()
        let fresh = list.lines(width: 30, height: 20, style: style, now: AppFixture.now)
        #expect(list.lines(width: 30, height: 20, style: style, now: AppFixture.now, cache: cache) == fresh)
        #expect(list.lines(width: 30, height: 20, style: style, now: AppFixture.now, cache: cache) == fresh)
        // A new last message, another selection, another width: drawn anew.
        list.entries[1].lastItem = AppFixture.item(3, "a new message", contact: 2)
        list.move(1)
        let changed = list.lines(width: 30, height: 20, style: style, now: AppFixture.now, cache: cache)
        #expect(changed == list.lines(width: 30, height: 20, style: style, now: AppFixture.now))
        #expect(changed.contains { $0.text.contains("a new message") })
        #expect(changed.contains { $0.text.hasPrefix("▌bob") })
        #expect(list.lines(width: 24, height: 20, style: style, now: AppFixture.now, cache: cache).allSatisfy { $0.width <= 24 })
    }
}
