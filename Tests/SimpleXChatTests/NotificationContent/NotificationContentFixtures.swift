@testable import SimpleXChat

/// Users, chats and items the notification content tests share.
enum NotificationFixtures {
    static let user = NotificationUser(userId: 1)
    static let alice = NotificationChat.direct(NotificationName("alice"), contactId: 12)
    static let team = NotificationChat.group(NotificationName("team"), groupId: 5)
    static let bob = NotificationName("bob")

    /// A received message in a direct chat.
    static func received(
        _ content: NotificationItem.MessageContent, fileName: String? = nil, mentionsUser: Bool = false
    ) -> NotificationItem {
        .received(.init(content: .message(content), mentionsUser: mentionsUser, fileName: fileName))
    }

    /// A received message from a member in a group.
    static func received(_ content: NotificationItem.MessageContent, from sender: NotificationName)
        -> NotificationItem
    {
        .received(.init(content: .message(content), sender: sender))
    }

    static func make(
        _ chat: NotificationChat, _ item: NotificationItem, _ mode: NotificationPreviewMode,
        user: NotificationUser = user
    ) -> NotificationContent? {
        NotificationContent.make(user: user, chat: chat, item: item, previewMode: mode)
    }
}
