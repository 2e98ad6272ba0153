import Testing

@testable import SimpleXTUI

/// Widths come from utf8proc's Unicode data: every kind of character keeps columns aligned.
@Suite struct TextWidthTests {
    @Test(arguments: [
        ("hello", 5),
        ("日本語", 6),  // CJK: two cells each
        ("😀", 2),  // emoji presentation
        ("❤️", 2),  // text-default emoji with VS16
        ("👩‍👩‍👧", 2),  // a ZWJ family is one grapheme
        ("🇩🇪", 2),  // a flag: two regional indicators
        ("é", 1),  // e + combining acute
        ("ﾊ", 1),  // halfwidth katakana
        ("a\u{200B}b", 2),  // zero-width space attaches to nothing
    ])
    func widthsByGraphemeCluster(text: String, width: Int) {
        #expect(TextWidth.width(text) == width)
        #expect(StyledLine(text).width == width)
    }

    @Test func controlCharactersNeverReachTheTerminal() {
        let line = StyledLine("a\u{1B}[2Jb\u{9B}c\u{07}")
        #expect(!line.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
        #expect(line.text == "a\u{FFFD}[2Jb\u{FFFD}c\u{FFFD}")
        #expect(line.width == 9)
    }

    @Test func graphemesSplitAsUsersSeeThem() {
        #expect(TextWidth.graphemes("a👩‍👩‍👧é").map(\.text) == ["a", "👩‍👩‍👧", "é"])
    }

    @Test func asciiBesideOtherCharactersInOneTextSplitsTheSame() {
        // ASCII runs in a text that is not all ASCII (a rule line, an accent, an emoji): each
        // character its own grapheme, and a mark still joins the letter before it.
        let graphemes = TextWidth.graphemes("ab─cd e\u{301}f 👍🏽g\u{301}h")
        #expect(
            graphemes.map(\.text) == [
                "a", "b", "─", "c", "d", " ", "e\u{301}", "f", " ", "👍🏽", "g\u{301}", "h",
            ])
        #expect(graphemes.map(\.width) == [1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1])
    }

    @Test func truncationNeverSplitsAWideCharacter() {
        let line = StyledLine("ab日本語")
        #expect(line.truncated(to: 5).text == "ab日…")
        #expect(line.truncated(to: 5).width == 5)
        #expect(line.truncated(to: 6).text == "ab日…")
        #expect(line.truncated(to: 8).text == "ab日本語")
        #expect(line.padded(to: 10).width == 10)
    }

    @Test func wrappingBreaksAtSpacesAndInsideLongWords() {
        let lines = StyledLine.wrap([TextRun("the quick brown fox jumps")], width: 10)
        #expect(lines.map(\.text) == ["the quick", "brown fox", "jumps"])
        let long = StyledLine.wrap([TextRun("abcdefghijkl")], width: 5)
        #expect(long.map(\.text) == ["abcde", "fghij", "kl"])
        let wide = StyledLine.wrap([TextRun("日本語日本語")], width: 5)
        #expect(wide.map(\.text) == ["日本", "語日", "本語"])
        #expect(wide.allSatisfy { $0.width <= 5 })
        let breaks = StyledLine.wrap([TextRun("one\n\ntwo")], width: 10)
        #expect(breaks.map(\.text) == ["one", "", "two"])
    }

    @Test func stylesSurviveWrapping() {
        let bold = Style(attributes: .bold)
        let lines = StyledLine.wrap([TextRun("plain "), TextRun("bold words here", bold)], width: 11)
        #expect(lines.map(\.text) == ["plain bold", "words here"])
        #expect(lines[1].spans.allSatisfy { $0.style == bold })
    }
}
