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
}
