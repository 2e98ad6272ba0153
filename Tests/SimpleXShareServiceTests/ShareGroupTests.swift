import Foundation
import SimpleXChat
import Testing
import TestSupport

/// `simplex-share --to '#group'` with the real relay: text into a group through the running client
/// and with nothing running; groups the user cannot send to, and files, refused in one line.
@Suite(.timeLimit(.minutes(3)))
struct ShareGroupTests {
    /// Bob's groups with Alice: #team (a member), #news (an observer), #club (invited, not joined).
    static func groups(_ users: ShareEndToEndTests.Users, _ alice: CLIUser) async throws {
        let bob = users.bob
        for (group, role) in [("team", "member"), ("news", "observer"), ("club", "member")] {
            bob.send("/g \(group)")
            try await bob.expectLine("group #\(group) is created")
            bob.send("/a \(group) alice \(role)")
            try await alice.expectLine("#\(group): bob invites you to join the group as \(role)")
            guard group != "club" else { continue }
            alice.send("/j \(group)")
            try await alice.expectLine("#\(group): you joined the group")
            try await bob.expectLine("#\(group): alice joined the group")
        }
    }

    @Test func textGoesToAGroupThroughTheClientOrAloneAndTheRestIsRefused() async throws {
        let users = try await ShareEndToEndTests.Users()
        let (bob, client) = (users.bob, try await users.client())
        try await Self.groups(users, client)

        let through = try await users.share(["--to", "#team", "--text", "hello via the client"])
        #expect(try await through.wait() == 0, "\(through.allErrors)")
        let line = try #require(through.allOutput.last)
        #expect(line.wholeMatch(of: /sent 1 item to #team through the running client \(#1\/\d+\)/) != nil, "\(line)")
        try await client.expectLine(#"\d\d:\d\d #team hello via the client"#)
        try await bob.expectLine(#"\d\d:\d\d #team alice> hello via the client"#)
        try await client.quit()

        let alone = try await users.share(["--to", "#Team"], input: "hello with nothing running\n")
        #expect(try await alone.wait() == 0, "\(alone.allErrors)")
        #expect(alone.allOutput.last == "sent 1 item to #team")
        try await bob.expectLine(#"\d\d:\d\d #team alice> hello with nothing running"#)
        #expect(try users.defaults[.shareState] == .inactive)

        let refusals: [([String], Int32, String)] = [
            (["--to", "#news", "--text", "x"], 65, "you are an observer in #news: observers cannot send messages"),
            (["--to", "#club", "--text", "x"], 65, "you are invited to #club but have not joined: /j club first"),
            (["--to", "#nope", "--text", "x"], 65, "no group #nope: your groups are #team, #news, #club"),
            (
                ["--to", "#team", try users.file("notes.txt", "notes\n")], 64,
                "files cannot be shared into a group yet (only into a contact's chat): share text to #team"
            ),
        ]
        for (arguments, status, message) in refusals {
            let share = try await users.share(arguments)
            #expect(try await share.wait() == status, "\(arguments)")
            #expect(share.allErrors.last == "simplex-share: \(message)", "\(arguments)")
        }
        // Nothing of those reached Bob.
        try await Task.sleep(for: .milliseconds(500))
        #expect(!bob.process.allOutput.contains { $0.contains("alice> x") || $0.contains("notes") })
        try await bob.quit()
    }
}
