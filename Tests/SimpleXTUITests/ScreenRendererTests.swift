import Testing

@testable import SimpleXTUI

/// The renderer writes only what changed, and the terminal then shows exactly the frame.
@Suite struct ScreenRendererTests {
    static func chatLines(width: Int, height: Int, marker: String = "") -> [StyledLine] {
        (0..<height).map { row in
            var line = StyledLine("\(row):", Style(foreground: .rgb(90, 160, 250), attributes: .bold))
            line.append(" message text for row \(row) 日本 ", .plain)
            line.append(row == height / 2 ? marker : "", Style(background: .palette(236)))
            return line.padded(to: width - 1)
        }
    }

    /// Renders each frame into a model terminal and checks the terminal shows it.
    static func check(_ frames: [Frame], colors: ColorCapability = .truecolor) -> [[UInt8]] {
        var renderer = Renderer(colors: colors)
        var terminal = TerminalModel(width: frames[0].width, height: frames[0].height)
        var outputs: [[UInt8]] = []
        for frame in frames {
            let bytes = renderer.render(frame)
            terminal.apply(bytes)
            outputs.append(bytes)
            #expect(terminal.rows == frame.rows)
            let shown = frame.cells.map { cell in
                var cell = cell
                cell.style.foreground = colors.lower(cell.style.foreground)
                cell.style.background = colors.lower(cell.style.background)
                return cell
            }
            #expect(terminal.cells == shown)
            #expect(terminal.unknown.isEmpty)
            #expect(!terminal.synchronized)
            #expect(terminal.cursorVisible == (frame.cursor != nil))
            if let cursor = frame.cursor {
                #expect((terminal.row, terminal.column) == (cursor.row, cursor.column))
            }
        }
        return outputs
    }

    @Test func anUnchangedFrameCostsNothing() {
        let frame = Frame(width: 80, height: 24, lines: Self.chatLines(width: 80, height: 24))
        let outputs = Self.check([frame, frame])
        #expect(!outputs[0].isEmpty)
        #expect(outputs[1].isEmpty)
    }

    @Test func aOneLineChangeOnALargeScreenStaysWithinItsByteBudget() {
        let cursor = ScreenPosition(row: 59, column: 10)
        let before = Frame(
            width: 200, height: 60, lines: Self.chatLines(width: 200, height: 60, marker: "abc"),
            cursor: cursor)
        let after = Frame(
            width: 200, height: 60, lines: Self.chatLines(width: 200, height: 60, marker: "xyz"),
            cursor: cursor)
        let outputs = Self.check([before, after])
        #expect(outputs[0].count > 10 * outputs[1].count)
        #expect(outputs[1].count <= 200)
        let text = String(decoding: outputs[1], as: UTF8.self)
        #expect(text.contains("xyz"))
        #expect(!text.contains("message"))
        #expect(text.hasPrefix("\u{1B}[?2026h") && text.hasSuffix("\u{1B}[?2026l"))
    }

    @Test func changedCellsAreWrittenInRunsWithCursorMovesBetween() {
        let before = Frame(width: 20, height: 3, lines: [StyledLine("aaaaaaaaaa"), StyledLine("bbbbbbbbbb")])
        let after = Frame(width: 20, height: 3, lines: [StyledLine("aaXYaaaaaZ"), StyledLine("bbbbbbbbbb")])
        let outputs = Self.check([before, after])
        #expect(
            String(decoding: outputs[1], as: UTF8.self)
                == "\u{1B}[?2026h\u{1B}[1;3HXY\u{1B}[1;10HZ\u{1B}[?2026l")
    }

    @Test func styleChangesAloneAreRedrawnAndSGRIsWrittenOnlyWhenTheStyleChanges() {
        let bold = Style(attributes: .bold)
        let before = Frame(width: 10, height: 1, lines: [StyledLine("abcdef")])
        var line = StyledLine("ab")
        line.append("cde", bold)
        line.append("f")
        let after = Frame(width: 10, height: 1, lines: [line])
        let outputs = Self.check([before, after])
        #expect(
            String(decoding: outputs[1], as: UTF8.self)
                == "\u{1B}[?2026h\u{1B}[1;3H\u{1B}[0;1mcde\u{1B}[0m\u{1B}[?2026l")
    }

    @Test func wideCharactersAreWrittenOnceAndReplaceWhatWasUnderThem() {
        let frames = [
            Frame(width: 10, height: 2, lines: [StyledLine("ab日本cd"), StyledLine("x")]),
            Frame(width: 10, height: 2, lines: [StyledLine("ab日xycd"), StyledLine("x")]),
            Frame(width: 10, height: 2, lines: [StyledLine("a語本cd"), StyledLine("😀x")]),
            Frame(width: 10, height: 2, lines: [StyledLine("abcdefghi漢"), StyledLine("👍🏽x")]),
        ]
        let outputs = Self.check(frames)
        #expect(String(decoding: outputs[1], as: UTF8.self).contains("\u{1B}[1;5Hxy"))
    }

    @Test func invalidateRedrawsEverythingFromAClearedScreen() {
        let frame = Frame(width: 30, height: 4, lines: Self.chatLines(width: 30, height: 4))
        var renderer = Renderer(colors: .truecolor)
        let first = renderer.render(frame)
        #expect(renderer.render(frame).isEmpty)
        renderer.invalidate()
        let again = renderer.render(frame)
        #expect(again == first)
        #expect(String(decoding: again, as: UTF8.self).contains("\u{1B}[2J"))
        // A new size redraws everything too.
        let wider = Frame(width: 31, height: 4, lines: Self.chatLines(width: 31, height: 4))
        #expect(String(decoding: renderer.render(wider), as: UTF8.self).contains("\u{1B}[2J"))
    }

    @Test func theCursorIsShownOnlyWhereTheFrameHasOne() {
        let compose = ScreenPosition(row: 3, column: 7)
        let frames = [
            Frame(width: 20, height: 4, lines: [StyledLine("chat")], cursor: compose),
            Frame(
                width: 20, height: 4,
                lines: [StyledLine("chat"), StyledLine(""), StyledLine(""), StyledLine("> hello!")],
                cursor: ScreenPosition(row: 3, column: 8)),
            Frame(width: 20, height: 4, lines: [StyledLine("menu")]),
        ]
        let outputs = Self.check(frames)
        let first = String(decoding: outputs[0], as: UTF8.self)
        #expect(first.hasSuffix("\u{1B}[4;8H\u{1B}[?25h\u{1B}[?2026l"))
        // Typing at the cursor: the terminal's cursor is already there.
        #expect(String(decoding: outputs[1], as: UTF8.self).contains("\u{1B}[4;1H> hello!\u{1B}[?2026l"))
        #expect(String(decoding: outputs[2], as: UTF8.self).contains("\u{1B}[?25l"))
    }

    @Test func linksAreWrittenAsOSC8AndCannotEscapeTheirSequence() {
        var line = StyledLine("see ")
        line.append(
            "site", Style(attributes: .underline, link: "https://example.com/a b\u{1B}]0;pwned\u{07}"))
        line.append(" ok")
        let outputs = Self.check([Frame(width: 20, height: 1, lines: [line])])
        let text = String(decoding: outputs[0], as: UTF8.self)
        #expect(
            text.contains(
                "\u{1B}]8;;https://example.com/a%20b%1B]0;pwned%07\u{1B}\\\u{1B}[0;4msite\u{1B}[1;10H\u{1B}]8;;\u{1B}\\\u{1B}[0mok"
            ))
        #expect(!text.contains("\u{07}"))
    }

    @Test(arguments: [
        (ColorCapability.truecolor, "\u{1B}[0;38;2;90;160;250;48;5;236m"),
        (.palette256, "\u{1B}[0;38;5;75;48;5;236m"),
        (.basic16, "\u{1B}[0;94;40m"),
        (.none, "\u{1B}[0;1m"),
    ])
    func coloursAreLoweredToWhatTheTerminalShows(colors: ColorCapability, sgr: String) {
        let style = Style(
            foreground: .rgb(90, 160, 250), background: .palette(236),
            attributes: colors == .none ? .bold : [])
        let outputs = Self.check(
            [Frame(width: 4, height: 1, lines: [StyledLine("hi", style)])], colors: colors)
        #expect(String(decoding: outputs[0], as: UTF8.self).contains(sgr + "hi"))
    }

    @Test func withoutColoursStylesThatDifferOnlyInColourNeedNoSGR() {
        var line = StyledLine("a", Style(foreground: .red, attributes: .reverse))
        line.append("b", Style(foreground: .green, attributes: .reverse))
        var renderer = Renderer(colors: .none)
        let text = String(decoding: renderer.render(Frame(width: 3, height: 1, lines: [line])), as: UTF8.self)
        #expect(text.contains("\u{1B}[0;7mab\u{1B}[0m"))
    }

    @Test(arguments: [
        (["COLORTERM": "truecolor", "TERM": "xterm-256color"], ColorCapability.truecolor),
        (["COLORTERM": "24bit"], .truecolor),
        (["TERM": "xterm-256color"], .palette256),
        (["TERM": "screen-256color", "COLORTERM": "yes"], .palette256),
        (["TERM": "xterm"], .basic16),
        ([:], .basic16),
        (["TERM": "dumb"], .none),
        (["NO_COLOR": "1", "COLORTERM": "truecolor"], .none),
        (["NO_COLOR": "", "COLORTERM": "truecolor"], .truecolor),
    ])
    func colourCapabilityComesFromTheEnvironment(environment: [String: String], expected: ColorCapability) {
        #expect(ColorCapability.detect(environment: environment) == expected)
    }

    @Test func loweringPicksTheNearestColour() {
        #expect(ColorCapability.palette256.lower(.rgb(255, 0, 0)) == .palette(196))
        #expect(ColorCapability.palette256.lower(.rgb(128, 128, 128)) == .palette(244))
        #expect(ColorCapability.palette256.lower(.rgb(0, 0, 0)) == .palette(16))
        #expect(ColorCapability.basic16.lower(.rgb(250, 10, 10)) == .palette(9))
        #expect(ColorCapability.basic16.lower(.palette(196)) == .palette(9))
        #expect(ColorCapability.basic16.lower(.palette(3)) == .palette(3))
        #expect(ColorCapability.none.lower(.rgb(1, 2, 3)) == .default)
    }

    @Test func manyRandomEditsAlwaysLeaveTheTerminalShowingTheFrame() {
        var generator = SplitMix(seed: 7)
        let pieces = ["a", "bc", "日", "本語", "é", "👍", "🇩🇪", " ", "xyz"]
        let styles = [
            Style.plain, Style(foreground: .red), Style(attributes: .bold), Style(link: "https://x.org"),
        ]
        var frames: [Frame] = []
        for _ in 0..<40 {
            let lines = (0..<6).map { _ in
                var line = StyledLine()
                for _ in 0..<Int(generator.next() % 8) {
                    line.append(
                        pieces[Int(generator.next() % UInt64(pieces.count))],
                        styles[Int(generator.next() % 4)])
                }
                return line
            }
            frames.append(Frame(width: 12, height: 6, lines: lines))
        }
        _ = Self.check(frames)
    }
}

/// A tiny deterministic generator, so a failure reproduces.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
