import Foundation
import Testing
import TestSupport

/// Three users' full-screen clients in a group, through a real relay: alice makes the group and
/// invites bob and carol from her client, they join from their chat lists, and each one's
/// message shows in the others' group chat under the sender's name.
@Suite(.timeLimit(.minutes(4)))
struct TUIGroupsEndToEndTests {
    /// The chat pane of a screen (right of the list's divider), line by line.
    static func chatPane(_ screen: String) -> [String] {
        screen.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard let divider = line.firstIndex(of: "│") else { return "" }
            return String(line[line.index(after: divider)...])
        }
    }

    /// Waits until `user`'s group chat shows `text` with `sender`'s name on the row above it,
    /// after the sender's avatar, its initial (terminal rows: the sender once per run, the
    /// messages below).
    func waitForMessage(_ user: TUIUser, _ text: String, from sender: String) async throws {
        try await user.waitUntil("“\(text)” from \(sender)") { screen in
            let pane = Self.chatPane(screen)
            guard let row = pane.firstIndex(where: { $0.contains(text) }) else { return false }
            let above = pane[..<row].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
            return above.trimmingCharacters(in: .whitespaces).hasPrefix(
                "\(sender.prefix(1).uppercased()) \(sender)")
        }
    }

    /// Joins the invitation first in `user`'s list, then opens the group by Ctrl+K.
    func join(_ user: TUIUser) async throws {
        try await user.waitFor("invited: Enter to join")
        try await user.press("M-1")
        try await user.waitUntil("the invitation accepted") { !$0.contains("invited: Enter to join") }
        try await user.press("C-k")
        try await user.type("team")
        try await user.press("Enter")
        try await user.waitFor("#team · you are member")
    }

    @Test func aliceMakesAGroupBobAndCarolJoinAndEveryoneSeesEachOthersMessages() async throws {
        let relay = try await RelayProcess()
        let alice = try await TUIUser("alice", relay: relay)
        let bob = try await TUIUser("bob", relay: relay)
        let carol = try await TUIUser("carol", relay: relay)
        try await TUIUser.connect(alice, bob)
        try await TUIUser.connect(alice, carol)

        // Alt+G: the group's name, then whom to invite.
        try await alice.press("Escape")
        try await alice.press("M-g")
        try await alice.waitFor("New group")
        try await alice.type("team")
        try await alice.press("Enter")
        try await alice.waitFor("Invite to #team")
        try await alice.type("bob carol")
        try await alice.press("Enter")
        try await alice.waitFor("invited bob, carol to #team")
        try await alice.waitFor("#team · you are owner")

        try await join(bob)
        try await join(carol)

        try await alice.type("hello from alice")
        try await alice.press("Enter")
        try await waitForMessage(bob, "hello from alice", from: "alice · owner")
        try await waitForMessage(carol, "hello from alice", from: "alice · owner")

        // alice edits her message (Up to it, e) and deletes another for everyone (Up, D, y).
        try await alice.press("Up")
        try await alice.press("e")
        try await alice.waitFor("✎ editing: hello from alice")
        try await alice.type(", edited")
        try await alice.press("Enter")
        try await bob.waitFor("hello from alice, edited")
        try await alice.type("oops")
        try await alice.press("Enter")
        try await carol.waitFor("oops")
        try await alice.press("Up")
        try await alice.press("D")
        try await alice.waitFor("Delete this message for every member of #team?")
        try await alice.press("y")
        try await carol.waitUntil("oops marked deleted") {
            !$0.contains("oops") && $0.contains("marked deleted")
        }
        try await alice.waitUntil("oops gone") { !$0.contains("oops") }

        try await bob.type("hi, bob here")
        try await bob.press("Enter")
        try await waitForMessage(alice, "hi, bob here", from: "bob")
        try await waitForMessage(carol, "hi, bob here", from: "bob")

        // bob goes to alice's chat: carol's next message is unread for him there, a badge in
        // the list, until he opens the group again.
        try await bob.press("C-k")
        try await bob.type("alice")
        try await bob.press("Enter")
        try await bob.waitUntil("alice's chat") {
            $0.contains("> Message") && !$0.contains("#team · you are")
        }
        try await carol.type("carol too")
        try await carol.press("Enter")
        try await waitForMessage(alice, "carol too", from: "carol")
        let unread: @Sendable (String) -> Bool = { screen in
            screen.split(separator: "\n").contains { $0.contains("carol: carol too") && $0.contains(" 1 ") }
        }
        try await bob.waitUntil("the group's unread badge", unread)
        try await bob.press("C-k")
        try await bob.type("team")
        try await bob.press("Enter")
        try await waitForMessage(bob, "carol too", from: "carol")
        try await bob.waitUntil("the badge gone") { !unread($0) && $0.contains("carol: carol too") }

        // The list previews the group's last message with its sender.
        try await alice.waitFor("carol: carol too")

        // Group info: every member with role and status; bob leaves (confirmed).
        try await bob.press("M-i")
        let info = try await bob.waitFor("Leave group")
        #expect(info.contains("you (bob) · member"), "\(info)")
        #expect(info.contains("alice · owner"), "\(info)")
        #expect(info.contains("carol · member"), "\(info)")
        try await bob.press("l")
        try await bob.waitFor("Leave #team?")
        try await bob.press("y")
        try await bob.waitFor("you left #team")

        // alice, the owner, makes the group's link in its info (k) and shows it as a QR code (q);
        // then she deletes the group for everyone; carol is told.
        try await alice.press("M-i")
        let aliceInfo = try await alice.waitFor("k  Create group link")
        #expect(aliceInfo.contains("Direct messages: on"), "\(aliceInfo)")
        try await alice.press("k")
        try await alice.waitFor("Group link: simplex:/contact#/?v=")
        try await alice.press("q")
        try await alice.waitFor("Scan it with SimpleX Chat on your phone")
        try await alice.press("Escape")
        try await alice.waitFor("Delete group")
        try await alice.press("x")
        try await alice.waitFor("Delete #team for every member?")
        try await alice.press("y")
        try await alice.waitFor("#team deleted")
        try await carol.waitFor("alice deleted #team")

        for user in [alice, bob, carol] {
            let quit = try await user.quit()
            #expect(quit.contains("EXIT=0"), "\(quit)")
        }
    }

    /// alice's #team with bob and carol joined, made from alice's client.
    func team(_ relay: RelayProcess) async throws -> (TUIUser, TUIUser, TUIUser) {
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
        try await join(bob)
        try await join(carol)
        // Every member connected to every other first, as group info shows it: this test is about
        // moderation, not forwarding.
        try await connected(bob, to: "carol")
        try await connected(carol, to: "bob")
        return (alice, bob, carol)
    }

    /// Opens group info until it shows `user` connected to member `name`.
    func connected(_ user: TUIUser, to name: String) async throws {
        for _ in 0..<60 {
            try await user.press("M-i")
            let screen = try await user.waitFor("Delete group")
            try await user.press("Escape")
            if screen.contains("\(name) · member · connected") { return }
            try await Task.sleep(for: .milliseconds(500))
        }
        throw TUIGroupsTestError("\(user.name) never connected to \(name)")
    }

    @Test func theOwnerModeratesAMembersMessageAndBlocksHerForAll() async throws {
        let relay = try await RelayProcess()
        let (alice, bob, carol) = try await team(relay)
        try await carol.type("buy cheap pills")
        try await carol.press("Enter")
        // bob may get it forwarded by alice while his connection to carol comes up.
        try await alice.waitFor("buy cheap pills")
        try await bob.waitFor("buy cheap pills")

        // bob, a member, is not offered the moderate action on carol's message.
        try await bob.press("Up")
        let bobs = try await bob.waitFor("c copy · i info")
        #expect(!bobs.contains("D moderate"), "\(bobs)")
        try await bob.press("D")
        try await bob.waitFor("only your own messages can be edited or deleted for everyone")
        try await bob.press("Escape")

        // alice, the owner, is: D, confirmed, marks it deleted for everyone.
        try await alice.press("Up")
        try await alice.waitFor("D moderate · c copy")
        try await alice.press("D")
        try await alice.waitFor("Moderate: delete carol's message for every member of #team?")
        try await alice.press("y")
        try await alice.waitFor("[marked deleted by you]")
        try await bob.waitUntil("moderated at bob, in the chat and the list") {
            $0.contains("[marked deleted by alice]") && !$0.contains("buy cheap pills")
                && $0.contains("carol: message deleted")
        }
        try await carol.waitFor("[marked deleted by alice]")

        // Group info: alice chooses carol and blocks her for all; bob sees her muted, carol is not told.
        try await alice.press("Escape")
        try await alice.press("M-i")
        try await alice.waitFor("Block bob for all")
        try await alice.press("Down")
        try await alice.waitFor("Block carol for all")
        try await alice.press("b")
        try await alice.waitFor("Block carol for all? Their messages are hidden from every member.")
        try await alice.press("y")
        try await alice.waitFor("carol · member · connected · blocked by admin")
        try await alice.press("Escape")
        try await carol.type("can you hear me")
        try await carol.press("Enter")
        try await carol.waitFor("can you hear me")
        try await bob.waitFor("blocked by admin")
        try await alice.waitFor("blocked by admin")
        #expect(try await !bob.screen().contains("can you hear me"))
        #expect(try await !carol.screen().contains("blocked"))

        for user in [alice, bob, carol] {
            let quit = try await user.quit()
            #expect(quit.contains("EXIT=0"), "\(quit)")
        }
    }
}

struct TUIGroupsTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
