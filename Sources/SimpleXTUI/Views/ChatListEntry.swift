import Foundation
import SimpleXChat

/// One row of the chat list: a contact's chat, a contact request or a pending connection.
public struct ChatListEntry: Equatable, Sendable, Identifiable {
    public enum Kind: Equatable, Sendable {
        case contact(ChatContact)
        case request(ChatContactRequest)
        case pending(PendingContactConnection)
        /// A group; an invitation not accepted yet while the user's membership is `invited`.
        case group(ChatGroup)
    }

    public var kind: Kind
    public var lastItem: ChatItem?
    public var unreadCount: Int
    public var unreadChat: Bool
    public var minUnreadItemId: Int64
    /// A group's last item (its preview names the sender).
    public var groupLastItem: GroupChatItem?

    public init(
        kind: Kind, lastItem: ChatItem? = nil, unreadCount: Int = 0, unreadChat: Bool = false, minUnreadItemId: Int64 = 0,
        groupLastItem: GroupChatItem? = nil
    ) {
        self.kind = kind
        self.groupLastItem = groupLastItem
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
        case .group(let group): "#\(group.groupId)"
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
        case .group(let group): "#" + group.localDisplayName
        }
    }

    /// Names the filter matches: display name, alias and full name.
    var searchableNames: [String] {
        switch kind {
        case .contact(let contact): [contact.localDisplayName, contact.localAlias, contact.profile.fullName]
        case .request(let request): [request.localDisplayName, request.profile.fullName]
        case .pending: [name]
        case .group(let group): [group.localDisplayName, group.profile.fullName]
        }
    }

    /// Contact requests come first in the list, as iOS shows them.
    var isRequest: Bool { if case .request = kind { true } else { isGroupInvitation } }

    public var group: ChatGroup? {
        if case .group(let group) = kind { group } else { nil }
    }

    /// A group invitation the user has not accepted: listed first, Enter joins.
    public var isGroupInvitation: Bool { group?.membership.status == .invited }

    /// Nothing of the chat notifies (a contact's `mentions` counts as muted: a direct chat has none).
    public var isMuted: Bool {
        if let group { return group.enableNtfs == .none }
        return contact.map { $0.enableNtfs != .all } ?? false
    }

    /// A group set to notify only the messages that mention the user (`/unmute mentions #team`).
    public var notifiesMentionsOnly: Bool { group?.enableNtfs == .mentions }

    /// A group's unread items that mention the user (or reply to the user): `@` beside the count.
    public var unreadMentions = 0

    /// Still connecting: a contact not ready yet, or a pending connection.
    public var isConnecting: Bool {
        switch kind {
        case .contact(let contact): !contact.ready
        case .request: false
        case .pending: true
        case .group: false
        }
    }

    /// When the chat was last active: its last item, else when it was made.
    public var activity: Date? {
        if let lastItem { return lastItem.timestamp }
        if let groupLastItem { return groupLastItem.timestamp }
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

    /// `entries` with the groups merged in: invitations after the contact requests, the other
    /// groups among the chats by their last activity.
    public static func merging(_ groups: [(ChatGroup, GroupChatItem?, unread: Int)], into entries: [ChatListEntry])
        -> [ChatListEntry]
    {
        var result = entries
        let groupEntries = groups.map { ChatListEntry(kind: .group($0.0), unreadCount: $0.unread, groupLastItem: $0.1) }
        let requests = result.prefix { $0.isRequest }.count
        result.insert(contentsOf: groupEntries.filter(\.isGroupInvitation), at: requests)
        for entry in groupEntries where !entry.isGroupInvitation {
            let at = result.indices.first { index in
                !result[index].isRequest && (result[index].activity ?? .distantPast) < (entry.activity ?? .distantPast)
            } ?? result.count
            result.insert(entry, at: at)
        }
        return result
    }
}

extension [ChatListEntry] {
    /// The entries with each group's count of unread mentions of the user, by chat id (`#3`).
    func withUnreadMentions(_ mentions: [String: Int]) -> [ChatListEntry] {
        map { entry in
            var entry = entry
            entry.unreadMentions = mentions[entry.id] ?? 0
            return entry
        }
    }
}
