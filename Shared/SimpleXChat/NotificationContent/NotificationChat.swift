// Small input types for notification content. The chat model (ChatInfo, Contact, GroupInfo, User)
// is written separately; the chat core maps its values into these, so notification content stays a
// pure function that does not depend on the model's shape.

/// The user a notification belongs to (iOS `User.showNotifications`).
public struct NotificationUser: Sendable, Equatable {
    public var userId: Int64
    /// The user whose chats the client shows now.
    public var isActiveUser: Bool
    /// Notify for this user while another user is active (iOS `showNtfs`).
    public var showNtfs: Bool

    public init(userId: Int64, isActiveUser: Bool = true, showNtfs: Bool = true) {
        self.userId = userId
        self.isActiveUser = isActiveUser
        self.showNtfs = showNtfs
    }

    /// Whether anything is notified for this user: always for the active user, otherwise as `showNtfs` says.
    public var showNotifications: Bool { isActiveUser || showNtfs }
}

/// A contact's, member's or group's name as a notification shows it (iOS `NamedChat`).
public struct NotificationName: Sendable, Equatable {
    public var displayName: String
    public var fullName: String
    /// The name the user gave the contact; empty when none.
    public var localAlias: String

    public init(_ displayName: String, fullName: String = "", localAlias: String = "") {
        self.displayName = displayName
        self.fullName = fullName
        self.localAlias = localAlias
    }

    /// The local alias when there is one, else the display name (iOS `Contact.displayName`,
    /// `GroupInfo.displayName`).
    public var localOrDisplayName: String { localAlias.isEmpty ? displayName : localAlias }

    /// The name chats are listed under (iOS `chatViewName`): the local alias when there is one, else the
    /// display name followed by ` / <full name>` when a different full name exists.
    public var viewName: String {
        guard localAlias.isEmpty else { return localAlias }
        return fullName.isEmpty || fullName == displayName ? displayName : "\(displayName) / \(fullName)"
    }
}

/// The chat a notification is about, and what the user asked to be notified of in it.
public struct NotificationChat: Sendable, Equatable {
    /// Which chat, by kind.
    public enum Kind: Sendable, Equatable {
        case direct(contact: NotificationName)
        case group(NotificationName)
        /// A contact request: a chat of its own until it is accepted (iOS `ChatInfo.contactRequest`).
        case contactRequest(NotificationName)
    }

    /// The chat's notification setting (iOS `chatSettings.enableNtfs`, a `MsgFilter`).
    public enum NotificationSetting: String, Sendable, Equatable, CaseIterable {
        /// Every received message notifies.
        case all
        /// Only messages that mention the user (or reply to the user) notify.
        case mentions
        /// The chat is muted.
        case none
    }

    public var kind: Kind
    /// The chat reference the client opens: `@12`, `#5`, `<@3` (iOS `ChatInfo.id`).
    public var chatId: String
    public var notifications: NotificationSetting

    public init(kind: Kind, chatId: String, notifications: NotificationSetting = .all) {
        self.kind = kind
        self.chatId = chatId
        self.notifications = notifications
    }

    /// A direct chat with a contact, chat id `@<contactId>`.
    public static func direct(
        _ contact: NotificationName, contactId: Int64, notifications: NotificationSetting = .all
    ) -> NotificationChat {
        NotificationChat(
            kind: .direct(contact: contact), chatId: "@\(contactId)", notifications: notifications)
    }

    /// A group, chat id `#<groupId>`.
    public static func group(
        _ group: NotificationName, groupId: Int64, notifications: NotificationSetting = .all
    ) -> NotificationChat {
        NotificationChat(kind: .group(group), chatId: "#\(groupId)", notifications: notifications)
    }

    /// A pending contact request, chat id `<@<contactRequestId>`.
    public static func contactRequest(_ requester: NotificationName, contactRequestId: Int64)
        -> NotificationChat
    {
        NotificationChat(kind: .contactRequest(requester), chatId: "<@\(contactRequestId)")
    }

    /// The contact's, group's or requester's name.
    public var name: NotificationName {
        switch kind {
        case .direct(let contact): contact
        case .group(let group): group
        case .contactRequest(let requester): requester
        }
    }
}
