import Testing

@testable import SimpleXTUI

/// Images are drawn with what the terminal the user runs can show: its own graphics protocol
/// where its environment or its DA1 reply says it has one, symbols otherwise.
@Suite struct GraphicsSupportTests {
    static let utf8 = ["LANG": "en_US.UTF-8"]

    @Test(arguments: [
        (["TERM": "xterm-kitty"], ImageRendering.graphics(.kitty)),
        (["TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"], .graphics(.kitty)),
        (["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], .graphics(.iterm2)),
        (["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"], .graphics(.iterm2)),
        (["TERM": "foot"], .graphics(.sixel)),
        (["TERM": "foot-extra"], .graphics(.sixel)),
        (["TERM": "mlterm"], .graphics(.sixel)),
        (["TERM": "xterm-sixel"], .graphics(.sixel)),
        (["TERM": "xterm-256color"], .symbols(.unicode)),
        ([:], .symbols(.unicode)),
        // tmux does not pass graphics on, even inside kitty.
        (
            ["TERM": "tmux-256color", "KITTY_WINDOW_ID": "1", "TMUX": "/tmp/tmux-0/default,1,0"],
            .symbols(.unicode)
        ),
        (["TERM": "screen-256color"], .symbols(.unicode)),
    ])
    func detectsFromTheEnvironment(environment: [String: String], expected: ImageRendering) {
        #expect(GraphicsSupport.detect(environment: environment.merging(Self.utf8) { a, _ in a }) == expected)
    }

    @Test func symbolsFollowTheLocale() {
        #expect(GraphicsSupport.detect(environment: ["TERM": "xterm", "LANG": "C"]) == .symbols(.ascii))
        #expect(GraphicsSupport.detect(environment: ["TERM": "xterm"]) == .symbols(.ascii))
    }

    @Test func parsesDeviceAttributeReplies() throws {
        let xterm = try #require(
            DeviceAttributes(reply: Array("\u{1B}[?64;1;2;4;6;9;15;16;17;18;21;22;28c".utf8)))
        #expect(xterm.level == 64)
        #expect(xterm.hasSixel)
        let noSixel = try #require(DeviceAttributes(reply: Array("\u{1B}[?62;22c".utf8)))
        #expect(!noSixel.hasSixel)
        #expect(noSixel.features == [22])
        // 8-bit CSI.
        #expect(DeviceAttributes(reply: [0x9B] + Array("?65;4c".utf8))?.hasSixel == true)
        // A VT100's options are not features: its 4 is not sixel.
        #expect(DeviceAttributes(reply: Array("\u{1B}[?1;4c".utf8))?.hasSixel == false)
        for garbage in [
            "\u{1B}[?c", "\u{1B}[62;4c", "\u{1B}[?62;4", "\u{1B}[?62;x;4c", "\u{1B}[?62;;4c", "hello",
        ] {
            #expect(DeviceAttributes(reply: Array(garbage.utf8)) == nil, "\(garbage.debugDescription)")
        }
    }

    @Test func aSixelReplyUpgradesAPlainTerminalButNotAnotherProtocol() throws {
        let sixel = try #require(DeviceAttributes(reply: Array("\u{1B}[?62;4;22c".utf8)))
        #expect(
            GraphicsSupport.detect(environment: ["TERM": "xterm-256color"], deviceAttributes: sixel)
                == .graphics(.sixel))
        #expect(
            GraphicsSupport.detect(environment: ["TERM": "xterm-kitty"], deviceAttributes: sixel)
                == .graphics(.kitty))
        #expect(
            GraphicsSupport.detect(
                environment: ["TERM": "screen", "LANG": "C.UTF-8"], deviceAttributes: sixel)
                == .symbols(.unicode))
    }
}
