import Foundation
import Testing
import TestSupport

/// Mentions, reactions, replies and files in a group of three `simplex-chat --cli` users through a
/// real relay, as SimpleX's CLI shows them.
@Suite(.serialized)
struct GroupMentionsEndToEndTests {
    /// `@alice` in bob's message reaches alice as a mention (`bob!>`) and cath as a plain message;
    /// an edit that drops the mention drops the mark; a mention of a name nobody has is plain text.
    @Test func aMentionOfTheUserIsShownWithTheMark() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        let cath = try await CLIUser("cath", relay: relay)
        try await GroupEndToEndTests.team(alice, [bob, cath])

        bob.send("#team hi @alice, look")
        try await bob.expectLine(#"\d\d:\d\d #team hi @alice, look"#)
        try await alice.expectLine(#"\d\d:\d\d #team bob!> hi @alice, look"#)
        try await cath.expectLine(#"\d\d:\d\d #team bob> hi @alice, look"#)

        // cath mentions both others (and someone not in the group): each of them sees the mark.
        cath.send("#team @bob and @alice, not @dan")
        try await alice.expectLine(#"\d\d:\d\d #team cath!> @bob and @alice, not @dan"#)
        try await bob.expectLine(#"\d\d:\d\d #team cath!> @bob and @alice, not @dan"#)
        cath.send("#team only @dan")
        try await alice.expectLine(#"\d\d:\d\d #team cath> only @dan"#)

        // The mention goes with the edit that removes it.
        bob.send("! #team (hi @alice) hi all, look")
        try await alice.expectLine(#"\d\d:\d\d #team bob> \[edited\] hi all, look"#)
        // As stored: the mark stays on the item that still mentions alice.
        alice.send("/tail #team 3")
        try await alice.expectLine(#"\d\d:\d\d #team bob> \[edited\] hi all, look"#)
        try await alice.expectLine(#"\d\d:\d\d #team cath!> @bob and @alice, not @dan"#)
        try await alice.expectLine(#"\d\d:\d\d #team cath> only @dan"#)
        for user in [alice, bob, cath] { try await user.quit() }
    }

    /// Reactions to a member's message reach every member, each member's counted once; a reply
    /// quotes the member's message for everyone, and the quoted member sees it as a mention.
    @Test func reactionsAndRepliesReachEveryMember() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        let cath = try await CLIUser("cath", relay: relay)
        try await GroupEndToEndTests.team(alice, [bob, cath])

        alice.send("#team lunch at noon?")
        for member in [bob, cath] { try await member.expectLine(#"\d\d:\d\d #team alice> lunch at noon\?"#) }
        bob.send("+1 #team lunch")
        try await bob.expectLine(#"\d\d:\d\d #team alice> lunch at noon\?"#)
        try await bob.expectLine(#" +👍"#)
        try await alice.expectLine(#"\d\d:\d\d #team bob> \+👍 to: lunch at noon\?"#)
        try await cath.expectLine(#"\d\d:\d\d #team bob> \+👍 to: lunch at noon\?"#)
        bob.send("+1 #team lunch")
        try await bob.expect("error: invalid command: you already reacted with 👍")
        cath.send("+1 #team lunch")
        try await alice.expectLine(#"\d\d:\d\d #team cath> \+👍 to: lunch at noon\?"#)
        try await bob.expectLine(#"\d\d:\d\d #team cath> \+👍 to: lunch at noon\?"#)
        alice.send("/tail #team 1")
        try await alice.expectLine(#"\d\d:\d\d #team lunch at noon\?"#)
        try await alice.expectLine(#" +👍 2"#)
        bob.send("-👍 #team lunch")
        try await alice.expectLine(#"\d\d:\d\d #team bob> -👍 to: lunch at noon\?"#)
        try await cath.expectLine(#"\d\d:\d\d #team bob> -👍 to: lunch at noon\?"#)
        alice.send("/tail #team 1")
        try await alice.expectLine(#"\d\d:\d\d #team lunch at noon\?"#)
        try await alice.expectLine(#" +👍"#)

        // cath replies to alice's message: alice sees the reply as a mention of her.
        cath.send("> #team @alice (lunch) yes, at noon")
        try await cath.expectLine(#"\d\d:\d\d #team > alice lunch at noon\?"#)
        try await cath.expectLine(#" +yes, at noon"#)
        try await alice.expectLine(#"\d\d:\d\d #team cath!> > you lunch at noon\?"#)
        try await alice.expectLine(#" +yes, at noon"#)
        try await bob.expectLine(#"\d\d:\d\d #team cath> > alice lunch at noon\?"#)
        try await bob.expectLine(#" +yes, at noon"#)
        // bob replies to cath: the mark is cath's, not alice's; a member nobody has is an error.
        bob.send("> #team @cath (yes) me too")
        try await alice.expectLine(#"\d\d:\d\d #team bob> > cath yes, at noon"#)
        try await cath.expectLine(#"\d\d:\d\d #team bob!> > you yes, at noon"#)
        bob.send("> #team @dan (yes) nobody")
        try await bob.expect("error:")
        for user in [alice, bob, cath] { try await user.quit() }
    }

    /// `/f #team path` offers the file to every member; each who accepts with `/fr` gets it over a
    /// transfer of its own, the same bytes; a member who does not accept gets nothing more.
    @Test func aFileOfferedToTheGroupIsReceivedByEachMemberWhoAcceptsIt() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        let cath = try await CLIUser("cath", relay: relay)
        try await GroupEndToEndTests.team(alice, [bob, cath])
        let source = alice.directory.appending("plan.txt")
        let bytes = Data((0..<30_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try bytes.write(to: URL(fileURLWithPath: source))

        alice.send("/f #team \(source)")
        try await alice.expectLine(#"\d\d:\d\d /f #team "# + NSRegularExpression.escapedPattern(for: source))
        for member in [bob, cath] {
            try await member.expectLine(
                #"\d\d:\d\d #team alice> sends file plan\.txt \(29\.3 KiB / 30000 bytes\)"#)
            try await member.expectLine(#"use /fr 1 \[<dir>/ \| <path>\] to receive it"#)
        }
        let inbox = bob.directory.appending("inbox")
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        bob.send("/fr 1 \(inbox)/")
        try await bob.expectLine("saving file 1 from alice to \(inbox)/plan.txt")
        try await bob.expectLine(#"started receiving file 1 \(plan\.txt\) from alice"#)
        try await alice.expectLine(#"started sending file \d+ \(plan\.txt\) to bob"#)
        try await bob.expectLine(#"completed receiving file 1 \(plan\.txt\) from alice"#)
        try await alice.expectLine(#"completed sending file \d+ \(plan\.txt\) to bob"#)
        #expect(FileManager.default.contents(atPath: "\(inbox)/plan.txt") == bytes)
        // Accepting again is refused; cath, who never accepted, has nothing saved.
        bob.send("/fr 1")
        try await bob.expect("error:")
        #expect(!cath.process.allOutput.contains { $0.contains("receiving file") })
        cath.send("/fr 1")
        try await cath.expectLine(#"completed receiving file 1 \(plan\.txt\) from alice"#)
        try await alice.expectLine(#"completed sending file \d+ \(plan\.txt\) to cath"#)
        #expect(try await cath.savedFile(1) == [UInt8](bytes))
        // A missing file is refused before anything is sent.
        alice.send("/f #team \(alice.directory.appending("nope.txt"))")
        try await alice.expect("error:")
        try await Task.sleep(for: .milliseconds(300))
        #expect(!bob.process.allOutput.contains { $0.contains("nope.txt") })
        for user in [alice, bob, cath] { try await user.quit() }
    }

    /// Two members called bob: each member's text names them by its own local names (`bob`,
    /// `bob_1`), and the mention reaches the one meant, through the member id it carries.
    @Test func membersWithOneNameAreToldApartByTheirLocalNames() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        let otherBob = try await CLIUser("bob", relay: relay)
        let cath = try await CLIUser("cath", relay: relay)
        alice.send("/g team")
        try await alice.expectLine("group #team is created")
        for (member, name) in [(bob, "bob"), (otherBob, "bob_1"), (cath, "cath")] {
            // Connected just before the invitation, as the team helper does.
            alice.send("/c")
            let link = try await alice.expect("simplex:/invitation#/?v=")
            member.send("/c \(link)")
            try await alice.expectLine("\(name): contact is connected")
            try await member.expectLine("alice: contact is connected")
            alice.send("/a team \(name) member")
            try await member.expectLine("use /j team to accept")
            member.send("/j team")
            try await member.expectLine("#team: you joined the group")
            try await alice.expectLine("#team: \(name) joined the group")
            if member === otherBob {
                try await bob.expectLine("#team: new member bob_1 is connected")
                try await otherBob.expectLine("#team: member bob_1 is connected")
            }
        }
        // cath knows both: as bob and bob_1.
        let connected = await eventually {
            let lines = cath.process.allOutput
            return lines.contains("#team: member bob is connected")
                && lines.contains("#team: member bob_1 is connected")
        }
        #expect(connected, "\(cath.process.allOutput)")
        for name in ["bob_1", "bob"] {
            cath.send("#team a word for @\(name)")
            let pattern = #"\d\d:\d\d #team cath(!?)> a word for @"# + name
            let first = try await bob.expectLine(pattern)
            let second = try await otherBob.expectLine(pattern)
            // Exactly one of the two is meant.
            #expect(first.contains("cath!>") != second.contains("cath!>"), "\(first) / \(second)")
        }
        // And each is meant once: the two mentions went to different bobs.
        let marked = [bob, otherBob].map { user in
            user.process.allOutput.filter { $0.contains("cath!> a word") }.count
        }
        #expect(marked == [1, 1], "\(marked)")
        for user in [alice, bob, otherBob, cath] { try await user.quit() }
    }
}
