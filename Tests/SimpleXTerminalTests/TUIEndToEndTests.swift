import Foundation
import Glibc
import Testing
import TestSupport

/// Two users' full-screen clients through a real relay, driven by keys in tmux and read from
/// the screen as the users see it.
@Suite(.timeLimit(.minutes(4)))
struct TUIEndToEndTests {
    /// Opens the first chat in the list and waits for its compose field.
    func openFirstChat(_ user: TUIUser, named name: String) async throws {
        try await user.press("Escape")
        try await user.press("M-1")
        try await user.waitUntil("\(name)'s chat") { $0.contains("> Message") && $0.contains(" \(name)") }
    }

    @Test func connectChatAndEveryItemAction() async throws {
        let relay = try await RelayProcess()
        let alice = try await TUIUser("alice", relay: relay)
        let bob = try await TUIUser("bob", relay: relay)
        try await TUIUser.connect(alice, bob)
        try await openFirstChat(alice, named: "bob")
        try await openFirstChat(bob, named: "alice")
        // The chat starts with the core's encryption note (SimpleX rcvDirectE2EEInfo), an event row.
        try await bob.waitFor("This conversation is protected by end-to-end encryption")

        // Chat both ways; the list shows the last message.
        try await alice.type("hello *bob*, 日本語 👩‍👩‍👧")
        try await alice.press("Enter")
        try await bob.waitFor("hello bob, 日本語 👩‍👩‍👧")
        try await bob.type("hi alice")
        try await bob.press("Enter")
        let aliceScreen = try await alice.waitFor("hi alice")
        #expect(aliceScreen.contains("✓"), "alice's own message has no status: \(aliceScreen)")

        // Reply: Up to bob's message, r, type, Enter; bob sees the quote above the reply.
        try await alice.press("Up")
        try await alice.press("r")
        try await alice.waitFor("↩ reply to: hi alice")
        try await alice.type("a reply")
        try await alice.press("Enter")
        try await bob.waitUntil("the reply under its quote") { screen in
            let lines = screen.split(separator: "\n").map(String.init)
            guard let reply = lines.lastIndex(where: { $0.contains("a reply") }) else { return false }
            return lines[..<reply].suffix(3).contains { $0.contains("hi alice") && $0.contains("▌") }
        }

        // Edit: alice's own newest message (Up, e), bob sees the new text, marked edited.
        try await alice.press("Up")
        try await alice.press("e")
        try await alice.waitFor("✎ editing: a reply")
        try await alice.type(", edited")
        try await alice.press("Enter")
        try await bob.waitFor("a reply, edited")

        // React: bob puts 👍 on alice's first message; alice sees it under it.
        for _ in 0..<3 { try await bob.press("Up") }
        try await bob.press("+")
        try await bob.waitFor("React:")
        try await bob.press("1")
        try await alice.waitFor("👍 1")

        // Copy (OSC 52 reaches tmux's buffer): bob copies the message under his cursor.
        try await bob.press("c")
        try await bob.waitFor("copied")
        #expect(await eventually(timeout: .seconds(10), every: .milliseconds(100)) {
            ((try? await bob.tmux(["show-buffer"])) ?? []).joined().contains("hello *bob*")
        })

        // Info: the message's times and statuses.
        try await bob.press("i")
        try await bob.waitFor("Message info")
        try await bob.waitFor("Received at:")
        try await bob.press("Escape")

        // Delete for everyone: alice's "hello" goes for bob too (marked deleted).
        for _ in 0..<3 { try await alice.press("Up") }
        try await alice.press("D")
        try await alice.waitFor("Delete this message for everyone?")
        try await alice.press("y")
        try await bob.waitUntil("the message marked deleted") { !$0.contains("hello bob, 日本語") && $0.contains("deleted") }

        // Search: bob finds alice's reply by a word of it.
        try await bob.press("Escape")  // from the item cursor to compose
        try await bob.press("C-f")
        try await bob.waitFor("Search in alice")
        try await bob.type("edited")
        try await bob.press("Enter")
        try await bob.waitFor("1 found for “edited”")
        // And across every chat, from the list: Enter opens the chat at the result.
        try await bob.press("Escape")
        try await bob.press("Tab")
        try await bob.press("C-f")
        try await bob.waitFor("Search all chats")
        try await bob.type("reply")
        try await bob.press("Enter")
        try await bob.waitFor("1 found for “reply” in all chats")
        try await bob.press("Enter")
        try await bob.waitUntil("the chat at the result") { $0.contains("> Message") && $0.contains("a reply, edited") }

        let quitScreen = try await alice.quit()
        #expect(quitScreen.contains("EXIT=0"), "\(quitScreen)")
        #expect(quitScreen.contains("TTY=icanon"), "the terminal was left in raw mode: \(quitScreen)")
        try await bob.quit()
    }
}

extension TUIEndToEndTests {
    /// A PNG of `width`×`height` pixels, left half red and right half blue (written with
    /// python3's zlib: no image library needed to make one).
    static func writePNG(_ path: String, width: Int = 64, height: Int = 32) async throws {
        let script = """
            import struct, sys, zlib
            w, h = \(width), \(height)
            rows = b"".join(b"\\x00" + b"".join((b"\\xff\\x00\\x00" if x < w // 2 else b"\\x00\\x00\\xff") for x in range(w)) for y in range(h))
            def chunk(kind, data): return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
            png = b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
            open(sys.argv[1], "wb").write(png)
            """
        let process = try ChildProcess("/usr/bin/python3", ["-c", script, path])
        _ = try await process.wait(timeout: .seconds(20))
    }

    @Test func scrollBackResizePasteFilesAndImagesBothWaysAndTermRestoresTheTerminal() async throws {
        let relay = try await RelayProcess()
        let alice = try await TUIUser("alice", relay: relay)
        // bob's terminal is told it speaks kitty graphics: his pictures go out as kitty's bytes.
        let bob = try await TUIUser("bob", relay: relay, environment: ["SIMPLEX_GRAPHICS": "kitty"])
        try await TUIUser.connect(alice, bob)
        try await openFirstChat(alice, named: "bob")
        try await openFirstChat(bob, named: "alice")

        // 130 messages from bob: more than two pages of the chat.
        var keys: [String] = []
        for n in 1...130 { keys += ["message \(n) of many", "Enter"] }
        try await bob.tmux(["send-keys", "-t", "tui"] + keys)
        try await alice.waitFor("message 130 of many")
        // Page Up until the first one: older pages are loaded as the view reaches them.
        var screen = ""
        for _ in 0..<60 {
            try await alice.press("PPage")
            screen = try await alice.screen()
            if screen.contains("message 1 of many") { break }
        }
        #expect(screen.contains("message 1 of many"), "\(screen)")
        #expect(!screen.contains("│ message 130 of many"))
        #expect(screen.contains("↓"), "no way back down shown: \(screen)")
        // Down again to the newest (in the chat pane: the list's preview shows it all along).
        for _ in 0..<60 {
            try await alice.press("NPage")
            screen = try await alice.screen()
            if screen.contains("│ message 130 of many") { break }
        }
        #expect(screen.contains("│ message 130 of many"))

        // Narrow: the chat alone; Esc shows the list alone.
        try await alice.tmux(["resize-window", "-t", "tui", "-x", "60", "-y", "30"])
        let narrow = try await alice.waitUntil("the narrow chat") { !$0.contains("│") && $0.contains("message 130 of many") }
        #expect(!narrow.contains(" Chats"))
        try await alice.press("Escape")
        try await alice.waitUntil("the list alone") { $0.contains(" Chats") && !$0.contains("> Message") }
        try await alice.press("Enter")
        try await alice.tmux(["resize-window", "-t", "tui", "-x", "120", "-y", "36"])
        try await alice.waitUntil("both panes again") { $0.contains(" Chats") && $0.contains("message 130 of many") }

        // A pasted newline does not send: the text waits in the field.
        try await alice.paste("pasted line one\npasted line two")
        try await alice.waitUntil("both pasted lines") { $0.contains("> pasted line one") && $0.contains("pasted line two") }
        try await Task.sleep(for: .milliseconds(500))
        #expect(!(try await bob.screen()).contains("pasted line"))
        try await alice.press("Enter")
        try await bob.waitFor("pasted line two")

        // A file, alice → bob: attached by path, received with s, saved to Downloads with s.
        let payload = alice.directory.appending("report 2026.txt")
        let bytes = (0..<40_000).map { _ in UInt8.random(in: 0...255) }
        FileManager.default.createFile(atPath: payload, contents: Data(bytes))
        try await alice.press("C-t")
        try await alice.waitFor("Attach a file")
        try await alice.type(payload)
        try await alice.press("Enter")
        try await bob.waitFor("report 2026.txt")
        try await bob.press("Up")
        try await bob.press("s")
        try await bob.waitFor("receiving report 2026.txt")
        let saved = bob.directory.appending("Downloads/report 2026.txt")
        // Saved once it is all here (s before that says it is not here yet); the copy is read
        // only when it is whole.
        #expect(await eventually(timeout: .seconds(30), every: .milliseconds(300)) {
            if !FileManager.default.fileExists(atPath: saved) { try? await bob.press("s") }
            return FileManager.default.contents(atPath: saved).map(Array.init) == bytes
        })
        try await bob.press("Escape")

        // An image, bob → alice: accepted automatically and drawn in the chat with blocks.
        let picture = bob.directory.appending("red-blue.png")
        try await Self.writePNG(picture)
        let bobsOutput = bob.directory.appending("terminal-output")
        try await bob.recordOutput(to: bobsOutput)
        try await bob.press("C-t")
        try await bob.waitFor("Attach a file")
        try await bob.type(picture)
        try await bob.press("Enter")
        // Red on the left of each row of the picture, blue on its right (256 colours: 196, 21).
        var styled: [String] = []
        let drawn = await eventually(timeout: .seconds(30), every: .milliseconds(200)) {
            styled = (try? await alice.tmux(["capture-pane", "-e", "-p", "-t", "tui"])) ?? []
            return styled.filter { row in
                guard let red = row.range(of: ";5;196m"), let blue = row.range(of: ";5;21m") else { return false }
                return red.lowerBound < blue.lowerBound
            }.count >= 3
        }
        #expect(drawn, "no red and blue picture on alice's screen: \(styled.joined(separator: "\n").debugDescription)")
        // On bob's side the picture he sent is transmitted once under an id, then placed by that
        // id at the top-left cell of its box, and the cells under it hold no blocks.
        var written = ""
        let placed = await eventually(timeout: .seconds(30), every: .milliseconds(200)) {
            written = String(decoding: FileManager.default.contents(atPath: bobsOutput) ?? Data(), as: UTF8.self)
            return written.contains("\u{1B}_Ga=p,")
        }
        #expect(placed, "no kitty placement in bob's output")
        let transmission = try #require(written.firstMatch(of: /\x1B_Ga=t,i=(\d+),q=2,f=/))
        let id = transmission.1
        #expect(written.contains(try Regex("\u{1B}\\[\\d+;\\d+H\u{1B}_Ga=p,i=\(id),p=1,c=\\d+,r=\\d+,C=1,q=2")))
        #expect(written.ranges(of: "_Ga=t,i=\(id),").count == 1, "the picture's pixels were sent more than once")
        let bobsCells = try await bob.tmux(["capture-pane", "-e", "-p", "-t", "tui"]).joined(separator: "\n")
        #expect(!bobsCells.contains(";5;196m") && !bobsCells.contains(";5;21m"), "blocks under bob's picture")

        // And the other way: a file bob → alice (received and saved by her), an image alice → bob
        // (drawn in blocks on her side, transmitted as a second kitty picture on his).
        let reply = bob.directory.appending("notes from bob.bin")
        let replyBytes = (0..<30_000).map { _ in UInt8.random(in: 0...255) }
        FileManager.default.createFile(atPath: reply, contents: Data(replyBytes))
        try await bob.press("C-t")
        try await bob.waitFor("Attach a file")
        try await bob.type(reply)
        try await bob.press("Enter")
        try await alice.waitFor("notes from bob.bin")
        try await alice.press("Up")
        try await alice.press("s")
        let aliceSaved = alice.directory.appending("Downloads/notes from bob.bin")
        #expect(await eventually(timeout: .seconds(30), every: .milliseconds(300)) {
            if !FileManager.default.fileExists(atPath: aliceSaved) { try? await alice.press("s") }
            return FileManager.default.contents(atPath: aliceSaved).map(Array.init) == replyBytes
        })
        try await alice.press("Escape")
        let alicePicture = alice.directory.appending("alice-red-blue.png")
        try await Self.writePNG(alicePicture, width: 48, height: 24)
        try await alice.press("C-t")
        try await alice.waitFor("Attach a file")
        try await alice.type(alicePicture)
        try await alice.press("Enter")
        let twoPictures = await eventually(timeout: .seconds(30), every: .milliseconds(200)) {
            written = String(decoding: FileManager.default.contents(atPath: bobsOutput) ?? Data(), as: UTF8.self)
            return Set(written.matches(of: /\x1B_Ga=t,i=(\d+),/).map { String($0.1) }).count >= 2
        }
        #expect(twoPictures, "alice's picture never reached bob's terminal")

        // kill -TERM: the client goes, the terminal is back in cooked mode on the main screen.
        let pane = try await alice.tmux(["display-message", "-p", "-t", "tui", "#{pane_pid}"])
        let shell = Int32(pane.first ?? "") ?? 0
        let children = try ChildProcess("/usr/bin/pgrep", ["-P", "\(shell)", "simplex-chat"])
        _ = try await children.wait(timeout: .seconds(10))
        let pid = Int32(children.allOutput.first ?? "") ?? 0
        #expect(pid > 0)
        kill(pid, SIGTERM)
        let after = try await alice.waitFor("TTY=")
        #expect(after.contains("EXIT=143"), "\(after)")
        #expect(after.contains("TTY=icanon"), "\(after)")
        #expect(try await alice.tmux(["display-message", "-p", "-t", "tui", "#{alternate_on}"]) == ["0"])
        try await bob.quit()
    }
}

extension TUIEndToEndTests {
    /// While alice's client holds the core, a message in a chat she is not looking at is a
    /// desktop notification with the preview mode's text; clicking it opens the chat, and
    /// reading it there closes the notification.
    @Test func messagesOffScreenAreNotifiedAndAClickOpensTheChat() async throws {
        let bus = try await TestBus()
        let server = try await MockNotificationServer(on: bus)
        let relay = try await RelayProcess()
        let alice = try await TUIUser("alice", relay: relay, bus: bus)
        let bob = try await TUIUser("bob", relay: relay)
        try await TUIUser.connect(alice, bob)
        try await openFirstChat(bob, named: "alice")
        // Alice stays in the chat list: bob's chat is not on her screen.
        try await bob.type("are you there?")
        try await bob.press("Enter")
        let calls = try await server.notifyCalls(atLeast: 1)
        #expect(calls.last?.summary == "bob:")  // as the service and iOS write it
        #expect(calls.last?.body == "are you there?")
        #expect(calls.last?.actions.contains("default") == true)
        // The click: bob's chat opens on alice's screen, and being read there, the notification goes.
        try await server.emitActionInvoked(id: 1, action: "default")
        try await alice.waitUntil("bob's chat open") { $0.contains("> Message") && $0.contains("│ are you there?") }
        #expect(await eventually(timeout: .seconds(20), every: .milliseconds(200)) {
            ((try? await server.closeCalls()) ?? []).contains(1)
        })
        // In the open chat, a message is not notified.
        try await bob.type("second")
        try await bob.press("Enter")
        try await alice.waitFor("│ second")
        try await Task.sleep(for: .milliseconds(500))
        #expect(try await server.notifyCalls().count == 1)
        try await alice.quit()
        try await bob.quit()
    }
}

extension TUIEndToEndTests {
    /// `simplex-share` with no chat while the full-screen client runs: the client shows its own
    /// picker, sends what the user picks it for, and the helper reports the item.
    @Test func aShareWithNoChatIsPickedInTheRunningClient() async throws {
        let bus = try await TestBus()
        let relay = try await RelayProcess()
        let alice = try await TUIUser("alice", relay: relay, bus: bus)
        let bob = try await TUIUser("bob", relay: relay)
        try await TUIUser.connect(alice, bob)
        try await openFirstChat(bob, named: "alice")
        let share = try ChildProcess(
            try BuiltProducts.path("simplex-share"), ["--text", "picked in the client"],
            environment: CLIUser.environment(alice.directory, bus: bus))
        try await alice.waitFor("Send “picked in the client” to:")
        try await alice.type("bo")
        try await alice.press("Enter")
        #expect(try await share.wait(timeout: .seconds(30)) == 0)
        #expect(share.allOutput.contains { $0.hasPrefix("sent 1 item to bob through the running client (@1/") }, "\(share.allOutput)")
        try await bob.waitFor("│ picked in the client")
        try await alice.waitFor("you: picked in the client")  // her chat list: sent from her client
        try await alice.quit()
        try await bob.quit()
    }
}
