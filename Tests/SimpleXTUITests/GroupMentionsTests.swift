import Foundation
import Testing
import TestSupport

@testable import SimpleXChat
@testable import SimpleXTUI

/// Mentions, replies and reactions in a group chat of the full-screen client, and the avatar
/// gutter in both layouts.
struct GroupMentionsTests {
    let now = AppFixture.now
    let fixtures = GroupChatTests()

    /// The app with #team open, its items `items` and its members `names`.
    func openTeam(_ items: [GroupChatItem] = [], names: [String] = []) -> AppModel {
        var app = AppFixture.app()
        _ = app.update(
            .chatList(ChatListEntry.merging([(fixtures.team(), nil, 0)], into: app.chatList.entries)))
        app.chatList.selectedID = "#7"
        _ = app.update(.key(.key(.enter, [])))
        _ = app.update(.groupOpened(fixtures.team(), items))
        _ = app.update(.groupMemberNames(groupId: 7, names))
        return app
    }

    func type(_ text: String, into app: inout AppModel) {
        for character in text { _ = app.update(.key(.character(character))) }
    }

    @Test func tabAfterAtCompletesAMembersNameAndTabAgainTakesTheNext() {
        var app = openTeam(names: ["bob", "bert", "Bob B", "carol"])
        type("hi @ca", into: &app)
        _ = app.update(.key(.key(.tab, [])))
        #expect(app.compose.string == "hi @carol ")
        type("and @b", into: &app)
        _ = app.update(.key(.key(.tab, [])))
        #expect(app.compose.string == "hi @carol and @bob ")
        #expect(app.status?.text == "@bob  @bert  @Bob B · Tab: next")
        _ = app.update(.key(.key(.tab, [])))
        #expect(app.compose.string == "hi @carol and @bert ")
        _ = app.update(.key(.key(.tab, [])))
        #expect(app.compose.string == "hi @carol and @'Bob B' ")
        _ = app.update(.key(.key(.tab, [])))
        #expect(app.compose.string == "hi @carol and @bob ")
        // No member by that start: the text stays, the status says so.
        type("@zed", into: &app)
        _ = app.update(.key(.key(.tab, [])))
        #expect(app.compose.string == "hi @carol and @bob @zed")
        #expect(app.status?.text == "no member of #team is called zed…")
        #expect(app.status?.isError == true)
        // Tab with no @ before the cursor changes nothing.
        var plain = openTeam(names: ["bob"])
        type("bob", into: &plain)
        _ = plain.update(.key(.key(.tab, [])))
        #expect(plain.compose.string == "bob")
        // The completed text is sent as typed.
        #expect(
            app.update(.key(.key(.enter, []))) == [.sendGroup(groupId: 7, text: "hi @carol and @bob @zed")])
    }

    @Test func rRepliesToAMembersItemAndPlusReactsToIt() {
        let bob = fixtures.member(2, "bob")
        let hello = GroupChatItem(
            itemId: 1, groupId: 7, member: bob, content: .text("hello all"),
            timestamp: now.addingTimeInterval(-30),
            sharedMsgId: SharedMsgID(bytes: [1, 2, 3]), forwarded: false)
        var app = openTeam([hello], names: ["bob"])
        _ = app.update(.key(.key(.up, [])))
        #expect(app.groupChat?.cursorItemId == 1)
        _ = app.update(.key(.character("r")))
        #expect(app.focus == .compose)
        #expect(AppView().draw(&app).lines.contains { $0.text.contains("↩ replying to bob: hello all") })
        type("hi bob", into: &app)
        #expect(
            app.update(.key(.key(.enter, []))) == [.replyGroup(groupId: 7, text: "hi bob", quoting: hello)])
        #expect(app.groupChat?.replying == nil)
        // Esc drops the reply and keeps the text.
        _ = app.update(.key(.key(.up, [])))
        _ = app.update(.key(.character("r")))
        type("draft", into: &app)
        _ = app.update(.key(.key(.escape, [])))
        #expect(app.groupChat?.replying == nil && app.compose.string == "draft")

        // +, then 1: 👍 added; on an item the user reacted to with 👍, 1 removes it.
        app = openTeam([hello], names: ["bob"])
        _ = app.update(.key(.key(.up, [])))
        _ = app.update(.key(.character("+")))
        #expect(AppView().draw(&app).lines.contains { $0.text.contains("React:") })
        #expect(
            app.update(.key(.character("1"))) == [
                .reactGroup(groupId: 7, item: hello, emoji: .thumbsUp, add: true)
            ])
        var reacted = hello
        reacted.reactions = [
            GroupItemReaction(emoji: "👍", groupMemberId: nil),
            GroupItemReaction(emoji: "👍", groupMemberId: 3),
        ]
        app = openTeam([reacted], names: ["bob"])
        #expect(AppView().draw(&app).lines.contains { $0.text.contains("👍 2") })
        _ = app.update(.key(.key(.up, [])))
        _ = app.update(.key(.character("+")))
        #expect(
            app.update(.key(.character("1")))
                == [.reactGroup(groupId: 7, item: reacted, emoji: .thumbsUp, add: false)])
    }

    @Test func aReplyShowsTheQuotedMemberAndAMentionOfTheUserIsReversed() {
        let bob = fixtures.member(2, "bob")
        var reply = fixtures.item(2, bob, "@me yes, at noon")
        reply.quote = GroupItemQuote(
            content: .text("lunch at noon?"), member: fixtures.member(1, "me"), sharedMsgId: nil)
        let row = ChatViewItem(group: reply, userName: "me")
        #expect(row.quote?.senderName == "you")
        #expect(row.quote?.text.source == "lunch at noon?")
        var settings = ChatViewSettings(timeZone: TimeZone(identifier: "UTC")!)
        settings.userName = "me"
        let lines = ChatViewLayout.groupLines(
            for: row, older: nil, width: 50, settings: settings, state: ItemRenderState(), now: now)
        let text = lines.first { $0.text.contains("yes, at noon") }!
        let mention = text.spans.first { $0.text == "@me" }!
        #expect(mention.style.attributes.contains(.reverse))
        #expect(lines.contains { $0.text.contains("lunch at noon?") })
        // Another member's mention is coloured, not reversed.
        let other = ChatViewItem(group: fixtures.item(3, bob, "ask @carol"), userName: "me")
        let otherLines = ChatViewLayout.groupLines(
            for: other, older: row, width: 50, settings: settings, state: ItemRenderState(), now: now)
        let carol = otherLines.flatMap(\.spans).first { $0.text == "@carol" }!
        #expect(!carol.style.attributes.contains(.reverse))
        #expect(carol.style.attributes.contains(.bold))
    }

    @Test func classicBubblesHaveTheGutterWithTheInitialBesideTheRunsName() {
        let bob = fixtures.member(2, "bob", role: .admin)
        let first = ChatViewItem(group: fixtures.item(1, bob, "hello", at: -20), userName: "me")
        let second = ChatViewItem(group: fixtures.item(2, bob, "again", at: -10), userName: "me")
        var settings = ChatViewSettings(timeZone: TimeZone(identifier: "UTC")!)
        settings.layout = .classic
        let lines = ChatViewLayout.groupLines(
            for: first, older: nil, width: 40, settings: settings, state: ItemRenderState(), now: now)
        let nameRow = lines.firstIndex { $0.text.contains("bob · admin") }!
        #expect(lines[nameRow].text.hasPrefix(" B bob · admin"))
        #expect(lines[nameRow].spans[1].style.foreground == ChatViewLayout.avatarColor("member:2"))
        // The bubble below the name, inside the gutter.
        let bubble = lines.firstIndex { $0.text.contains("hello") }!
        #expect(bubble > nameRow)
        #expect(lines[bubble].text.hasPrefix("  "))
        #expect(lines.allSatisfy { $0.width <= 40 })
        // The run's next bubble: no name, no initial.
        let next = ChatViewLayout.groupLines(
            for: second, older: first, width: 40, settings: settings, state: ItemRenderState(), now: now)
        #expect(!next.contains { $0.text.contains("bob") })
        #expect(next.allSatisfy { $0.text.hasPrefix("  ") })
        #expect(next.contains { $0.text.contains("again") })
        // The user's own bubbles have no name row.
        let own = ChatViewLayout.groupLines(
            for: ChatViewItem(group: fixtures.item(3, nil, "mine"), userName: "me"), older: second, width: 40,
            settings: settings, state: ItemRenderState(), now: now)
        #expect(own.contains { $0.text.contains("mine") })
        #expect(own.allSatisfy { $0.text.hasPrefix("  ") })
    }

    @Test func theChatListMarksMutedAndMentionsOnlyGroups() {
        var muted = fixtures.team()
        muted.enableNtfs = .none
        var mentions = fixtures.team()
        mentions.enableNtfs = .mentions
        let rows = { (group: ChatGroup) in
            ChatListView.rows(
                ChatListEntry(kind: .group(group)), width: 30, selected: false, number: nil,
                style: ChatListStyle(),
                now: now)[0].text
        }
        #expect(rows(muted).contains("#team 🔕"))
        #expect(!rows(muted).contains("🔕@"))
        #expect(rows(mentions).contains("#team 🔕@"))
        // Unread mentions of the user: `@` beside the unread count.
        var mentioned = ChatListEntry(kind: .group(fixtures.team()), unreadCount: 3)
        mentioned.unreadMentions = 1
        let badge = ChatListView.rows(
            mentioned, width: 30, selected: false, number: nil, style: ChatListStyle(), now: now)[1].text
        #expect(badge.contains(" @ 3 "))
        #expect(
            [ChatListEntry(kind: .group(fixtures.team()), unreadCount: 3)].withUnreadMentions(["#8": 2])[0]
                .unreadMentions == 0)
        #expect(
            [ChatListEntry(kind: .group(fixtures.team()), unreadCount: 3)].withUnreadMentions(["#7": 2])[0]
                .unreadMentions == 2)
        #expect(!rows(fixtures.team()).contains("🔕"))
    }

    @Test func ctrlTOffersAFileToTheGroupAndSReceivesAMembersFile() throws {
        let bob = fixtures.member(2, "bob")
        var offer = GroupChatItem(
            itemId: 1, groupId: 7, member: bob, content: .file(""), timestamp: now, sharedMsgId: nil,
            forwarded: false)
        offer.file = ChatFile(
            fileId: 5, contactId: 0, itemId: 1, sharedMsgId: nil, direction: .received, fileName: "plan.txt",
            fileSize: 18, filePath: nil, status: .rcvInvitation, digest: nil, chunkSize: 16_000, groupId: 7,
            groupMemberId: 2)
        var app = openTeam([offer], names: ["bob"])
        #expect(AppView().draw(&app).lines.contains { $0.text.contains("plan.txt") })
        _ = app.update(.key(.key(.up, [])))
        #expect(app.update(.key(.character("s"))) == [.receiveFile(fileId: 5)])
        // Not again once it is being received.
        var accepted = offer
        accepted.file?.status = .rcvAccepted
        app = openTeam([accepted], names: ["bob"])
        _ = app.update(.key(.key(.up, [])))
        #expect(app.update(.key(.character("s"))) == [])

        let directory = try TemporaryDirectory("group-attach")
        let path = directory.appending("notes.txt")
        try "notes".write(toFile: path, atomically: true, encoding: .utf8)
        app = openTeam(names: ["bob"])
        _ = app.update(.key(.control("t")))
        #expect(AppView().draw(&app).lines.contains { $0.text.contains("Offer a file to #team") })
        for character in path { _ = app.update(.key(.character(character))) }
        #expect(app.update(.key(.key(.enter, []))) == [.sendGroupFile(groupId: 7, path: path)])
    }
}
