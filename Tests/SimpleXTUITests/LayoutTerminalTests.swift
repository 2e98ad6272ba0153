import Foundation
import SimpleXChat
import Testing

@testable import SimpleXTUI

/// A terminal row as a user reads it: `text` at the start padding, `end` ending at the row end
/// (one cell before the screen edge).
func row(_ text: String, _ end: String, width: Int) -> String {
    " " + text + String(repeating: " ", count: width - 2 - TextWidth.width(text) - TextWidth.width(end)) + end
}

/// `text` centred in `width` cells, as separators are.
func centre(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: (width - TextWidth.width(text)) / 2) + text
}

/// Terminal rows (seed 000 §9, docs/tui-chat-layout.md): names, gaps and times in cells.
@Suite struct LayoutTerminalTests {
    let alice = Fixture.alice
    let me = Fixture.me

    @Test func theFirstItemHasTheDateTheNameAndTheTimeAtTheRowEnd() {
        let lines = Fixture.read(Fixture.text("hello"), width: 40)
        #expect(lines == [centre("Today", 40), " alice", row("hello", "12:00", width: 40)])
    }

    @Test func senderNameOncePerRunAndAgainAfterSevenAndAHalfMinutes() {
        let first = Fixture.text("one", at: 0)
        let second = Fixture.text("two", at: 1)
        let late = Fixture.text("three", at: 8.4)
        #expect(Fixture.read(second, older: first) == [row("two", "12:01", width: 40)])
        #expect(ChatViewLayout.terminalItemShowsSender(late, older: second) == false)  // 7.4 minutes after the older item
        let later = Fixture.text("four", at: 9)
        #expect(ChatViewLayout.terminalItemShowsSender(later, older: first))
        #expect(
            Fixture.read(later, older: Fixture.text("x", at: 1.5)) == [
                "", " alice", row("four", "12:09", width: 40),
            ])
    }

    @Test func anotherSenderGetsTheirNameAfterABlankLine() {
        let mine = Fixture.text("hi alice", from: me, at: 0.5)
        let lines = Fixture.read(mine, older: Fixture.text("hello", at: 0))
        #expect(lines == ["", " bob", row("hi alice", "✓✓ 12:00", width: 40)])
        let primary = ChatViewLayout.lines(
            for: mine, older: Fixture.text("hello"), width: 40, settings: Fixture.settings(), state: .plain,
            now: Fixture.now)
        #expect(primary[1].spans.last?.style == Style(foreground: Theme.terminal.primary, attributes: .bold))
    }

    @Test(arguments: [
        // (older, item, blank lines between them): one-line items of one sender within a minute touch.
        ("one", "two", 0.5, 0),
        ("one", "two\nlines", 0.5, 1),  // the item is not one-line
        ("one\nlines", "two", 0.5, 1),  // the older item is not one-line
        ("one", "two", 1.5, 1),  // more than 60 seconds: a large gap
        ("one", "```\ncode\n```", 0.5, 1),  // block markdown is not one-line
    ])
    func rowGap(older: String, item: String, minutes: Double, blank: Int) {
        let olderItem = Fixture.text(older, at: 0)
        let newer = Fixture.text(item, at: minutes)
        #expect(
            ChatViewLayout.terminalRowGap(newer, older: olderItem, timeZone: Fixture.settings().timeZone)
                == blank)
        let lines = Fixture.read(newer, older: olderItem)
        #expect(lines.prefix { $0.isEmpty }.count == blank)
    }

    @Test func reactionsOnTheOlderItemGiveTheNextRowAGap() {
        var older = Fixture.text("one")
        older.reactions = [.init(emoji: "👍", count: 2, byUser: false)]
        #expect(
            Fixture.read(Fixture.text("two", at: 0.5), older: older) == ["", row("two", "12:00", width: 40)])
    }

    @Test func reactionsAreALineOfTextBelowTheItem() {
        var item = Fixture.text("nice")
        item.reactions = [
            .init(emoji: "👍", count: 2, byUser: false), .init(emoji: "❤️", count: 1, byUser: true),
        ]
        #expect(Fixture.body(item) == [" alice", row("nice", "12:00", width: 40), " 👍 2  ❤️ 1"])
        // Narrow rows wrap between reactions, never inside one.
        #expect(Fixture.body(item, width: 9).suffix(2) == [" 👍 2", " ❤️ 1"])
    }

    @Test func theTimeGoesOnItsOwnLineWhenTheLastLineIsFull() {
        let wrapped = Fixture.body(Fixture.text("a message that fills the whole row here"), width: 30)
        #expect(
            wrapped == [" alice", " a message that fills the", row("whole row here", "12:00", width: 30)])
        let full = Fixture.body(Fixture.text("abcdefghijklmnopqrstuvwxyz0"), width: 30)
        #expect(full == [" alice", " abcdefghijklmnopqrstuvwxyz0", row("", "12:00", width: 30)])
    }

    @Test func aCardFirstPutsABlankLineBelowTheName() {
        let code = Fixture.text("```\nlet x = 1\n```")
        #expect(ChatViewLayout.terminalItemStartsWithCard(code))
        #expect(
            Fixture.read(code, older: Fixture.olderSameDay(code)) == [
                "", " alice", "", row(" let x = 1 ", "12:00", width: 40),
            ])
        let emoji = Fixture.text("😀😀")
        #expect(Fixture.body(emoji) == [" alice", "", row("😀😀", "12:00", width: 40)])
        let plain = Fixture.text("plain")
        #expect(!ChatViewLayout.terminalItemStartsWithCard(plain))
    }

    @Test func textBelowAQuoteHasABlankLineAbove() {
        var item = Fixture.text("yes")
        item.quote = .init(senderName: "you", text: "coffee?")
        #expect(ChatViewLayout.terminalTextTopGap(item) == 1)
        #expect(
            Fixture.body(item) == [" alice", "", " ▌ you", " ▌ coffee?", "", row("yes", "12:00", width: 40)])
    }

    @Test func aCardEndingTheItemHasABlankLineBeforeReactions() {
        var item = Fixture.item(.image(.init("")))
        item.mediaCells = CellSize(columns: 14, rows: 1)
        item.reactions = [.init(emoji: "🔥", count: 1, byUser: false)]
        #expect(ChatViewLayout.terminalCardBottomGap(item) == 1)
        #expect(Fixture.body(item) == [" alice", "", row(" [image 14x1] ", "12:00", width: 40), "", " 🔥 1"])
    }

    @Test func mediaBelowAQuoteHasABlankLineAbove() {
        var item = Fixture.item(.voice(.init(""), duration: 75))
        item.quote = .init(senderName: nil, text: "say it")
        #expect(ChatViewLayout.terminalCardTopGap(item) == 1)
        #expect(
            Fixture.body(item) == [
                " alice", "", " ▌ say it", "", row(" ▶ voice message 1:15 ", "12:00", width: 40),
            ])
    }

    @Test func eventsHaveNoSenderAndTheTimeAtTheRowEnd() {
        let event = ChatViewItem.event(.connected, id: 2, at: Fixture.noon)
        #expect(Fixture.body(event) == [row("connected", "12:00", width: 40)])
        #expect(!ChatViewLayout.isOneLine(event))
        let skipped = ChatViewItem.event(.messagesSkipped(3), id: 3, at: Fixture.noon)
        #expect(Fixture.body(skipped) == [row(" 3 skipped message(s) ", "12:00", width: 40)])
    }

    @Test func dateSeparatorsWhenTheDayChanges() {
        let yesterday = Fixture.text("old", at: -24 * 60)
        let today = Fixture.text("new", at: 0)
        let lines = Fixture.read(today, older: yesterday)
        #expect(lines == ["", centre("Today", 40), " alice", row("new", "12:00", width: 40)])
        #expect(
            Fixture.read(yesterday, older: Fixture.text("older", at: -48 * 60)).prefix(2) == [
                "", centre("Yesterday", 40),
            ])
        let lastYear = Fixture.text("x", at: -60 * 24 * 40)
        #expect(Fixture.read(lastYear).first == centre("Sat, 22 Nov 2025", 40))
    }

    @Test func theNewMessagesLineIsAboveTheFirstUnreadItem() {
        let state = ItemRenderState(showsNewMessagesLineAbove: true)
        let lines = Fixture.read(
            Fixture.text("two", at: 0.5), older: Fixture.text("one"), width: 30, state: state)
        #expect(lines == ["──────── new messages ────────", row("two", "12:00", width: 30)])
    }

    @Test func theCursorMarksEveryRowOfTheItemAndSelectionTintsIt() {
        let item = Fixture.text("hi\nthere")
        let lines = Fixture.read(
            item, older: Fixture.olderSameDay(item), state: ItemRenderState(isCursor: true))
        #expect(lines == ["", "▌alice", "▌hi", "▌" + row("there", "12:00", width: 40).dropFirst()])
        let selected = ChatViewLayout.lines(
            for: item, older: Fixture.olderSameDay(item), width: 40, settings: Fixture.settings(),
            state: ItemRenderState(selecting: true, isSelected: true), now: Fixture.now)
        #expect(selected.map { Fixture.trimmed($0.text) }.dropFirst().first == " ● alice")
        #expect(
            selected.dropFirst().allSatisfy {
                $0.width == 40
                    && $0.spans.allSatisfy { $0.style.background == Theme.terminal.selectedBackground }
            })
    }

    @Test func aQuoteBelowAReportHeaderHasABlankLineAbove() {
        var report = Fixture.item(.report(.init("see above"), reason: .content))
        report.quote = .init(senderName: nil, text: "bad words")
        #expect(!ChatViewLayout.terminalItemStartsWithCard(report))
        #expect(
            Fixture.body(report) == [
                " alice", " ⚑ Inappropriate content", "", " ▌ bad words", "",
                row("see above", "12:00", width: 40),
            ])
    }

    @Test func textEndingWithEmptyLinesPutsTheTimeOnItsOwnLine() {
        let item = Fixture.text("one\n\ntwo\n\n")
        #expect(Fixture.body(item) == [" alice", " one", "", " two", "", row("", "12:00", width: 40)])
    }
}
