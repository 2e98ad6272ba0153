import Testing

@testable import SimpleXChat

/// Received-message notifications: every item kind in every preview mode, with the iOS strings.
@Suite struct NotificationContentMessageTests {
    typealias F = NotificationFixtures

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let content: NotificationItem.Content
        var fileName: String? = nil
        /// The body in message mode; contact and hidden modes always say "new message".
        let body: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "text", content: .message(.text("hello there")), body: "hello there"),
        Case(name: "text with a secret", content: .message(.text("code #4711# ok")), body: "code ... ok"),
        Case(name: "text with bold", content: .message(.text("*really* fine")), body: "really fine"),
        Case(
            name: "link", content: .message(.link(text: "see https://simplex.chat")),
            body: "see https://simplex.chat"),
        Case(
            name: "image with caption", content: .message(.image(text: "our cat")), fileName: "IMG_1.jpg",
            body: "our cat"),
        Case(
            name: "image without caption", content: .message(.image(text: "")), fileName: "IMG_1.jpg",
            body: "IMG_1.jpg"),
        Case(
            name: "video without caption", content: .message(.video(text: "", duration: 42)),
            fileName: "clip.mp4",
            body: "clip.mp4"),
        Case(
            name: "video with caption", content: .message(.video(text: "#spoiler#", duration: 42)),
            body: "..."),
        Case(
            name: "voice without text", content: .message(.voice(text: "", duration: 15)),
            fileName: "voice.m4a",
            body: "Voice message (00:15)"),
        Case(
            name: "long voice without text", content: .message(.voice(text: "", duration: 3725)),
            fileName: "voice.m4a", body: "Voice message (01:02:05)"),
        Case(
            name: "voice with text", content: .message(.voice(text: "listen", duration: 15)), body: "listen"),
        Case(
            name: "file without text", content: .message(.file(text: "")), fileName: "report.pdf",
            body: "report.pdf"),
        Case(
            name: "file with text", content: .message(.file(text: "the pdf")), fileName: "report.pdf",
            body: "the pdf"),
        Case(name: "file without name", content: .message(.file(text: "")), body: ""),
        Case(
            name: "report with text", content: .message(.report(text: "spam link", reason: .spam)),
            body: "Report: spam link"),
        Case(
            name: "report with a secret", content: .message(.report(text: "he wrote #this#", reason: .other)),
            body: "Report: he wrote ..."),
        Case(
            name: "report without text", content: .message(.report(text: "", reason: .illegal)),
            body: "Report: Inappropriate content"),
        Case(
            name: "report without text, unknown reason",
            content: .message(.report(text: "", reason: .unknown("fraud"))),
            body: "Report: fraud"),
        Case(name: "chat link card", content: .message(.chat(text: "join us")), body: "join us"),
        Case(
            name: "unknown content", content: .message(.unknown(type: "poll", text: "vote now")),
            body: "vote now"),
        Case(
            name: "group invitation", content: .groupInvitation(groupName: "club"),
            body: "invitation to group club"),
        Case(name: "notified event", content: .event(text: "removed you"), body: "removed you"),
    ]

    @Test(arguments: cases) func directChatInEveryMode(_ example: Case) throws {
        let item = NotificationItem.received(.init(content: example.content, fileName: example.fileName))
        let message = try #require(F.make(F.alice, item, .message))
        #expect(message.categoryIdentifier == .messageReceived)
        #expect(message.title == "alice:")
        #expect(message.body == example.body)
        #expect(message.targetChat == "@12")
        #expect(message.userId == 1)
        #expect(message.actions.isEmpty)

        let contact = try #require(F.make(F.alice, item, .contact))
        #expect(contact.title == "alice:")
        #expect(contact.body == "new message")
        #expect(contact.targetChat == "@12")

        let hidden = try #require(F.make(F.alice, item, .hidden))
        #expect(hidden.title == "Contact hidden:")
        #expect(hidden.body == "new message")
        #expect(hidden.targetChat == "@12")
    }

    @Test(arguments: cases) func groupMemberInEveryMode(_ example: Case) throws {
        let item = NotificationItem.received(
            .init(content: example.content, sender: F.bob, fileName: example.fileName))
        let message = try #require(F.make(F.team, item, .message))
        #expect(message.categoryIdentifier == .messageReceived)
        #expect(message.title == "#team bob:")
        #expect(message.body == example.body)
        #expect(message.targetChat == "#5")

        let contact = try #require(F.make(F.team, item, .contact))
        #expect(contact.title == "#team bob:")
        #expect(contact.body == "new message")

        let hidden = try #require(F.make(F.team, item, .hidden))
        #expect(hidden.title == "Group message:")
        #expect(hidden.body == "new message")
        #expect(hidden.targetChat == "#5")
    }

    @Test func aChannelItemWithoutMemberIsTitledByTheGroupLikeAContact() throws {
        let item = F.received(.text("news"))
        #expect(F.make(F.team, item, .message)?.title == "team:")
        #expect(F.make(F.team, item, .hidden)?.title == "Contact hidden:")
    }

    @Test func namesUseTheLocalAliasElseTheDisplayNameWithADifferentFullName() throws {
        let aliased = NotificationChat.direct(
            NotificationName("alice", fullName: "Alice Smith", localAlias: "Mum"), contactId: 3)
        #expect(F.make(aliased, F.received(.text("hi")), .contact)?.title == "Mum:")
        let fullName = NotificationChat.direct(
            NotificationName("alice", fullName: "Alice Smith"), contactId: 3)
        #expect(F.make(fullName, F.received(.text("hi")), .contact)?.title == "alice / Alice Smith:")
        let sameFullName = NotificationChat.direct(NotificationName("alice", fullName: "alice"), contactId: 3)
        #expect(F.make(sameFullName, F.received(.text("hi")), .contact)?.title == "alice:")

        // A group is titled by its local alias, else its display name (iOS `GroupInfo.displayName`);
        // the member by its view name.
        let group = NotificationChat.group(
            NotificationName("team", fullName: "The Team", localAlias: "work"), groupId: 9)
        let member = NotificationName("bob", fullName: "Bob B", localAlias: "")
        #expect(F.make(group, F.received(.text("hi"), from: member), .message)?.title == "#work bob / Bob B:")
        let unaliased = NotificationChat.group(NotificationName("team", fullName: "The Team"), groupId: 9)
        #expect(F.make(unaliased, F.received(.text("hi"), from: member), .message)?.title == "#team bob / Bob B:")
    }

    @Test func durationsAreWrittenAsIOSWritesThem() {
        #expect(NotificationItem.durationText(seconds: 0) == "00:00")
        #expect(NotificationItem.durationText(seconds: 9) == "00:09")
        #expect(NotificationItem.durationText(seconds: 75) == "01:15")
        #expect(NotificationItem.durationText(seconds: 3599) == "59:59")
        #expect(NotificationItem.durationText(seconds: 3600) == "01:00:00")
        #expect(NotificationItem.durationText(seconds: 36_061) == "10:01:01")
    }
}
