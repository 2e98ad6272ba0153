import Foundation

/// The core's answer to a `ChatCommand` (SimpleX `ChatResponse`): the same names, encoded by
/// `json` in SimpleX's tagged form, `{"result":{"type":"activeUser","user":{...}}}`, or
/// `{"error":{...}}` for `chatCmdError`.
public enum ChatResponse: Equatable, Sendable {
    case activeUser(user: ChatUser)
    case chatStarted
    case chatRunning
    case apiChats(user: ChatUser, chats: [ChatData])
    case apiChat(user: ChatUser, chat: ChatData)
    case chatItemInfo(user: ChatUser, chatItem: AChatItem, chatItemInfo: ChatItemInfo)
    case newChatItems(user: ChatUser, chatItems: [AChatItem])
    case chatItemUpdated(user: ChatUser, chatItem: AChatItem)
    case chatItemNotChanged(user: ChatUser, chatItem: AChatItem)
    case chatItemsDeleted(user: ChatUser, chatItemDeletions: [ChatItemDeletion], byUser: Bool)
    case chatItemReaction(user: ChatUser, added: Bool, reaction: ACIReaction)
    case itemsReadForChat(user: ChatUser, chatInfo: ChatInfo)
    /// A one-time invitation link was made (`/_connect 1`).
    case invitation(user: ChatUser, connLinkInvitation: String, connection: PendingContactConnection)
    /// Joining a one-time invitation: the confirmation is on its way.
    case sentConfirmation(user: ChatUser, connection: PendingContactConnection)
    /// Asking to connect on a contact address: the request is on its way.
    case sentInvitation(user: ChatUser, connection: PendingContactConnection)
    /// The user's contact address was made (`/_address 1`).
    case userContactLinkCreated(user: ChatUser, connLinkContact: String)
    /// The user's contact address (`/_show_address 1`).
    case userContactLink(user: ChatUser, connLinkContact: String)
    /// The user's contact address was deleted (`/_delete_address 1`).
    case userContactLinkDeleted(user: ChatUser)
    case acceptingContactRequest(user: ChatUser, contact: ChatContact)
    case contactRequestRejected(user: ChatUser, contactRequest: ChatContactRequest)
    case contactDeleted(user: ChatUser, contact: ChatContact)
    /// Every item of the chat deleted here (`/_clear chat`).
    case chatCleared(user: ChatUser, chatInfo: ChatInfo)
    case contactsList(user: ChatUser, contacts: [ChatContact])
    case contactAliasUpdated(user: ChatUser, toContact: ChatContact)
    case userProfileUpdated(
        user: ChatUser, fromProfile: Profile, toProfile: Profile, updateSummary: UserProfileUpdateSummary)
    case userProfileNoChange(user: ChatUser)
    case apiParsedMarkdown(formattedText: [FormattedText]?)
    /// The user's SMP relays (`/smp`).
    case userProtoServers(user: ChatUser, servers: [String])
    case cmdOk(user: ChatUser?)
    /// A group's link made, read or with a new role; deleted.
    case groupLinkCreated(user: ChatUser, groupInfo: ChatGroup, groupLink: GroupLink)
    case groupLink(user: ChatUser, groupInfo: ChatGroup, groupLink: GroupLink)
    case groupLinkDeleted(user: ChatUser, groupInfo: ChatGroup)
    /// The group's profile changed by the user (`fromGroup` as it was).
    case groupUpdated(user: ChatUser, fromGroup: ChatGroup, toGroup: ChatGroup)
    /// Members blocked for all by the user, or unblocked.
    case membersBlockedForAllUser(user: ChatUser, groupInfo: ChatGroup, members: [GroupMember], blocked: Bool)
    /// Group items deleted (moderated) by the user; SimpleX's `chatItemsDeleted` for a group.
    case groupChatItemsDeleted(user: ChatUser, groupInfo: ChatGroup, deletions: [GroupItemDeletion], byUser: Bool)
    /// The command failed; encoded as `{"error":{...}}`.
    case chatCmdError(user: ChatUser?, chatError: ChatAPIError)

    /// The SimpleX type tag (`"activeUser"`, `"newChatItems"`, ...).
    public var responseType: String {
        switch self {
        case .activeUser: "activeUser"
        case .chatStarted: "chatStarted"
        case .chatRunning: "chatRunning"
        case .apiChats: "apiChats"
        case .apiChat: "apiChat"
        case .chatItemInfo: "chatItemInfo"
        case .newChatItems: "newChatItems"
        case .chatItemUpdated: "chatItemUpdated"
        case .chatItemNotChanged: "chatItemNotChanged"
        case .chatItemsDeleted: "chatItemsDeleted"
        case .chatItemReaction: "chatItemReaction"
        case .itemsReadForChat: "itemsReadForChat"
        case .invitation: "invitation"
        case .sentConfirmation: "sentConfirmation"
        case .sentInvitation: "sentInvitation"
        case .userContactLinkCreated: "userContactLinkCreated"
        case .userContactLink: "userContactLink"
        case .userContactLinkDeleted: "userContactLinkDeleted"
        case .acceptingContactRequest: "acceptingContactRequest"
        case .contactRequestRejected: "contactRequestRejected"
        case .contactDeleted: "contactDeleted"
        case .chatCleared: "chatCleared"
        case .contactsList: "contactsList"
        case .contactAliasUpdated: "contactAliasUpdated"
        case .userProfileUpdated: "userProfileUpdated"
        case .userProfileNoChange: "userProfileNoChange"
        case .apiParsedMarkdown: "apiParsedMarkdown"
        case .userProtoServers: "userProtoServers"
        case .cmdOk: "cmdOk"
        case .groupLinkCreated: "groupLinkCreated"
        case .groupLink: "groupLink"
        case .groupLinkDeleted: "groupLinkDeleted"
        case .groupUpdated: "groupUpdated"
        case .membersBlockedForAllUser: "membersBlockedForAllUser"
        case .groupChatItemsDeleted: "chatItemsDeleted"
        case .chatCmdError: "chatCmdError"
        }
    }

    /// The error, when the command failed.
    public var chatError: ChatAPIError? {
        if case .chatCmdError(_, let error) = self { return error }
        return nil
    }
}

/// What a chat is (SimpleX `ChatInfo`): a contact's chat, or a connection not yet a contact.
public enum ChatInfo: Equatable, Sendable {
    case direct(contact: ChatContact)
    case contactConnection(PendingContactConnection)
    /// A group (SimpleX `ChatInfo.group`); its items are `ChatData.groupItems`.
    case group(groupInfo: ChatGroup)
}

/// An item with its chat (SimpleX `AChatItem`).
public struct AChatItem: Equatable, Sendable {
    public var chatInfo: ChatInfo
    public var chatItem: ChatItem

    public init(chatInfo: ChatInfo, chatItem: ChatItem) {
        self.chatInfo = chatInfo
        self.chatItem = chatItem
    }

    /// An item of a contact's chat.
    public static func direct(_ contact: ChatContact, _ item: ChatItem) -> AChatItem {
        AChatItem(chatInfo: .direct(contact: contact), chatItem: item)
    }
}

/// A chat with some of its items (SimpleX `AChat`): a chat list entry or a chat's page.
public struct ChatData: Equatable, Sendable {
    public var chatInfo: ChatInfo
    public var chatItems: [ChatItem]
    /// A group's items (the model keeps group items apart from direct ones); empty for other chats.
    public var groupItems: [GroupChatItem]
    public var chatStats: ChatStats

    public init(chatInfo: ChatInfo, chatItems: [ChatItem], groupItems: [GroupChatItem] = [], chatStats: ChatStats) {
        self.chatInfo = chatInfo
        self.chatItems = chatItems
        self.groupItems = groupItems
        self.chatStats = chatStats
    }
}

/// A chat's unread state (SimpleX `ChatStats`).
public struct ChatStats: Equatable, Sendable {
    public var unreadCount: Int
    /// The oldest unread item, 0 when none.
    public var minUnreadItemId: Int64
    /// The user's "mark unread" flag.
    public var unreadChat: Bool

    public init(unreadCount: Int = 0, minUnreadItemId: Int64 = 0, unreadChat: Bool = false) {
        self.unreadCount = unreadCount
        self.minUnreadItemId = minUnreadItemId
        self.unreadChat = unreadChat
    }
}

/// An item deleted, and what it became when it was only marked deleted (SimpleX `ChatItemDeletion`).
public struct ChatItemDeletion: Equatable, Sendable {
    public var deletedChatItem: AChatItem
    public var toChatItem: AChatItem?

    public init(deletedChatItem: AChatItem, toChatItem: AChatItem?) {
        self.deletedChatItem = deletedChatItem
        self.toChatItem = toChatItem
    }
}

/// A reaction set or removed on an item (SimpleX `ACIReaction` with its `CIReaction`).
public struct ACIReaction: Equatable, Sendable {
    public var chatInfo: ChatInfo
    /// Who reacted: the user (`.sent`) or the contact.
    public var chatDir: ChatItemDirection
    public var chatItem: ChatItem
    public var sentAt: Date
    public var reaction: MsgReaction

    public init(
        chatInfo: ChatInfo, chatDir: ChatItemDirection, chatItem: ChatItem, sentAt: Date,
        reaction: MsgReaction
    ) {
        self.chatInfo = chatInfo
        self.chatDir = chatDir
        self.chatItem = chatItem
        self.sentAt = sentAt
        self.reaction = reaction
    }
}

/// A connection that is not a contact yet: an invitation made or joined, an address asked
/// (SimpleX `PendingContactConnection`).
public struct PendingContactConnection: Equatable, Sendable {
    public var pccConnId: Int64
    public var pccAgentConnId: String
    /// `new`, `joined`, ... as the chat database keeps it.
    public var pccConnStatus: String
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        pccConnId: Int64, pccAgentConnId: String, pccConnStatus: String, createdAt: Date, updatedAt: Date
    ) {
        self.pccConnId = pccConnId
        self.pccAgentConnId = pccAgentConnId
        self.pccConnStatus = pccConnStatus
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// How a profile change went out to the contacts (SimpleX `UserProfileUpdateSummary`).
public struct UserProfileUpdateSummary: Equatable, Sendable {
    /// Contacts the new profile was queued to.
    public var updateSuccesses: Int
    public var updateFailures: Int
    public var changedContacts: [ChatContact]

    public init(updateSuccesses: Int, updateFailures: Int, changedContacts: [ChatContact] = []) {
        self.updateSuccesses = updateSuccesses
        self.updateFailures = updateFailures
        self.changedContacts = changedContacts
    }
}

extension ChatResponse {
    /// `/_parse markdown <text>`'s answer, which needs no user or chat (the command API and
    /// `simplex-chat -e` before any profile exists both give it).
    public static func parsedMarkdown(_ text: String) -> ChatResponse {
        .apiParsedMarkdown(formattedText: Markdown.formattedText(text))
    }
}

/// A group item before and after its deletion (SimpleX `ChatItemDeletion` in a group).
public struct GroupItemDeletion: Equatable, Sendable {
    public var deleted: GroupChatItem
    public var to: GroupChatItem?

    public init(deleted: GroupChatItem, to: GroupChatItem?) {
        self.deleted = deleted
        self.to = to
    }
}
