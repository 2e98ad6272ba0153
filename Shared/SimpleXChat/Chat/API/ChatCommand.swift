/// A command to the chat core, as SimpleX's apps send it (`chat_send_cmd`): every case has its
/// SimpleX `cmdString` (`ChatCommand+CmdString.swift`) and is parsed back from one
/// (`ChatCommand+Parse.swift`), so the terminal, scripts (`simplex-chat -e`) and tests drive one API.
///
/// Chats are named by `ChatRef` (`@contactId`); this build has direct chats only, so a `#group`,
/// `*notes` or `:connection` reference parses but is answered with an error.
public enum ChatCommand: Equatable, Sendable {
    /// `/u`: the active user.
    case showActiveUser
    /// `/create user <name>`: makes the user profile (first run).
    case createActiveUser(displayName: String)
    /// `/_start main=on snd_files=on`: starts receiving and delivery.
    case startChat(mainApp: Bool, enableSndFiles: Bool)
    /// `/_get chats <userId> pcc=on`: the chat list, with pending connections when `pcc=on`.
    case apiGetChats(userId: Int64, pendingConnections: Bool)
    /// `/_get chat @1[ content=image] count=50[ search=text]`: a page of one chat, optionally of
    /// one content type only (image, video, voice, file, link).
    case apiGetChat(ChatRef, content: ChatContentFilter? = nil, pagination: ChatPagination, search: String?)
    /// `/_get item info @1 <itemId>`: an item's earlier versions.
    case apiGetChatItemInfo(ChatRef, itemId: Int64)
    /// `/_send @1 live=off ttl=default json [...]`: sends messages.
    case apiSendMessages(ChatRef, live: Bool, ttl: Int?, composedMessages: [ComposedMessage])
    /// `/_update item @1 <itemId> live=off json {...}`: edits a sent message.
    case apiUpdateChatItem(ChatRef, itemId: Int64, live: Bool, updatedMessage: UpdatedMessage)
    /// `/_delete item @1 <ids> internal|broadcast`: deletes items, for the user or for everyone.
    case apiDeleteChatItem(ChatRef, itemIds: [Int64], mode: CIDeleteMode)
    /// `/_reaction @1 <itemId> on|off <json reaction>`: adds or removes a reaction.
    case apiChatItemReaction(ChatRef, itemId: Int64, add: Bool, reaction: MsgReaction)
    /// `/_forward @2 @1 <ids> ttl=default`: forwards items of one chat to another.
    case apiForwardChatItems(to: ChatRef, from: ChatRef, itemIds: [Int64], ttl: Int?)
    /// `/_read chat @1`: marks a chat read.
    case apiChatRead(ChatRef)
    /// `/_read chat items @1 <ids>`: marks items read.
    case apiChatItemsRead(ChatRef, itemIds: [Int64])
    /// `/_unread chat @1 on|off`: the user's "mark unread" flag.
    case apiChatUnread(ChatRef, unread: Bool)
    /// `/_clear chat @1`: deletes every item of a chat on this device only.
    case apiClearChat(ChatRef)
    /// `/_connect <userId> incognito=off`: a one-time invitation link.
    case apiAddContact(userId: Int64, incognito: Bool)
    /// `/_connect <userId> incognito=off <link>`: connects by an invitation or address link.
    case apiConnect(userId: Int64, incognito: Bool, link: String)
    /// `/_accept incognito=off <contactReqId>`: accepts a contact request.
    case apiAcceptContact(incognito: Bool, contactReqId: Int64)
    /// `/_address <userId>`: makes the user's contact address.
    case apiCreateMyAddress(userId: Int64)
    /// `/_show_address <userId>`: the user's contact address.
    case apiShowMyAddress(userId: Int64)
    /// `/_delete_address <userId>`: deletes the user's contact address (contacts made stay).
    case apiDeleteMyAddress(userId: Int64)
    /// `/_reject <contactReqId>`: rejects a contact request (the requester is not told).
    case apiRejectContact(contactReqId: Int64)
    /// `/_delete @1 full notify=on`: deletes a chat.
    case apiDeleteChat(ChatRef, mode: ChatDeleteMode)
    /// `/_contacts <userId>`: the contacts.
    case apiListContacts(userId: Int64)
    /// `/_set alias @1 <alias>`: the local name a contact is shown by (empty removes it).
    case apiSetContactAlias(contactId: Int64, localAlias: String)
    /// `/_profile <userId> <json profile>`: changes the user's profile and tells the contacts.
    case apiUpdateProfile(userId: Int64, profile: Profile)
    /// `/_create link #<groupId> member`: the group's link; who joins by it gets `memberRole`.
    case apiCreateGroupLink(groupId: Int64, memberRole: GroupMemberRole)
    /// `/_set link role #<groupId> observer`: the role the group's link gives from now on.
    case apiGroupLinkMemberRole(groupId: Int64, memberRole: GroupMemberRole)
    /// `/_delete link #<groupId>`: deletes the group's link (members who joined by it stay).
    case apiDeleteGroupLink(groupId: Int64)
    /// `/_get link #<groupId>`: the group's link.
    case apiGetGroupLink(groupId: Int64)
    /// `/_group_profile #<groupId> <json profile>`: an owner changes the group's profile
    /// (`x.grp.info`, or `x.grp.prefs` when only the preferences change).
    case apiUpdateGroupProfile(groupId: Int64, groupProfile: GroupProfile)
    /// `/_block #<groupId> <groupMemberIds> blocked=on|off`: blocks members for all, or unblocks them.
    case apiBlockMembersForAll(groupId: Int64, memberIds: [Int64], blocked: Bool)
    /// `/_delete member item #<groupId> <itemIds>`: a moderator deletes members' messages for
    /// everyone.
    case apiDeleteMemberChatItem(groupId: Int64, itemIds: [Int64])
    /// `/_set receipts contacts <userId> on|off clear_overrides=on|off`: whether the user sends
    /// delivery receipts to contacts; `clear_overrides=on` also resets each contact's own setting.
    case apiSetUserContactReceipts(userId: Int64, enable: Bool, clearOverrides: Bool)
    /// `/set receipts contacts on|off clear_overrides=on|off`: the same, for the active user.
    case setUserContactReceipts(enable: Bool, clearOverrides: Bool)
    /// `/set receipts all on|off`: the same, for every user (contacts' own settings stay).
    case setAllContactReceipts(enable: Bool)
    /// `/receipts @name on|off|default`: delivery receipts to one contact; `default` follows the
    /// user's setting.
    case setSendReceipts(contactName: String, enable: Bool?)
    /// `/set voice|calls|delete|reactions always|yes|no`: what the user allows of a feature with
    /// every contact (SimpleX `SetUserFeature`); sent in the profile, and told in each chat.
    case setUserFeature(ChatFeature, FeatureAllowed)
    /// `/set disappear yes|no`: whether the user allows disappearing messages (SimpleX
    /// `SetUserTimedMessages`; the timer stays as it was).
    case setUserTimedMessages(Bool)
    /// `/_settings @1 {"enableNtfs":"none","sendRcpts":null,"favorite":false}`: a chat's own
    /// settings, whole (SimpleX `APISetChatSettings`).
    case apiSetChatSettings(ChatRef, ChatSettings)
    /// `/mute @name` and `/unmute @name`: a chat's notifications off or on (SimpleX
    /// `SetShowMessages`); the other settings stay.
    case setShowMessages(contactName: String, enableNtfs: NotificationChat.NotificationSetting)
    /// `/mute #team` and `/unmute #team`: a group's notifications off or on (SimpleX `SetShowMessages`
    /// with a group name).
    case setGroupShowMessages(groupName: String, enableNtfs: NotificationChat.NotificationSetting)
    /// `/_parse markdown <text>`: the text's markdown as SimpleX parses it.
    case apiParseMarkdown(text: String)
    /// `/smp`: the user's SMP relays.
    case getUserProtoServers
    /// `/smp <server> ...`: sets the user's SMP relays (used for new connections).
    case setUserProtoServers([String])
}

/// The kind of chat a `ChatRef` names, by its SimpleX prefix.
public enum ChatType: String, Equatable, Sendable, CaseIterable {
    case direct = "@"
    case group = "#"
    case local = "*"
    case contactConnection = ":"

    /// The name SimpleX's JSON uses (`"direct"`, `"group"`, ...).
    public var jsonName: String {
        switch self {
        case .direct: "direct"
        case .group: "group"
        case .local: "local"
        case .contactConnection: "contactConnection"
        }
    }
}

/// A chat in a command: `@12` is the direct chat with contact 12 (SimpleX `ChatRef`).
public struct ChatRef: Equatable, Sendable, CustomStringConvertible {
    public var chatType: ChatType
    public var chatId: Int64

    public init(_ chatType: ChatType, _ chatId: Int64) {
        self.chatType = chatType
        self.chatId = chatId
    }

    /// The direct chat with a contact.
    public static func direct(_ contactId: Int64) -> ChatRef { ChatRef(.direct, contactId) }

    /// `@12`.
    public var description: String { chatType.rawValue + String(chatId) }
}

/// One message to send (SimpleX `ComposedMessage`): its content, and the item it replies to.
public struct ComposedMessage: Equatable, Sendable {
    /// A file to send with the message (SimpleX `CryptoFile`), kept as JSON; files are not sent yet.
    public var fileSource: JSON?
    public var quotedItemId: Int64?
    public var msgContent: MsgContent
    /// Member names mentioned (groups only), kept as JSON.
    public var mentions: JSONObject

    public init(
        fileSource: JSON? = nil, quotedItemId: Int64? = nil, msgContent: MsgContent,
        mentions: JSONObject = JSONObject()
    ) {
        self.fileSource = fileSource
        self.quotedItemId = quotedItemId
        self.msgContent = msgContent
        self.mentions = mentions
    }
}

/// The new content of an edited message (SimpleX `UpdatedMessage`).
public struct UpdatedMessage: Equatable, Sendable {
    public var msgContent: MsgContent
    public var mentions: JSONObject

    public init(msgContent: MsgContent, mentions: JSONObject = JSONObject()) {
        self.msgContent = msgContent
        self.mentions = mentions
    }
}

/// How items are deleted (SimpleX `CIDeleteMode`).
public enum CIDeleteMode: String, Equatable, Sendable, CaseIterable {
    /// For everyone: the contact's copy is marked deleted.
    case broadcast
    /// For the user only.
    case `internal`
    /// Marked deleted for the user only (not supported yet).
    case internalMark
}

/// How a chat is deleted (SimpleX `ChatDeleteMode`).
public enum ChatDeleteMode: Equatable, Sendable {
    /// The contact, its connection and its items; `notify` tells the contact.
    case full(notify: Bool)
    /// The contact but not its items (not supported yet).
    case entity(notify: Bool)
    /// The items only (not supported yet).
    case messages
}

extension ChatCommand {
    /// Whether the command talks to relays (sends, makes or joins connections), so a process
    /// that runs just this command starts the chat before it and lets its messages leave after.
    /// `startChat` starts the chat itself.
    public var usesNetwork: Bool {
        switch self {
        case .apiSendMessages, .apiUpdateChatItem, .apiChatItemReaction, .apiForwardChatItems, .apiAddContact,
            .apiConnect,
            .apiAcceptContact, .apiDeleteChat, .apiUpdateProfile, .apiCreateMyAddress, .apiDeleteMyAddress,
            .setUserFeature, .setUserTimedMessages, .apiCreateGroupLink, .apiDeleteGroupLink, .apiUpdateGroupProfile,
            .apiBlockMembersForAll, .apiDeleteMemberChatItem:
            true
        case .apiDeleteChatItem(_, _, let mode): mode == .broadcast
        default: false
        }
    }
}
