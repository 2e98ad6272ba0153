/// What a notification shows and does, as a pure value (iOS `UNMutableNotificationContent` made by
/// `SimpleXChat/Notifications.swift`); the desktop presenter turns it into a libnotify notification.
///
/// Made by `make(user:chat:item:previewMode:)` for chat items and chat events, `summary(of:previewMode:)`
/// for a batch of them, and the constructors for joint and error notifications. The strings are the
/// iOS app's English strings.
public struct NotificationContent: Sendable, Equatable {
    /// The kind of notification (iOS `ntfCategory...` identifiers).
    public enum Category: String, Sendable, Equatable, CaseIterable {
        case messageReceived = "NTF_CAT_MESSAGE_RECEIVED"
        case contactRequest = "NTF_CAT_CONTACT_REQUEST"
        case contactConnected = "NTF_CAT_CONTACT_CONNECTED"
        case callInvitation = "NTF_CAT_CALL_INVITATION"
        /// Something arrived that could not be read into a chat item, and the error notifications.
        case connectionEvent = "NTF_CAT_CONNECTION_EVENT"
        /// The joint notification for several chats or events.
        case manyEvents = "NTF_CAT_MANY_EVENTS"

        /// The freedesktop notification `category` hint for this kind.
        public var desktopCategory: String {
            switch self {
            case .messageReceived, .manyEvents: "im.received"
            case .contactRequest, .connectionEvent: "im"
            case .contactConnected: "presence.online"
            case .callInvitation: "call.incoming"
            }
        }
    }

    /// A button on the notification besides clicking it, which opens `targetChat`
    /// (iOS `ntfAction...` identifiers; rejecting a contact request is ours).
    public enum Action: String, Sendable, Equatable, CaseIterable {
        case acceptContact = "NTF_ACT_ACCEPT_CONTACT"
        case acceptContactIncognito = "NTF_ACT_ACCEPT_CONTACT_INCOGNITO"
        case rejectContact = "NTF_ACT_REJECT_CONTACT"
        case acceptCall = "NTF_ACT_ACCEPT_CALL"
        case rejectCall = "NTF_ACT_REJECT_CALL"

        /// The button label.
        public var label: String {
            switch self {
            case .acceptContact, .acceptCall: "Accept"
            case .acceptContactIncognito: "Accept incognito"
            case .rejectContact, .rejectCall: "Reject"
            }
        }
    }

    public var categoryIdentifier: Category
    public var title: String
    /// May be empty: error notifications have a title only.
    public var body: String
    /// The chat a click opens (`@12`, `#5`, `<@3`); nil for joint and error notifications.
    public var targetChat: String?
    /// The user the notification belongs to, so a click can switch to that user first.
    public var userId: Int64?
    public var actions: [Action]

    public init(
        categoryIdentifier: Category, title: String, body: String = "", targetChat: String? = nil,
        userId: Int64? = nil, actions: [Action] = []
    ) {
        self.categoryIdentifier = categoryIdentifier
        self.title = title
        self.body = body
        self.targetChat = targetChat
        self.userId = userId
        self.actions = actions
    }
}

extension NotificationContent {
    /// One thing that may be notified: the inputs of `make(user:chat:item:previewMode:)`.
    public struct Source: Sendable, Equatable {
        public var user: NotificationUser
        public var chat: NotificationChat
        public var item: NotificationItem

        public init(user: NotificationUser, chat: NotificationChat, item: NotificationItem) {
            self.user = user
            self.chat = chat
            self.item = item
        }
    }
}
