import Testing

@testable import SimpleXChat

/// The joint "New messages" notification, and which batch of news becomes one.
@Suite struct NotificationContentJointTests {
    typealias F = NotificationFixtures

    static let names = ["alice", "bob", "carol", "dave", "eve", "frank", "grace", "heidi", "ivan", "judy"]

    static let shown: [(count: Int, body: String)] = [
        (1, "From: alice"),
        (2, "From: alice and bob"),
        (3, "From: alice, bob and carol"),
        (4, "From: alice, bob and 2 other chats"),
        (10, "From: alice, bob and 8 other chats"),
    ]

    @Test(arguments: [NotificationPreviewMode.message, .contact]) func namesTheChats(
        _ mode: NotificationPreviewMode
    ) {
        for (count, body) in Self.shown {
            let content = NotificationContent.newMessages(
                fromChats: Array(Self.names.prefix(count)), previewMode: mode)
            #expect(content.categoryIdentifier == .manyEvents)
            #expect(content.title == "New messages")
            #expect(content.body == body, "\(count) chats")
            #expect(content.targetChat == nil)
            #expect(content.actions.isEmpty)
        }
    }

    @Test func hiddenModeCountsTheChats() {
        let bodies = [
            1: "From 1 chat", 2: "From 2 chats", 3: "From 3 chats", 4: "From 4 chats", 10: "From 10 chats",
        ]
        for (count, body) in bodies {
            let content = NotificationContent.newMessages(
                fromChats: Array(Self.names.prefix(count)), previewMode: .hidden, userId: 4)
            #expect(content.title == "New messages")
            #expect(content.body == body)
            #expect(content.userId == 4)
            #expect(!content.body.contains("alice"))
        }
    }

    @Test func aBatchWithNothingToNotifyIsNothing() {
        #expect(NotificationContent.summary(of: [], previewMode: .message) == nil)
        let muted = NotificationChat.direct(NotificationName("alice"), contactId: 12, notifications: .none)
        let sources = [
            NotificationContent.Source(user: F.user, chat: muted, item: F.received(.text("hi"))),
            NotificationContent.Source(user: F.user, chat: F.team, item: .sent),
        ]
        #expect(NotificationContent.summary(of: sources, previewMode: .message) == nil)
    }

    @Test func oneChatWithNewsShowsItsLatestItem() {
        let sources = [
            NotificationContent.Source(user: F.user, chat: F.alice, item: F.received(.text("first"))),
            NotificationContent.Source(user: F.user, chat: F.alice, item: F.received(.text("second"))),
            NotificationContent.Source(user: F.user, chat: F.team, item: .sent),
        ]
        let content = NotificationContent.summary(of: sources, previewMode: .message)
        #expect(content == F.make(F.alice, F.received(.text("second")), .message))
        #expect(content?.body == "second")
    }

    @Test func aLaterItemThatDoesNotNotifyReplacesAnEarlierOneOfItsChat() {
        let bob = NotificationChat.direct(F.bob, contactId: 13)
        let sources = [
            NotificationContent.Source(user: F.user, chat: F.alice, item: F.received(.text("oops"))),
            NotificationContent.Source(user: F.user, chat: F.alice, item: .received(.init(content: .silent))),
            NotificationContent.Source(user: F.user, chat: bob, item: F.received(.text("hello"))),
        ]
        // alice's message was deleted after it: only bob's chat has news.
        #expect(
            NotificationContent.summary(of: sources, previewMode: .message)
                == F.make(bob, F.received(.text("hello")), .message))
    }

    @Test func severalChatsWithMessagesAreJoinedInTheOrderTheirNewsCame() throws {
        let carol = NotificationChat.direct(NotificationName("carol", localAlias: "C"), contactId: 30)
        let sources = [
            NotificationContent.Source(user: F.user, chat: F.team, item: F.received(.text("1"), from: F.bob)),
            NotificationContent.Source(user: F.user, chat: F.alice, item: F.received(.text("2"))),
            NotificationContent.Source(user: F.user, chat: F.team, item: F.received(.text("3"), from: F.bob)),
            NotificationContent.Source(user: F.user, chat: carol, item: F.received(.text("4"))),
        ]
        let content = try #require(NotificationContent.summary(of: sources, previewMode: .contact))
        #expect(content.title == "New messages")
        #expect(content.body == "From: team, alice and C")
        #expect(content.userId == 1)
        #expect(NotificationContent.summary(of: sources, previewMode: .hidden)?.body == "From 3 chats")
    }

    @Test func messagesTakePrecedenceOverEvents() {
        let request = NotificationChat.contactRequest(NotificationName("carol"), contactRequestId: 3)
        let sources = [
            NotificationContent.Source(user: F.user, chat: request, item: .contactRequest),
            NotificationContent.Source(user: F.user, chat: F.alice, item: F.received(.text("hi"))),
            NotificationContent.Source(user: F.user, chat: F.team, item: .callInvitation(.audio)),
        ]
        let content = NotificationContent.summary(of: sources, previewMode: .message)
        #expect(content == F.make(F.alice, F.received(.text("hi")), .message))
    }

    @Test func severalEventsWithoutMessagesAreCounted() {
        let sources = [
            NotificationContent.Source(
                user: F.user, chat: .contactRequest(NotificationName("carol"), contactRequestId: 3),
                item: .contactRequest),
            NotificationContent.Source(user: F.user, chat: F.alice, item: .contactConnected),
        ]
        let content = NotificationContent.summary(of: sources, previewMode: .message)
        #expect(content?.categoryIdentifier == .manyEvents)
        #expect(content?.title == "New events")
        #expect(content?.body == "2 new events")
        #expect(content?.targetChat == nil)
    }

    @Test func theSameChatIdOfTwoUsersIsTwoChats() {
        let other = NotificationUser(userId: 2, isActiveUser: false, showNtfs: true)
        let sources = [
            NotificationContent.Source(user: F.user, chat: F.alice, item: F.received(.text("hi"))),
            NotificationContent.Source(user: other, chat: F.alice, item: F.received(.text("hi"))),
        ]
        #expect(
            NotificationContent.summary(of: sources, previewMode: .message)?.body == "From: alice and alice")
    }
}
