import Foundation
import Testing
import TestSupport

/// Groups between `simplex-chat --cli` processes through a real relay: created, two contacts
/// invited and joined, every member connected to every other, messages from each arriving once
/// and in order at the others; and a member whose connection to a newcomer is still pending
/// getting the newcomer's message forwarded by the host.
@Suite(.serialized)
struct GroupEndToEndTests {
    /// alice's #team; `members` are invited one after another, each joins and connects to those
    /// before. Returns when every pair is connected.
    static func team(_ alice: CLIUser, _ members: [CLIUser]) async throws {
        alice.send("/g team")
        try await alice.expectLine("group #team is created")
        var joined: [CLIUser] = []
        for member in members {
            try await CLIUser.connect(alice, member)
            alice.send("/a team \(member.name) member")
            try await alice.expectLine("invitation to join the group #team sent to \(member.name)")
            try await member.expectLine("#team: alice invites you to join the group as member")
            try await member.expectLine("use /j team to accept")
            member.send("/j team")
            try await member.expectLine("#team: you joined the group")
            try await alice.expectLine("#team: \(member.name) joined the group")
            for earlier in joined {
                try await earlier.expect("#team: alice added \(member.name) to the group (connecting...)")
                try await earlier.expectLine("#team: new member \(member.name) is connected")
            }
            // The newcomer's connections to the members before it come up in any order.
            var pending = Set(joined.map(\.name))
            while !pending.isEmpty {
                let line = try await member.expectLine(#"#team: member \w+ is connected"#)
                let name = line.split(separator: " ")[2]
                #expect(pending.remove(String(name)) != nil, "\(member.name): \(line)")
            }
            joined.append(member)
        }
    }

    @Test func threeMembersAllConnectedAndEachMessageArrivesOnceInOrder() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        let cath = try await CLIUser("cath", relay: relay)
        let users = [alice, bob, cath]
        try await Self.team(alice, [bob, cath])

        alice.send("/ms team")
        try await alice.expectLine("alice: owner, you, created group")
        try await alice.expectLine("bob: member, invited, connected")
        try await alice.expectLine("cath: member, invited, connected")
        cath.send("/ms team")
        try await cath.expectLine("cath: member, you, connected")
        try await cath.expectLine("alice: owner, host, connected")
        try await cath.expectLine("bob: member, connected")
        bob.send("/ms team")
        try await bob.expectLine("alice: owner, host, connected")
        try await bob.expectLine("cath: member, connected")

        for round in 1...3 {
            for sender in users {
                sender.send("#team \(sender.name) says \(round)")
                try await sender.expectLine(#"\d\d:\d\d #team "# + "\(sender.name) says \(round)")
            }
        }
        /// What `receiver` printed from `sender`, in order.
        func texts(_ receiver: CLIUser, from sender: CLIUser) -> [String] {
            receiver.process.allOutput.filter { $0.contains("#team \(sender.name)> ") }.map {
                String($0.split(separator: "> ", maxSplits: 1)[1])
            }
        }
        let pairs = users.flatMap { receiver in users.filter { $0 !== receiver }.map { (receiver, $0) } }
        #expect(await eventually { pairs.allSatisfy { texts($0.0, from: $0.1).count >= 3 } })
        // Let anything forwarded late arrive before counting.
        try await Task.sleep(for: .seconds(1))
        for (receiver, sender) in pairs {
            #expect(
                texts(receiver, from: sender) == (1...3).map { "\(sender.name) says \($0)" },
                "\(receiver.name) from \(sender.name)")
        }
        // The chat list has the group beside the contacts, with its last message.
        alice.send("/chats")
        try await alice.expectLine("#team: cath> cath says 3")
        // An edit and a deletion reach every member.
        bob.send("! #team (bob says 3) bob said three")
        try await bob.expectLine(#"\d\d:\d\d #team \[edited\] bob said three"#)
        for receiver in [alice, cath] {
            try await receiver.expectLine(#"\d\d:\d\d #team bob> \[edited\] bob said three"#)
        }
        cath.send("\\ #team cath says 1")
        try await cath.expectLine("message deleted")
        for receiver in [alice, bob] {
            try await receiver.expectLine(#"\d\d:\d\d #team cath> \[marked deleted\] cath says 1"#)
        }
        // The last round, as stored: bob's message edited in its place.
        alice.send("/tail #team 3")
        try await alice.expectLine(#"\d\d:\d\d #team bob> \[edited\] bob said three"#)
        for user in users { try await user.quit() }
    }

    /// Roles change (an observer cannot send), a member leaves, the owner removes another, and the
    /// removed member's group is over for it.
    @Test func rolesLeavingAndRemoval() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        let cath = try await CLIUser("cath", relay: relay)
        let dan = try await CLIUser("dan", relay: relay)
        try await Self.team(alice, [bob, cath, dan])

        alice.send("/mr team bob observer")
        try await alice.expectLine("#team: you changed the role of bob to observer")
        try await bob.expectLine("#team: alice changed your role from member to observer")
        try await cath.expectLine("#team: alice changed the role of bob from member to observer")
        bob.send("#team can I speak?")
        try await bob.expectLine("error: invalid command: #team: observers cannot send messages")
        // bob, an observer, may not change roles: refused here already.
        bob.send("/mr team cath observer")
        try await bob.expectLine(
            "error: invalid command: #team: you have no permission to make cath observer")

        dan.send("/l team")
        try await dan.expectLine("#team: you left the group")
        for user in [alice, bob, cath] { try await user.expectLine("#team: dan left the group") }

        alice.send("/rm team cath")
        try await alice.expectLine("#team: you removed cath from the group")
        try await cath.expectLine("#team: alice removed you from the group")
        try await bob.expectLine("#team: alice removed cath from the group")
        alice.send("/ms team")
        try await alice.expectLine("bob: observer, invited, connected")
        try await alice.expectLine("cath: member, invited, removed")
        try await alice.expectLine("dan: member, invited, left")

        alice.send("#team only bob now")
        try await bob.expectLine(#"\d\d:\d\d #team alice> only bob now"#)
        cath.send("#team am I still in?")
        try await cath.expectLine("error: invalid command: you are not a member of #team")
        try await Task.sleep(for: .milliseconds(500))
        #expect(!cath.process.allOutput.contains { $0.contains("only bob now") })
        #expect(!dan.process.allOutput.contains { $0.contains("only bob now") })

        // bob may not delete the group; alice, its owner, deletes it for everyone.
        bob.send("/d #team")
        try await bob.expect(
            "error: invalid command: #team: leave the group first (/l team), or ask its owner")
        alice.send("/d #team")
        try await alice.expectLine("#team: you deleted the group")
        try await bob.expectLine("#team: alice deleted the group")
        try await bob.expectLine("use /d #team to delete the local copy of the group")
        bob.send("/d #team")
        try await bob.expectLine("#team: you deleted the group")
        for user in [alice, bob] {
            user.send("/ms team")
            try await user.expectLine("error: invalid command: no group #team")
        }
        for user in [alice, bob, cath, dan] { try await user.quit() }
    }

    /// bob is killed (SIGKILL) while alice and cath are sending; restarted on the same directory he
    /// has every message of both, once each and in each sender's order.
    @Test func aMemberKilledMidStreamAndRestartedMissesNothing() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        let cath = try await CLIUser("cath", relay: relay)
        try await Self.team(alice, [bob, cath])
        let count = 30
        for n in 1...count {
            alice.send("#team alice \(n)")
            cath.send("#team cath \(n)")
            if n == 5 {
                try await bob.expectLine(#"\d\d:\d\d #team alice> alice 2"#)
                bob.process.kill()
                _ = try await bob.process.wait(timeout: .seconds(10))
            }
        }
        try await alice.expectLine(#"\d\d:\d\d #team alice \#(count)"#)
        try await cath.expectLine(#"\d\d:\d\d #team cath \#(count)"#)
        let bobAgain = try await CLIUser("bob", relay: relay, directory: bob.directory)
        bobAgain.send("/tail #team 200")
        func received(_ sender: String) -> [String] {
            (bob.process.allOutput + bobAgain.process.allOutput)
                .filter { $0.contains("#team \(sender)> \(sender) ") && !$0.hasSuffix(" [>>]") }
                .map { String($0.split(separator: "> ", maxSplits: 1)[1]) }
        }
        // Live lines before the kill, then after the restart, and the tail: every message is stored
        // exactly once, in order.
        #expect(
            await eventually(timeout: .seconds(30)) {
                Set(received("alice")).count == count && Set(received("cath")).count == count
            })
        bobAgain.send("/tail #team 200")
        try await Task.sleep(for: .seconds(1))
        let tail = bobAgain.process.allOutput.suffix(2 * count)
        for sender in ["alice", "cath"] {
            let stored = tail.filter { $0.contains("#team \(sender)> ") }.map {
                String($0.split(separator: "> ", maxSplits: 1)[1])
            }
            #expect(
                stored == (1...count).map { "\(sender) \($0)" }, "\(sender)'s messages as bob stored them")
        }
        for user in [alice, bobAgain, cath] { try await user.quit() }
    }

    /// cath is away while bob joins: alice announces bob and forwards bob's invitation to her, and
    /// bob's message, which bob can only send to alice yet, is forwarded to cath by alice; when
    /// cath comes back she has it once, marked forwarded, and then connects to bob directly. dan,
    /// who joins last, is sent the group's history by alice.
    @Test func aMemberNotYetConnectedToANewcomerGetsItsMessagesForwarded() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let cath = try await CLIUser("cath", relay: relay)
        try await Self.team(alice, [cath])
        try await cath.quit()

        let bob = try await CLIUser("bob", relay: relay)
        try await CLIUser.connect(alice, bob)
        alice.send("/a team bob member")
        try await bob.expectLine("use /j team to accept")
        bob.send("/j team")
        try await bob.expectLine("#team: you joined the group")
        try await alice.expectLine("#team: bob joined the group")
        bob.send("#team hello while cath is away")
        try await alice.expectLine(#"\d\d:\d\d #team bob> hello while cath is away"#)

        let cathAgain = try await CLIUser("cath", relay: relay, directory: cath.directory)
        try await cathAgain.expect("#team: alice added bob to the group (connecting...)")
        try await cathAgain.expectLine(#"\d\d:\d\d #team bob> hello while cath is away \[>>\]"#)
        try await cathAgain.expectLine("#team: new member bob is connected")
        try await bob.expectLine("#team: member cath is connected")
        bob.send("#team now directly")
        try await cathAgain.expectLine(#"\d\d:\d\d #team bob> now directly"#)
        // dan, invited now, is sent the group's history by alice, forwarded: bob's messages and
        // cath's, in order.
        let dan = try await CLIUser("dan", relay: relay)
        try await CLIUser.connect(alice, dan)
        alice.send("/a team dan member")
        try await dan.expectLine("use /j team to accept")
        dan.send("/j team")
        try await dan.expectLine("#team: you joined the group")
        try await dan.expectLine(#"\d\d:\d\d #team bob> hello while cath is away \[>>\]"#)
        try await dan.expectLine(#"\d\d:\d\d #team bob> now directly \[>>\]"#)
        cathAgain.send("#team welcome bob")
        try await bob.expectLine(#"\d\d:\d\d #team cath> welcome bob"#)
        try await Task.sleep(for: .seconds(1))
        #expect(cathAgain.process.allOutput.filter { $0.contains("hello while cath is away") }.count == 1)
        for user in [alice, bob, cathAgain, dan] { try await user.quit() }
    }
}
