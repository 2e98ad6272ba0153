import Foundation
import SimpleXChat
import Testing
import TestSupport

/// A group set to mentions only (`/unmute mentions #team`, as SimpleX's CLI says it): while the
/// client is closed, the service notifies the members' messages that mention the user, and only those.
@Suite(.timeLimit(.minutes(4)))
struct NotificationServiceGroupMentionsTests {
    @Test func inMentionsModeOnlyAMentionNotifies() async throws {
        let users = try await NotificationServiceEndToEndTests.Users()
        let (bob, server) = (users.bob, try users.notifications)
        let cath = try await CLIUser("cath", relay: users.relay)

        let alice = try await users.client()
        bob.send("/g team")
        try await bob.expectLine("group #team is created")
        bob.send("/a team alice member")
        try await alice.expectLine("use /j team to accept")
        alice.send("/j team")
        try await alice.expectLine("#team: you joined the group")
        try await CLIUser.connect(bob, cath)
        bob.send("/a team cath member")
        try await cath.expectLine("use /j team to accept")
        cath.send("/j team")
        try await cath.expectLine("#team: you joined the group")
        try await alice.expectLine("#team: new member cath is connected")
        try await cath.expectLine("#team: member alice is connected")
        alice.send("/unmute mentions #team")
        try await alice.expectLine("ok")
        alice.send("/unmute mentions @bob")
        try await alice.expect("/unmute mentions is for groups")
        try await alice.quit()
        let service = try await users.service()
        let before = try await server.notifyCalls().count

        cath.send("#team just chatting")
        bob.send("#team still chatting")
        bob.send("#team @alice what do you think?")
        let mention = try await server.notifyCalls(atLeast: before + 1)[before]
        #expect(mention.summary == "#team bob:")
        #expect(mention.body == "@alice what do you think?")
        cath.send("#team and @bob only")
        // A direct message still notifies, and it comes after everything cath and bob sent before.
        bob.send("@alice direct")
        let direct = try await server.notifyCalls(atLeast: before + 2)[before + 1]
        #expect(direct.summary == "bob:")
        #expect(direct.body == "direct")
        try await Task.sleep(for: .seconds(1))
        #expect(try await server.notifyCalls().count == before + 2)

        // Back to all: every message notifies again.
        let all = try await users.execute("/unmute #team")
        #expect(try await all.wait() == 0, "\(all.allErrors)")
        try await service.reach(.active)
        cath.send("#team heard again")
        let again = try await server.notifyCalls(atLeast: before + 3)[before + 2]
        #expect(again.summary == "#team cath:")
        #expect(again.body == "heard again")

        #expect(try await service.stop() == 0)
        try await cath.quit()
        try await bob.quit()
    }
}
