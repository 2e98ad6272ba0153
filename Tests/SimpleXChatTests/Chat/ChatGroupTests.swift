import Foundation
import SimpleXProtocol
import TestSupport
import Testing

@testable import SimpleXChat

/// Groups through `ChatController` with three users on a real relay: invitation, joining, the
/// introductions that connect every pair of members, messages, and the receiver's refusals of
/// events a member's role does not allow.
@Suite(.serialized)
struct ChatGroupTests {
    typealias User = ChatControllerReadingTests.User

    struct Team {
        let alice: User
        let bob: User
        let cath: User
    }

    static func connect(_ a: User, _ b: User) async throws -> (ChatContact, ChatContact) {
        try await b.chat.connect(link: try await a.chat.createInvitation())
        let ofB = try await a.events.next { if case .contactConnected(let c) = $0 { c } else { nil } }
        let ofA = try await b.events.next { if case .contactConnected(let c) = $0 { c } else { nil } }
        return (ofB, ofA)
    }

    /// Alice's group #team with bob and cath as members, every pair connected.
    static func team(relay: RelayProcess) async throws -> Team {
        let directory = try TemporaryDirectory("chat-groups")
        let alice = try await ChatControllerReadingTests.user("alice", relay: relay, in: directory)
        let bob = try await ChatControllerReadingTests.user("bob", relay: relay, in: directory)
        let cath = try await ChatControllerReadingTests.user("cath", relay: relay, in: directory)
        _ = try await connect(alice, bob)
        _ = try await connect(alice, cath)
        let group = try await alice.chat.createGroup(GroupProfile(displayName: "team", fullName: "Team"))
        #expect(group.membership.role == .owner)
        for (invitee, name) in [(bob, "bob"), (cath, "cath")] {
            _ = try await alice.chat.addMember("team", contact: name, role: .member)
            let role = try await invitee.events.next {
                if case .group(.invitation(_, let from, let role)) = $0, from == "alice" { role } else { nil }
            }
            #expect(role == .member)
            _ = try await invitee.chat.joinGroup("team")
            _ = try await invitee.events.next { if case .group(.userJoined) = $0 { true } else { nil } }
            let joined = try await alice.events.next {
                if case .group(.memberJoined(_, let member)) = $0 { member.localDisplayName } else { nil }
            }
            #expect(joined == name)
        }
        let added = try await bob.events.next {
            if case .group(.memberAdded(_, let host, let member)) = $0 {
                "\(host.localDisplayName) added \(member.localDisplayName)"
            } else {
                nil
            }
        }
        #expect(added == "alice added cath")
        let toCath = try await bob.events.next {
            if case .group(.memberConnected(_, let member, let new)) = $0 {
                "\(member.localDisplayName) \(new)"
            } else {
                nil
            }
        }
        #expect(toCath == "cath true")
        let toBob = try await cath.events.next {
            if case .group(.memberConnected(_, let member, let new)) = $0 {
                "\(member.localDisplayName) \(new)"
            } else {
                nil
            }
        }
        #expect(toBob == "bob false")
        return Team(alice: alice, bob: bob, cath: cath)
    }

    static func received(_ user: User, _ text: String) async throws -> GroupChatItem {
        try await user.events.next {
            if case .group(.newItem(_, let item)) = $0, item.text == text { item } else { nil }
        }
    }

    @Test func everyMemberGetsEveryMessageOnceFromItsSender() async throws {
        let relay = try await RelayProcess()
        let team = try await Self.team(relay: relay)
        for user in [team.alice, team.bob, team.cath] {
            for member in try await user.chat.members(of: "team").1 {
                #expect(member.ready && member.status == .connected, "\(member.localDisplayName)")
            }
        }
        _ = try await team.bob.chat.sendGroup("team", .text("hi from bob"))
        #expect(try await Self.received(team.alice, "hi from bob").member?.localDisplayName == "bob")
        #expect(try await Self.received(team.cath, "hi from bob").member?.localDisplayName == "bob")
        _ = try await team.cath.chat.sendGroup("team", .text("hi from cath"))
        #expect(try await Self.received(team.bob, "hi from cath").member?.localDisplayName == "cath")
        try await Task.sleep(for: .milliseconds(500))
        // Forwarded or direct, each message is stored once.
        let cathItems = try await team.cath.chat.groupItems("team", count: 10).map(\.text)
        #expect(cathItems == ["hi from bob", "hi from cath"])
        for user in [team.alice, team.bob, team.cath] { await user.chat.stop() }
    }

    /// Two contacts invited at once; the first joins and the group talks before the second
    /// accepts. The host once dropped the second's invitation connection (an invited member is
    /// not "current") when it acknowledged the first's messages, and that join never completed.
    @Test func aContactWhoJoinsAfterTheGroupHasTalkedStillConnects() async throws {
        let relay = try await RelayProcess()
        let directory = try TemporaryDirectory("chat-groups-late")
        let alice = try await ChatControllerReadingTests.user("alice", relay: relay, in: directory)
        let bob = try await ChatControllerReadingTests.user("bob", relay: relay, in: directory)
        let cath = try await ChatControllerReadingTests.user("cath", relay: relay, in: directory)
        _ = try await Self.connect(alice, bob)
        _ = try await Self.connect(alice, cath)
        _ = try await alice.chat.createGroup(GroupProfile(displayName: "team", fullName: ""))
        _ = try await alice.chat.addMember("team", contact: "bob", role: .member)
        _ = try await alice.chat.addMember("team", contact: "cath", role: .member)
        for invitee in [bob, cath] {
            _ = try await invitee.events.next { if case .group(.invitation) = $0 { true } else { nil } }
        }
        _ = try await bob.chat.joinGroup("team")
        _ = try await bob.events.next { if case .group(.userJoined) = $0 { true } else { nil } }
        _ = try await bob.chat.sendGroup("team", .text("bob before cath"))
        _ = try await Self.received(alice, "bob before cath")
        _ = try await alice.chat.sendGroup("team", .text("alice before cath"))
        _ = try await Self.received(bob, "alice before cath")
        try await Task.sleep(for: .milliseconds(300))  // alice's acknowledgements of bob's messages
        _ = try await cath.chat.joinGroup("team")
        _ = try await cath.events.next { if case .group(.userJoined) = $0 { true } else { nil } }
        let joined = try await alice.events.next {
            if case .group(.memberJoined(_, let member)) = $0 { member.localDisplayName } else { nil }
        }
        #expect(joined == "cath")
        _ = try await cath.events.next {
            if case .group(.memberConnected(_, let member, _)) = $0, member.localDisplayName == "bob" { true } else { nil }
        }
        _ = try await alice.chat.sendGroup("team", .text("welcome cath"))
        #expect(try await Self.received(cath, "welcome cath").member?.localDisplayName == "alice")
        for user in [alice, bob, cath] { await user.chat.stop() }
    }

    @Test func eventsAMembersRoleDoesNotAllowAreRecordedAsErrorsAndChangeNothing() async throws {
        let relay = try await RelayProcess()
        let team = try await Self.team(relay: relay)
        let (group, bobsMembers) = try await team.bob.chat.members(of: "team")
        let cathAtBob = try #require(bobsMembers.first { $0.localDisplayName == "cath" })
        let aliceAtBob = try #require(bobsMembers.first { $0.localDisplayName == "alice" })
        let toCath = try #require(cathAtBob.agentConnectionID)
        func forge(_ event: ChatMsgEvent, msgId: SharedMsgID? = nil) async throws {
            _ = try await team.bob.chat.agent.sendMessage(
                toCath, body: try ChatMessage(msgId: msgId, event: event).encoded())
        }
        // bob is a member: he may not announce members, nor forward for alice.
        let stranger = MemberInfo(
            memberId: MemberID(bytes: Array(repeating: 7, count: 12)), memberRole: .member,
            profile: Profile(displayName: "mallory", fullName: ""))
        try await forge(.group(.memNew(stranger, scope: nil)))
        let refusedNew = try await team.cath.events.next {
            if case .group(.newItem(_, let item)) = $0, item.isError { item } else { nil }
        }
        #expect(refusedNew.member?.localDisplayName == "bob")
        #expect(refusedNew.text.contains("x.grp.mem.new"))
        let forged = ChatMessage(
            msgId: SharedMsgID(bytes: [1, 2, 3]),
            event: .msgNew(MsgContainer(content: .text("forged by bob"))))
        try await forge(
            .group(
                .msgForward(
                    GroupMsgForward(memberId: aliceAtBob.memberId, msg: forged, msgTs: ChatTimestamp(Date())))
            ))
        let refusedForward = try await team.cath.events.next {
            if case .group(.newItem(_, let item)) = $0, item.isError { item } else { nil }
        }
        #expect(refusedForward.text.contains("forwarded message"))
        try await forge(
            .group(.memFwd(stranger, intro: IntroInvitation(groupConnReq: "simplex:/invitation#/?v=1"))))
        let refusedIntro = try await team.cath.events.next {
            if case .group(.newItem(_, let item)) = $0, item.isError { item } else { nil }
        }
        #expect(refusedIntro.text.contains("x.grp.mem.fwd"))
        // bob cannot edit or delete alice's message: it names alice's msgId, but comes from bob.
        _ = try await team.alice.chat.sendGroup("team", .text("alice's words"))
        let original = try await Self.received(team.cath, "alice's words")
        let aliceMsgId = try #require(original.sharedMsgId)
        try await forge(.msgUpdate(MsgUpdate(msgId: aliceMsgId, content: .text("bob's words"))))
        try await forge(.msgDel(msgId: aliceMsgId, memberId: nil, scope: nil))
        _ = try await team.bob.chat.sendGroup("team", .text("after the forgeries"))
        _ = try await Self.received(team.cath, "after the forgeries")
        let kept = try #require(
            try await team.cath.chat.groupItems("team", count: 20).first { $0.itemId == original.itemId })
        #expect(kept.text == "alice's words" && !kept.edited && !kept.deleted)
        // Nor remove alice, nor change cath's role.
        let cathAtCath = try await team.cath.chat.group(named: "team").membership
        try await forge(.group(.memDel(memberId: aliceAtBob.memberId, messages: false)))
        let refusedRemoval = try await team.cath.events.next {
            if case .group(.newItem(_, let item)) = $0, item.isError { item } else { nil }
        }
        #expect(refusedRemoval.text == "x.grp.mem.del from a member, who may not remove an owner")
        try await forge(.group(.memRole(memberId: cathAtCath.memberId, role: .observer)))
        let refusedRole = try await team.cath.events.next {
            if case .group(.newItem(_, let item)) = $0, item.isError { item } else { nil }
        }
        #expect(refusedRole.text == "x.grp.mem.role from a member, who may not make a member observer")
        #expect(try await team.cath.chat.group(named: "team").membership.role == .member)
        let aliceAtCath = try #require(
            try await team.cath.chat.members(of: "team").1.first { $0.localDisplayName == "alice" })
        #expect(aliceAtCath.status == .connected && aliceAtCath.ready)
        // A message sent again with its msgId (a replay) is stored once.
        let replayed = SharedMsgID(bytes: [4, 4, 4])
        for _ in 0..<2 {
            try await forge(.msgNew(MsgContainer(content: .text("said once"))), msgId: replayed)
        }
        _ = try await team.bob.chat.sendGroup("team", .text("after the replay"))
        _ = try await Self.received(team.cath, "after the replay")
        #expect(
            try await team.cath.chat.groupItems("team", count: 30).filter { $0.text == "said once" }.count
                == 1)
        // Nothing applied: no mallory, no message from alice.
        let cathMembers = try await team.cath.chat.members(of: "team").1.map(\.localDisplayName)
        #expect(cathMembers.sorted() == ["alice", "bob"])
        let texts = try await team.cath.chat.groupItems("team", count: 10).filter { !$0.isError }.map(\.text)
        #expect(!texts.contains("forged by bob"))
        // The group is still usable.
        _ = try await team.bob.chat.sendGroup("team", .text("still here"))
        _ = try await Self.received(team.cath, "still here")
        #expect(group.localDisplayName == "team")
        for user in [team.alice, team.bob, team.cath] { await user.chat.stop() }
    }

    @Test func anInvitationFromAContactWhoMayNotInviteIsRefused() async throws {
        let relay = try await RelayProcess()
        let directory = try TemporaryDirectory("chat-groups-inv")
        let alice = try await ChatControllerReadingTests.user("alice", relay: relay, in: directory)
        let bob = try await ChatControllerReadingTests.user("bob", relay: relay, in: directory)
        let (bobContact, _) = try await Self.connect(alice, bob)
        let invitation = GroupInvitation(
            fromMember: MemberIdRole(memberId: MemberID(bytes: [1]), memberRole: .member),
            invitedMember: MemberIdRole(memberId: MemberID(bytes: [2]), memberRole: .admin),
            connRequest: try await alice.chat.createInvitation(),
            groupProfile: GroupProfile(displayName: "club"))
        _ = try await alice.chat.agent.sendMessage(
            try #require(bobContact.agentConnectionID),
            body: try ChatMessage(event: .group(.inv(invitation))).encoded())
        let refused = try await bob.events.next {
            if case .newItem(_, let item) = $0, item.text.contains("refused") { item.text } else { nil }
        }
        #expect(refused == "group invitation to #club refused: a member cannot invite as admin")
        #expect(try await bob.chat.groups().isEmpty)
        await alice.chat.stop()
        await bob.chat.stop()
    }
}
