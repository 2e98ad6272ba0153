import Foundation
import Testing
import TestSupport

/// Mentions, reactions and replies in the full-screen clients' group chat, in tmux through a real
/// relay: Tab completes a member's name after `@`, the mentioned member gets the message, and a
/// reaction and a reply reach the other member.
@Suite(.timeLimit(.minutes(4)))
struct TUIGroupMentionsEndToEndTests {
    @Test func tabCompletesAMemberAndReactionsAndRepliesReachTheOthers() async throws {
        let groups = TUIGroupsEndToEndTests()
        let relay = try await RelayProcess()
        let alice = try await TUIUser("alice", relay: relay)
        let bob = try await TUIUser("bob", relay: relay)
        let carol = try await TUIUser("carol", relay: relay)
        try await TUIUser.connect(alice, bob)
        try await TUIUser.connect(alice, carol)
        try await alice.press("Escape")
        try await alice.press("M-g")
        try await alice.waitFor("New group")
        try await alice.type("team")
        try await alice.press("Enter")
        try await alice.waitFor("Invite to #team")
        try await alice.type("bob carol")
        try await alice.press("Enter")
        try await alice.waitFor("#team · you are owner")
        try await groups.join(bob)
        try await groups.join(carol)
        // bob's group knows carol once their connection is up.
        try await alice.type("welcome")
        try await alice.press("Enter")
        try await groups.waitForMessage(bob, "welcome", from: "alice · owner")
        try await groups.waitForMessage(carol, "welcome", from: "alice · owner")

        // bob types `@ca` and Tab: carol's whole name, then his text; carol and alice get it.
        try await bob.press("C-k")
        try await bob.type("team")
        try await bob.press("Enter")
        try await bob.waitFor("#team · you are member")
        try await bob.type("lunch @ca")
        try await bob.press("Tab")
        try await bob.waitFor("> lunch @carol")
        try await bob.type("today?")
        try await bob.press("Enter")
        try await groups.waitForMessage(carol, "lunch @carol today?", from: "bob")
        try await groups.waitForMessage(alice, "lunch @carol today?", from: "bob")

        // carol reacts to it (Up, +, 1) and replies (Up, r): bob sees both.
        try await carol.press("Up")
        try await carol.press("+")
        try await carol.waitFor("React:")
        try await carol.press("1")
        try await bob.waitUntil("carol's 👍 on his message") { screen in
            TUIGroupsEndToEndTests.chatPane(screen).contains { $0.contains("👍") }
        }
        // bob goes to alice's chat: carol's reply to him is an unread mention there, `@` in the list.
        try await bob.press("C-k")
        try await bob.type("alice")
        try await bob.press("Enter")
        try await bob.waitUntil("alice's chat") {
            $0.contains("> Message") && !$0.contains("#team · you are")
        }
        // The cursor stays on the item reacted to.
        try await carol.press("r")
        try await carol.waitFor("replying to bob: lunch @carol today?")
        try await carol.type("yes, at noon")
        try await carol.press("Enter")
        try await bob.waitUntil("the unread mention in the list") { screen in
            screen.split(separator: "\n").contains {
                $0.contains("carol: yes, at noon") && $0.contains(" @ 1 ")
            }
        }
        try await bob.press("C-k")
        try await bob.type("team")
        try await bob.press("Enter")
        try await bob.waitUntil("carol's reply quoting him") { screen in
            let pane = TUIGroupsEndToEndTests.chatPane(screen)
            guard let reply = pane.firstIndex(where: { $0.contains("yes, at noon") }) else { return false }
            return pane[..<reply].contains { $0.contains("you") }
                && pane[..<reply].contains { $0.contains("lunch @carol today?") }
        }
        try await alice.waitFor("yes, at noon")

        for user in [alice, bob, carol] {
            let quit = try await user.quit()
            #expect(quit.contains("EXIT=0"), "\(quit)")
        }
    }
}
