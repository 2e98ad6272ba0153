import Testing

@testable import SimpleXTUI

/// Frames hold exactly what fits: rows clipped and padded, wide characters whole or not at all.
@Suite struct ScreenFrameTests {
    @Test func linesAreClippedAndPaddedToTheFrame() {
        let frame = Frame(
            width: 5, height: 2, lines: [StyledLine("abcdefg"), StyledLine("x"), StyledLine("dropped")])
        #expect(frame.rows == ["abcde", "x    "])
        #expect(frame.cells.count == 10)
        #expect(frame[1, 4] == .blank)
    }

    @Test func aWideCharacterNeverStraddlesTheRightEdge() {
        let style = Style(background: .blue)
        let frame = Frame(width: 5, height: 1, lines: [StyledLine("ab日本", style)])
        // 日 takes cells 2–3; 本 would take 4–5 and becomes a space in its style.
        #expect(frame.rows == ["ab日 "])
        #expect(frame[0, 2] == Cell("日", style, width: 2))
        #expect(frame[0, 3].isContinuation)
        #expect(frame[0, 4] == Cell(" ", style))
    }

    @Test func graphemesKeepTheirCombiningMarksAndZWJAtTheEdge() {
        let frame = Frame(width: 4, height: 2, lines: [StyledLine("abce\u{301}x"), StyledLine("a👩‍👩‍👧b👍")])
        #expect(frame[0, 3].grapheme == "e\u{301}")
        #expect(frame[0, 3].width == 1)
        #expect(frame[1, 1].grapheme == "👩‍👩‍👧")
        #expect(frame[1, 2].isContinuation)
        #expect(frame[1, 3].grapheme == "b")
        #expect(frame.text(row: 1) == "a👩‍👩‍👧b")
    }

    @Test func drawingOverHalfAWideCharacterBlanksTheOtherHalf() {
        var frame = Frame(width: 6, height: 1, lines: [StyledLine("日本語")])
        frame.draw(StyledLine("x"), row: 0, column: 1)  // over 日's right half
        #expect(frame.rows == [" x本語"])
        frame.draw(StyledLine("y"), row: 0, column: 2)  // over 本's left half
        #expect(frame.rows == [" xy 語"])
        #expect(!frame[0, 3].isContinuation)
        frame.draw(StyledLine("漢"), row: 0, column: 3)  // over a blank and 語's left half
        #expect(frame.rows == [" xy漢 "])
        #expect(
            frame.cells.enumerated().allSatisfy { index, cell in
                !cell.isContinuation || (index > 0 && frame.cells[index - 1].width == 2)
            })
    }

    @Test func theCursorIsKeptOnlyInsideTheFrame() {
        var frame = Frame(width: 10, height: 3, lines: [], cursor: ScreenPosition(row: 2, column: 4))
        #expect(frame.cursor == ScreenPosition(row: 2, column: 4))
        frame.cursor = ScreenPosition(row: 3, column: 0)
        #expect(frame.cursor == nil)
        #expect(
            Frame(width: 10, height: 3, lines: [], cursor: ScreenPosition(row: 0, column: 10)).cursor == nil)
    }

    @Test func controlCharactersFromPeersNeverReachACell() {
        let frame = Frame(width: 8, height: 1, lines: [StyledLine("a\u{1B}[2Jb")])
        #expect(frame.cells.allSatisfy { !$0.grapheme.unicodeScalars.contains { $0.value < 0x20 } })
        #expect(frame.rows == ["a\u{FFFD}[2Jb  "])
    }

    @Test func aFrameOfLinesHasTheCellsDrawingThemOnABlankFrameGives() {
        // Styled spans, ASCII and not, wide characters at and across the edge, a tab, marks and
        // zero-width characters, controls, an empty line, a line too long.
        let bold = Style(attributes: .bold)
        var mixed = StyledLine("ab ", bold)
        mixed.append("日本", Style(foreground: .palette(2)))
        mixed.append("\tc\u{301}\u{200B}d\u{1B}", .plain)
        var edge = StyledLine("abc")
        edge.append("日", bold)
        let lines = [
            mixed, edge, StyledLine(), StyledLine(String(repeating: "x", count: 12)), StyledLine("─│👍🏽 ok"),
        ]
        for width in [4, 5, 8, 12] {
            var drawn = Frame(width: width, height: 6)
            for (row, line) in lines.enumerated() { drawn.draw(line, row: row, column: 0) }
            #expect(Frame(width: width, height: 6, lines: lines) == drawn, "at width \(width)")
        }
    }
}
