import Foundation
import SimpleXProtocol
import TestSupport
import Testing

@testable import SimpleXChat

/// Moderation through `ChatController` with three users on a real relay (alice owner, bob and cath
/// members, bob made moderator where a test needs it): deleting a member's message for everyone,
/// early moderation, blocking for all, reports, and the receiver refusing what a role does not allow.
@Suite(.serialized)
struct ChatGroupModerationTests {
    typealias User = ChatControllerReadingTests.User

    /// alice makes bob moderator; returns when bob and cath know.
    static func makeBobModerator(_ team: ChatGroupTests.Team) async throws {
        _ = try await team.alice.chat.changeRole("team", member: "bob", to: .moderator)
        for user in [team.bob, team.cath] {
            _ = try await user.events.next {
                if case .group(.memberRole(_, _, _, _, .moderator)) = $0 { true } else { nil }
            }
        }
    }

    /// `from`'s connection to member `name`, to send raw protocol messages as `from` would.
    static func connection(_ from: User, to name: String) async throws -> String {
        let member = try #require(
            try await from.chat.members(of: "team").1.first { $0.localDisplayName == name })
        return try #require(member.agentConnectionID)
    }

    static func forge(_ from: User, to name: String, _ event: ChatMsgEvent, msgId: SharedMsgID? = nil)
        async throws
    {
        _ = try await from.chat.agent.sendMessage(
            try await connection(from, to: name), body: try ChatMessage(msgId: msgId, event: event).encoded())
    }

    static func error(_ user: User) async throws -> GroupChatItem {
        try await user.events.next {
            if case .group(.newItem(_, let item)) = $0, item.isError { item } else { nil }
        }
    }

    static func deleted(_ user: User) async throws -> GroupChatItem {
        try await user.events.next { if case .group(.itemDeleted(_, let item)) = $0 { item } else { nil } }
    }

    static func stop(_ team: ChatGroupTests.Team) async {
        for user in [team.alice, team.bob, team.cath] { await user.chat.stop() }
    }

    @Test func aModeratorDeletesAMembersMessageForEveryoneAndAMemberCannot() async throws {
        let relay = try await RelayProcess()
        let team = try await ChatGroupTests.team(relay: relay)
        try await Self.makeBobModerator(team)
        _ = try await team.cath.chat.sendGroup("team", .text("spam from cath"))
        let atBob = try await ChatGroupTests.received(team.bob, "spam from cath")
        _ = try await ChatGroupTests.received(team.alice, "spam from cath")
        #expect(try await team.bob.chat.group(named: "team").mayModerate(atBob))
        let moderated = try await team.bob.chat.moderateGroupItem("team", atBob)
        #expect(moderated.moderation == .marked(by: nil) && moderated.text == "spam from cath")
        let atAlice = try await Self.deleted(team.alice)
        guard case .marked(let byAtAlice) = atAlice.moderation else {
            throw ModerationTestFailure("alice: \(atAlice)")
        }
        #expect(byAtAlice?.localDisplayName == "bob")
        // cath's own message, marked deleted by bob at cath too.
        let atCath = try await Self.deleted(team.cath)
        guard case .marked(let byAtCath) = atCath.moderation else {
            throw ModerationTestFailure("cath: \(atCath)")
        }
        #expect(byAtCath?.localDisplayName == "bob" && atCath.member == nil)
        // cath cannot bring it back by editing it.
        try await Self.forge(
            team.cath, to: "alice",
            .msgUpdate(MsgUpdate(msgId: try #require(atBob.sharedMsgId), content: .text("back again"))))
        _ = try await team.cath.chat.sendGroup("team", .text("cath's marker"))
        _ = try await ChatGroupTests.received(team.alice, "cath's marker")
        let kept = try #require(
            try await team.alice.chat.groupItems("team", count: 20).first { $0.itemId == atAlice.itemId })
        #expect(kept.text == "spam from cath" && !kept.edited && kept.moderation == atAlice.moderation)

        // bob (moderator) may not delete the owner's message; cath (member) nobody's.
        _ = try await team.alice.chat.sendGroup("team", .text("owner's words"))
        let ownerAtBob = try await ChatGroupTests.received(team.bob, "owner's words")
        let ownerAtCath = try await ChatGroupTests.received(team.cath, "owner's words")
        #expect(try await !team.bob.chat.group(named: "team").mayModerate(ownerAtBob))
        await #expect(throws: ChatError.self) {
            _ = try await team.bob.chat.moderateGroupItem("team", ownerAtBob)
        }
        let aliceId = try #require(ownerAtBob.member?.memberId)
        let msgId = try #require(ownerAtBob.sharedMsgId)
        try await Self.forge(team.bob, to: "cath", .msgDel(msgId: msgId, memberId: aliceId, scope: nil))
        #expect(
            try await Self.error(team.cath).text
                == "x.msg.del from a moderator, who may not delete a message of an owner")
        _ = try await team.bob.chat.sendGroup("team", .text("hello cath"))
        let bobsAtCath = try await ChatGroupTests.received(team.cath, "hello cath")
        _ = try await ChatGroupTests.received(team.alice, "hello cath")
        try await Self.forge(
            team.cath, to: "alice",
            .msgDel(
                msgId: try #require(bobsAtCath.sharedMsgId), memberId: bobsAtCath.member?.memberId, scope: nil
            ))
        #expect(
            try await Self.error(team.alice).text
                == "x.msg.del from a member, who may not delete a message of a moderator")
        let cathItems = try await team.cath.chat.groupItems("team", count: 20)
        #expect(cathItems.first { $0.itemId == ownerAtCath.itemId }?.moderation == nil)
        let aliceItems = try await team.alice.chat.groupItems("team", count: 20)
        #expect(aliceItems.first { $0.text == "hello cath" }?.moderation == nil)

        // A moderation sent again changes nothing more and is not an error.
        try await Self.forge(
            team.bob, to: "alice",
            .msgDel(msgId: try #require(atBob.sharedMsgId), memberId: atBob.member?.memberId, scope: nil))
        _ = try await team.bob.chat.sendGroup("team", .text("after the replay"))
        _ = try await ChatGroupTests.received(team.alice, "after the replay")
        let errors = try await team.alice.chat.groupItems("team", count: 30).filter(\.isError)
        #expect(errors.count == 1)
        await Self.stop(team)
    }

    @Test func aModerationThatComesBeforeItsMessageIsAppliedWhenTheMessageComes() async throws {
        let relay = try await RelayProcess()
        let team = try await ChatGroupTests.team(relay: relay)
        try await Self.makeBobModerator(team)
        let cathAtAlice = try #require(
            try await team.alice.chat.members(of: "team").1.first { $0.localDisplayName == "cath" })
        let early = SharedMsgID(bytes: [9, 8, 7, 6])
        try await Self.forge(
            team.bob, to: "alice", .msgDel(msgId: early, memberId: cathAtAlice.memberId, scope: nil))
        // bob's next message on the same connection comes after the moderation.
        _ = try await team.bob.chat.sendGroup("team", .text("moderation sent"))
        _ = try await ChatGroupTests.received(team.alice, "moderation sent")
        try await Self.forge(
            team.cath, to: "alice", .msgNew(MsgContainer(content: .text("late spam"))), msgId: early)
        let late = try await ChatGroupTests.received(team.alice, "late spam")
        guard case .marked(let by) = late.moderation else {
            throw ModerationTestFailure("not moderated: \(late)")
        }
        #expect(by?.localDisplayName == "bob")
        // Notifications stay quiet for it.
        let user = NotificationUser(userId: 1)
        let group = try await team.alice.chat.group(named: "team")
        #expect(NotificationContent.Source(groupEvent: .newItem(group, late), user: user) == nil)
        await Self.stop(team)
    }

    @Test func aBlockedMembersMessagesAreMutedForOthersAndTheBlockedMemberIsNotTold() async throws {
        let relay = try await RelayProcess()
        let team = try await ChatGroupTests.team(relay: relay)
        try await Self.makeBobModerator(team)
        let cath = try await team.bob.chat.blockMemberForAll("team", member: "cath", blocked: true)
        #expect(cath.blockedByAdmin)
        let told = try await team.alice.events.next {
            if case .group(.memberBlocked(_, let by, let member, let blocked)) = $0 {
                "\(by.localDisplayName) \(blocked ? "blocked" : "unblocked") \(member.localDisplayName)"
            } else {
                nil
            }
        }
        #expect(told == "bob blocked cath")
        _ = try await team.cath.chat.sendGroup("team", .text("muted words"))
        let atAlice = try await ChatGroupTests.received(team.alice, "muted words")
        let atBob = try await ChatGroupTests.received(team.bob, "muted words")
        #expect(atAlice.moderation == .blocked && atBob.moderation == .blocked)
        let group = try await team.alice.chat.group(named: "team")
        let user = NotificationUser(userId: 1)
        #expect(NotificationContent.Source(groupEvent: .newItem(group, atAlice), user: user) == nil)
        // cath was never told: her own message is shown to her, and a forged block naming her is ignored.
        let cathsOwn = try #require(try await team.cath.chat.groupItems("team", count: 10).last)
        #expect(cathsOwn.text == "muted words" && cathsOwn.moderation == nil)
        try await Self.forge(
            team.bob, to: "cath",
            .group(
                .memRestrict(
                    memberId: try await team.cath.chat.group(named: "team").membership.memberId,
                    restrictions: MemberRestrictions(restriction: .blocked))))
        // A member may not block: cath's block of bob is refused at alice.
        let bobAtCath = try #require(
            try await team.cath.chat.members(of: "team").1.first { $0.localDisplayName == "bob" })
        try await Self.forge(
            team.cath, to: "alice",
            .group(
                .memRestrict(
                    memberId: bobAtCath.memberId, restrictions: MemberRestrictions(restriction: .blocked))))
        #expect(
            try await Self.error(team.alice).text
                == "x.grp.mem.restrict from a member, who may not block a moderator")
        #expect(
            try await team.alice.chat.members(of: "team").1.first { $0.localDisplayName == "bob" }?
                .blockedByAdmin == false)
        _ = try await team.bob.chat.sendGroup("team", .text("bob after"))
        _ = try await ChatGroupTests.received(team.cath, "bob after")
        #expect(try await team.cath.chat.groupItems("team", count: 20).filter(\.isError).isEmpty)
        // A blocked member's message can still be moderated.
        let found = try await team.bob.chat.findMemberItem(in: "team", member: "cath", textPrefix: "muted")
        #expect(try await team.bob.chat.moderateGroupItem("team", found).moderation == .marked(by: nil))
        #expect(try await Self.deleted(team.alice).itemId == atAlice.itemId)

        // Unblocked: her messages show again.
        _ = try await team.bob.chat.blockMemberForAll("team", member: "cath", blocked: false)
        _ = try await team.alice.events.next {
            if case .group(.memberBlocked(_, _, _, false)) = $0 { true } else { nil }
        }
        _ = try await team.cath.chat.sendGroup("team", .text("heard again"))
        #expect(try await ChatGroupTests.received(team.alice, "heard again").moderation == nil)
        await Self.stop(team)
    }

    @Test func aReportGoesToModeratorsOnlyAndOneSentToAMemberIsRefused() async throws {
        let relay = try await RelayProcess()
        let team = try await ChatGroupTests.team(relay: relay)
        _ = try await team.bob.chat.sendGroup("team", .text("rude words"))
        let atCath = try await ChatGroupTests.received(team.cath, "rude words")
        _ = try await ChatGroupTests.received(team.alice, "rude words")
        let sent = try await team.cath.chat.reportGroupItem("team", atCath, reason: .content)
        #expect(sent.quote?.member?.localDisplayName == "bob")
        let report = try await team.alice.events.next {
            if case .group(.newItem(_, let item)) = $0, case .report(_, .content) = item.content {
                item
            } else {
                nil
            }
        }
        #expect(report.member?.localDisplayName == "cath")
        #expect(report.quote?.member?.localDisplayName == "bob" && report.quote?.content.text == "rude words")
        #expect(try await team.alice.chat.groupReports("team").map(\.itemId) == [report.itemId])
        // bob, a member, is not sent the report; one forged to him is refused.
        _ = try await team.cath.chat.sendGroup("team", .text("after the report"))
        _ = try await ChatGroupTests.received(team.bob, "after the report")
        #expect(try await team.bob.chat.groupReports("team").isEmpty)
        try await Self.forge(
            team.cath, to: "bob", .msgNew(MsgContainer(content: .report(text: "", reason: .spam))),
            msgId: SharedMsgID(bytes: [5, 5]))
        #expect(try await Self.error(team.bob).text == "a report sent to a member, not a moderator")
        #expect(try await team.bob.chat.groupReports("team").isEmpty)
        await Self.stop(team)
    }

    @Test func badMemberEventsAreRefusedAndChangeNothing() async throws {
        let relay = try await RelayProcess()
        let team = try await ChatGroupTests.team(relay: relay)
        // An introduction step for a member nobody introduced.
        try await Self.forge(
            team.cath, to: "alice",
            .group(
                .memInv(
                    memberId: MemberID(bytes: Array(repeating: 3, count: 12)),
                    intro: IntroInvitation(groupConnReq: "simplex:/invitation#/?v=1"))))
        #expect(try await Self.error(team.alice).text == "x.grp.mem.inv for a member you did not introduce")
        // A group invitation from a member, not a contact: no group made.
        let invitation = GroupInvitation(
            fromMember: MemberIdRole(memberId: MemberID(bytes: [1]), memberRole: .owner),
            invitedMember: MemberIdRole(memberId: MemberID(bytes: [2]), memberRole: .member),
            connRequest: "simplex:/invitation#/?v=1", groupProfile: GroupProfile(displayName: "club"))
        try await Self.forge(team.cath, to: "bob", .group(.inv(invitation)))
        #expect(
            try await Self.error(team.bob).text
                == "x.grp.inv from a group member, not over a contact's connection")
        #expect(try await team.bob.chat.groups().map(\.localDisplayName) == ["team"])
        // A block for a member not in the group.
        try await Self.forge(
            team.alice, to: "bob",
            .group(
                .memRestrict(
                    memberId: MemberID(bytes: Array(repeating: 4, count: 12)),
                    restrictions: MemberRestrictions(restriction: .blocked))))
        #expect(try await Self.error(team.bob).text == "x.grp.mem.restrict for a member not in the group")
        // A moderation of a message of a member not in the group.
        try await Self.forge(
            team.alice, to: "bob",
            .msgDel(
                msgId: SharedMsgID(bytes: [1]), memberId: MemberID(bytes: Array(repeating: 4, count: 12)),
                scope: nil))
        #expect(try await Self.error(team.bob).text == "x.msg.del for a message of an unknown member")
        // The group still works.
        _ = try await team.cath.chat.sendGroup("team", .text("still fine"))
        #expect(try await ChatGroupTests.received(team.bob, "still fine").moderation == nil)
        await Self.stop(team)
    }

    @Test func whereTheGroupHasFullDeleteAModeratedMessageLosesItsContent() async throws {
        let relay = try await RelayProcess()
        let directory = try TemporaryDirectory("chat-groups-full-delete")
        let alice = try await ChatControllerReadingTests.user("alice", relay: relay, in: directory)
        let bob = try await ChatControllerReadingTests.user("bob", relay: relay, in: directory)
        _ = try await ChatGroupTests.connect(alice, bob)
        let group = try await alice.chat.createGroup(
            GroupProfile(displayName: "team", groupPreferences: ["fullDelete": ["enable": "on"]]))
        #expect(group.fullDelete)
        _ = try await alice.chat.addMember("team", contact: "bob", role: .member)
        _ = try await bob.events.next { if case .group(.invitation) = $0 { true } else { nil } }
        _ = try await bob.chat.joinGroup("team")
        _ = try await bob.events.next { if case .group(.userJoined) = $0 { true } else { nil } }
        _ = try await alice.events.next { if case .group(.memberJoined) = $0 { true } else { nil } }
        _ = try await bob.chat.sendGroup("team", .text("buy cheap pills"))
        let atAlice = try await ChatGroupTests.received(alice, "buy cheap pills")
        let moderated = try await alice.chat.moderateGroupItem("team", atAlice)
        #expect(moderated.moderation == .removed(by: nil) && moderated.text.isEmpty)
        let atBob = try await Self.deleted(bob)
        guard case .removed(let by) = atBob.moderation else { throw ModerationTestFailure("bob: \(atBob)") }
        #expect(by?.localDisplayName == "alice" && atBob.text.isEmpty)
        let stored = try await bob.chat.groupItems("team", count: 10)
        #expect(!stored.contains { $0.text.contains("pills") })
        await alice.chat.stop()
        await bob.chat.stop()
    }

    @Test func aRemovedMembersMessagesAreRefusedAndAnotherGroupIsNotAffected() async throws {
        let relay = try await RelayProcess()
        let team = try await ChatGroupTests.team(relay: relay)
        // bob is in alice's #club too.
        _ = try await team.alice.chat.createGroup(GroupProfile(displayName: "club"))
        _ = try await team.alice.chat.addMember("club", contact: "bob", role: .member)
        _ = try await team.bob.events.next { if case .group(.invitation) = $0 { true } else { nil } }
        _ = try await team.bob.chat.joinGroup("club")
        _ = try await team.bob.events.next { if case .group(.userJoined) = $0 { true } else { nil } }
        let cathAtAlice = try #require(
            try await team.alice.chat.members(of: "team").1.first { $0.localDisplayName == "cath" })
        _ = try await team.alice.chat.removeMember("team", member: "cath")
        _ = try await team.bob.events.next { if case .group(.memberRemoved) = $0 { true } else { nil } }
        // alice (the admin who introduced cath) forwards a message as cath's after her removal.
        let late = ChatMessage(
            msgId: SharedMsgID(bytes: [6, 6, 6]), event: .msgNew(MsgContainer(content: .text("still here"))))
        try await Self.forge(
            team.alice, to: "bob",
            .group(
                .msgForward(
                    GroupMsgForward(memberId: cathAtAlice.memberId, msg: late, msgTs: ChatTimestamp(Date()))))
        )
        #expect(
            try await Self.error(team.bob).text == "x.msg.new from a member who is no longer in the group")
        let teamItems = try await team.bob.chat.groupItems("team", count: 20)
        #expect(!teamItems.contains { $0.text == "still here" })
        // #club has none of it, and still works.
        _ = try await team.alice.chat.sendGroup("club", .text("club news"))
        _ = try await ChatGroupTests.received(team.bob, "club news")
        #expect(try await team.bob.chat.groupItems("club", count: 10).map(\.text) == ["club news"])
        await Self.stop(team)
    }

    @Test func aMemberWhoJoinsAfterABlockIsIntroducedToTheBlockedMemberAsBlocked() async throws {
        let relay = try await RelayProcess()
        let team = try await ChatGroupTests.team(relay: relay)
        _ = try await team.alice.chat.blockMemberForAll("team", member: "cath", blocked: true)
        _ = try await team.bob.events.next { if case .group(.memberBlocked) = $0 { true } else { nil } }
        let directory = try TemporaryDirectory("chat-groups-dan")
        let dan = try await ChatControllerReadingTests.user("dan", relay: relay, in: directory)
        _ = try await ChatGroupTests.connect(team.alice, dan)
        _ = try await team.alice.chat.addMember("team", contact: "dan", role: .member)
        _ = try await dan.events.next { if case .group(.invitation) = $0 { true } else { nil } }
        _ = try await dan.chat.joinGroup("team")
        let connected = await eventually {
            (try? await dan.chat.members(of: "team").1.first { $0.localDisplayName == "cath" }?.ready) == true
        }
        let danSees = try await dan.chat.members(of: "team").1.map { "\($0.localDisplayName) \($0.status)" }
        #expect(connected, "dan: \(danSees)")
        let cathAtDan = try #require(
            try await dan.chat.members(of: "team").1.first { $0.localDisplayName == "cath" })
        #expect(cathAtDan.blockedByAdmin)
        let bobAtDan = try #require(
            try await dan.chat.members(of: "team").1.first { $0.localDisplayName == "bob" })
        #expect(!bobAtDan.blockedByAdmin)
        _ = try await team.cath.chat.sendGroup("team", .text("hello dan"))
        #expect(try await ChatGroupTests.received(dan, "hello dan").moderation == .blocked)
        await dan.chat.stop()
        await Self.stop(team)
    }
}

/// A test failure with what was found instead.
struct ModerationTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
