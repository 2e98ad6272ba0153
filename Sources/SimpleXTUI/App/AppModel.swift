import Foundation
import SimpleXChat

/// What happens to the app: keys, the terminal's size, the core's events, and the results of
/// the effects it asked for.
public enum AppEvent: Sendable {
    case key(KeyInput)
    case resize(width: Int, height: Int)
    case core(ChatEvent)
    case chatList([ChatListEntry])
    case chatOpened(ChatContact, [ChatItem], firstUnreadId: Int64?, focusId: Int64?)
    case olderPage(contactId: Int64, before: Int64, [ChatItem], requested: Int)
    case newerPage(contactId: Int64, after: Int64, [ChatItem], requested: Int)
    /// An item the user sent or changed here (sent, edited, reacted, file offered).
    case ownItem(contactId: Int64, ChatItem)
    case itemDeleted(contactId: Int64, itemId: Int64, replacement: ChatItem?)
    case invitation(String)
    case address(String)
    /// A page of an open chat's search results, newest first, read before result `before` (nil
    /// for the first page); `more`: older results exist.
    case searchResults(contactId: Int64, text: String, before: Int64?, [ChatItem], more: Bool)
    case info(title: String, lines: [String])
    case profileCreated(ChatUser)
    case failed(String)
    case notice(String)
    /// `$EDITOR` closed with the text (nil: it failed or the user quit without saving).
    case editorClosed(String?)
    case tick(Date)
    /// Open a chat by reference (`@12`): `--open`, a notification click (`OpenChat`).
    case openRequested(String)
    /// A `simplex:` link given at start: the connect dialog, filled in.
    case connectRequested(String)
    /// `Share` with no chat (the share helper, a file manager): the user picks one here.
    case shareRequested(id: Int, summary: String)
    /// The terminal is gone: the client ends as if the user quit.
    case terminalClosed
    /// The terminal answered the device attributes query: the runtime learns whether it draws
    /// sixels (the model has nothing to do with it).
    case deviceAttributes(DeviceAttributes)
    /// What a search of every chat found, newest first.
    case globalResults(text: String, [FoundItem])
    /// Settings' results: the relays, one relay's test (nil: it answered), the service's state.
    case servers([String])
    case serverTested(String, failure: String?)
    case notificationStatus([String])
    case profileUpdated(ChatUser)
    /// A contact as it is after a change made here (alias, notifications, receipts, cleared).
    case contactChanged(ChatContact)
    case contactDeleted(contactId: Int64)
    /// A group's last items, to show (opened, or changed while open).
    case groupOpened(ChatGroup, [GroupChatItem])
    /// A group made here (Alt+G): opened, and its invite prompt shown.
    case groupCreated(ChatGroup)
    /// A group's members, for its info screen.
    case groupMembers(ChatGroup, [GroupMember])
    /// A group's reports, for a moderator's reports view.
    case groupReports(ChatGroup, [GroupChatItem])
    /// A group's link (nil: it has none), for its info screen.
    case groupLink(groupId: Int64, link: String?)
    /// The names of an opened group's members, for `@` completion in its compose field.
    case groupMemberNames(groupId: Int64, [String])
    /// The user left or deleted a group here.
    case groupLeft(ChatGroup)
    case groupDeleted(groupId: Int64)
    /// No key for SimpleX Lock's delay (`LockState.idleLimit`): the lock screen goes up.
    case lockIdle
    /// What the passcode typed at the lock screen opens.
    case passcodeChecked(AppPasscode.Verdict)
    /// SimpleX Lock's settings after a change (or its refusal, `isError`), with a line to show.
    case lockChanged(LockState.Settings, note: String, isError: Bool)
    /// Chat data: the chat stopped or not, the files' usage, a line to show (each nil: unchanged).
    case chatDataChanged(running: Bool?, usage: FilesUsage?, note: String?, isError: Bool)
}

/// What the app asks the edge to do (the core, files, the clipboard, the terminal).
public enum AppEffect: Equatable, Sendable {
    case loadChatList
    case openChat(contactId: Int64, around: Int64?)
    case loadOlder(contactId: Int64, before: Int64, count: Int, filter: ChatContentFilter? = nil)
    case loadNewer(contactId: Int64, after: Int64, count: Int, filter: ChatContentFilter? = nil)
    /// The open chat again, only its items of one kind (nil: all of them).
    case openFiltered(contactId: Int64, filter: ChatContentFilter?)
    case send(contactId: Int64, text: String, quoting: ChatItem?)
    case edit(contactId: Int64, item: ChatItem, text: String)
    case sendFile(contactId: Int64, path: String)
    case delete(contactId: Int64, items: [ChatItem], forEveryone: Bool)
    case react(contactId: Int64, item: ChatItem, emoji: MsgReactionEmoji, add: Bool)
    case forward(items: [ChatItem], toContactId: Int64)
    case markRead(contactId: Int64)
    case acceptRequest(ChatContactRequest, incognito: Bool)
    case rejectRequest(ChatContactRequest)
    case createInvitation
    case showAddress
    case connect(link: String)
    case createProfile(displayName: String)
    case itemInfo(contactId: Int64, item: ChatItem)
    /// A page of `count` results of a search in a chat, older than result `before` (nil: the newest).
    case search(contactId: Int64, text: String, before: Int64?, count: Int)
    /// Search every chat (Ctrl+F in the chat list).
    case searchAll(text: String)
    case receiveFile(fileId: Int64)
    /// Copies a file into the XDG download directory.
    /// The file's contents to the download directory (decrypted when sealed at rest).
    case saveToDownloads(file: ChatFile)
    case copy(String)
    case openLink(String)
    /// A file opened in the desktop's viewer (xdg-open), through a private plain copy.
    case openFile(ChatFile)
    case openEditor(String)
    case saveDraft(chatId: String, text: String?)
    /// A desktop notification for a core event the user is not looking at.
    case notify(ChatEvent)
    /// The chat chosen for a `Share` request (nil: the user declined).
    case answerShare(id: Int, contactId: Int64?)
    case suspend
    case quit
    /// Settings: a change written at once; the relays; the service's state; the profile.
    case changeSetting(SettingChange)
    case loadServers
    case addServer(String)
    case removeServer(String)
    case testServer(String)
    case loadNotificationStatus
    case updateProfile(displayName: String, fullName: String)
    /// Contact info: alias, notifications (`none` mutes), receipts (nil: the user's), clear, delete.
    case setAlias(contactId: Int64, alias: String)
    case setNotifications(contactId: Int64, NotificationChat.NotificationSetting)
    case setReceipts(contactId: Int64, Bool?)
    /// One chat's own layout (nil: it follows the Appearance setting), written to GroupDefaults.
    case setChatLayout(chat: String, ChatLayout?)
    case clearChat(contactId: Int64)
    case deleteContact(contactId: Int64)
    /// Groups: read one's last items; send to it; accept its invitation.
    case openGroup(groupId: Int64)
    case sendGroup(groupId: Int64, text: String)
    case joinGroup(groupId: Int64)
    case createGroup(name: String)
    /// Invites contacts (by name) to a group as members.
    case inviteMembers(groupId: Int64, contacts: [String])
    /// Alt+I in a group: its members; leaving it; deleting it (for everyone, by its owner).
    case loadGroupInfo(groupId: Int64)
    /// Makes the group's link (an admin, in its info screen).
    case createGroupLink(groupId: Int64)
    case leaveGroup(groupId: Int64)
    case deleteGroup(groupId: Int64)
    /// The user's own group message changed, or deleted for every member.
    case editGroupItem(groupId: Int64, item: GroupChatItem, text: String)
    case deleteGroupItem(groupId: Int64, item: GroupChatItem)
    /// Moderation: a member's message deleted for everyone; a member blocked for all or unblocked;
    /// the group's reports (for moderators).
    case moderateGroupItem(groupId: Int64, item: GroupChatItem)
    case blockMember(groupId: Int64, memberName: String, blocked: Bool)
    case loadGroupReports(groupId: Int64)
    /// A member's message reported to the group's moderators, with the reason and a comment.
    case reportGroupItem(groupId: Int64, item: GroupChatItem, reason: ReportReason, text: String)
    /// A reply to a group item; the user's reaction to one, added or removed.
    case replyGroup(groupId: Int64, text: String, quoting: GroupChatItem)
    case reactGroup(groupId: Int64, item: GroupChatItem, emoji: MsgReactionEmoji, add: Bool)
    /// A file offered to every member of the group (Ctrl+T in a group).
    case sendGroupFile(groupId: Int64, path: String)
    /// SimpleX Lock: GroupDefaults `appLocked` (notifications hidden while set); a passcode typed
    /// at the lock screen to check; the self-destruct (the client ends, erases, starts again);
    /// a change made in Settings → Your privacy.
    case setAppLocked(Bool)
    case checkPasscode(String)
    case selfDestruct
    case changeLock(LockChange)
    /// Settings → Chat data (the runtime's, with the client's `ChatDataAccess`).
    case chatData(ChatDataAction)
    /// Chat data's "Delete all files", by the running core.
    case deleteAllFiles
}

/// Which part of the screen takes the keys.
public enum Focus: Equatable, Sendable {
    case list
    case compose
    /// The item cursor in the open chat (context actions).
    case messages
}

/// A screen drawn over the main one.
public enum Overlay: Sendable {
    case help
    case quickSwitcher(QuickSwitcher)
    case menu(ItemMenu)
    case reactions(ReactionPicker)
    /// `!` on a member's message: why it is reported (↑↓ Enter, or the reason's digit).
    case reportReason(ReportReasonPicker)
    case info(title: String, lines: [String], scroll: Int)
    case link(title: String, link: String)
    case prompt(TextPrompt)
    case forwardTo(items: [ChatItem], ChatListView)
    case request(RequestDialog)
    /// A question answered with y / n; yes runs the effects.
    case confirm(question: String, effects: [AppEffect])
    /// A link's QR code, drawn as large as it needs (from a link dialog, `q`).
    case qrCode(String)
    /// Results of a search of every chat; Enter opens the chat at one.
    case searchResults(text: String, [FoundItem], selected: Int)
    /// Where to send what another program shares.
    case shareTo(id: Int, summary: String, ChatListView)
    /// Ctrl+S or `,`: the settings.
    case settings(SettingsScreen)
    /// Alt+I: the open chat's contact.
    case contactInfo(ContactInfoScreen)
    /// Alt+I in a group: its members, leave, delete.
    case groupInfo(GroupInfoScreen)
}

/// A contact request: accept, accept incognito (a random profile), or reject.
public struct RequestDialog: Sendable {
    public enum Choice: CaseIterable, Sendable { case accept, acceptIncognito, reject }
    public let request: ChatContactRequest
    public var selected = 0
    public init(request: ChatContactRequest) { self.request = request }

    public func lines(width: Int) -> [StyledLine] {
        var lines = [StyledLine(" \(request.localDisplayName) wants to connect with you", Style(attributes: .bold)).truncated(to: width)]
        if !request.profile.fullName.isEmpty { lines.append(StyledLine("  " + request.profile.fullName).truncated(to: width)) }
        for (index, (key, title)) in [("a", "Accept"), ("i", "Accept incognito"), ("x", "Reject")].enumerated() {
            let style = index == selected ? Style(attributes: .reverse) : Style.plain
            lines.append(StyledLine(" \(key)  \(title)", style).truncated(to: width).padded(to: width, style))
        }
        lines.append(StyledLine(" Esc decides later", Style(foreground: .brightBlack)))
        return lines
    }
}

/// The whole state of the full-screen client; `update` is the only way it changes.
public struct AppModel: Sendable {
    public var width: Int
    public var height: Int
    public var user: ChatUser?
    public var chatList = ChatListView()
    public var chat: ChatViewState?
    /// The open group chat (then `chat` is nil).
    public var groupChat: GroupChatState?
    public var compose = ComposeState()
    public var focus: Focus = .list
    public var overlays: [Overlay] = []
    /// Below 80 columns one pane is shown at a time: the chat when true, else the list.
    public var narrowShowsChat = false
    /// One line of feedback (an error, a note), cleared by the next key.
    public var status: (text: String, isError: Bool)?
    /// Drafts by chat id (privacySaveLastDraft).
    public var drafts: [String: String] = [:]
    public var saveDrafts = true
    public var showPreviews = true
    /// The other settings Settings shows (GroupDefaults' notification, privacy and theme keys).
    public var preferences = SettingsValues()
    /// Layout, theme and time settings of the chat view (GroupDefaults chatLayout, currentTheme).
    public var chatSettings = ChatViewSettings(timeZone: .current)
    /// Chats with a layout of their own (GroupDefaults chatLayoutByChat).
    public var chatLayouts = ChatLayoutOverrides()
    public var now: Date
    /// The terminal has focus (focus reporting); notifications are shown while it has not.
    public var terminalFocused = true
    /// `NO_COLOR`: QR codes are drawn with characters only.
    public var noColor = false
    public var running = true
    /// Percent done of the file transfers in progress, by file id.
    public var fileProgress: [Int64: Int] = [:]
    /// The open chat's search (Ctrl+F), its results read a page at a time.
    public var search: ChatSearch?
    /// The search's results loaded so far, newest first.
    public var searchResults: [Int64] { search?.results ?? [] }
    /// A chat asked to open before the chat list had it (at start).
    var pendingOpen: String?
    /// SimpleX Lock: its settings and whether the lock screen is up.
    public var lock = LockState()

    public init(width: Int, height: Int, now: Date, user: ChatUser?) {
        self.width = width
        self.height = height
        self.now = now
        self.user = user
        if user == nil {
            overlays = [.prompt(TextPrompt(kind: .displayName, title: "Your display name", hint: "shown to your contacts; Enter to create your profile"))]
        }
    }

    public var isNarrow: Bool { width < 80 }

    /// The chat list entry of the open chat.
    var openEntry: ChatListEntry? { chat.flatMap { chat in chatList.entries.first { $0.id == chat.id } } }
}

/// A one-line text field in a dialog (display name, a link to connect to, a file to attach).
public struct TextPrompt: Sendable {
    public enum Kind: Equatable, Sendable {
        case displayName
        case connectLink
        case attachFile
        case search
        case searchAll
        case addServer
        case alias(contactId: Int64)
        case profileDisplayName
        case profileFullName
        /// Alt+G: a new group's name; then the contacts to invite to it.
        case newGroup
        case inviteMembers(groupId: Int64)
        /// The comment going with a report (required for "Other").
        case reportComment(groupId: Int64, item: GroupChatItem, reason: ReportReason)
        /// SimpleX Lock's passcodes: a new one, typed again, the current one (to turn the lock
        /// off); the name of the profile made after self-destruct.
        case newPasscode(selfDestruct: Bool)
        case confirmPasscode(selfDestruct: Bool, first: String)
        case currentPasscode
        case selfDestructName
        /// Chat data: where to export and the archive's passphrase (twice); the archive to import
        /// and its passphrase; the database passphrase, current, new and again.
        case exportPath
        case exportPassphrase(path: String)
        case exportPassphraseConfirm(path: String, first: String)
        case importPath
        case importPassphrase(path: String)
        case databasePassphraseCurrent
        case databasePassphraseNew(current: String)
        case databasePassphraseConfirm(current: String, first: String)
    }
    public var kind: Kind
    public var title: String
    public var hint: String
    public var field = ComposeState()
    public var error: String?
    /// The field is drawn as dots (a passcode).
    public var masked = false
    public init(kind: Kind, title: String, hint: String, text: String = "") {
        self.kind = kind
        self.title = title
        self.hint = hint
        field = ComposeState(text: text)
    }
}

/// An item a search found, with its chat.
public struct FoundItem: Equatable, Sendable {
    public let contact: ChatContact
    public let item: ChatItem
    public init(contact: ChatContact, item: ChatItem) {
        self.contact = contact
        self.item = item
    }
}
