import Foundation
import SimpleXChat
import Testing

@testable import SimpleXTUI

/// At every width, with wide and combining characters, no line is wider than the row and
/// right-aligned times end exactly at the row end.
@Suite struct LayoutWidthTests {
    static let texts = [
        "日本語のメッセージはふたつのセルを使います、折り返しても揃う",
        "family 👩‍👩‍👧 and flags 🇩🇪🇯🇵 in a sentence that wraps around",
        "combining: e\u{301}te\u{301} cafe\u{301} na\u{308}ive, all one cell each",
        "| 名前 | 👩‍👩‍👧 |\n|---|---|\n| e\u{301}e\u{301} | 東京 |",
        "```\n    日本語 code 👍 with spaces\n```\nafter *bold* #secret# text",
        "# 見出し\n- 項目 one\n  - nested 👩‍👩‍👧\n> quoted e\u{301}\n\n---",
    ]

    static func items() -> [ChatViewItem] {
        var items = texts.enumerated().map {
            Fixture.text($0.element, from: $0.offset % 2 == 0 ? Fixture.alice : Fixture.me)
        }
        var quoted = Fixture.text("返事 👍", from: Fixture.me)
        quoted.quote = .init(senderName: "you", text: texts[0])
        quoted.reactions = [
            .init(emoji: "👩‍👩‍👧", count: 12, byUser: true), .init(emoji: "❤️", count: 3, byUser: false),
        ]
        quoted.edited = true
        quoted.timedTTL = 86_400
        items.append(quoted)
        var file = Fixture.item(.file(.init("資料 e\u{301}")))
        file.file = .init(
            name: "とても長いファイル名の資料.pdf", size: 12_345_678, status: .sndTransfer, progressBytes: 4_000_000)
        items.append(file)
        var image = Fixture.item(.image(.init(texts[1])), from: Fixture.me)
        image.mediaCells = CellSize(columns: 40, rows: 2)
        items.append(image)
        let preview = LinkPreview(uri: "https://例え.jp/ページ", title: texts[0], description: texts[2], image: "")
        items.append(Fixture.item(.link(.init("https://例え.jp"), preview)))
        items.append(ChatViewItem.event(.preference(name: "消えるメッセージ", value: "1 日"), id: 9, at: Fixture.noon))
        return items
    }

    @Test(arguments: [20, 33, 80, 120])
    func noLineIsWiderThanTheRow(width: Int) {
        for layout in ChatLayout.allCases {
            for theme in Theme.all {
                let settings = ChatViewSettings(layout: layout, theme: theme, userName: "bob")
                for item in Self.items() {
                    for state in [
                        ItemRenderState.plain,
                        ItemRenderState(isCursor: true, selecting: true, revealedSecret: true),
                    ] {
                        let lines = ChatViewLayout.lines(
                            for: item, older: Fixture.olderSameDay(item), width: width, settings: settings,
                            state: state,
                            now: Fixture.now)
                        #expect(!lines.isEmpty)
                        for line in lines {
                            #expect(line.width <= width, "\(layout) \(theme.name) \(width): \(line.text)")
                            #expect(line.width == TextWidth.width(line.text))
                        }
                    }
                }
            }
        }
    }

    @Test(arguments: [20, 33, 80, 120])
    func terminalTimesEndAtTheRowEnd(width: Int) {
        for item in Self.items() {
            let lines = ChatViewLayout.lines(
                for: item, older: Fixture.olderSameDay(item), width: width, settings: Fixture.settings(),
                state: .plain,
                now: Fixture.now)
            let timed = lines.filter { $0.text.hasSuffix("12:00") }
            #expect(timed.count == 1, "\(width): \(lines.map(\.text))")
            #expect(timed.allSatisfy { $0.width == width - 1 }, "\(width): \(timed.map(\.text))")
        }
    }

    @Test func tableColumnsStayAlignedWithWideAndCombiningCharacters() {
        let lines = MarkdownLayout(theme: .terminal, revealSecrets: false, highlight: nil, terminal: true)
            .lines(.init(Self.texts[3]), width: 40)
        #expect(lines.map(\.text) == [" 名前 │ 👩‍👩‍👧   ", " ─────┼───── ", " e\u{301}e\u{301}   │ 東京 "])
        // The separators sit in one column on every row.
        let columns = lines.map { line -> Int in
            var cells = 0
            var found = -1
            TextWidth.forEachGrapheme(line.text) { grapheme, width in
                if found < 0, grapheme == "│" || grapheme == "┼" { found = cells }
                cells += width
            }
            return found
        }
        #expect(Set(columns) == [6])
    }
}
