import Foundation

/// The local user: a profile and its settings (SimpleX `User`).
public struct ChatUser: Equatable, Sendable {
    public let userId: Int64
    public var profile: Profile
    public var localDisplayName: String
    /// Send delivery receipts to contacts (SimpleX `sendRcptsContacts`), unless a contact's own
    /// setting (`ChatContact.sendRcpts`) says otherwise.
    public var sendRcptsContacts: Bool = true
}

/// A contact (SimpleX `Contact`): their profile as received, our local name and alias for them.
public struct ChatContact: Equatable, Sendable {
    public let contactId: Int64
    public var localDisplayName: String
    public var profile: Profile
    public var localAlias: String
    /// The agent connection, once there is one.
    public var agentConnectionID: String?
    /// Both sides can send.
    public var ready: Bool
    /// Delivery receipts to this contact: on, off, or nil to follow the user's setting
    /// (SimpleX `chatSettings.sendRcpts`).
    public var sendRcpts: Bool? = nil
    /// False once the contact deleted us (x.direct.del): the chat stays, nothing more can be
    /// sent to it (SimpleX `contactStatus` `deleted`).
    public var active: Bool = true
    /// Which received messages notify (SimpleX `chatSettings.enableNtfs`); `none` is muted.
    public var enableNtfs: NotificationChat.NotificationSetting = .all
    /// The chat is a favorite (SimpleX `chatSettings.favorite`).
    public var favorite: Bool = false

    /// Whether messages from this contact are acknowledged with a delivery receipt.
    public func sendsReceipts(_ user: ChatUser) -> Bool { sendRcpts ?? user.sendRcptsContacts }

    /// The name a user sees: the alias when set, else the local display name.
    public var viewName: String { localAlias.isEmpty ? localDisplayName : localAlias }
}

/// Whether an item was sent or received.
public enum ChatItemDirection: String, Sendable {
    case sent, received
}

/// A sent or received item's delivery state (SimpleX `CIStatus`).
public enum ChatItemStatus: String, Sendable, Equatable {
    /// Sent: stored, on its way; handed to the relay; delivered (receipt); could not be sent.
    case sndNew = "snd_new", sndSent = "snd_sent", sndRcvd = "snd_rcvd", sndError = "snd_error"
    /// Received: not yet read; read.
    case rcvNew = "rcv_new", rcvRead = "rcv_read"
}

/// One item of a chat (SimpleX `ChatItem`), as the store keeps it.
public struct ChatItem: Equatable, Sendable {
    public let itemId: Int64
    public let contactId: Int64
    public let direction: ChatItemDirection
    public var content: MsgContent
    public var status: ChatItemStatus
    public let timestamp: Date
    public var edited: Bool
    public var deleted: Bool
    public var forwarded: Bool
    public let sharedMsgId: SharedMsgID?
    public var quote: ChatItemQuote?
    public var reactions: [ChatItemReaction]
    /// The file the item offered, when it did (filled in where items are shown, not by every query).
    public var file: ChatFile? = nil
    /// A disappearing message's timer, if it is one.
    public var timed: ChatItemTimed? = nil

    /// The plain text (for the line mode, previews, notifications, search).
    public var text: String { content.text }
}

/// What a reply quoted.
public struct ChatItemQuote: Equatable, Sendable {
    public let sharedMsgId: SharedMsgID?
    public let sentByUser: Bool
    public let content: MsgContent
}

/// One reaction on an item: by the user, or by the contact.
public struct ChatItemReaction: Equatable, Sendable {
    public let emoji: String
    public let byUser: Bool
}

/// A request that arrived on the user's contact address.
public struct ChatContactRequest: Equatable, Sendable {
    public let requestId: Int64
    public let localDisplayName: String
    public let profile: Profile
    public let agentInvitationID: String
}

/// A chat in the chat list: the contact, its last item, how many items are unread.
public struct ChatPreview: Equatable, Sendable {
    public let contact: ChatContact
    public internal(set) var lastItem: ChatItem?
    public let unreadCount: Int
    /// The user marked the chat unread (apart from its unread items).
    public var unreadChat: Bool = false
    /// The oldest unread item, where the chat opens; 0 when none.
    public var minUnreadItemId: Int64 = 0
}

/// An item's history, for item info: its status changes and earlier versions.
public struct ChatItemInfo: Equatable, Sendable {
    public let statuses: [(status: ChatItemStatus, at: Date)]
    public let versions: [(content: MsgContent, at: Date)]

    public static func == (lhs: ChatItemInfo, rhs: ChatItemInfo) -> Bool {
        lhs.statuses.map(\.status) == rhs.statuses.map(\.status)
            && lhs.statuses.map(\.at) == rhs.statuses.map(\.at)
            && lhs.versions.map(\.content) == rhs.versions.map(\.content)
            && lhs.versions.map(\.at) == rhs.versions.map(\.at)
    }
}

/// Errors of chat commands: each a one-line message for the user.
public enum ChatError: Error, Equatable, Sendable, CustomStringConvertible {
    case noUser
    case contactNotFound(String)
    case itemNotFound(String)
    case requestNotFound(String)
    case invalidCommand(String)
    case notConnected(String)
    /// The contact deleted us: nothing more can be sent to it (SimpleX `CEContactNotActive`).
    case contactNotActive(String)
    case agent(String)
    case store(String)
    case file(ChatFileError)
    /// The user has no contact address (to show or delete).
    case noAddress
    /// The user has a contact address already (to create).
    case addressExists

    public var description: String {
        switch self {
        case .noUser: "no user profile yet"
        case .contactNotFound(let name): "no contact \(name)"
        case .itemNotFound(let what): "no message \(what)"
        case .requestNotFound(let name): "no contact request from \(name)"
        case .invalidCommand(let why): "invalid command: \(why)"
        case .notConnected(let name): "\(name) is not connected yet"
        case .contactNotActive(let name): "\(name): not active"
        case .agent(let why): why
        case .store(let why): "chat database: \(why)"
        case .file(let error): error.description
        case .noAddress: "no chat address, to create: /ad"
        case .addressExists: "you already have a chat address, to show it: /sa"
        }
    }
}
