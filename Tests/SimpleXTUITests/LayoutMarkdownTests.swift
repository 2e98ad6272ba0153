import SimpleXChat
import Testing

@testable import SimpleXTUI

/// Message text in cells: inline formats as styles, blocks as indented lines and cards.
@Suite struct LayoutMarkdownTests {
    func layout(terminal: Bool = true, reveal: Bool = false, highlight: String? = nil) -> MarkdownLayout {
        MarkdownLayout(theme: .terminal, revealSecrets: reveal, highlight: highlight, terminal: terminal)
    }

    func lines(_ text: String, width: Int = 40, terminal: Bool = true) -> [StyledLine] {
        layout(terminal: terminal).lines(.init(text), width: width)
    }

    func read(_ text: String, width: Int = 40, terminal: Bool = true) -> [String] {
        lines(text, width: width, terminal: terminal).map(\.text)
    }

    func style(of word: String, in line: StyledLine) -> Style? {
        line.spans.first { $0.text.contains(word) }?.style
    }

    @Test func inlineFormatsBecomeStylesWithoutTheirDelimiters() throws {
        let line = try #require(lines("*bold* _it_ ~gone~ `code` !1 red!").first)
        #expect(line.text == "bold it gone code red")
        #expect(style(of: "bold", in: line)?.attributes.contains(.bold) == true)
        #expect(style(of: "it", in: line)?.attributes.contains(.italic) == true)
        #expect(style(of: "gone", in: line)?.attributes.contains(.strikethrough) == true)
        #expect(style(of: "code", in: line)?.foreground == Theme.terminal.code)
        #expect(style(of: "red", in: line)?.foreground == .red)
    }

    @Test func secretsAreBlocksOfTheSameWidthUntilRevealed() {
        #expect(read("pin #12 34# ok") == ["pin ░░ ░░ ok"])
        #expect(read("#日本#") == ["░░░░"])
        #expect(
            layout(reveal: true).lines(.init("pin #12 34# ok"), width: 40).map(\.text) == ["pin 12 34 ok"])
    }

    @Test func linksAreUnderlinedWithTheirOSC8Target() throws {
        let line = try #require(lines("see example.com and [docs](https://docs.example.org/a)").first)
        #expect(line.text == "see example.com and docs")
        #expect(style(of: "example.com", in: line)?.link == "https://example.com")
        #expect(style(of: "example.com", in: line)?.attributes.contains(.underline) == true)
        #expect(style(of: "docs", in: line)?.link == "https://docs.example.org/a")
        let mention = try #require(lines("hi @alice").first)
        #expect(
            style(of: "@alice", in: mention) == Style(foreground: Theme.terminal.mention, attributes: .bold))
    }

    @Test func searchMatchesAreReversed() throws {
        let line = try #require(layout(highlight: "LO").lines(.init("hello world"), width: 40).first)
        #expect(line.text == "hello world")
        #expect(style(of: "lo", in: line)?.attributes.contains(.reverse) == true)
        #expect(style(of: "hel", in: line)?.attributes.contains(.reverse) == false)
    }

    @Test func headingsAreBoldAndListsIndented() {
        let text = lines("# Title\n- one\n- two words that wrap here\n  - nested")
        #expect(
            read("# Title\n- one\n- two words that wrap\n  - nested", width: 18) == [
                "Title", "• one", "• two words that", "  wrap", "  ◦ nested",
            ])
        #expect(text[0].spans.allSatisfy { $0.style.attributes.contains(.bold) })
        let numbered = read((1...10).map { "\($0). item" }.joined(separator: "\n"))
        #expect(numbered.first == " 1. item")
        #expect(numbered.last == "10. item")
    }

    @Test func quotesHaveABar() {
        #expect(read("> quoted\n> more\n\nafter") == ["▌ quoted", "▌ more", "", "after"])
    }

    @Test func codeBlocksAreCardsThatKeepIndentation() {
        let code = read("text\n```\nlet x = 1\n  indented\n```")
        #expect(code == ["text", "", " let x = 1  ", "   indented "])
        // Long code lines wrap with their spaces; the card stays within the width.
        let narrow = lines("```\n    0123456789abcdef\n```", width: 12)
        #expect(narrow.map(\.text) == ["     012345 ", " 6789abcdef "])
        #expect(narrow.allSatisfy { $0.width == 12 })
    }

    @Test func tablesAlignColumnsByDisplayWidth() {
        let table = read("| a | b |\n|---|--:|\n| 日本 | 1 |\n| x | 22 |")
        #expect(table == [" a    │  b ", " ─────┼─── ", " 日本 │  1 ", " x    │ 22 "])
        // Too wide: the widest column gives up cells and its cut cells end with an ellipsis.
        let narrow = lines("| name | note |\n|---|---|\n| alice | a very long note |", width: 16)
        #expect(narrow.allSatisfy { $0.width <= 16 })
        #expect(narrow.map(\.text)[2] == " alice │ a ver… ")
    }

    @Test func rulesAreAsWideAsTheWidestBlock() {
        #expect(
            read("text\n\n---\n\nmore text here") == ["text", "", "──────────────", "", "more text here"])
    }

    @Test(arguments: [(1, 1), (2, 1), (4, 1), (5, 2), (8, 3)])
    func typedEmptyLinesAddAThirdOfALineEachInTerminalRows(empty: Int, blank: Int) {
        let text = "a" + String(repeating: "\n", count: empty + 1) + "b"
        #expect(read(text) == ["a"] + Array(repeating: "", count: blank) + ["b"])
        // Classic bubbles keep one line per empty line.
        #expect(read(text, terminal: false) == ["a"] + Array(repeating: "", count: empty) + ["b"])
    }

    @Test func textOverTheMarkupLimitIsLinesOfInlineMarkdown() {
        let source = (0..<2100).map { "# line \($0)\n" }.joined()
        let text = ChatViewItem.MessageText(source + "\nend")
        let hasBlocks = text.hasBlocks
        #expect(!hasBlocks)
        let drawn = layout().lines(text, width: 40).map(\.text)
        #expect(drawn.first == "# line 0")  // no heading: drawn as typed
        #expect(drawn.count == 2102)  // one full line per empty line
    }
}
