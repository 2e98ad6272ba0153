import Foundation
import SimpleXChat
import Testing

@testable import SimpleXTUI

/// Classic bubbles: received on the left, sent on the right, at most 3/4 of the row.
@Suite struct LayoutClassicTests {
    let filled = Fixture.settings(.classic, theme: .dark)
    let boxed = Fixture.settings(.classic, theme: .terminal)

    @Test func receivedBubblesStartAtTheLeftWithTheTimeInside() throws {
        let lines = ChatViewLayout.lines(
            for: Fixture.text("hello"), older: nil, width: 40, settings: filled, state: .plain,
            now: Fixture.now)
        #expect(lines.map(\.text) == [centre("Today", 40), "  hello 12:00 "])
        let bubble = try #require(lines.last)
        #expect(bubble.spans.dropFirst().allSatisfy { $0.style.background == Theme.dark.receivedBubble })
    }

    @Test func sentBubblesEndAtTheRowEnd() {
        let lines = Fixture.body(Fixture.text("hi there", from: Fixture.me), settings: filled)
        #expect(lines == [String(repeating: " ", count: 20) + " hi there ✓✓ 12:00 "])
        #expect(lines.allSatisfy { TextWidth.width($0) == 39 })
    }

    @Test func bubblesAreAtMostThreeQuartersOfTheRow() {
        let long = Fixture.text(
            "the quick brown fox jumps over the lazy dog again and again", from: Fixture.me)
        let lines = Fixture.body(long, width: 60, settings: filled)
        let widest =
            lines.map { TextWidth.width(Fixture.trimmed($0).drop { $0 == " " }.description) }.max() ?? 0
        #expect(widest <= ChatViewLayout.bubbleMaxWidth(58))
        #expect(
            lines.map { Fixture.trimmed($0).trimmingCharacters(in: .whitespaces) } == [
                "the quick brown fox jumps over the lazy", "dog again and again            ✓✓ 12:00",  // the time at the bubble's end
            ])
    }

    @Test func terminalThemeBubblesAreBoxes() {
        let lines = Fixture.body(Fixture.text("hello"), settings: boxed)
        #expect(lines == [" ╭─────────────╮", " │ hello 12:00 │", " ╰─────────────╯"])
    }

    @Test func eventsAreCentredWithoutABubble() {
        let event = ChatViewItem.event(.connected, id: 1, at: Fixture.noon)
        #expect(Fixture.body(event, settings: filled) == [" " + centre("connected 12:00", 38)])
    }

    @Test func emojiOnlyMessagesHaveNoBubble() {
        #expect(Fixture.body(Fixture.text("🎉"), settings: filled) == [" 🎉 12:00"])
    }

    @Test func aLargeGapBetweenBubblesIsABlankLine() {
        let older = Fixture.text("one")
        #expect(
            Fixture.read(Fixture.text("two", at: 0.5), older: older, settings: filled) == ["  two 12:00 "])
        #expect(
            Fixture.read(Fixture.text("two", from: Fixture.me, at: 0.5), older: older, settings: filled).first
                == "")
    }
}
