import Foundation
import Testing

@testable import SimpleXChat
@testable import SimpleXTUI

/// The chat view's layout cache.
struct ChatItemLayouterTests {
    static let state = ItemRenderState(
        isCursor: false, selecting: false, isSelected: false, revealedSecret: false, searchHighlight: nil,
        showsNewMessagesLineAbove: false)

    @Test func itemsUsedJustBeforeTheCacheTurnsOverAreNotLaidOutAgain() {
        let layouter = ChatItemLayouter()
        let layout = layouter.layouter(
            settings: ChatViewSettings(timeZone: TimeZone(identifier: "UTC")!), contactName: "alice",
            now: AppFixture.now, fileProgress: [:])
        let count = ChatItemLayouter.capacity + 100
        let items = (1...Int64(count)).map { AppFixture.item($0, "message \($0)") }
        // Scrolling back through a long chat: each item once, the last ones drawn again and again.
        for item in items { _ = layout(item, nil, 80, Self.state) }
        #expect(layouter.layoutCount == count)
        let onScreen = items.suffix(ChatItemLayouter.capacity / 2)
        let lines = onScreen.map { layout($0, nil, 80, Self.state) }
        #expect(layouter.layoutCount == count, "items laid out again after the cache turned over")
        // And what the cache serves is what the layout gives.
        #expect(
            lines.last
                == ChatItemLayouter().layouter(
                    settings: ChatViewSettings(timeZone: TimeZone(identifier: "UTC")!), contactName: "alice",
                    now: AppFixture.now, fileProgress: [:])(items[count - 1], nil, 80, Self.state))
    }

    @Test func anItemParsedAsTheOneAboveAnotherShowsItsEditWhenLaidOut() {
        let layouter = ChatItemLayouter()
        let layout = layouter.layouter(
            settings: ChatViewSettings(timeZone: TimeZone(identifier: "UTC")!), contactName: "alice",
            now: AppFixture.now, fileProgress: [:])
        let first = AppFixture.item(1, "first version")
        _ = layout(AppFixture.item(2, "below it", at: 10), first, 80, Self.state)
        #expect(layout(first, nil, 80, Self.state).contains { $0.text.contains("first version") })
        // Edited after its text was parsed as the item above item 2.
        var edited = first
        edited.content = .text("second version")
        let lines = layout(edited, nil, 80, Self.state)
        #expect(lines.contains { $0.text.contains("second version") })
        #expect(!lines.contains { $0.text.contains("first version") })
    }
}
