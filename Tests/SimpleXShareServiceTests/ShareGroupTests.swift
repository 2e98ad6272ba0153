import Foundation
import SimpleXChat
import Testing
import TestSupport

/// `simplex-share --to '#group'` with the real relay: text and files into a group through the running
/// client and with nothing running; groups the user cannot send to refused in one line.
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
            (["--to", "#news", try users.file("notes.txt", "notes\n")], 65, "you are an observer in #news: observers cannot send messages"),
            (["--to", "#team", users.alice.appending("missing.txt")], 66, "\(users.alice.appending("missing.txt")): no such file"),
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

    /// A file shared into #team with nothing running is offered to the member; once alice's client
    /// runs, bob's acceptance gets him the file. Through the running client it is offered the same way.
    @Test func filesGoToAGroupAloneOrThroughTheClient() async throws {
        let users = try await ShareEndToEndTests.Users()
        let (bob, client) = (users.bob, try await users.client())
        try await Self.groups(users, client)
        try await client.quit()

        let plan = try users.file("plan.txt", "the plan, in full\n")
        let alone = try await users.share(["--to", "#team", "--text", "our plan", plan])
        #expect(try await alone.wait() == 0, "\(alone.allErrors)")
        #expect(alone.allOutput.last == "sent 1 item to #team (files go to each member who accepts them)")
        try await bob.expectLine(#"\d\d:\d\d #team alice> sends file plan\.txt \(18 bytes / 18 bytes\)"#)
        try await bob.expectLine(#"use /fr 1 \[<dir>/ \| <path>\] to receive it"#)
        #expect(try users.defaults[.shareState] == .inactive)

        // alice's client runs: bob accepts, and the file comes from it.
        let running = try await users.client()
        bob.send("/fr 1")
        try await bob.expectLine(#"completed receiving file 1 \(plan\.txt\) from alice"#)
        try await running.expectLine(#"completed sending file \d+ \(plan\.txt\) to bob"#)
        #expect(try await bob.savedFile(1) == Array("the plan, in full\n".utf8))

        let notes = try users.file("notes.txt", "notes\n")
        let through = try await users.share(["--to", "#team", notes])
        #expect(try await through.wait() == 0, "\(through.allErrors)")
        let line = try #require(through.allOutput.last)
        #expect(
            line.wholeMatch(of: /sent 1 item to #team through the running client \(#1\/\d+\)/) != nil,
            "\(line)")
        try await bob.expectLine(#"\d\d:\d\d #team alice> sends file notes\.txt \(6 bytes / 6 bytes\)"#)
        try await running.quit()
        try await bob.quit()
    }
}
