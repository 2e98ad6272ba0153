import Testing

@testable import SimpleXTUI

/// Every input form terminals send decodes to the event a user meant, whole or split across reads.
@Suite struct ScreenInputDecoderTests {
    static func decode(_ text: String) -> [InputEvent] {
        var decoder = InputDecoder()
        return decoder.feed(Array(text.utf8)) + decoder.flushPending()
    }

    /// Bytes fed one at a time give the same events as fed at once (only text may come in pieces).
    static func decodeBytewise(_ text: String) -> [InputEvent] {
        var decoder = InputDecoder()
        var events: [InputEvent] = []
        for byte in text.utf8 { events += decoder.feed([byte]) }
        return events + decoder.flushPending()
    }

    @Test(arguments: [
        // Text and control keys
        ("hello", [InputEvent.text("hello")]),
        ("\r", [.key(.enter)]),
        ("\t", [.key(.tab)]),
        ("\u{7F}", [.key(.backspace)]),
        ("\u{08}", [.key(.backspace)]),
        ("\u{01}", [.key(.character("a"), .control)]),
        ("\u{17}", [.key(.character("w"), .control)]),
        ("\u{00}", [.key(.character(" "), .control)]),
        ("a\rb", [.text("a"), .key(.enter), .text("b")]),
        // xterm cursor keys, plain (CSI and SS3) and with modifiers
        ("\u{1B}[A", [.key(.up)]),
        ("\u{1B}[B", [.key(.down)]),
        ("\u{1B}[C", [.key(.right)]),
        ("\u{1B}[D", [.key(.left)]),
        ("\u{1B}OA", [.key(.up)]),
        ("\u{1B}OH", [.key(.home)]),
        ("\u{1B}OF", [.key(.end)]),
        ("\u{1B}[H", [.key(.home)]),
        ("\u{1B}[F", [.key(.end)]),
        ("\u{1B}[1;5A", [.key(.up, .control)]),
        ("\u{1B}[1;2D", [.key(.left, .shift)]),
        ("\u{1B}[1;3C", [.key(.right, .alt)]),
        ("\u{1B}[1;6B", [.key(.down, [.shift, .control])]),
        ("\u{1B}[1;5H", [.key(.home, .control)]),
        ("\u{1B}[Z", [.key(.tab, .shift)]),
        // vt220 keys
        ("\u{1B}[2~", [.key(.insert)]),
        ("\u{1B}[3~", [.key(.delete)]),
        ("\u{1B}[3;5~", [.key(.delete, .control)]),
        ("\u{1B}[5~", [.key(.pageUp)]),
        ("\u{1B}[6~", [.key(.pageDown)]),
        ("\u{1B}[1~", [.key(.home)]),
        ("\u{1B}[4~", [.key(.end)]),
        // Function keys F1–F12
        ("\u{1B}OP", [.key(.function(1))]),
        ("\u{1B}OQ", [.key(.function(2))]),
        ("\u{1B}OR", [.key(.function(3))]),
        ("\u{1B}OS", [.key(.function(4))]),
        ("\u{1B}[1;2P", [.key(.function(1), .shift)]),
        ("\u{1B}[15~", [.key(.function(5))]),
        ("\u{1B}[17~", [.key(.function(6))]),
        ("\u{1B}[18~", [.key(.function(7))]),
        ("\u{1B}[19~", [.key(.function(8))]),
        ("\u{1B}[20~", [.key(.function(9))]),
        ("\u{1B}[21~", [.key(.function(10))]),
        ("\u{1B}[23~", [.key(.function(11))]),
        ("\u{1B}[24;5~", [.key(.function(12), .control)]),
        // Alt+key as an ESC prefix
        ("\u{1B}x", [.key(.character("x"), .alt)]),
        ("\u{1B}X", [.key(.character("X"), .alt)]),
        ("\u{1B}\r", [.key(.enter, .alt)]),
        ("\u{1B}\u{7F}", [.key(.backspace, .alt)]),
        ("\u{1B}\u{01}", [.key(.character("a"), [.control, .alt])]),
        ("\u{1B}é", [.key(.character("é"), .alt)]),
        ("\u{1B}\u{1B}[A", [.key(.escape), .key(.up)]),
        // Shift+Enter and Alt+Enter: kitty CSI u and xterm modifyOtherKeys
        ("\u{1B}[13;2u", [.key(.enter, .shift)]),
        ("\u{1B}[13;3u", [.key(.enter, .alt)]),
        ("\u{1B}[27;2;13~", [.key(.enter, .shift)]),
        ("\u{1B}[27;3;13~", [.key(.enter, .alt)]),
        ("\u{1B}[27u", [.key(.escape)]),
        ("\u{1B}[97;5u", [.key(.character("a"), .control)]),
        ("\u{1B}[97;6u", [.key(.character("a"), [.shift, .control])]),
        ("\u{1B}[65;2u", [.text("A")]),
        ("\u{1B}[127;3u", [.key(.backspace, .alt)]),
        ("\u{1B}[97;5:3u", []),  // a release report
        // Focus
        ("\u{1B}[I", [.focus(true)]),
        ("\u{1B}[O", [.focus(false)]),
        // SGR mouse
        ("\u{1B}[<0;10;5M", [.mouse(MouseEvent(.press(.left), row: 4, column: 9))]),
        ("\u{1B}[<0;10;5m", [.mouse(MouseEvent(.release(.left), row: 4, column: 9))]),
        ("\u{1B}[<2;1;1M", [.mouse(MouseEvent(.press(.right), row: 0, column: 0))]),
        ("\u{1B}[<1;3;4M", [.mouse(MouseEvent(.press(.middle), row: 3, column: 2))]),
        ("\u{1B}[<64;20;30M", [.mouse(MouseEvent(.wheelUp, row: 29, column: 19))]),
        ("\u{1B}[<65;200;60M", [.mouse(MouseEvent(.wheelDown, row: 59, column: 199))]),
        ("\u{1B}[<16;2;2M", [.mouse(MouseEvent(.press(.left), row: 1, column: 1, modifiers: .control))]),
        ("\u{1B}[<32;5;6M", [.mouse(MouseEvent(.drag(.left), row: 5, column: 4))]),
        // The device attributes reply is the terminal's answer, never a key
        ("\u{1B}[?1;2c", [.deviceAttributes(DeviceAttributes(reply: Array("\u{1B}[?1;2c".utf8))!)]),
        (
            "\u{1B}[?62;4;22cx",
            [.deviceAttributes(DeviceAttributes(reply: Array("\u{1B}[?62;4;22c".utf8))!), .text("x")]
        ),
        // Unknown and malformed sequences vanish whole; what follows them survives
        ("\u{1B}[?1;2;c", []),
        ("\u{1B}[?1u", []),
        ("\u{1B}[12;40R", []),
        ("\u{1B}[99~x", [.text("x")]),
        ("\u{1B}[1;5Xy", [.text("y")]),
        ("\u{1B}]11;rgb:0000/0000/0000\u{07}z", [.text("z")]),
        ("\u{1B}]11;rgb:0000/0000/0000\u{1B}\\z", [.text("z")]),
        ("\u{1B}P>|kitty(0.35)\u{1B}\\z", [.text("z")]),
        ("\u{1B}_Gi=1;OK\u{1B}\\z", [.text("z")]),
        ("\u{1B}[1;\u{1B}[A", [.key(.up)]),
        ("\u{1B}[<0;1M", []),
        ("\u{9B}", []),  // the 8-bit CSI is not text
        ("\u{1B}[201~", []),  // a paste end with no start
    ])
    func decodes(input: String, expected: [InputEvent]) {
        #expect(Self.decode(input) == expected)
        #expect(Self.decodeBytewise(input).coalescingText() == expected)
    }

    @Test func loneEscapeWaitsForTheTimeoutThenIsTheEscapeKey() {
        var decoder = InputDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.hasPending)
        #expect(decoder.flushPending() == [.key(.escape)])
        #expect(!decoder.hasPending)
        #expect(decoder.flushPending().isEmpty)
        // The rest of a sequence that arrives before the timeout makes it a key, not Escape.
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.feed(Array("[A".utf8)) == [.key(.up)])
    }

    @Test func anEscapeIntroducerLeftAloneIsAltOfIt() {
        var decoder = InputDecoder()
        #expect(decoder.feed(Array("\u{1B}[".utf8)).isEmpty)
        #expect(decoder.flushPending() == [.key(.character("["), .alt)])
        // A longer sequence cut short is dropped, never leaked as text.
        #expect(decoder.feed(Array("\u{1B}[1;5".utf8)).isEmpty)
        #expect(decoder.flushPending().isEmpty)
        #expect(decoder.feed(Array("q".utf8)) == [.text("q")])
    }

    @Test func utf8SplitAcrossReadsIsOneCharacter() {
        var decoder = InputDecoder()
        let bytes = Array("é日😀".utf8)
        #expect(decoder.feed(bytes[0..<1]).isEmpty)
        #expect(decoder.feed(bytes[1..<3]) == [.text("é")])
        #expect(decoder.feed(bytes[3..<4]).isEmpty)
        #expect(decoder.feed(bytes[4..<7]) == [.text("日")])
        #expect(decoder.feed(bytes[7..<8]).isEmpty)
        #expect(decoder.feed(bytes[8...]) == [.text("😀")])
        // Invalid bytes are dropped; the text around them stays.
        #expect(decoder.feed([0x61, 0xFF, 0x80, 0x62]) == [.text("ab")])
    }

    @Test func bracketedPasteIsOneEventWithItsNewlinesAndEscapes() {
        let paste =
            "\u{1B}[200~line one\r\nline two\rthree \u{1B}[A\u{1B}[201\u{1B}[1;5B\u{1B}end\u{1B}[201~x"
        let expected: [InputEvent] = [
            .paste("line one\nline two\nthree \u{1B}[A\u{1B}[201\u{1B}[1;5B\u{1B}end"), .text("x"),
        ]
        #expect(Self.decode(paste) == expected)
        #expect(Self.decodeBytewise(paste) == expected)
    }

    @Test func anOpenPasteSurvivesTheEscapeTimeout() {
        var decoder = InputDecoder()
        #expect(decoder.feed(Array("\u{1B}[200~abc\u{1B}".utf8)).isEmpty)
        #expect(!decoder.hasPending)  // nothing for the timer to flush
        #expect(decoder.flushPending().isEmpty)
        #expect(decoder.feed(Array("[201~".utf8)) == [.paste("abc")])
    }

    @Test func eventsAfterASequenceInOneReadAllArrive() {
        #expect(
            Self.decode("ab\u{1B}[Acd\u{1B}[<64;1;1M\u{03}")
                == [
                    .text("ab"), .key(.up), .text("cd"), .mouse(MouseEvent(.wheelUp, row: 0, column: 0)),
                    .key(.character("c"), .control),
                ])
    }

    @Test func x10MouseBytesNeverBecomeText() {
        // CSI M then button+32, column+32, row+32 (a terminal without SGR mouse).
        let bytes: [UInt8] = [0x1B, 0x5B, 0x4D, 32, 33 + 4, 33 + 2, 0x71]
        var decoder = InputDecoder()
        #expect(decoder.feed(bytes) == [.mouse(MouseEvent(.press(.left), row: 2, column: 4)), .text("q")])
    }
}

extension [InputEvent] {
    /// Adjacent text events joined, as a byte-at-a-time feed splits them.
    func coalescingText() -> [InputEvent] {
        var result: [InputEvent] = []
        for event in self {
            if case .text(let more) = event, case .text(let text)? = result.last {
                result[result.count - 1] = .text(text + more)
            } else {
                result.append(event)
            }
        }
        return result
    }
}
