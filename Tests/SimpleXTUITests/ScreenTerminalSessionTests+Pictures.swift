import Foundation
import Glibc
import TestSupport
import Testing

@testable import SimpleXChat
@testable import SimpleXTUI

extension ScreenTerminalSessionTests {
    /// What the client wrote to the pty so far, read without blocking.
    final class Written {
        let pty: Pty
        private(set) var bytes: [UInt8] = []
        init(_ pty: Pty) { self.pty = pty }

        var text: String { String(decoding: bytes, as: UTF8.self) }

        /// Reads what is there, then answers whether the text holds `needle`.
        func contains(_ needle: String) -> Bool {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            var fd = pollfd(fd: pty.master, events: Int16(POLLIN), revents: 0)
            while poll(&fd, 1, 0) > 0 {
                let count = read(pty.master, &buffer, buffer.count)
                guard count > 0 else { break }
                bytes += buffer[0..<count]
            }
            return text.contains(needle)
        }
    }

    /// The whole client on a pty whose terminal (TERM=xterm) answers the device attributes query
    /// with sixel support: it asks, draws the chat meanwhile with no sixel, and once the
    /// answer comes draws it as a sixel over its box; Ctrl+Q still ends it.
    @Test func aTerminalThatAnswersThatItDrawsSixelsGetsTheImageAsASixel() async throws {
        let directory = try TemporaryDirectory("runtime")
        let pty = try Pty()
        pty.resize(width: 100, height: 30, pixels: (1000, 600))
        let session = try TerminalSession(descriptor: pty.slave)
        let runtime = AppRuntime(
            session: session, environment: ["TERM": "xterm", "LANG": "C.UTF-8"],
            temporaryDirectory: directory.path)
        var model = AppFixture.app()
        model.chat = ChatViewState(
            contact: AppFixture.contact(1, "alice"), items: [try ChatPictureTests.imageItem(in: directory)])
        let running = Task { [model] in
            try await runtime.run(model: model, effects: nil) { _ in
                throw TestSupportError("no profiles here")
            }
        }
        let written = Written(pty)
        #expect(await eventually { written.contains("\u{1B}[c") }, "no device attributes query")
        #expect(await eventually { written.contains("a photo") })
        #expect(!written.text.contains("\u{1B}P"), "a sixel before the terminal said it draws them")

        pty.type("\u{1B}[?62;4;22c")
        #expect(await eventually { written.contains("\u{1B}P0;1;0q\"1;1;") }, "no sixel after the reply")
        #expect(
            written.text.contains(try Regex("\u{1B}\\[\\d+;\\d+H\u{1B}P0;1;0q")), "the sixel is not at a cell"
        )

        pty.type("\u{11}")  // Ctrl+Q
        try await running.value
        #expect(!session.isEntered)
    }
}
