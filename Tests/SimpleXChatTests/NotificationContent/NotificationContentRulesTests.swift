import Testing

@testable import SimpleXChat

/// Which items notify at all: received content only, as the chat's setting and the user allow.
@Suite struct NotificationContentRulesTests {
    typealias F = NotificationFixtures

    @Test(arguments: NotificationPreviewMode.allCases) func sentItemsNeverNotify(
        _ mode: NotificationPreviewMode
    ) {
        #expect(F.make(F.alice, .sent, mode) == nil)
        #expect(F.make(F.team, .sent, mode) == nil)
    }

    @Test(arguments: NotificationPreviewMode.allCases) func silentReceivedItemsNeverNotify(
        _ mode: NotificationPreviewMode
    ) {
        let silent = NotificationItem.received(.init(content: .silent, mentionsUser: true))
        #expect(F.make(F.alice, silent, mode) == nil)
        #expect(F.make(F.team, silent, mode) == nil)
    }

    @Test func aMutedChatNotifiesNoItemEvenAMention() {
        let muted = NotificationChat.direct(NotificationName("alice"), contactId: 12, notifications: .none)
        #expect(F.make(muted, F.received(.text("hi")), .message) == nil)
        #expect(F.make(muted, F.received(.text("@me hi"), mentionsUser: true), .message) == nil)
        let mutedGroup = NotificationChat.group(NotificationName("team"), groupId: 5, notifications: .none)
        #expect(
            F.make(mutedGroup, .received(.init(content: .groupInvitation(groupName: "x"))), .message) == nil)
    }

    @Test func mentionsOnlyNotifiesAMentionAndNothingElse() throws {
        let group = NotificationChat.group(NotificationName("team"), groupId: 5, notifications: .mentions)
        let plain = NotificationItem.received(.init(content: .message(.text("hi all")), sender: F.bob))
        let mention = NotificationItem.received(
            .init(content: .message(.text("@alice look")), sender: F.bob, mentionsUser: true))
        #expect(F.make(group, plain, .message) == nil)
        let notified = try #require(F.make(group, mention, .message))
        #expect(notified.title == "#team bob:")
        #expect(notified.body == "@alice look")
        // Invitations and events carry no mention, so a mentions-only chat does not notify them.
        #expect(
            F.make(group, .received(.init(content: .event(text: "removed you"), sender: F.bob)), .message)
                == nil)
    }

    @Test func shouldNotifyFollowsTheSettingAndTheMention() {
        for setting in NotificationChat.NotificationSetting.allCases {
            let chat = NotificationChat.direct(
                NotificationName("alice"), contactId: 1, notifications: setting)
            for mentioned in [false, true] {
                let item = NotificationItem.ReceivedItem(
                    content: .message(.text("x")), mentionsUser: mentioned)
                let expected =
                    switch setting {
                    case .all: true
                    case .mentions: mentioned
                    case .none: false
                    }
                #expect(
                    NotificationContent.shouldNotify(item, in: chat) == expected, "\(setting) \(mentioned)")
            }
        }
    }

    @Test func aUserNotShownNotifiesNothing() {
        let quiet = NotificationUser(userId: 2, isActiveUser: false, showNtfs: false)
        let request = NotificationChat.contactRequest(NotificationName("carol"), contactRequestId: 3)
        #expect(F.make(F.alice, F.received(.text("hi")), .message, user: quiet) == nil)
        #expect(F.make(request, .contactRequest, .message, user: quiet) == nil)
        #expect(F.make(F.alice, .contactConnected, .message, user: quiet) == nil)
        #expect(F.make(F.alice, .callInvitation(.video), .message, user: quiet) == nil)
        #expect(NotificationContent.connectionEvent(user: quiet, chat: F.alice, previewMode: .message) == nil)
    }

    @Test func anInactiveUserNotifiesWhenItsNotificationsAreOn() throws {
        let inactive = NotificationUser(userId: 2, isActiveUser: false, showNtfs: true)
        let content = try #require(F.make(F.alice, F.received(.text("hi")), .message, user: inactive))
        #expect(content.userId == 2)
        let activeWithoutShowNtfs = NotificationUser(userId: 3, isActiveUser: true, showNtfs: false)
        #expect(F.make(F.alice, F.received(.text("hi")), .message, user: activeWithoutShowNtfs)?.userId == 3)
    }

    @Test func chatEventsIgnoreTheChatSettingAsIOSDoes() {
        let muted = NotificationChat.direct(NotificationName("alice"), contactId: 12, notifications: .none)
        #expect(F.make(muted, .contactConnected, .message) != nil)
        #expect(F.make(muted, .callInvitation(.audio), .message) != nil)
    }
}
