import Foundation
import Testing
import TestSupport

/// Five `simplex-chat --cli` users in separate processes through a real relay: a group made by
/// invitations and grown by its link, every member connected to every other, each member's
/// messages at every other once and in order, forwarding to a member who was away, a member
/// killed mid-stream who misses nothing, then removal, leaving and deletion; and the owner's
/// profile, preference and welcome changes, a link that makes observers, and direct chats
/// between members where the group allows them.
@Suite(.serialized)
struct GroupMeshEndToEndTests {
    /// Whether `user` printed a line matching `pattern` (a regular expression), whole.
    static func printed(_ user: CLIUser, _ pattern: String) -> Bool {
        guard let regex = try? Regex(pattern) else { return false }
        return user.process.allOutput.contains { $0.wholeMatch(of: regex) != nil }
    }

    /// alice makes #team's link; the link's text.
    static func createLink(_ alice: CLIUser, role: String = "member", command: String = "/create link #team")
        async throws -> String
    {
        alice.send(command)
        try await alice.expectLine("Group link is created!")
        let link = try await alice.expect("simplex:/contact#/?v=")
        try await alice.expectLine(
            "Anybody can connect to you and join group as \(role) with: /c <group_link_above>")
        return link
    }

    /// `joiner` joins #team by alice's `link`; the members in `online` see it added and connected,
    /// and the joiner connects to each of them (in any order).
    static func join(_ joiner: CLIUser, by link: String, host alice: CLIUser, online: [CLIUser]) async throws
    {
        joiner.send("/c \(link)")
        try await joiner.expectLine("connection request sent!")
        try await alice.expectLine("\(joiner.name): accepting request to join group #team...")
        try await joiner.expectLine("#team: joining the group...")
        try await joiner.expectLine("#team: you joined the group")
        try await alice.expectLine("#team: \(joiner.name) joined the group")
        for member in online {
            try await member.expect("#team: alice added \(joiner.name) to the group (connecting...)")
            try await member.expectLine("#team: new member \(joiner.name) is connected")
        }
        for member in online {
            #expect(
                await eventually { printed(joiner, "#team: member \(member.name) is connected") },
                "\(joiner.name) connected to \(member.name)")
        }
    }

    @Test func fiveMembersByInvitationAndLinkEachMessageOnceInOrder() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        let cath = try await CLIUser("cath", relay: relay)
        let dan = try await CLIUser("dan", relay: relay)
        let eve = try await CLIUser("eve", relay: relay)
        try await GroupEndToEndTests.team(alice, [bob, cath])

        // The welcome message, set by the owner, is shown to everyone in the group.
        alice.send("/set welcome #team Welcome to the team!")
        try await alice.expectLine("welcome message changed to:")
        try await alice.expectLine("Welcome to the team!")
        for member in [bob, cath] {
            try await member.expectLine("alice updated group #team:")
            try await member.expectLine("welcome message changed to:")
            try await member.expectLine("Welcome to the team!")
        }
        alice.send("#team before the link")
        for member in [bob, cath] { try await member.expectLine(#"\d\d:\d\d #team alice> before the link"#) }

        // dan joins by the link (no contact with anyone): the history first, then the welcome.
        let link = try await Self.createLink(alice)
        try await Self.join(dan, by: link, host: alice, online: [bob, cath])
        try await dan.expectLine(#"\d\d:\d\d #team alice> before the link \[>>\]"#)
        try await dan.expectLine(#"\d\d:\d\d #team alice> Welcome to the team!"#)
        // The same link again, or the host's own: refused, nothing sent.
        dan.send("/c \(link)")
        try await dan.expectLine(
            "error: invalid command: group link: known group #team, use #team <message> to send messages")
        alice.send("/c \(link)")
        try await alice.expectLine("error: invalid command: group link: own link for group #team")

        // cath is away while eve joins by the link: eve's message reaches her forwarded by
        // alice, once, and then cath and eve connect directly.
        try await cath.quit()
        try await Self.join(eve, by: link, host: alice, online: [bob, dan])
        eve.send("#team eve is here")
        for member in [alice, bob, dan] { try await member.expectLine(#"\d\d:\d\d #team eve> eve is here"#) }
        let cathAgain = try await CLIUser("cath", relay: relay, directory: cath.directory)
        try await cathAgain.expect("#team: alice added eve to the group (connecting...)")
        try await cathAgain.expectLine(#"\d\d:\d\d #team eve> eve is here \[>>\]"#)
        try await cathAgain.expectLine("#team: new member eve is connected")
        #expect(await eventually { Self.printed(eve, "#team: member cath is connected") })

        // Every member is connected to every other.
        let users = [alice, bob, cathAgain, dan, eve]
        for user in users {
            user.send("/ms team")
            for other in users where other !== user {
                #expect(
                    await eventually {
                        Self.printed(user, "\(other.name): \\w+, (invited, |host, )?connected")
                    },
                    "\(user.name) connected to \(other.name)")
            }
        }

        // Two rounds from each member: at every other member once each, in order.
        for round in 1...2 {
            for sender in users {
                sender.send("#team \(sender.name) says \(round)")
                try await sender.expectLine(#"\d\d:\d\d #team "# + "\(sender.name) says \(round)")
            }
        }
        func texts(_ receiver: CLIUser, from sender: CLIUser) -> [String] {
            receiver.process.allOutput.filter { $0.contains("#team \(sender.name)> \(sender.name) says") }.map
            {
                String($0.split(separator: "> ", maxSplits: 1)[1])
            }
        }
        let pairs = users.flatMap { receiver in users.filter { $0 !== receiver }.map { (receiver, $0) } }
        #expect(await eventually { pairs.allSatisfy { texts($0.0, from: $0.1).count >= 2 } })
        try await Task.sleep(for: .seconds(1))
        for (receiver, sender) in pairs {
            #expect(
                texts(receiver, from: sender) == (1...2).map { "\(sender.name) says \($0)" },
                "\(receiver.name) from \(sender.name)")
        }

        // bob is killed while dan and eve send; restarted, he has every message once, in order.
        let count = 12
        for n in 1...count {
            dan.send("#team dan \(n)")
            eve.send("#team eve \(n)")
            if n == 3 {
                try await bob.expectLine(#"\d\d:\d\d #team dan> dan 2"#)
                bob.process.kill()
                _ = try await bob.process.wait(timeout: .seconds(10))
            }
        }
        try await dan.expectLine(#"\d\d:\d\d #team dan \#(count)"#)
        try await eve.expectLine(#"\d\d:\d\d #team eve \#(count)"#)
        let bobAgain = try await CLIUser("bob", relay: relay, directory: bob.directory)
        /// `dan 1`, `dan 2`, ... as bob printed them, before the kill and after.
        func numbered(_ lines: some Sequence<String>, from sender: String) -> [String] {
            guard let regex = try? Regex(#"\d\d:\d\d #team "# + sender + "> " + sender + #" \d+"#) else {
                return []
            }
            return lines.filter { $0.wholeMatch(of: regex) != nil }.map {
                String($0.split(separator: "> ", maxSplits: 1)[1])
            }
        }
        func received(_ sender: String) -> Set<String> {
            Set(numbered(bob.process.allOutput + bobAgain.process.allOutput, from: sender))
        }
        // A line printed just before the kill may be lost with the process's output (the message
        // is stored): the tail now shows what was stored by then, the live lines the rest.
        bobAgain.send("/tail #team \(2 * count)")
        #expect(
            await eventually(timeout: .seconds(30)) {
                received("dan").count == count && received("eve").count == count
            })
        bobAgain.send("/tail #team \(2 * count)")
        try await Task.sleep(for: .seconds(1))
        // As stored: every message once, in each sender's order.
        let tail = bobAgain.process.allOutput.suffix(2 * count)
        for sender in ["dan", "eve"] {
            #expect(
                numbered(tail, from: sender) == (1...count).map { "\(sender) \($0)" },
                "\(sender)'s messages as bob stored them")
        }

        // A role change, a removal, a member leaving, and the owner deleting the group.
        alice.send("/mr team eve observer")
        try await alice.expectLine("#team: you changed the role of eve to observer")
        try await eve.expectLine("#team: alice changed your role from member to observer")
        for member in [bobAgain, cathAgain, dan] {
            try await member.expectLine("#team: alice changed the role of eve from member to observer")
        }
        alice.send("/rm team dan")
        try await alice.expectLine("#team: you removed dan from the group")
        try await dan.expectLine("#team: alice removed you from the group")
        for member in [bobAgain, cathAgain, eve] {
            try await member.expectLine("#team: alice removed dan from the group")
        }
        eve.send("/l team")
        try await eve.expectLine("#team: you left the group")
        for member in [alice, bobAgain, cathAgain] {
            try await member.expectLine("#team: eve left the group")
        }
        alice.send("/d #team")
        try await alice.expectLine("#team: you deleted the group")
        for member in [bobAgain, cathAgain] {
            try await member.expectLine("#team: alice deleted the group")
            try await member.expectLine("use /d #team to delete the local copy of the group")
        }
        // The link went with the group: nobody joins by it any more.
        alice.send("/show link #team")
        try await alice.expectLine("error: invalid command: no group #team")
        for user in [alice, bobAgain, cathAgain, dan, eve] { try await user.quit() }
    }

    /// The owner renames the group and turns direct messages off and on; a link that makes
    /// observers; a member asks for a direct chat with another where the group forbids it and
    /// where it allows it; files refused where they are off; a joiner with too long a name refused
    /// by the link; and a deleted link.
    @Test func profilePreferencesObserverLinkAndMemberContacts() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        let cath = try await CLIUser("cath", relay: relay)
        try await GroupEndToEndTests.team(alice, [bob])

        bob.send("/gp team club")
        try await bob.expectLine(
            "error: invalid command: #team: you have insufficient permissions for this action, the required role is owner"
        )
        alice.send("/gp team club The_Club")
        try await alice.expectLine("changed to #club")
        try await alice.expectLine("description changed to: The_Club")
        try await bob.expectLine("alice updated group #team:")
        try await bob.expectLine("changed to #club")
        try await bob.expectLine("description changed to: The_Club")
        bob.send("#club hi")
        try await alice.expectLine(#"\d\d:\d\d #club bob> hi"#)

        alice.send("/set direct #club off")
        try await alice.expectLine("updated group preferences:")
        try await alice.expectLine("Direct messages: off")
        try await bob.expectLine("alice updated group #club:")
        try await bob.expectLine("updated group preferences:")
        try await bob.expectLine("Direct messages: off")
        alice.send("/gp club")
        try await alice.expect("#club (The_Club)")
        try await alice.expectLine("group preferences:")
        try await alice.expectLine("Direct messages: off")
        try await alice.expectLine("Files and media: on")

        // Only an admin makes the link; cath joins by one that makes observers: she reads, and
        // cannot write.
        bob.send("/create link #club")
        try await bob.expectLine(
            "error: invalid command: #club: you have insufficient permissions for this action, the required role is admin"
        )
        let link = try await Self.createLink(alice, role: "observer", command: "/create link #club observer")
        cath.send("/c \(link)")
        try await alice.expectLine("cath: accepting request to join group #club...")
        try await cath.expectLine("#club: you joined the group")
        try await bob.expectLine("#club: new member cath is connected")
        try await cath.expectLine("#club: member bob is connected")
        cath.send("#club may I?")
        try await cath.expectLine("error: invalid command: #club: observers cannot send messages")
        alice.send("/ms club")
        try await alice.expectLine("cath: observer, invited, connected")

        // A direct chat with a member: refused while the group forbids it, made once it allows it.
        cath.send("@#club bob hello bob")
        try await cath.expectLine(
            "error: invalid command: #club: direct messages between members are prohibited")
        alice.send("/set direct #club on")
        try await alice.expectLine("Direct messages: on")
        try await cath.expectLine("Direct messages: on")
        cath.send("@#club bob hello bob")
        try await cath.expectLine("member #club bob does not have direct connection, creating")
        try await cath.expectLine("contact for member #club bob is created")
        try await cath.expectLine("sent invitation to connect directly to member #club bob")
        try await cath.expectLine(#"\d\d:\d\d @bob hello bob"#)
        try await bob.expectLine("#club cath is creating direct contact cath with you")
        try await bob.expectLine(#"\d\d:\d\d cath> hello bob"#)
        try await bob.expectLine("cath: contact is connected")
        try await cath.expectLine("bob: contact is connected")
        bob.send("@cath hi cath")
        try await cath.expectLine(#"\d\d:\d\d bob> hi cath"#)
        // The contact is the member's now: a second message to the member goes to it.
        cath.send("@#club bob again")
        try await bob.expectLine(#"\d\d:\d\d cath> again"#)
        #expect(!cath.process.allOutput.contains { $0.contains("creating") && $0.contains("again") })

        // Files off: a file to the group is refused before anything is sent.
        alice.send("/set files #club off")
        try await bob.expectLine("Files and media: off")
        bob.send("/f #club \(bob.directory.appending("group"))")
        try await bob.expectLine("error: invalid command: #club: files and media not allowed")

        // A joiner whose name is too long is refused by the link, and told so.
        let long = try await CLIUser(String(repeating: "x", count: 101), relay: relay)
        long.send("/c \(link)")
        try await long.expectLine("connection request sent!")
        try await long.expect(
            "#club: the host rejected your request to join the group (the display name is too long)")
        alice.send("/ms club")
        try await alice.expectLine("cath: observer, invited, connected")
        #expect(!alice.process.allOutput.contains { $0.contains("xxxxxxxxxx") })

        // The deleted link is gone; members who joined by it stay.
        alice.send("/delete link #club")
        try await alice.expectLine("Group link is deleted - joined members will remain connected.")
        alice.send("/show link #club")
        try await alice.expectLine("error: invalid command: no group link, to create: /create link #club")
        alice.send("#club still here")
        try await cath.expectLine(#"\d\d:\d\d #club alice> still here"#)
        for user in [alice, bob, cath, long] { try await user.quit() }
    }
}
