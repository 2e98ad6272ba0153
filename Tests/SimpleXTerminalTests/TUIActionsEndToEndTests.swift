import Foundation
import Testing
import TestSupport

/// The context actions that need a third user or a program outside the client: forwarding (one
/// message and a selection), deleting for yourself (one and a selection), opening a link with
/// `xdg-open`, and the content filter — three users' clients through a real relay, read from
/// their screens.
@Suite(.timeLimit(.minutes(4)))
struct TUIActionsEndToEndTests {
    /// Opens the chat named `name` with the quick switcher and waits for its compose field.
    func open(_ user: TUIUser, chatWith name: String) async throws {
        try await user.press("Escape")
        try await user.press("C-k")
        try await user.waitFor("Go to chat:")
        try await user.type(name)
        try await user.press("Enter")
        try await user.waitUntil("\(name)'s chat") { $0.contains("> Message") && $0.contains(" \(name)") }
    }

    /// A stand-in `xdg-open` first on alice's PATH: it writes what it was asked to open.
    static func recordingOpener(in directory: String) throws -> (environment: [String: String], record: String) {
        let bin = directory + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let record = directory + "/opened.txt"
        let script = "#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(record)'\n"
        FileManager.default.createFile(
            atPath: bin + "/xdg-open", contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return (["PATH": bin + ":" + path], record)
    }

    @Test func forwardSelectDeleteForYouOpenALinkAndFilterByContent() async throws {
        let relay = try await RelayProcess()
        let scratch = try TemporaryDirectory("tui-actions")
        let opener = try Self.recordingOpener(in: scratch.path)
        let alice = try await TUIUser("alice", relay: relay, environment: opener.environment)
        let bob = try await TUIUser("bob", relay: relay)
        let carol = try await TUIUser("carol", relay: relay)
        try await TUIUser.connect(alice, bob)
        try await TUIUser.connect(alice, carol)
        try await open(bob, chatWith: "alice")
        try await open(carol, chatWith: "alice")
        // A page with OpenGraph tags: bob's message with its link goes as link content with a
        // preview (link previews are on by default), which the links filter selects.
        try """
            <html><head><meta property="og:title" content="The Page Title">
            <meta property="og:description" content="What the page is about"></head></html>
            """.write(toFile: scratch.appending("page.html"), atomically: true, encoding: .utf8)
        let port = try freeLoopbackPort()
        let server = try ChildProcess(
            "/usr/bin/python3", ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", scratch.path])
        defer { server.kill() }
        _ = try await server.line(timeout: .seconds(20)) { $0.contains("Serving HTTP") }
        let url = "http://127.0.0.1:\(port)/page.html?q=1"
        for text in ["look at \(url)", "second note", "third note"] {
            try await bob.type(text)
            try await bob.press("Enter")
        }
        try await open(alice, chatWith: "bob")
        try await alice.waitFor("third note")
        #expect(try await alice.screen().contains("The Page Title"), "no preview of the link")

        // The content filter: Alt+C steps images → videos → voice → files → links.
        for _ in 0..<5 { try await alice.press("M-c") }
        try await alice.waitUntil("only the link") { screen in
            screen.contains("only links") && screen.contains("page.html") && !screen.contains("second note")
        }
        try await alice.press("M-c")
        try await alice.waitUntil("every message again") { $0.contains("second note") && !$0.contains("only links") }

        // Open a link: the full URL first, then xdg-open gets exactly it.
        for _ in 0..<3 { try await alice.press("Up") }
        try await alice.press("o")
        try await alice.waitFor("Open this link?")
        try await alice.press("Enter")
        #expect(await eventually(timeout: .seconds(10), every: .milliseconds(100)) {
            (try? String(contentsOfFile: opener.record, encoding: .utf8)) == url + "\n"
        })

        // Forward one message to carol: she sees it marked forwarded.
        try await alice.press("f")
        try await alice.waitFor("Forward the message to:")
        try await alice.type("carol")
        try await alice.press("Enter")
        try await carol.waitUntil("the forwarded link") { $0.contains("↪ forwarded") && $0.contains("page.html") }

        // Select two (v, then Space on the next) and forward both.
        try await alice.press("Down")
        try await alice.press("v")
        try await alice.waitFor("1 selected")
        try await alice.press("Down")
        try await alice.press("Space")
        try await alice.waitFor("2 selected")
        try await alice.press("f")
        try await alice.waitFor("Forward 2 messages to:")
        try await alice.type("carol")
        try await alice.press("Enter")
        try await carol.waitUntil("both forwarded") { $0.contains("second note") && $0.contains("third note") }

        // Select the two again and delete them for alice only: gone from her chat, not from bob's.
        try await alice.press("Escape")
        try await alice.press("Up")
        try await alice.press("Up")
        try await alice.press("v")
        try await alice.press("Down")
        try await alice.press("Space")
        try await alice.waitFor("2 selected")
        try await alice.press("d")
        try await alice.waitFor("Delete 2 messages for you? (y/n)")
        try await alice.press("y")
        try await alice.waitUntil("both gone for alice") { screen in
            let chat = screen.split(separator: "\n").map { $0.split(separator: "│").dropFirst().joined() }
            return !chat.contains { $0.contains("second note") || $0.contains("third note") }
        }
        // One message: d on the link (the newest now: Up from the compose field), confirmed.
        try await alice.press("Escape")
        try await alice.press("Up")
        try await alice.press("d")
        try await alice.waitFor("Delete this message for you? (y/n)")
        try await alice.press("y")
        try await alice.waitUntil("the link gone for alice") { screen in
            !screen.split(separator: "\n").map { $0.split(separator: "│").dropFirst().joined() }.contains {
                $0.contains("page.html")
            }
        }
        let bobs = try await bob.screen()
        for text in ["page.html", "second note", "third note"] {
            #expect(bobs.contains(text), "bob lost \(text): \(bobs)")
        }
        try await alice.quit()
        try await bob.quit()
        try await carol.quit()
    }
}
