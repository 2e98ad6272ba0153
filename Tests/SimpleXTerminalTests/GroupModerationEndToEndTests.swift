import Foundation
import Testing
import TestSupport

/// Moderation between `simplex-chat --cli` processes through a real relay, with alice the owner,
/// bob a moderator and cath a member: bob deletes cath's message for everyone, blocks her for all
/// (alice sees her muted, cath is never told), cath's report reaches alice and bob, and cath, a
/// member, may neither moderate nor block.
@Suite(.serialized)
struct GroupModerationEndToEndTests {
    @Test func moderateBlockReportAndAPermissionRefusal() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        let cath = try await CLIUser("cath", relay: relay)
        try await GroupEndToEndTests.team(alice, [bob, cath])
        alice.send("/mr team bob moderator")
        try await alice.expectLine("#team: you changed the role of bob to moderator")
        try await bob.expectLine("#team: alice changed your role from member to moderator")
        try await cath.expectLine("#team: alice changed the role of bob from member to moderator")

        // Moderate: bob deletes cath's message for everyone.
        cath.send("#team buy cheap pills")
        try await cath.expectLine(#"\d\d:\d\d #team buy cheap pills"#)
        try await alice.expectLine(#"\d\d:\d\d #team cath> buy cheap pills"#)
        try await bob.expectLine(#"\d\d:\d\d #team cath> buy cheap pills"#)
        bob.send("\\ #team @cath buy cheap")
        try await bob.expectLine("message marked deleted by you")
        try await alice.expectLine(#"\d\d:\d\d #team cath> \[marked deleted by bob\] buy cheap pills"#)
        try await cath.expectLine(#"\d\d:\d\d #team \[marked deleted by bob\] buy cheap pills"#)

        // A member may not moderate, nor block.
        alice.send("#team welcome all")
        try await cath.expectLine(#"\d\d:\d\d #team alice> welcome all"#)
        cath.send("\\ #team @alice welcome")
        try await cath.expectLine(
            "error: invalid command: #team: you have no permission to delete alice's message")
        cath.send("/block for all #team bob")
        try await cath.expectLine("error: invalid command: #team: you have no permission to block bob")

        // Report: cath reports alice's message; the moderators (alice, bob) get it.
        alice.send("#team a rude remark")
        try await cath.expectLine(#"\d\d:\d\d #team alice> a rude remark"#)
        try await bob.expectLine(#"\d\d:\d\d #team alice> a rude remark"#)
        cath.send("/report #team @alice content a rude")
        try await cath.expectLine(#"\d\d:\d\d #team > alice a rude remark"#)
        try await cath.expectLine("      report content")
        try await alice.expectLine(#"\d\d:\d\d #team cath> > you a rude remark"#)
        try await alice.expectLine("      report content")
        try await bob.expectLine(#"\d\d:\d\d #team cath> > alice a rude remark"#)
        try await bob.expectLine("      report content")

        // Block for all: alice sees cath blocked and her messages muted; cath is not told.
        bob.send("/block for all #team cath")
        try await bob.expectLine("#team: you blocked cath")
        try await alice.expectLine("#team: bob blocked cath")
        cath.send("#team can you hear me")
        try await cath.expectLine(#"\d\d:\d\d #team can you hear me"#)
        try await alice.expectLine(#"\d\d:\d\d #team cath> can you hear me \[blocked by admin\] <muted>"#)
        try await bob.expectLine(#"\d\d:\d\d #team cath> can you hear me \[blocked by admin\] <muted>"#)
        alice.send("/ms team")
        try await alice.expectLine("cath: member, invited, connected, blocked by admin")
        // Unblock: her messages are heard again.
        bob.send("/unblock for all #team cath")
        try await bob.expectLine("#team: you unblocked cath")
        try await alice.expectLine("#team: bob unblocked cath")
        cath.send("#team hello again")
        try await alice.expectLine(#"\d\d:\d\d #team cath> hello again"#)
        try await bob.expectLine(#"\d\d:\d\d #team cath> hello again"#)
        #expect(!cath.process.allOutput.contains { $0.contains("blocked") })
        for user in [alice, bob, cath] { try await user.quit() }
    }

    /// cath is away while bob, a new moderator, moderates dan's message and blocks dan: alice, who
    /// introduced bob, forwards both to cath when she is back (not the block to dan).
    @Test func aMemberAwayGetsTheModerationAndTheBlockForwarded() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let cath = try await CLIUser("cath", relay: relay)
        let dan = try await CLIUser("dan", relay: relay)
        try await GroupEndToEndTests.team(alice, [cath, dan])
        dan.send("#team buy cheap pills")
        try await cath.expectLine(#"\d\d:\d\d #team dan> buy cheap pills"#)
        try await alice.expectLine(#"\d\d:\d\d #team dan> buy cheap pills"#)
        try await cath.quit()

        let bob = try await CLIUser("bob", relay: relay)
        try await CLIUser.connect(alice, bob)
        alice.send("/a team bob moderator")
        try await bob.expectLine("use /j team to accept")
        bob.send("/j team")
        try await bob.expectLine("#team: you joined the group")
        try await bob.expectLine(#"\d\d:\d\d #team dan> buy cheap pills \[>>\]"#)
        bob.send("\\ #team @dan buy cheap")
        try await bob.expectLine("message marked deleted by you")
        try await alice.expectLine(#"\d\d:\d\d #team dan> \[marked deleted by bob\] buy cheap pills"#)
        bob.send("/block for all #team dan")
        try await bob.expectLine("#team: you blocked dan")
        try await alice.expectLine("#team: bob blocked dan")

        let cathAgain = try await CLIUser("cath", relay: relay, directory: cath.directory)
        try await cathAgain.expect("#team: alice added bob to the group (connecting...)")
        try await cathAgain.expectLine(#"\d\d:\d\d #team dan> \[marked deleted by bob\] buy cheap pills"#)
        try await cathAgain.expectLine("#team: bob blocked dan")
        dan.send("#team more pills")
        try await cathAgain.expectLine(#"\d\d:\d\d #team dan> more pills \[blocked by admin\] <muted>"#)
        try await alice.expectLine(#"\d\d:\d\d #team dan> more pills \[blocked by admin\] <muted>"#)
        #expect(!dan.process.allOutput.contains { $0.contains("blocked") })
        for user in [alice, bob, cathAgain, dan] { try await user.quit() }
    }
}
