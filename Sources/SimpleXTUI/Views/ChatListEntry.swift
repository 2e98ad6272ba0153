import Foundation
import SimpleXChat

/// One row of the chat list: a contact's chat, a contact request or a pending connection.
public struct ChatListEntry: Equatable, Sendable, Identifiable {
    public enum Kind: Equatable, Sendable {
        case contact(ChatContact)
        case request(ChatContactRequest)
        case pending(PendingContactConnection)
    }

    public var kind: Kind
    public var lastItem: ChatItem?
    public var unreadCount: Int
    public var unreadChat: Bool
    public var minUnreadItemId: Int64

    public init(kind: Kind, lastItem: ChatItem? = nil, unreadCount: Int = 0, unreadChat: Bool = false, minUnreadItemId: Int64 = 0) {
        self.kind = kind
        self.lastItem = lastItem
        self.unreadCount = unreadCount
        self.unreadChat = unreadChat
        self.minUnreadItemId = minUnreadItemId
    }

    /// The chat reference as the API and `--open` write it: `@12`, `<@3` (a request), `:5`.
    public var id: String {
        switch kind {
        case .contact(let contact): "@\(contact.contactId)"
        case .request(let request): "<@\(request.requestId)"
        case .pending(let connection): ":\(connection.pccConnId)"
        }
    }

    public var contact: ChatContact? {
        if case .contact(let contact) = kind { contact } else { nil }
    }

    /// The name shown: the alias where the user set one.
    public var name: String {
        switch kind {
        case .contact(let contact): contact.viewName
        case .request(let request): request.localDisplayName
        case .pending(let connection): connection.pccConnStatus == "new" ? "invitation (not used yet)" : "connecting…"
        }
    }

    /// Names the filter matches: display name, alias and full name.
    var searchableNames: [String] {
        switch kind {
        case .contact(let contact): [contact.localDisplayName, contact.localAlias, contact.profile.fullName]
        case .request(let request): [request.localDisplayName, request.profile.fullName]
        case .pending: [name]
        }
    }

    /// Contact requests come first in the list, as iOS shows them.
    var isRequest: Bool { if case .request = kind { true } else { false } }

    public var isMuted: Bool { contact.map { $0.enableNtfs != .all } ?? false }

    /// Still connecting: a contact not ready yet, or a pending connection.
    public var isConnecting: Bool {
        switch kind {
        case .contact(let contact): !contact.ready
        case .request: false
        case .pending: true
        }
    }

    /// When the chat was last active: its last item, else when it was made.
    public var activity: Date? {
        if let lastItem { return lastItem.timestamp }
        if case .pending(let connection) = kind { return connection.updatedAt }
        return nil
    }

    /// Entries from the core's chat list (`/_get chats pcc=on`): requests first, then the rest
    /// most recently active first, as the core orders them.
    public static func entries(from chats: [ChatData], requests: [ChatContactRequest]) -> [ChatListEntry] {
        var result = requests.map { ChatListEntry(kind: .request($0)) }
        for chat in chats {
            switch chat.chatInfo {
            case .direct(let contact):
                result.append(
                    ChatListEntry(
                        kind: .contact(contact), lastItem: chat.chatItems.last, unreadCount: chat.chatStats.unreadCount,
                        unreadChat: chat.chatStats.unreadChat, minUnreadItemId: chat.chatStats.minUnreadItemId))
            case .contactConnection(let connection):
                result.append(ChatListEntry(kind: .pending(connection)))
            case .group:
                continue  // Group chats are not in this client's list yet (issue 24).
            }
        }
        return result
    }
}
