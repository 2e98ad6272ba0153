import Foundation
import Testing

@testable import SimpleXChat
@testable import SimpleXTerminal

/// The line mode's group commands and lines, as SimpleX's CLI has them (tests/ChatTests/Groups.hs).
struct CLIGroupLinesTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00 UTC
    var view: CLIView { CLIView(timeZone: TimeZone(identifier: "UTC")!, now: { [now] in now }) }

    func member(
        _ name: String, fullName: String = "", role: GroupMemberRole = .member,
        _ category: GroupMemberCategory,
        _ status: GroupMemberStatus
    ) -> GroupMember {
        GroupMember(
            groupMemberId: 1, groupId: 1, memberId: MemberID(bytes: [1]), role: role, category: category,
            status: status, localDisplayName: name, profile: Profile(displayName: name, fullName: fullName),
            contactId: nil, invitedBy: nil, connRequest: nil, agentConnectionID: nil, ready: false)
    }

    var team: ChatGroup {
        ChatGroup(
            groupId: 1, localDisplayName: "team", profile: GroupProfile(displayName: "team"),
            membership: member("alice", role: .owner, .user, .creator))
    }

    func item(_ from: GroupMember?, _ content: MsgContent, forwarded: Bool = false) -> GroupChatItem {
        GroupChatItem(
            itemId: 1, groupId: 1, member: from, content: content, timestamp: now.addingTimeInterval(-60),
            sharedMsgId: nil, forwarded: forwarded)
    }

    /// `/chats` lists groups beside contacts, most recent first: the group's last message with its sender.
    @Test func theChatListHasGroupsBesideContactsMostRecentFirst() {
        let carol = ChatContact(
            contactId: 2, localDisplayName: "carol", profile: Profile(displayName: "carol", fullName: ""),
            localAlias: "", agentConnectionID: "conn", ready: true)
        let older = ChatItem(
            itemId: 1, contactId: 2, direction: .received, content: .text("earlier"), status: .rcvNew,
            timestamp: now.addingTimeInterval(-3600), edited: false, deleted: false, forwarded: false,
            sharedMsgId: nil, quote: nil, reactions: [])
        var club = team
        club.localDisplayName = "club"
        let lines = view.chats(
            [ChatPreview(contact: carol, lastItem: older, unreadCount: 1)],
            groups: [(team, item(member("bob", .pre, .connected), .text("hi all"))), (club, nil)])
        #expect(lines == ["#team: bob> hi all", "@carol (1 unread): earlier", "#club"])
        #expect(view.chats([], groups: [(team, item(nil, .text("mine")))]) == ["#team: you: mine"])
    }

    @Test func groupCommandsParse() throws {
        #expect(try CLICommand.parse("/g team") == .createGroup("team", fullName: ""))
        #expect(try CLICommand.parse("/g team The Team") == .createGroup("team", fullName: "The Team"))
        #expect(
            try CLICommand.parse("/a team bob") == .addMember(group: "team", contact: "bob", role: .member))
        #expect(
            try CLICommand.parse("/a #team @bob admin")
                == .addMember(group: "team", contact: "bob", role: .admin))
        #expect(try CLICommand.parse("/j team") == .joinGroup("team"))
        #expect(try CLICommand.parse("/join #team") == .joinGroup("team"))
        #expect(try CLICommand.parse("/ms team") == .groupMembers("team"))
        #expect(try CLICommand.parse("#team hello all") == .sendGroup("team", text: "hello all"))
        #expect(throws: CLIParseError("nothing to send to #team")) { try CLICommand.parse("#team") }
        #expect(throws: CLIParseError("usage: /a <group> <contact> [role]")) {
            try CLICommand.parse("/a team")
        }
        #expect(
            throws: CLIParseError("unknown role king: observer, author, member, moderator, admin or owner")
        ) {
            try CLICommand.parse("/a team bob king")
        }
        #expect(throws: CLIParseError("usage: /j <group>")) { try CLICommand.parse("/j") }
        #expect(try CLICommand.parse("! #team (hel) hello!") == .editGroup("team", old: "hel", new: "hello!"))
        #expect(try CLICommand.parse("\\ #team hello") == .deleteGroup("team", text: "hello"))
        #expect(try CLICommand.parse("/tail #team") == .tailGroup("team", count: 10))
        #expect(try CLICommand.parse("/tail #team 3") == .tailGroup("team", count: 3))
        #expect(throws: CLIParseError("usage: /tail #group [count]")) {
            try CLICommand.parse("/tail #team x")
        }
        #expect(try CLICommand.parse("/l team") == .leaveGroup("team"))
        #expect(try CLICommand.parse("/d #team") == .deleteGroupChat("team"))
        #expect(try CLICommand.parse("/d @bob") == .deleteContact("bob"))
        #expect(
            try CLICommand.parse("/mr team bob observer")
                == .changeRole(group: "team", member: "bob", role: .observer))
        #expect(try CLICommand.parse("/rm #team bob") == .removeMember(group: "team", member: "bob"))
        #expect(throws: CLIParseError("usage: /rm <group> <member>")) { try CLICommand.parse("/rm team") }
        #expect(throws: CLIParseError("usage: /mr <group> <member> <role>")) {
            try CLICommand.parse("/mr team bob")
        }
    }

    @Test func invitationJoiningAndConnectingLines() {
        let bob = member("bob", fullName: "Bob", .post, .announced)
        #expect(
            view.groupEvent(.invitation(team, from: "alice", role: .admin)) == [
                "#team: alice invites you to join the group as admin", "use /j team to accept",
            ])
        #expect(view.groupEvent(.userJoined(team)) == ["#team: you joined the group"])
        #expect(view.groupEvent(.memberJoined(team, bob)) == ["#team: bob joined the group"])
        #expect(
            view.groupEvent(.memberAdded(team, by: member("alice", .host, .connected), bob)) == [
                "#team: alice added bob (Bob) to the group (connecting...)"
            ])
        #expect(
            view.groupEvent(.memberConnected(team, bob, newMember: true)) == [
                "#team: new member bob is connected"
            ])
        #expect(
            view.groupEvent(.memberConnected(team, bob, newMember: false)) == [
                "#team: member bob (Bob) is connected"
            ])
    }

    @Test func messagesForwardedItemsAndRefusals() {
        let bob = member("bob", .pre, .connected)
        #expect(view.groupItem(item(nil, .text("hello")), group: team) == ["07:59 #team hello"])
        #expect(view.groupItem(item(bob, .text("hi")), group: team) == ["07:59 #team bob> hi"])
        #expect(
            view.groupItem(item(bob, .text("hi"), forwarded: true), group: team) == [
                "07:59 #team bob> hi [>>]"
            ])
        #expect(
            view.groupItem(
                item(bob, .placeholder(type: "groupError", text: "x.grp.mem.new refused")), group: team) == [
                    "#team: error from bob: x.grp.mem.new refused"
                ])
    }

    @Test func leavingRolesAndRemovalLines() {
        let alice = member("alice", role: .owner, .host, .connected)
        let bob = member("bob", .post, .connected)
        #expect(view.groupEvent(.memberLeft(team, bob)) == ["#team: bob left the group"])
        #expect(
            view.groupEvent(.groupDeleted(team, by: alice)) == [
                "#team: alice deleted the group", "use /d #team to delete the local copy of the group",
            ])
        #expect(
            view.groupEvent(.memberRole(team, by: alice, team.membership, from: .admin, to: .observer)) == [
                "#team: alice changed your role from admin to observer"
            ])
        #expect(
            view.groupEvent(.memberRole(team, by: alice, bob, from: .member, to: .admin)) == [
                "#team: alice changed the role of bob from member to admin"
            ])
        #expect(
            view.groupEvent(.memberRemoved(team, by: alice, team.membership)) == [
                "#team: alice removed you from the group"
            ])
        #expect(
            view.groupEvent(.memberRemoved(team, by: alice, bob)) == [
                "#team: alice removed bob from the group"
            ])
    }

    @Test func membersAsSimplexListsThem() {
        let members = [
            member("bob", fullName: "Bob", role: .admin, .invitee, .connected),
            member("cath", .post, .announced),
            member("dan", .host, .connected),
        ]
        #expect(
            view.groupMembers(team, members) == [
                "alice: owner, you, created group", "bob (Bob): admin, invited, connected",
                "cath: member, connecting",
                "dan: member, host, connected",
            ])
    }
}
