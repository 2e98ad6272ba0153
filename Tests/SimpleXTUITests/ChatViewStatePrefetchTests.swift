import Foundation
import Synchronization
import Testing

@testable import SimpleXChat
@testable import SimpleXTUI

/// Scrolling back with the next page read ahead: the view asks for it before reaching the
/// window's top, so scrolling never stops at a "loading…" line, and the window stays one
/// unbroken run of items. Items below the screen are counted, not laid out again.
struct ChatViewStatePrefetchTests {
    typealias Scroll = ChatViewStateScrollTests

    /// Items laid out (the layout called), by id.
    final class LayoutCounter: Sendable {
        let laidOut = Mutex<[Int64]>([])
        /// Items taller than the others (five lines).
        let tall = Mutex<Set<Int64>>([])

        var layout: ItemLayouter {
            { [self] item, older, width, state in
                laidOut.withLock { $0.append(item.itemId) }
                let lines = Scroll.layout(item, older, width, state)
                return tall.withLock { $0.contains(item.itemId) }
                    ? lines + [StyledLine("  more"), StyledLine("")] : lines
            }
        }
    }

    /// The window holds consecutive ids, each once.
    static func isUnbroken(_ state: ChatViewState) -> Bool {
        zip(state.items, state.items.dropFirst()).allSatisfy { $1.itemId == $0.itemId + 1 }
    }

    @Test func theOlderPageIsReadAheadSoTheViewNeverReachesTheWindowTop() {
        let newest: Int64 = 10_000
        var state = ChatViewState(
            contact: AppFixture.contact(1, "alice"), items: Scroll.items((newest - 59)...newest))
        var drawn = state.draw(width: 40, height: 30, layout: Scroll.layout)
        var previousTop = Scroll.shown(drawn).first ?? newest
        var asked = 0
        for step in 0..<400 {
            // Between keystrokes: the page asked for by the last draw arrives (the core's worker).
            if drawn.nearTop, state.wantsOlder, let oldest = state.items.first?.itemId {
                state.loading = true
                let page = Scroll.items(max(1, oldest - 60)...max(1, oldest - 1)).filter {
                    $0.itemId < oldest
                }
                state.prependOlder(page, requested: 60, before: oldest)
                asked += 1
                #expect(Self.isUnbroken(state), "a gap or a duplicate after page \(asked)")
            }
            state.scrollBy(15)
            drawn = state.draw(width: 40, height: 30, layout: Scroll.layout)
            #expect(
                !drawn.reachedTop, "step \(step) reached the window's top: the user would wait for the page")
            let shown = Scroll.shown(drawn)
            guard let top = shown.first else {
                Issue.record("an empty screen")
                return
            }
            #expect(
                top < previousTop && previousTop - top <= 5,
                "the screen jumped from #\(previousTop) to #\(top)")
            #expect(shown == Array(top...(top + Int64(shown.count) - 1)), "the screen skipped an item")
            previousTop = top
        }
        #expect(asked > 30)
        #expect(state.items.count <= ChatViewState.windowLimit)
    }

    @Test func aPageThatNoLongerJoinsTheWindowIsDroppedAndAskedForAgain() {
        var state = ChatViewState(contact: AppFixture.contact(1, "alice"), items: Scroll.items(101...160))
        state.loading = true
        // Asked before item 121 (the window has since been opened at 101): it would leave a gap.
        state.prependOlder(Scroll.items(61...120), requested: 60, before: 121)
        #expect(state.items.first?.itemId == 101)
        #expect(state.wantsOlder, "the next draw asks again")
        state.loading = true
        state.prependOlder(Scroll.items(41...100), requested: 60, before: 101)
        #expect(state.items.first?.itemId == 41)
        #expect(Self.isUnbroken(state))
    }

    @Test func scrolledFarBackOnlyTheItemsOnScreenAreLaidOut() {
        let counter = LayoutCounter()
        var state = ChatViewState(contact: AppFixture.contact(1, "alice"), items: Scroll.items(1...600))
        _ = state.draw(width: 40, height: 30, layout: counter.layout)
        // Up 1,500 lines (500 items), a page at a time as PageUp does.
        for _ in 0..<100 {
            state.scrollBy(15)
            _ = state.draw(width: 40, height: 30, layout: counter.layout)
        }
        counter.laidOut.withLock { $0.removeAll() }
        state.scrollBy(15)
        let drawn = state.draw(width: 40, height: 30, layout: counter.layout)
        let laidOut = counter.laidOut.withLock { $0 }
        // The screen's ten items and the one it cuts, not the 500 below it.
        #expect(laidOut.count <= 12, "laid out \(laidOut.count) items")
        #expect(Set(laidOut).isSuperset(of: Scroll.shown(drawn)))
    }

    @Test func anItemChangedBelowTheScreenShowsItsNewLinesWhenScrolledTo() throws {
        let counter = LayoutCounter()
        var state = ChatViewState(contact: AppFixture.contact(1, "alice"), items: Scroll.items(1...100))
        state.scrollBy(90)  // 30 items up: items 61...70 on screen
        _ = state.draw(width: 40, height: 30, layout: counter.layout)
        // Item 95, below the screen, is edited and grows by two lines.
        counter.tall.withLock { _ = $0.insert(95) }
        state.replace(AppFixture.item(95, "edited, longer"))
        counter.laidOut.withLock { $0.removeAll() }
        _ = state.draw(width: 40, height: 30, layout: counter.layout)
        // It and the item below it (which it is above) are laid out again, the rest below counted.
        let laidOut = counter.laidOut.withLock { $0 }
        #expect(laidOut.contains(95) && !laidOut.contains(100))
        // Down to the bottom: every item once, in order, item 95 with its new lines.
        state.scrollBy(-90)
        let drawn = state.draw(width: 40, height: 30, layout: counter.layout)
        let text = drawn.lines.map(\.text)
        #expect(Scroll.shown(drawn).last == 100)
        let at95 = try #require(text.firstIndex(of: "#95"))
        #expect(text[at95 + 3] == "  more")
        #expect(text.filter { $0.hasPrefix("#") } == (92...100).map { "#\($0)" })
    }

    @Test func scrollingPastTheWindowTopStillShowsItsOldestItems() {
        var state = ChatViewState(
            contact: AppFixture.contact(1, "alice"), items: Scroll.items(1...100), hasOlder: false)
        _ = state.draw(width: 40, height: 30, layout: Scroll.layout)
        state.scrollBy(150)
        _ = state.draw(width: 40, height: 30, layout: Scroll.layout)
        // Far past the oldest: the scroll stops at the top, whose items must be laid out.
        state.scrollBy(10_000)
        let drawn = state.draw(width: 40, height: 30, layout: Scroll.layout)
        #expect(Scroll.shown(drawn).first == 1)
        #expect(drawn.reachedTop)
        #expect(Scroll.shown(drawn) == Array(1...10))
    }
}
