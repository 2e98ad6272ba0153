import Foundation
import Testing

@testable import SimpleXChat
@testable import SimpleXTUI

/// Scrolling through a chat longer than the item window: pages come and go at the window's ends,
/// and what the user reads stays where it is.
struct ChatViewStateScrollTests {
    /// Three lines per item, `#id` on the first: a window of 600 items is 1,800 lines.
    static let layout: ItemLayouter = { item, _, _, _ in
        [StyledLine("#\(item.itemId)"), StyledLine("  text"), StyledLine("")]
    }

    static func items(_ ids: ClosedRange<Int64>) -> [ChatItem] { ids.map { AppFixture.item($0, "m\($0)") } }

    /// The item ids on screen, top to bottom.
    static func shown(_ drawn: ChatViewState.Drawn) -> [Int64] {
        drawn.lines.compactMap { line in line.text.hasPrefix("#") ? Int64(line.text.dropFirst()) : nil }
    }

    /// Scrolls up `height / 2` lines at a time like PageUp, loading the page the view asks for
    /// (from ids 1...newest); returns the ids shown after each step.
    static func pageUp(
        _ state: inout ChatViewState, steps: Int, height: Int, newest: Int64
    ) -> [[Int64]] {
        var shown: [[Int64]] = []
        for _ in 0..<steps {
            state.scrollBy(height / 2)
            var drawn = state.draw(width: 40, height: height, layout: layout)
            var loads = 0
            while drawn.reachedTop, state.wantsOlder, let oldest = state.items.first?.itemId {
                let page = items(max(1, oldest - 60)...max(1, oldest - 1)).filter { $0.itemId < oldest }
                state.loading = true
                state.prependOlder(page, requested: 60)
                drawn = state.draw(width: 40, height: height, layout: layout)
                loads += 1
                // One step never needs more than a page or two.
                guard loads < 3 else { return shown + [[-1]] }
            }
            shown.append(Self.shown(drawn))
        }
        return shown
    }

    @Test func pagingBackPastTheWindowNeitherSkipsItemsNorRunsAway() {
        let newest: Int64 = 10_000
        var state = ChatViewState(
            contact: AppFixture.contact(1, "alice"), items: Self.items((newest - 59)...newest))
        _ = state.draw(width: 40, height: 30, layout: Self.layout)
        // 400 steps of 15 lines: 6,000 lines, 2,000 items, three windows' worth.
        let shown = Self.pageUp(&state, steps: 400, height: 30, newest: newest)
        #expect(!shown.contains([-1]), "a step loaded page after page")
        // A step moves 15 lines (5 items) back, less where it meets the window's top before the
        // next page comes: consecutive screens overlap, no item is skipped.
        for (before, after) in zip(shown, shown.dropFirst()) {
            guard let top = before.first, let newTop = after.first else {
                Issue.record("an empty screen")
                return
            }
            #expect((1...5).contains(top - newTop), "the screen jumped from #\(top) to #\(newTop)")
        }
        #expect((shown.last?.first ?? newest) <= newest - 1_500, "paging back hardly moved")
        #expect(state.items.count <= ChatViewState.windowLimit)
        #expect(state.hasNewer)
    }

    @Test func pagingForwardAgainShowsTheItemsInOrder() {
        let newest: Int64 = 10_000
        var state = ChatViewState(
            contact: AppFixture.contact(1, "alice"), items: Self.items((newest - 59)...newest))
        _ = state.draw(width: 40, height: 30, layout: Self.layout)
        _ = Self.pageUp(&state, steps: 300, height: 30, newest: newest)
        var previousTop = Self.shown(state.draw(width: 40, height: 30, layout: Self.layout)).first ?? 0
        for _ in 0..<300 {
            state.scrollBy(-15)
            var drawn = state.draw(width: 40, height: 30, layout: Self.layout)
            if drawn.reachedBottom, state.hasNewer, !state.loading, let last = state.items.last?.itemId {
                state.loading = true
                state.appendNewer(
                    last < newest ? Self.items((last + 1)...min(newest, last + 60)) : [], requested: 60)
                drawn = state.draw(width: 40, height: 30, layout: Self.layout)
            }
            guard let top = Self.shown(drawn).first else { break }
            #expect((1...5).contains(top - previousTop), "the screen jumped from #\(previousTop) to #\(top)")
            previousTop = top
            if state.scroll == 0, !state.hasNewer { break }
        }
    }

    @Test func aMessageArrivingWhileScrolledUpLeavesTheScreenAsItWas() {
        var state = ChatViewState(contact: AppFixture.contact(1, "alice"), items: Self.items(1...60))
        state.scrollBy(30)
        let before = Self.shown(state.draw(width: 40, height: 30, layout: Self.layout))
        state.append(AppFixture.item(61, "new"))
        let after = Self.shown(state.draw(width: 40, height: 30, layout: Self.layout))
        #expect(after == before)
        #expect(state.newBelow == 1)
    }
}
