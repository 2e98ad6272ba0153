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

        let quitScreen = try await alice.quit()
        #expect(quitScreen.contains("EXIT=0"), "\(quitScreen)")
        #expect(quitScreen.contains("TTY=icanon"), "the terminal was left in raw mode: \(quitScreen)")
        try await bob.quit()
    }
}
