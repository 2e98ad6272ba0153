import Foundation
import Testing

@testable import SimpleXChat

/// The chat core's group events as notification sources: a member's message with the group's and the
/// member's names, an invitation, and a muted or mentions-only group.
@Suite struct NotificationContentGroupEventTests {
    let user = ChatUser(userId: 1, profile: Profile(displayName: "alice", fullName: ""), localDisplayName: "alice")

    func member(_ name: String, fullName: String = "", _ category: GroupMemberCategory = .pre) -> GroupMember {
        GroupMember(
            groupMemberId: 3, groupId: 7, memberId: MemberID(bytes: [3]), role: .member, category: category,
            status: .connected, localDisplayName: name, profile: Profile(displayName: name, fullName: fullName),
            contactId: nil, invitedBy: nil, connRequest: nil, agentConnectionID: nil, ready: true)
    }

    func team(_ enableNtfs: NotificationChat.NotificationSetting = .all) -> ChatGroup {
        ChatGroup(
            groupId: 7, localDisplayName: "team", profile: GroupProfile(displayName: "team"),
            membership: member("alice", .user), enableNtfs: enableNtfs)
    }

    func item(_ from: GroupMember?, _ content: MsgContent, deleted: Bool = false) -> GroupChatItem {
        GroupChatItem(
            itemId: 9, groupId: 7, member: from, content: content, timestamp: Date(), sharedMsgId: nil,
            forwarded: false, deleted: deleted)
    }

    func content(_ event: GroupChatEvent, _ mode: NotificationPreviewMode = .message) -> NotificationContent? {
        NotificationContent.Source(event: .group(event), user: user).flatMap {
            NotificationContent.make($0, previewMode: mode)
        }
    }

    @Test func aMembersMessageIsTitledWithTheGroupAndTheMember() throws {
        let bob = member("bob", fullName: "Bob Smith")
        let message = try #require(content(.newItem(team(), item(bob, .text("hello team")))))
        #expect(message.title == "#team bob / Bob Smith:")
        #expect(message.body == "hello team")
        #expect(message.targetChat == "#7")
        #expect(message.categoryIdentifier == .messageReceived)
        let contactMode = try #require(content(.newItem(team(), item(bob, .text("hello team"))), .contact))
        #expect(contactMode.title == "#team bob / Bob Smith:")
        #expect(contactMode.body == "new message")
        let hidden = try #require(content(.newItem(team(), item(bob, .text("hello team"))), .hidden))
        #expect(hidden.title == "Group message:")
        #expect(hidden.body == "new message")
    }

    @Test func theUsersOwnRefusedAndDeletedGroupItemsNeverNotify() {
        #expect(content(.newItem(team(), item(nil, .text("mine")))) == nil)
        let refused = MsgContent.placeholder(type: "groupError", text: "an observer cannot send messages")
        #expect(content(.newItem(team(), item(member("bob"), refused))) == nil)
        let unsupported = MsgContent.placeholder(type: "x.grp.link.mem", text: "unsupported event x.grp.link.mem")
        #expect(content(.newItem(team(), item(member("bob"), unsupported))) == nil)
        #expect(content(.newItem(team(), item(member("bob"), .text("gone"), deleted: true))) == nil)
        #expect(content(.itemUpdated(team(), item(member("bob"), .text("edited")))) == nil)
        #expect(content(.memberConnected(team(), member("bob"), newMember: true)) == nil)
        #expect(content(.memberLeft(team(), member("bob"))) == nil)
    }

    @Test func aMutedGroupNeverNotifiesAndMentionsOnlyWaitsForAMention() {
        #expect(content(.newItem(team(.none), item(member("bob"), .text("quiet")))) == nil)
        #expect(content(.newItem(team(.mentions), item(member("bob"), .text("hi")))) == nil)
        #expect(content(.newItem(team(.all), item(member("bob"), .text("hi")))) != nil)
        // An item that mentions the user (or replies to the user's message) notifies there.
        var mention = item(member("bob"), .text("@alice hi"))
        mention.userMention = true
        #expect(content(.newItem(team(.mentions), mention))?.body == "@alice hi")
        #expect(content(.newItem(team(.none), mention)) == nil)
        // A reaction never notifies.
        #expect(content(.itemReaction(team(), mention, by: member("bob"), emoji: "👍", add: true)) == nil)
    }

    @Test func aGroupInvitationNotifiesAsTheInvitersMessageAndOpensTheGroup() throws {
        let invitation = try #require(content(.invitation(team(), from: "bob", role: .member)))
        #expect(invitation.title == "bob:")
        #expect(invitation.body == "invitation to group team")
        #expect(invitation.targetChat == "#7")
        #expect(content(.invitation(team(), from: "bob", role: .member), .contact)?.body == "new message")
        #expect(content(.invitation(team(), from: "bob", role: .member), .hidden)?.title == "Contact hidden:")
    }

    /// A batch (a periodic run) with several messages of one group shows the latest; with a group and
    /// a contact, one joint notification naming both chats.
    @Test func aBatchShowsTheGroupsLatestMessageOrOneJointNotification() throws {
        let group = [
            NotificationContent.Source(event: .group(.newItem(team(), item(member("bob"), .text("a")))), user: user),
            NotificationContent.Source(event: .group(.newItem(team(), item(member("carol"), .text("b")))), user: user),
        ].compactMap { $0 }
        let latest = try #require(NotificationContent.summary(of: group, previewMode: .message))
        #expect(latest.title == "#team carol:")
        #expect(latest.body == "b")
        let dave = ChatContact(
            contactId: 12, localDisplayName: "dave", profile: Profile(displayName: "dave", fullName: ""),
            localAlias: "", agentConnectionID: "conn", ready: true)
        let direct = ChatItem(
            itemId: 5, contactId: 12, direction: .received, content: .text("hi"), status: .rcvNew,
            timestamp: Date(), edited: false, deleted: false, forwarded: false, sharedMsgId: nil, quote: nil,
            reactions: [])
        let both = group + [NotificationContent.Source(event: .newItem(dave, direct), user: user)].compactMap { $0 }
        let joint = try #require(NotificationContent.summary(of: both, previewMode: .message))
        #expect(joint.title == "New messages")
        #expect(joint.body == "From: team and dave")
    }
}
