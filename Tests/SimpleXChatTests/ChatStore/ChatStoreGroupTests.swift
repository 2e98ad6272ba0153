import Foundation
import Testing

@testable import SimpleXChat

/// Groups in the chat database: the creator's membership, an invitation's host and membership,
/// members with their connections, the host's introductions, and group items.
@Suite struct ChatStoreGroupTests {
    let team = GroupProfile(
        displayName: "team", fullName: "Team", description: "Welcome!",
        groupPreferences: ["voice": ["enable": "on"]],
        otherFields: ["memberAdmission": ["review": "all"]])

    @Test func aCreatedGroupHasTheUserAsOwnerAndCreator() throws {
        let fixture = try ChatStoreFixture()
        let group = try fixture.store.createGroup(
            fixture.user, profile: team, memberId: MemberID(bytes: [1, 2, 3]))
        #expect(group.localDisplayName == "team")
        #expect(group.profile == team)
        #expect(group.membership.role == .owner && group.membership.status == .creator)
        #expect(group.membership.category == .user && group.membership.localDisplayName == "alice")
        #expect(try fixture.store.group(named: "#team", fixture.user) == group)
        // A second group of the same name gets its own local name.
        let second = try fixture.store.createGroup(
            fixture.user, profile: team, memberId: MemberID(bytes: [4]))
        #expect(second.localDisplayName == "team_1")
        #expect(try fixture.store.groups(fixture.user).map(\.localDisplayName) == ["team", "team_1"])
        #expect(throws: ChatError.invalidCommand("no group #nope")) {
            try fixture.store.group(named: "nope", fixture.user)
        }
    }

    @Test func anInvitationMakesTheGroupWithItsHost() throws {
        let fixture = try ChatStoreFixture()
        let bob = try fixture.contact("bob")
        let invitation = GroupInvitation(
            fromMember: MemberIdRole(memberId: MemberID(bytes: [1]), memberRole: .admin),
            invitedMember: MemberIdRole(memberId: MemberID(bytes: [2]), memberRole: .member),
            connRequest: "simplex:/invitation#/?v=1", groupProfile: team)
        let group = try fixture.store.createInvitedGroup(fixture.user, invitation, host: bob)
        #expect(group.membership.memberId == MemberID(bytes: [2]) && group.membership.status == .invited)
        let members = try fixture.store.members(groupId: group.groupId)
        #expect(members.count == 1)
        let host = try #require(members.first)
        #expect(host.category == .host && host.role == .admin && host.contactId == bob.contactId)
        #expect(host.connRequest == "simplex:/invitation#/?v=1" && host.localDisplayName == "bob")
        #expect(group.membership.invitedBy == host.groupMemberId)
    }

    @Test func membersConnectionsAndIntroductions() throws {
        let fixture = try ChatStoreFixture()
        let store = fixture.store
        let group = try store.createGroup(fixture.user, profile: team, memberId: MemberID(bytes: [1]))
        let bob = try store.insertMember(
            fixture.user, groupId: group.groupId,
            info: MemberInfo(
                memberId: MemberID(bytes: [2]), memberRole: .member,
                profile: Profile(displayName: "bob", fullName: "Bob")),
            category: .invitee, status: .invited, invitedBy: group.membership.groupMemberId)
        let cath = try store.insertMember(
            fixture.user, groupId: group.groupId,
            info: MemberInfo(
                memberId: MemberID(bytes: [3]), memberRole: .admin,
                profile: Profile(displayName: "bob", fullName: "")),
            category: .invitee, status: .invited, invitedBy: group.membership.groupMemberId)
        #expect(cath.localDisplayName == "bob_1")
        try store.setMemberConnection(fixture.user, bob, agentConnectionID: "member-bob")
        #expect(try store.member(agentConnectionID: "member-bob")?.groupMemberId == bob.groupMemberId)
        #expect(try store.member(agentConnectionID: "member-bob")?.ready == false)
        try store.setReady(agentConnectionID: "member-bob")
        #expect(try store.member(agentConnectionID: "member-bob")?.ready == true)
        // A member's connection is never taken for a contact's.
        #expect(try store.contact(agentConnectionID: "member-bob") == nil)
        #expect(try store.member(groupId: group.groupId, memberId: MemberID(bytes: [3]))?.role == .admin)

        try store.insertIntro(re: bob, to: cath)
        #expect(try store.introStatus(re: bob, to: cath) == .new)
        #expect(try store.unconnectedIntroduced(bob) == [cath.groupMemberId])
        #expect(try store.unconnectedIntroduced(cath) == [bob.groupMemberId])
        try store.setIntroStatus(re: bob, to: cath, .fwd)
        #expect(try store.introStatus(re: bob, to: cath) == .fwd)
        // cath connected to bob: her messages go to him directly; his are still forwarded to her
        // until he says so too.
        try store.setIntroConnected(cath, bob)
        #expect(try store.unconnectedIntroduced(cath).isEmpty)
        #expect(try store.unconnectedIntroduced(bob) == [cath.groupMemberId])
        try store.setIntroConnected(bob, cath)
        #expect(try store.unconnectedIntroduced(bob).isEmpty)
        #expect(try store.introStatus(re: bob, to: cath) == .con)
    }

    @Test func groupItemsKeepTheirSenderAndAreFoundByTheSharedId() throws {
        let fixture = try ChatStoreFixture()
        let store = fixture.store
        let group = try store.createGroup(fixture.user, profile: team, memberId: MemberID(bytes: [1]))
        let bob = try store.insertMember(
            fixture.user, groupId: group.groupId,
            info: MemberInfo(
                memberId: MemberID(bytes: [2]), memberRole: .member,
                profile: Profile(displayName: "bob", fullName: "Bob")),
            category: .invitee, status: .connected, invitedBy: nil)
        let msgId = SharedMsgID(bytes: [9, 9])
        _ = try store.insertGroupItem(
            fixture.user, groupId: group.groupId, member: nil, content: .text("hello"),
            sharedMsgId: SharedMsgID(bytes: [1]))
        _ = try store.insertGroupItem(
            fixture.user, groupId: group.groupId, member: bob, content: .text("hi"), sharedMsgId: msgId,
            forwarded: true)
        #expect(try store.hasGroupItem(groupId: group.groupId, member: bob, sharedMsgId: msgId))
        #expect(
            !(try store.hasGroupItem(
                groupId: group.groupId, member: bob, sharedMsgId: SharedMsgID(bytes: [1]))))
        let items = try store.groupItems(groupId: group.groupId, count: 10)
        #expect(items.map(\.text) == ["hello", "hi"])
        #expect(items.map { $0.member?.localDisplayName } == [nil, "bob"])
        #expect(items.map(\.forwarded) == [false, true])
        // Found by sender and shared id; edited in place, marked deleted, and the user's own deleted.
        let received = try #require(
            try store.groupItem(groupId: group.groupId, member: bob, sharedMsgId: msgId))
        #expect(try store.groupItem(groupId: group.groupId, member: nil, sharedMsgId: msgId) == nil)
        try store.updateGroupItem(received, .text("hi, edited"))
        let edited = try store.groupItem(id: received.itemId, groupId: group.groupId)
        #expect(edited.text == "hi, edited" && edited.edited && !edited.deleted)
        try store.markGroupItemDeleted(edited)
        #expect(try store.groupItem(id: received.itemId, groupId: group.groupId).deleted)
        let own = try #require(
            try store.groupItem(groupId: group.groupId, member: nil, sharedMsgId: SharedMsgID(bytes: [1])))
        try store.deleteGroupItem(own)
        #expect(try store.groupItems(groupId: group.groupId, count: 10).map(\.text) == ["hi, edited"])
        // Group items are in no contact's chat.
        #expect(try store.chatList(fixture.user).allSatisfy { $0.lastItem == nil })
    }

    @Test func aGroupsReceivedItemsAreUnreadUntilMarkedRead() throws {
        let fixture = try ChatStoreFixture()
        let store = fixture.store
        let group = try store.createGroup(fixture.user, profile: team, memberId: MemberID(bytes: [1]))
        let other = try store.createGroup(fixture.user, profile: team, memberId: MemberID(bytes: [3]))
        let bob = try store.insertMember(
            fixture.user, groupId: group.groupId,
            info: MemberInfo(memberId: MemberID(bytes: [2]), memberRole: .member, profile: Profile(displayName: "bob", fullName: "")),
            category: .invitee, status: .connected, invitedBy: nil)
        for (index, member) in [bob, nil, bob].enumerated() {
            _ = try store.insertGroupItem(
                fixture.user, groupId: group.groupId, member: member, content: .text("m\(index)"),
                sharedMsgId: SharedMsgID(bytes: [UInt8(index)]))
        }
        _ = try store.insertGroupItem(
            fixture.user, groupId: other.groupId, member: nil, content: .text("own"), sharedMsgId: nil)
        // The user's own message is not unread; another group's items are not counted.
        #expect(try store.groupUnreadCount(groupId: group.groupId) == 2)
        #expect(try store.groupUnreadCount(groupId: other.groupId) == 0)
        #expect(try store.markGroupRead(groupId: group.groupId) == 2)
        #expect(try store.groupUnreadCount(groupId: group.groupId) == 0)
        #expect(try store.markGroupRead(groupId: group.groupId) == 0)
    }

    @Test func deletingAGroupTakesItsMembersItemsAndProfilesOnly() throws {
        let fixture = try ChatStoreFixture()
        let store = fixture.store
        let kept = try store.createGroup(
            fixture.user, profile: GroupProfile(displayName: "kept"), memberId: MemberID(bytes: [9]))
        let group = try store.createGroup(fixture.user, profile: team, memberId: MemberID(bytes: [1]))
        for (index, name) in ["bob", "cath"].enumerated() {
            let member = try store.insertMember(
                fixture.user, groupId: group.groupId,
                info: MemberInfo(
                    memberId: MemberID(bytes: [UInt8(index + 2)]), memberRole: .member,
                    profile: Profile(displayName: name, fullName: "")),
                category: .invitee, status: .connected, invitedBy: nil)
            try store.setMemberConnection(fixture.user, member, agentConnectionID: "member-\(name)")
            _ = try store.insertGroupItem(
                fixture.user, groupId: group.groupId, member: member, content: .text("hi"), sharedMsgId: nil)
        }
        _ = try store.insertGroupItem(
            fixture.user, groupId: kept.groupId, member: nil, content: .text("stays"), sharedMsgId: nil)
        let profilesBefore = try store.rows("SELECT contact_profile_id FROM contact_profiles").count
        try store.deleteGroup(group)
        #expect(try store.groups(fixture.user).map(\.localDisplayName) == ["kept"])
        #expect(try store.member(agentConnectionID: "member-bob") == nil)
        #expect(try store.rows("SELECT 1 FROM connections WHERE group_member_id IS NOT NULL").isEmpty)
        #expect(try store.rows("SELECT contact_profile_id FROM contact_profiles").count == profilesBefore - 2)
        #expect(try store.rows("SELECT 1 FROM group_profiles").count == 1)
        #expect(try store.groupItems(groupId: kept.groupId, count: 10).map(\.text) == ["stays"])
        #expect(try store.rows("SELECT 1 FROM chat_items WHERE group_id = ?", [group.groupId]).isEmpty)
    }
}
