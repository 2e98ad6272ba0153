import Foundation
import Testing
import TestSupport

/// Settings and contact info in the real client: a change shows at once in the open chat and
/// the list, and is written where other processes read it.
@Suite(.timeLimit(.minutes(3)))
struct TUISettingsEndToEndTests {
    /// The column where `text` starts on the last screen row holding it, or nil.
    static func column(of text: String, in screen: String) -> Int? {
        guard let line = screen.split(separator: "\n").last(where: { $0.contains(text) }),
            let range = line.range(of: text)
        else { return nil }
        return line.distance(from: line.startIndex, to: range.lowerBound)
    }

    @Test func classicLayoutFromSettingsDrawsBubblesAndAMutedContactIsMarkedInTheList() async throws {
        let relay = try await RelayProcess()
        let alice = try await TUIUser("alice", relay: relay)
        let bob = try await TUIUser("bob", relay: relay)
        try await TUIUser.connect(alice, bob)
        for (user, other) in [(alice, "bob"), (bob, "alice")] {
            try await user.press("Escape")
            try await user.press("M-1")
            try await user.waitUntil("\(other)'s chat") {
                $0.contains("> Message") && $0.contains(" \(other)")
            }
        }
        try await bob.type("from bob")
        try await bob.press("Enter")
        try await alice.waitFor("from bob")
        try await alice.type("from alice")
        try await alice.press("Enter")
        try await bob.waitFor("from alice")

        // Settings → Appearance → Classic, from the compose field; Esc twice back to the chat.
        try await alice.press("C-s")
        try await alice.waitFor("Your settings")
        for _ in 0..<4 { try await alice.press("Down") }
        try await alice.press("Enter")
        try await alice.waitFor("Chat layout:")
        for _ in 0..<4 { try await alice.press("Down") }
        try await alice.press("Enter")
        try await alice.waitFor("(•) Classic")
        try await alice.press("Escape")
        try await alice.press("Escape")
        let classic = try await alice.waitUntil("bubbles") { screen in
            !screen.contains("Your settings") && screen.contains("╭") && screen.contains("│ from alice")
        }
        // Sent on the right of the chat pane, received on the left.
        let sent = try #require(Self.column(of: "from alice", in: classic), "\(classic)")
        let received = try #require(Self.column(of: "from bob", in: classic), "\(classic)")
        #expect(sent > received + 20, "\(classic)")
        // Written where other processes (and the next start) read it.
        let defaults = try String(
            contentsOfFile: alice.directory.appending("group/groupDefaults.json"), encoding: .utf8)
        #expect(defaults.contains("\"chatLayout\"") && defaults.contains("classic"), "\(defaults)")

        // Contact info: mute bob; the list marks him 🔕.
        try await alice.press("M-i")
        try await alice.waitFor("Mute notifications")
        try await alice.press("m")
        try await alice.waitFor("Unmute notifications")
        try await alice.press("Escape")
        let muted = try await alice.waitUntil("the muted mark") { screen in
            screen.split(separator: "\n").contains { $0.contains("bob") && $0.contains("🔕") }
                && !screen.contains("Unmute")
        }
        #expect(muted.contains("· muted"), "the chat header does not say so: \(muted)")

        // Network & servers: the relay is listed and answers its test; a bad address is refused.
        try await alice.press("C-s")
        try await alice.waitFor("Your settings")
        try await alice.press("Down", "Down", "Enter")
        try await alice.waitFor("127.0.0.1:\(relay.port)")
        try await alice.press("Enter")
        try await alice.waitFor("127.0.0.1:\(relay.port) answered: OK")
        try await alice.press("a")
        try await alice.waitFor("Enter adds it")
        try await alice.type("smp://nope")
        try await alice.press("Enter")
        try await alice.waitFor("not a relay address")
        try await alice.press("Escape")
        let page = try await alice.waitUntil("the prompt closed") {
            !$0.contains("Enter adds it") && $0.contains("SMP relays")
        }
        #expect(page.components(separatedBy: "127.0.0.1:").count == 2, "the relays changed: \(page)")
        try await alice.press("Escape")
        try await alice.press("Escape")
        try await alice.waitUntil("settings closed") {
            !$0.contains("Your settings") && !$0.contains("SMP relays")
        }
        try await alice.quit()
        try await bob.quit()
    }

    @Test func aliasProfileRelaysClearAndDeleteGoThroughTheCore() async throws {
        let relay = try await RelayProcess()
        let alice = try await TUIUser("alice", relay: relay)
        let bob = try await TUIUser("bob", relay: relay)
        try await TUIUser.connect(alice, bob)
        for (user, other) in [(alice, "bob"), (bob, "alice")] {
            try await user.press("Escape")
            try await user.press("M-1")
            try await user.waitUntil("\(other)'s chat") {
                $0.contains("> Message") && $0.contains(" \(other)")
            }
        }
        try await bob.type("before clearing")
        try await bob.press("Enter")
        try await alice.waitFor("before clearing")

        // Alias: the list and the header use it.
        try await alice.press("M-i")
        try await alice.waitFor("Alias: (none)")
        try await alice.press("a")
        try await alice.type("Bobby")
        try await alice.press("Enter")
        try await alice.waitFor("Alias: Bobby")
        // Receipts: default → on, as the core now has it.
        try await alice.press("r")
        try await alice.waitFor("Delivery receipts: on")
        // Clear the chat (confirmed): the message goes, the contact stays.
        try await alice.press("c")
        try await alice.waitFor("Clear every message with Bobby")
        try await alice.press("y")
        try await alice.waitFor("is cleared on this device")
        try await alice.press("Escape")
        try await alice.waitUntil("the chat cleared, the contact kept") {
            !$0.contains("before clearing") && $0.contains(" Bobby")
        }

        // Profile: a full name set in Settings reaches bob.
        try await alice.press("C-s")
        try await alice.press("Enter")
        try await alice.waitFor("Full name: (none)")
        try await alice.press("Down", "Enter")
        try await alice.type("Alice Liddell")
        try await alice.press("Enter")
        try await alice.waitFor("Full name: Alice Liddell")
        try await bob.waitFor("(Alice Liddell)")

        // Relays: one added by address, then removed.
        try await alice.press("Escape")
        try await alice.press("Down", "Down", "Enter")
        try await alice.waitFor("127.0.0.1:\(relay.port)")
        try await alice.press("a")
        try await alice.type("smp://AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8@relay.example.com:5224")
        try await alice.press("Enter")
        try await alice.waitFor("relay.example.com:5224 (AAECAwQF…)")
        try await alice.press("Down", "d")
        try await alice.waitUntil("the relay removed") {
            !$0.contains("relay.example.com:5224 (") && $0.contains("removed")
        }
        try await alice.press("Escape")
        try await alice.press("Escape")

        // Delete bob (confirmed): the chat closes and he leaves the list.
        try await alice.press("M-i")
        try await alice.press("x")
        try await alice.waitFor("Delete Bobby and the chat?")
        try await alice.press("y")
        let deleted = try await alice.waitUntil("bob deleted") {
            !$0.contains("Bobby") && $0.contains("contact deleted")
        }
        #expect(!deleted.contains("> Message"), "the chat stayed open: \(deleted)")
        try await alice.quit()
        try await bob.quit()
    }
}
