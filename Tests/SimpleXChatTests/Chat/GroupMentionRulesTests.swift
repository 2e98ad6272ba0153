import Foundation
import Testing

@testable import SimpleXChat

/// Which received group messages mention the user, and which group preferences let a member react.
@Suite struct GroupMentionRulesTests {
    let own = MemberID(bytes: [1, 1, 1])
    let bob = MemberID(bytes: [2, 2, 2])

    var team: ChatGroup {
        ChatGroup(
            groupId: 7, localDisplayName: "team", profile: GroupProfile(displayName: "team"),
            membership: GroupMember(
                groupMemberId: 1, groupId: 7, memberId: own, role: .member, category: .user,
                status: .connected,
                localDisplayName: "alice", profile: Profile(displayName: "alice", fullName: ""),
                contactId: nil,
                invitedBy: nil, connRequest: nil, agentConnectionID: nil, ready: true))
    }

    func quote(of author: MemberID) -> QuotedMsg {
        QuotedMsg(
            msgRef: MsgRef(msgId: nil, sentAt: ChatTimestamp(Date()), sent: false, memberId: author),
            content: .text("lunch?"))
    }

    @Test func aMentionOrAReplyToTheUsersMessageMentionsTheUser() {
        #expect(ChatController.mentionsUser(["alice": own], quote: nil, in: team))
        #expect(!ChatController.mentionsUser(["bob": bob], quote: nil, in: team))
        #expect(!ChatController.mentionsUser([:], quote: nil, in: team))
        #expect(ChatController.mentionsUser([:], quote: quote(of: own), in: team))
        #expect(!ChatController.mentionsUser([:], quote: quote(of: bob), in: team))
    }

    @Test func onlyTheFirstFiveMentionsAreRead() {
        let others = (1...5).map { ("m\($0)", MemberID(bytes: [UInt8(10 + $0)])) }
        // Names sort m1…m5 before "x": the user's mention is the sixth, past what is read.
        var mentions = Dictionary(uniqueKeysWithValues: others)
        mentions["x"] = own
        #expect(!ChatController.mentionsUser(mentions, quote: nil, in: team))
        mentions["a"] = own
        #expect(ChatController.mentionsUser(mentions, quote: nil, in: team))
    }

    @Test func reactionsAndFilesFollowTheGroupsPreferences() {
        #expect(GroupProfile(displayName: "t").allowsGroupFeature("reactions", role: .member))
        #expect(GroupProfile(displayName: "t").allowsGroupFeature("files", role: .observer))
        #expect(!GroupProfile(displayName: "t").allowsGroupFeature("directMessages", role: .owner))
        let off = GroupProfile(displayName: "t", groupPreferences: ["reactions": ["enable": "off"]])
        #expect(!off.allowsGroupFeature("reactions", role: .owner))
        let admins = GroupProfile(
            displayName: "t", groupPreferences: ["files": ["enable": "on", "role": "admin"]])
        #expect(admins.allowsGroupFeature("files", role: .admin))
        #expect(!admins.allowsGroupFeature("files", role: .member))
    }
}
