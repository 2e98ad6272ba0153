import Foundation
import Testing
import TestSupport

@testable import SimpleXChat
@testable import SimpleXTUI

/// Group chats in the full-screen client: listed, opened, drawn with each member's name, sent to.
struct GroupChatTests {
    let now = AppFixture.now

    func member(
        _ id: Int64, _ name: String, role: GroupMemberRole = .member, status: GroupMemberStatus = .connected
    )
        -> GroupMember
    {
        GroupMember(
            groupMemberId: id, groupId: 7, memberId: MemberID(bytes: [UInt8(id)]), role: role,
            category: id == 1 ? .user : .pre, status: status, localDisplayName: name,
            profile: Profile(displayName: name, fullName: ""), contactId: nil, invitedBy: nil,
            connRequest: nil,
            agentConnectionID: nil, ready: true)
    }

    func team(_ status: GroupMemberStatus = .connected) -> ChatGroup {
        ChatGroup(
            groupId: 7, localDisplayName: "team", profile: GroupProfile(displayName: "team"),
            membership: member(1, "me", status: status))
    }

    func item(_ id: Int64, _ from: GroupMember?, _ text: String, at offset: TimeInterval = 0) -> GroupChatItem
    {
        GroupChatItem(
            itemId: id, groupId: 7, member: from, content: .text(text),
            timestamp: now.addingTimeInterval(offset),
            sharedMsgId: nil, forwarded: false)
    }

    @Test func groupsAreListedByActivityAndInvitationsComeFirstAfterRequests() {
        let bob = AppFixture.entry(AppFixture.contact(2, "bob"), last: AppFixture.item(1, "hi", at: -100))
        let old = AppFixture.entry(AppFixture.contact(3, "carol"), last: AppFixture.item(2, "old", at: -1000))
        var invited = team(.invited)
        invited.localDisplayName = "club"
        let entries = ChatListEntry.merging(
            [(team(), item(5, member(2, "bob"), "lunch?", at: -500), 3), (invited, nil, 0)], into: [bob, old])
        #expect(entries.map(\.name) == ["#club", "bob", "#team", "carol"])
        #expect(entries[2].id == "#7")
        // The unread count shows as the badge, as a contact's does.
        let rows = ChatListView.rows(
            entries[2], width: 30, selected: false, number: 3, style: ChatListStyle(), now: now)
        #expect(rows[1].text.contains(" 3 "))
        #expect(rows[0].text.hasPrefix(" #team"))
        #expect(ChatListView.preview(entries[2], showPreviews: true) == "bob: lunch?")
        #expect(ChatListView.preview(entries[0], showPreviews: true) == "invited: Enter to join")
    }

    @Test func enterOnAnInvitationJoinsAndOnAGroupOpensIt() {
        var app = AppFixture.app()
        _ = app.update(
            .chatList(ChatListEntry.merging([(team(.invited), nil, 0)], into: app.chatList.entries)))
        app.chatList.selectedID = "#7"
        #expect(app.update(.key(.key(.enter, []))) == [.joinGroup(groupId: 7)])
        #expect(app.groupChat == nil)
        _ = app.update(.chatList(ChatListEntry.merging([(team(), nil, 0)], into: [])))
        app.chatList.selectedID = "#7"
        #expect(app.update(.key(.key(.enter, []))) == [.openGroup(groupId: 7)])
        #expect(app.groupChat?.group.groupId == 7)
        #expect(app.focus == .compose)
    }

    @Test func theGroupChatShowsEachMembersNameOncePerRunAndComposeSendsToTheGroup() {
        var app = AppFixture.app()
        _ = app.update(.chatList(ChatListEntry.merging([(team(), nil, 0)], into: app.chatList.entries)))
        app.chatList.selectedID = "#7"
        _ = app.update(.key(.key(.enter, [])))
        let bob = member(2, "bob", role: .admin)
        let carol = member(3, "carol")
        _ = app.update(
            .groupOpened(
                team(),
                [
                    item(1, bob, "hello all", at: -30), item(2, bob, "lunch?", at: -20),
                    item(3, carol, "yes", at: -10),
                    item(4, nil, "on my way"),
                ]))
        let text = AppView().draw(&app).lines.map(\.text)
        #expect(text.contains { $0.contains("#team") && $0.contains("you are member") })
        #expect(text.filter { $0.contains("bob · admin") }.count == 1)
        #expect(text.contains { $0.contains("carol") })
        #expect(text.contains { $0.contains("lunch?") })
        #expect(text.contains { $0.contains("│ me") || $0.hasSuffix(" me") || $0.contains(" me ") })
        for character in "hi team" { _ = app.update(.key(.character(character))) }
        #expect(app.update(.key(.key(.enter, []))) == [.sendGroup(groupId: 7, text: "hi team")])
        #expect(app.compose.text.isEmpty)
    }

    @Test func aGroupEventReloadsTheListAndTheOpenGroup() {
        var app = AppFixture.app()
        _ = app.update(.chatList(ChatListEntry.merging([(team(), nil, 0)], into: app.chatList.entries)))
        // Not open: the list again, and the notifier decides about the member's message.
        let message = ChatEvent.group(.newItem(team(), item(1, member(2, "bob"), "hi")))
        #expect(app.update(.core(message)) == [.loadChatList, .notify(message)])
        app.chatList.selectedID = "#7"
        _ = app.update(.key(.key(.enter, [])))
        #expect(
            app.update(.core(.group(.newItem(team(), item(1, member(2, "bob"), "hi")))))
                == [.loadChatList, .openGroup(groupId: 7)])
        _ = app.update(.core(.group(.invitation(team(.invited), from: "bob", role: .member))))
        #expect(app.status?.text == "bob invites you to #team: it is first in the chat list")
    }

    @Test func aMembersRowNamesTheMemberAndARefusedEventHasNoSender() {
        let row = ChatViewItem(group: item(1, member(2, "bob", role: .owner), "hi"), userName: "me")
        #expect(row.sender == ChatViewSender(id: "member:2", name: "bob · owner", isUser: false))
        #expect(ChatViewItem(group: item(2, nil, "mine"), userName: "me").sender?.isUser == true)
        let refused = GroupChatItem(
            itemId: 3, groupId: 7, member: member(2, "bob"),
            content: .unknown(type: "groupError", text: "not allowed", json: [:]),
            timestamp: now, sharedMsgId: nil, forwarded: false)
        #expect(ChatViewItem(group: refused, userName: "me").sender == nil)
    }

    @Test func altIInAGroupListsItsMembersAndLeavingOrDeletingIsConfirmed() {
        var app = AppFixture.app()
        _ = app.update(.chatList(ChatListEntry.merging([(team(), nil, 0)], into: app.chatList.entries)))
        app.chatList.selectedID = "#7"
        _ = app.update(.key(.key(.enter, [])))
        #expect(app.update(.key(.alt("i"))) == [.loadGroupInfo(groupId: 7)])
        _ = app.update(
            .groupMembers(team(), [member(2, "bob", role: .owner), member(3, "carol", status: .invited)]))
        let text = AppView().draw(&app).lines.map(\.text)
        #expect(text.contains { $0.contains("3 members") == false && $0.contains("2 members") })
        #expect(text.contains { $0.contains("you (me) · member · connected") })
        #expect(text.contains { $0.contains("bob · owner · connected") })
        #expect(text.contains { $0.contains("carol · member · invited") })
        #expect(app.update(.key(.character("l"))) == [])
        #expect(app.update(.key(.character("y"))) == [.leaveGroup(groupId: 7)])
        _ = app.update(.key(.character("x")))
        guard case .confirm(let question, _) = app.overlays.last else { return #expect(Bool(false)) }
        #expect(question == "Delete #team and its messages on this device? y / n")
        #expect(app.update(.key(.character("y"))) == [.deleteGroup(groupId: 7)])
        _ = app.update(.groupDeleted(groupId: 7))
        #expect(app.groupChat == nil)
        #expect(app.overlays.isEmpty)
        #expect(app.status?.text == "#team deleted")
    }

    /// A member with a profile image has it drawn in the gutter's cell (red on the left, blue on
    /// the right: one cell of chafa's symbols in both colours), in place of the initial; one whose
    /// image does not decode keeps the initial.
    @Test func aMembersProfileImageIsDrawnInTheGutter() throws {
        let directory = try TemporaryDirectory("avatar")
        let path = directory.appending("face.png")
        try MediaTools.writeHalfRedHalfBlue(path, width: 64, height: 64, format: "png", in: directory)
        var cath = member(3, "cath")
        cath.profile.image =
            "data:image/png;base64," + (FileManager.default.contents(atPath: path) ?? Data()).base64EncodedString()
        let settings = ChatViewSettings(timeZone: TimeZone(identifier: "UTC")!)
        let lines = ChatViewLayout.groupLines(
            for: ChatViewItem(group: item(1, cath, "hello"), userName: "me"), older: nil, width: 40,
            settings: settings, state: ItemRenderState(), now: now)
        let row = try #require(lines.first { $0.text.contains("cath") })
        #expect(!row.text.hasPrefix(" C cath"))
        let cell = row.spans[1].style
        let colours = [cell.foreground, cell.background]
        #expect(colours.contains { if case .rgb(let r, _, let b) = $0 { r > 200 && b < 60 } else { false } }, "\(cell)")
        #expect(colours.contains { if case .rgb(let r, _, let b) = $0 { b > 200 && r < 60 } else { false } }, "\(cell)")
        #expect(lines.allSatisfy { $0.width <= 40 })

        var broken = member(4, "dan")
        broken.profile.image = "data:image/png;base64,bm90IGFuIGltYWdl"
        let plain = ChatViewLayout.groupLines(
            for: ChatViewItem(group: item(2, broken, "hi"), userName: "me"), older: nil, width: 40,
            settings: settings, state: ItemRenderState(), now: now)
        #expect(plain.contains { $0.text.hasPrefix(" D dan") })
    }

    @Test func membersRowsHaveTheAvatarGutterWithTheInitialOnTheSenderRow() {
        let bob = member(2, "bob")
        let first = ChatViewItem(group: item(1, bob, "hello", at: -20), userName: "me")
        let second = ChatViewItem(group: item(2, bob, "again", at: -10), userName: "me")
        let settings = ChatViewSettings(timeZone: TimeZone(identifier: "UTC")!)
        let lines = ChatViewLayout.groupLines(
            for: first, older: nil, width: 40, settings: settings, state: ItemRenderState(), now: now)
        let sender = lines.firstIndex { $0.text.contains("bob") }!
        #expect(lines[sender].text.hasPrefix(" B bob"))
        #expect(lines[sender].spans[1].style.foreground == ChatViewLayout.avatarColor("member:2"))
        #expect(lines[(sender + 1)...].contains { $0.text.hasPrefix("   hello") })
        #expect(lines.allSatisfy { $0.width <= 40 })
        let next = ChatViewLayout.groupLines(
            for: second, older: first, width: 40, settings: settings, state: ItemRenderState(), now: now)
        #expect(!next.contains { $0.text.contains("B bob") })
        #expect(next.contains { $0.text.hasPrefix("   again") })
        // One member, one colour, whatever the run.
        #expect(ChatViewLayout.avatarColor("member:2") == ChatViewLayout.avatarColor("member:2"))
        let own = ChatViewLayout.groupLines(
            for: ChatViewItem(group: item(3, nil, "mine"), userName: "me"), older: second, width: 40,
            settings: settings, state: ItemRenderState(), now: now)
        #expect(own.allSatisfy { $0.text.hasPrefix("  ") && !$0.text.hasPrefix(" M") })
        #expect(own.contains { $0.text.hasPrefix("   mine") })
    }

    @Test func upPutsTheCursorOnItemsAndOwnMessagesAreEditedAndDeletedForEveryone() {
        var app = AppFixture.app()
        _ = app.update(.chatList(ChatListEntry.merging([(team(), nil, 0)], into: app.chatList.entries)))
        app.chatList.selectedID = "#7"
        _ = app.update(.key(.key(.enter, [])))
        let bob = member(2, "bob")
        let mine = item(2, nil, "on my way", at: -10)
        _ = app.update(.groupOpened(team(), [item(1, bob, "hello all", at: -30), mine]))
        _ = app.update(.key(.key(.up, [])))
        #expect(app.focus == .messages && app.groupChat?.cursorItemId == 2)
        #expect(
            AppView().draw(&app).lines.contains { $0.text.contains("▌") && $0.text.contains("on my way") })
        // Edit: the text in the compose field, Enter sends the change.
        _ = app.update(.key(.character("e")))
        #expect(app.focus == .compose && app.compose.string == "on my way")
        #expect(AppView().draw(&app).lines.contains { $0.text.contains("✎ editing: on my way") })
        for character in "!" { _ = app.update(.key(.character(character))) }
        #expect(
            app.update(.key(.key(.enter, []))) == [.editGroupItem(groupId: 7, item: mine, text: "on my way!")]
        )
        #expect(app.groupChat?.editing == nil)
        // bob's message: not editable; copied and its info shown.
        _ = app.update(.key(.key(.up, [])))
        _ = app.update(.key(.key(.up, [])))
        #expect(app.groupChat?.cursorItemId == 1)
        #expect(app.update(.key(.character("e"))) == [])
        #expect(app.status?.text == "only your own messages can be edited or deleted for everyone")
        #expect(app.update(.key(.character("c"))) == [.copy("hello all")])
        _ = app.update(.key(.character("i")))
        guard case .info(_, let lines, _) = app.overlays.last else { return #expect(Bool(false)) }
        #expect(lines.contains("From: bob, member"))
        _ = app.update(.key(.key(.escape, [])))
        // Delete for everyone, confirmed.
        _ = app.update(.key(.key(.down, [])))
        _ = app.update(.key(.character("D")))
        #expect(app.update(.key(.character("y"))) == [.deleteGroupItem(groupId: 7, item: mine)])
        _ = app.update(.key(.key(.down, [])))
        #expect(app.focus == .compose && app.groupChat?.cursorItemId == nil)
    }
}
