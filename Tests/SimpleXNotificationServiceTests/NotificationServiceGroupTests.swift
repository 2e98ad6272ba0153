import Foundation
import SimpleXChat
import Testing
import TestSupport

/// Groups while the client is closed: the service notifies an invitation to a group and the members'
/// messages with SimpleX's titles, and a muted group's messages not at all.
@Suite(.timeLimit(.minutes(4)))
struct NotificationServiceGroupTests {
    @Test func groupInvitationsAndMessagesAreNotifiedAndAMutedGroupIsNot() async throws {
        let users = try await NotificationServiceEndToEndTests.Users()
        let (bob, server) = (users.bob, try users.notifications)
        let cath = try await CLIUser("cath", relay: users.relay)
        let service = try await users.service()

        // Bob invites Alice while her client is closed: the invitation is Bob's message.
        bob.send("/g team")
        try await bob.expectLine("group #team is created")
        bob.send("/a team alice member")
        try await bob.expectLine("invitation to join the group #team sent to alice")
        let invitation = try #require(try await server.notifyCalls(atLeast: 1).first)
        #expect(invitation.summary == "bob:")
        #expect(invitation.body == "invitation to group team")

        // Alice joins in her client; Cath joins after her, and the two connect.
        let alice = try await users.client()
        alice.send("/j team")
        try await alice.expectLine("#team: you joined the group")
        try await bob.expectLine("#team: alice joined the group")
        try await CLIUser.connect(bob, cath)
        bob.send("/a team cath member")
        try await cath.expectLine("use /j team to accept")
        cath.send("/j team")
        try await cath.expectLine("#team: you joined the group")
        try await alice.expectLine("#team: new member cath is connected")
        try await cath.expectLine("#team: member alice is connected")
        try await alice.quit()
        try await service.reach(.active)

        // Each member's message, titled with the group and the member; the group's one notification
        // (the invitation's, which opens the group too) is replaced.
        cath.send("#team hi from cath")
        let fromCath = try await server.notifyCalls(atLeast: 2)[1]
        #expect(fromCath.summary == "#team cath:")
        #expect(fromCath.body == "hi from cath")
        bob.send("#team and bob")
        let fromBob = try await server.notifyCalls(atLeast: 3)[2]
        #expect(fromBob.summary == "#team bob:")
        #expect(fromBob.body == "and bob")
        #expect(fromCath.replacesID != 0 && fromBob.replacesID != 0)
        try users.defaults.set(.ntfPreviewMode, .hidden)
        cath.send("#team a secret")
        let hidden = try await server.notifyCalls(atLeast: 4)[3]
        #expect(hidden.summary == "Group message:")
        #expect(hidden.body == "new message")
        try users.defaults.set(.ntfPreviewMode, .message)

        // Muted with -e as SimpleX's CLI says it: received, not notified; Bob's direct message after it
        // still is.
        let mute = try await users.execute("/mute #team")
        #expect(try await mute.wait() == 0, "\(mute.allErrors)")
        try await service.reach(.active)
        bob.send("#team nobody hears this")
        bob.send("@alice but this one")
        let direct = try await server.notifyCalls(atLeast: 5)[4]
        #expect(direct.summary == "bob:")
        #expect(direct.body == "but this one")
        try await Task.sleep(for: .seconds(1))
        #expect(try await server.notifyCalls().count == 5)

        // Unmuted through the API, as SimpleX's apps send it.
        let unmute = try await users.execute(#"/_settings #1 {"enableNtfs":"all","sendRcpts":null,"favorite":false}"#)
        #expect(try await unmute.wait() == 0, "\(unmute.allErrors)")
        #expect(unmute.allOutput.first?.contains(#""type":"cmdOk""#) == true)
        try await service.reach(.active)
        cath.send("#team heard again")
        let again = try await server.notifyCalls(atLeast: 6)[5]
        #expect(again.summary == "#team cath:")
        #expect(again.body == "heard again")

        #expect(try await service.stop() == 0)
        let log = service.process.allErrors.joined(separator: "\n")
        for secret in ["hi from cath", "team", "cath"] { #expect(!log.contains(secret)) }
        try await cath.quit()
        try await bob.quit()
    }
}
