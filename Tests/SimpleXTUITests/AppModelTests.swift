import Foundation
import Testing

@testable import SimpleXChat
@testable import SimpleXTUI

/// The app model driven by keys and events, as a user types: what is sent, shown and asked.
@Suite struct AppModelTests {
    /// Opens alice's chat with `items` loaded.
    func openAlice(_ app: inout AppModel, items: [ChatItem] = []) {
        let effects = app.update(.key(.key(.enter)))
        #expect(effects.contains(.openChat(contactId: 1, around: nil)))
        _ = app.update(.chatOpened(AppFixture.contact(1, "alice"), items, firstUnreadId: nil, focusId: nil))
    }

    func type(_ app: inout AppModel, _ text: String) {
        for character in text { _ = app.update(.key(.character(character))) }
    }

    @Test func enterSendsAndAltEnterOrShiftEnterStartsANewLine() {
        var app = AppFixture.app()
        openAlice(&app)
        #expect(app.focus == .compose)
        type(&app, "hello")
        _ = app.update(.key(.key(.enter, .alt)))
        type(&app, "there")
        _ = app.update(.key(.key(.enter, .shift)))
        type(&app, "!")
        let effects = app.update(.key(.key(.enter)))
        #expect(effects == [.send(contactId: 1, text: "hello\nthere\n!", quoting: nil)])
        #expect(app.compose.string.isEmpty)
        // An empty field sends nothing.
        #expect(app.update(.key(.key(.enter))).isEmpty)
    }

    @Test func aPastedNewlineNeverSends() {
        var app = AppFixture.app()
        openAlice(&app)
        let effects = app.update(.key(.paste("line one\nline two\n")))
        #expect(effects.isEmpty)
        #expect(app.compose.string == "line one\nline two\n")
    }

    @Test func aPastedFilePathOffersToAttachIt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tui-paste-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("my notes.txt")
        try Data("x".utf8).write(to: file)
        var app = AppFixture.app()
        openAlice(&app)
        _ = app.update(.key(.paste(file.absoluteString)))  // file:///…/my%20notes.txt
        guard case .prompt(let prompt) = app.overlays.last else {
            Issue.record("no attach prompt")
            return
        }
        #expect(prompt.kind == .attachFile)
        #expect(prompt.field.string == file.path)
        #expect(app.update(.key(.key(.enter))) == [.sendFile(contactId: 1, path: file.path)])
        // A path that does not exist is pasted as text.
        _ = app.update(.key(.paste("/no/such/file")))
        #expect(app.compose.string == "/no/such/file")
    }

    @Test func upFromAnEmptyFieldMovesTheCursorOntoTheNewestMessageAndKeysRunItsActions() {
        var app = AppFixture.app()
        openAlice(&app, items: [AppFixture.item(1, "first"), AppFixture.item(2, "mine", sent: true)])
        _ = app.update(.key(.key(.up)))
        #expect(app.focus == .messages)
        #expect(app.chat?.cursorItemId == 2)
        // e edits the user's own message: its text in the field, Enter sends the edit.
        _ = app.update(.key(.character("e")))
        #expect(app.compose.string == "mine")
        type(&app, "!")
        let item = AppFixture.item(2, "mine", sent: true)
        #expect(app.update(.key(.key(.enter))) == [.edit(contactId: 1, item: item, text: "mine!")])
        // r on a received one replies to it; Esc drops the reply.
        _ = app.update(.key(.key(.up)))
        _ = app.update(.key(.key(.up)))
        #expect(app.chat?.cursorItemId == 1)
        _ = app.update(.key(.character("r")))
        #expect(app.compose.mode == .reply(AppFixture.item(1, "first")))
        _ = app.update(.key(.key(.escape)))
        #expect(app.compose.mode == .new)
    }

    @Test func anEventItemOffersOnlyInfoSelectAndDeleteForMe() {
        var app = AppFixture.app()
        let feature = ChatItemEvent.sndChatFeature(.voice, PrefEnabled(forUser: false, forContact: false), param: nil)
        let item = ChatItem(
            itemId: 1, contactId: 1, direction: .sent, content: feature.content, status: .sndSent,
            timestamp: AppFixture.now, edited: false, deleted: false, forwarded: false, sharedMsgId: nil,
            quote: nil, reactions: [])
        openAlice(&app, items: [item])
        _ = app.update(.key(.key(.up)))
        // Its keys do nothing: no reply banner, no edit.
        _ = app.update(.key(.character("r")))
        _ = app.update(.key(.character("e")))
        #expect(app.compose.mode == .new)
        _ = app.update(.key(.key(.enter)))
        guard case .menu(let menu) = app.overlays.last else {
            Issue.record("no menu")
            return
        }
        #expect(menu.actions == [.info, .select, .deleteForMe])
    }

    @Test func theMenuListsOnlyWhatAppliesAndDeletingAsksFirst() {
        var app = AppFixture.app()
        openAlice(&app, items: [AppFixture.item(1, "theirs")])
        _ = app.update(.key(.key(.up)))
        _ = app.update(.key(.key(.enter)))
        guard case .menu(let menu) = app.overlays.last else {
            Issue.record("no menu")
            return
        }
        #expect(!menu.actions.contains(.edit))  // not the user's message
        #expect(!menu.actions.contains(.deleteForEveryone))
        #expect(menu.actions.contains(.reply) && menu.actions.contains(.copy))
        #expect(app.update(.key(.character("d"))).isEmpty)
        guard case .confirm = app.overlays.last else {
            Issue.record("delete did not ask")
            return
        }
        #expect(app.update(.key(.character("y"))) == [.delete(contactId: 1, items: [AppFixture.item(1, "theirs")], forEveryone: false)])
        #expect(app.overlays.isEmpty)
    }

    @Test func reactionsToggleTheUsersOwn() {
        var app = AppFixture.app()
        var liked = AppFixture.item(1, "nice")
        liked.reactions = [ChatItemReaction(emoji: "👍", byUser: true)]
        openAlice(&app, items: [liked])
        _ = app.update(.key(.key(.up)))
        _ = app.update(.key(.character("+")))
        #expect(app.update(.key(.character("1"))) == [.react(contactId: 1, item: liked, emoji: .thumbsUp, add: false)])
        _ = app.update(.key(.character("+")))
        #expect(app.update(.key(.character("6"))) == [.react(contactId: 1, item: liked, emoji: .heart, add: true)])
    }

    @Test func draftsStayWithTheirChat() {
        var app = AppFixture.app()
        openAlice(&app)
        type(&app, "half written")
        _ = app.update(.key(.key(.tab)))  // to the list
        _ = app.update(.key(.key(.down)))
        let effects = app.update(.key(.key(.enter)))  // bob
        #expect(effects.contains(.saveDraft(chatId: "@1", text: "half written")))
        #expect(app.compose.string.isEmpty)
        _ = app.update(.chatOpened(AppFixture.contact(2, "bob"), [], firstUnreadId: nil, focusId: nil))
        _ = app.update(.key(.alt("1")))
        #expect(app.compose.string == "half written")
    }

    @Test func firstRunAsksForAOneWordName() {
        var app = AppModel(width: 80, height: 24, now: AppFixture.now, user: nil)
        guard case .prompt(let prompt) = app.overlays.last, prompt.kind == .displayName else {
            Issue.record("no name prompt")
            return
        }
        // Esc cannot skip it; a name with a space is refused with the reason.
        _ = app.update(.key(.key(.escape)))
        for character in "my name" { _ = app.update(.key(.character(character))) }
        #expect(app.update(.key(.key(.enter))).isEmpty)
        guard case .prompt(let refused) = app.overlays.last else {
            Issue.record("the prompt went away")
            return
        }
        #expect(refused.error == "a display name is one word, without spaces")
        _ = app.update(.key(.control("u")))
        for character in "alice" { _ = app.update(.key(.character(character))) }
        #expect(app.update(.key(.key(.enter))) == [.createProfile(displayName: "alice")])
    }

    @Test func typingInTheListFiltersAndCtrlKJumpsByAFuzzyName() {
        var app = AppFixture.app([AppFixture.contact(1, "alice"), AppFixture.contact(2, "bob"), AppFixture.contact(3, "albert")])
        type(&app, "al")
        #expect(app.chatList.visible.map(\.name) == ["alice", "albert"])
        _ = app.update(.key(.key(.escape)))
        #expect(app.chatList.visible.count == 3)
        _ = app.update(.key(.control("k")))
        type(&app, "abt")
        let effects = app.update(.key(.key(.enter)))
        #expect(effects.contains(.openChat(contactId: 3, around: nil)))
    }

    @Test func messagesArrivingWhileScrolledUpAreCountedNotJumpedTo() {
        var app = AppFixture.app()
        openAlice(&app, items: (1...50).map { AppFixture.item($0, "m\($0)") })
        _ = app.update(.key(.key(.pageUp)))
        #expect(app.chat?.scroll ?? 0 > 0)
        _ = app.update(.core(.newItem(AppFixture.contact(1, "alice"), AppFixture.item(51, "new one"))))
        #expect(app.chat?.newBelow == 1)
        let screen = AppView(layout: AppFixture.layout).draw(&app)
        #expect(screen.lines.contains { $0.text.contains("↓ 1 new") })
        #expect(!screen.lines.contains { $0.text.contains("│ them: new one") })  // the chat pane; the list previews it
    }

    @Test func aReceivedMessageInTheOpenChatIsMarkedRead() {
        var app = AppFixture.app()
        openAlice(&app)
        let effects = app.update(.core(.newItem(AppFixture.contact(1, "alice"), AppFixture.item(1, "hi"))))
        #expect(effects.contains(.markRead(contactId: 1)))
        // Not while the terminal has lost focus: the user has not seen it.
        _ = app.update(.key(.focus(false)))
        let unfocused = app.update(.core(.newItem(AppFixture.contact(1, "alice"), AppFixture.item(2, "again"))))
        #expect(!unfocused.contains(.markRead(contactId: 1)))
    }

    @Test func aShareWithNoChatAsksWhereToSendAndEscDeclines() {
        var app = AppFixture.app()
        _ = app.update(.shareRequested(id: 7, summary: "photo.png"))
        let screen = AppView(layout: AppFixture.layout).draw(&app)
        #expect(screen.lines.contains { $0.text.contains("Send photo.png to:") })
        type(&app, "bo")
        #expect(app.update(.key(.key(.enter))) == [.answerShare(id: 7, contactId: 2)])
        #expect(app.overlays.isEmpty)
        _ = app.update(.shareRequested(id: 8, summary: "text"))
        #expect(app.update(.key(.key(.escape))) == [.answerShare(id: 8, contactId: nil)])
    }

    @Test func clickingAChatInTheListOpensIt() {
        var app = AppFixture.app()
        _ = AppView(layout: AppFixture.layout).draw(&app)
        // Rows: 0 the header, 1–2 alice, 3–4 bob.
        #expect(app.update(.key(.click(row: 4, column: 3))).contains(.openChat(contactId: 2, around: nil)))
        #expect(app.focus == .compose)
        // Below the last chat nothing happens.
        #expect(app.update(.key(.click(row: 20, column: 3))).isEmpty)
    }

    /// In the chat: a click puts the item cursor on the message under it, a second click or a
    /// right click opens its actions menu, and a click on the compose field goes back to it.
    @Test func clickingAMessageSelectsItAndASecondClickOpensItsMenu() {
        var app = AppFixture.app()
        openAlice(&app, items: [AppFixture.item(1, "first"), AppFixture.item(2, "second", sent: true)])
        let view = AppView(layout: AppFixture.layout)
        func rowOf(_ text: String, _ app: inout AppModel) -> Int {
            view.draw(&app).lines.firstIndex { $0.text.contains(text) } ?? -1
        }
        let column = AppView.listWidth(app.width) + 5
        let first = rowOf("them: first", &app)
        #expect(first > 0)
        #expect(app.update(.key(.click(row: first, column: column))).isEmpty)
        #expect(app.focus == .messages)
        #expect(app.chat?.cursorItemId == 1)
        #expect(rowOf(">them: first", &app) == first, "the cursor is drawn on it")
        _ = app.update(.key(.click(row: first, column: column)))
        guard case .menu(let menu) = app.overlays.last else {
            Issue.record("no menu after the second click")
            return
        }
        #expect(menu.item.itemId == 1)
        _ = app.update(.key(.key(.escape)))
        // A right click on the other message: its menu at once.
        let second = rowOf("me: second", &app)
        _ = app.update(.key(.rightClick(row: second, column: column)))
        guard case .menu(let other) = app.overlays.last else {
            Issue.record("no menu after the right click")
            return
        }
        #expect(other.item.itemId == 2)
        _ = app.update(.key(.key(.escape)))
        // The compose field (the bottom rows) takes the focus back.
        _ = app.update(.key(.click(row: app.height - 2, column: column)))
        #expect(app.focus == .compose)
    }

    @Test func searchingAllChatsListsResultsAndOpensTheChatAtOne() {
        var app = AppFixture.app()
        _ = app.update(.key(.control("f")))
        type(&app, "lunch")
        #expect(app.update(.key(.key(.enter))) == [.searchAll(text: "lunch")])
        let found = [
            FoundItem(contact: AppFixture.contact(2, "bob"), item: AppFixture.item(40, "lunch at 1?", contact: 2)),
            FoundItem(contact: AppFixture.contact(1, "alice"), item: AppFixture.item(7, "no lunch today", contact: 1)),
        ]
        _ = app.update(.globalResults(text: "lunch", found))
        let screen = AppView(layout: AppFixture.layout).draw(&app)
        #expect(screen.lines.contains { $0.text.contains("2 found for “lunch” in all chats") })
        #expect(screen.lines.contains { $0.text.contains("alice") && $0.text.contains("no lunch today") })
        _ = app.update(.key(.key(.down)))
        let effects = app.update(.key(.key(.enter)))
        #expect(effects.contains(.openChat(contactId: 1, around: 7)))
        #expect(app.chat?.highlight == "lunch")
        // Nothing found is said, not shown as an empty list.
        _ = app.update(.globalResults(text: "zzz", []))
        #expect(app.status?.text == "nothing found for “zzz”")
    }

    @Test func altCShowsOneKindOfContentAtATime() {
        var app = AppFixture.app()
        openAlice(&app, items: [AppFixture.item(1, "text")])
        #expect(app.update(.key(.alt("c"))) == [.openFiltered(contactId: 1, filter: .images)])
        #expect(app.chat?.items.isEmpty == true)
        _ = app.update(.chatOpened(AppFixture.contact(1, "alice"), [], firstUnreadId: nil, focusId: nil))
        #expect(app.chat?.filter == .images)
        let screen = AppView(layout: AppFixture.layout).draw(&app)
        #expect(screen.lines.contains { $0.text.contains("only images (Alt+C)") })
        // A text message arriving is not an image: not shown while the filter is on.
        _ = app.update(.core(.newItem(AppFixture.contact(1, "alice"), AppFixture.item(2, "new text"))))
        #expect(app.chat?.items.isEmpty == true)
        for _ in 0..<5 { _ = app.update(.key(.alt("c"))) }
        #expect(app.chat?.filter == nil)
    }

    @Test func aNewMessageMovesItsChatUpAndCountsItWithoutReloadingTheList() {
        var app = AppFixture.app()  // alice, then bob
        let effects = app.update(.core(.newItem(AppFixture.contact(2, "bob"), AppFixture.item(9, "news", contact: 2))))
        #expect(!effects.contains(.loadChatList))
        #expect(app.chatList.entries.map(\.name) == ["bob", "alice"])
        #expect(app.chatList.entries[0].unreadCount == 1)
        #expect(app.chatList.entries[0].lastItem?.text == "news")
        // Opening it marks it read here at once.
        _ = app.update(.key(.alt("1")))
        _ = app.update(.chatOpened(AppFixture.contact(2, "bob"), [AppFixture.item(9, "news", contact: 2)], firstUnreadId: 9, focusId: nil))
        #expect(app.chatList.entries[0].unreadCount == 0)
        // A chat the list does not have yet: the list is loaded.
        #expect(app.update(.core(.newItem(AppFixture.contact(3, "carol"), AppFixture.item(10, "hi", contact: 3)))).contains(.loadChatList))
    }

    /// The core's event items come as new items: a gap counts as unread, a feature change (stored
    /// read) does not; neither is a desktop notification.
    @Test func eventItemsFromTheCoreCountAsTheCoreStoredThemAndNeverNotify() {
        var app = AppFixture.app()  // alice, then bob
        func event(_ id: Int64, _ event: ChatItemEvent, status: ChatItemStatus) -> ChatItem {
            ChatItem(
                itemId: id, contactId: 2, direction: .received, content: event.content, status: status,
                timestamp: AppFixture.now, edited: false, deleted: false, forwarded: false, sharedMsgId: nil,
                quote: nil, reactions: [])
        }
        let bob = AppFixture.contact(2, "bob")
        let off = PrefEnabled(forUser: false, forContact: false)
        let voice = event(9, .rcvChatFeature(.voice, off, param: nil), status: .rcvRead)
        let effects = app.update(.core(.newItem(bob, voice)))
        #expect(app.chatList.entries[0].name == "bob" && app.chatList.entries[0].unreadCount == 0)
        #expect(app.chatList.entries[0].lastItem?.text == "Voice messages: off")
        #expect(!effects.contains { if case .notify = $0 { true } else { false } })
        let gap = event(10, .rcvIntegrityError(.msgSkipped(from: 3, to: 3)), status: .rcvNew)
        #expect(!app.update(.core(.newItem(bob, gap))).contains { if case .notify = $0 { true } else { false } })
        #expect(app.chatList.entries[0].unreadCount == 1)
        #expect(app.chatList.entries[0].lastItem?.text == "skipped message ID 3")
    }

    /// Group chats are not on the client's screens yet: a member's message and an invitation go to the
    /// notifier (which applies the group's setting); the user's own group items and other group events
    /// do not.
    @Test func groupMessagesAndInvitationsGoToTheNotifier() {
        var app = AppFixture.app()
        func member(_ name: String, _ category: GroupMemberCategory) -> GroupMember {
            GroupMember(
                groupMemberId: category == .user ? 1 : 2, groupId: 1, memberId: MemberID(bytes: [category == .user ? 1 : 2]),
                role: .member, category: category, status: .connected, localDisplayName: name,
                profile: Profile(displayName: name, fullName: ""), contactId: nil, invitedBy: nil, connRequest: nil,
                agentConnectionID: nil, ready: true)
        }
        let team = ChatGroup(
            groupId: 1, localDisplayName: "team", profile: GroupProfile(displayName: "team"),
            membership: member("me", .user))
        func item(_ from: GroupMember?) -> GroupChatItem {
            GroupChatItem(
                itemId: 1, groupId: 1, member: from, content: .text("hi"), timestamp: AppFixture.now, sharedMsgId: nil,
                forwarded: false)
        }
        let received = ChatEvent.group(.newItem(team, item(member("bob", .pre))))
        #expect(app.update(.core(received)) == [.loadChatList, .notify(received)])
        let invited = ChatEvent.group(.invitation(team, from: "bob", role: .member))
        #expect(app.update(.core(invited)) == [.loadChatList, .notify(invited)])
        #expect(app.update(.core(.group(.newItem(team, item(nil))))) == [.loadChatList], "your own: not notified")
        #expect(app.update(.core(.group(.memberLeft(team, member("bob", .pre))))) == [.loadChatList])
    }
}
