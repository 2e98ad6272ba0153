// The notification for one chat item or chat event (iOS `createMessageReceivedNtf`,
// `createContactRequestNtf`, `createContactConnectedNtf`, `createCallInvitationNtf`), and the rule
// that decides whether a received item notifies at all (iOS `ntfsEnabled(chatItem:)` and
// `ChatItem.showNotification`).

extension NotificationContent {
    /// The notification for `item` in `chat`, or nil when it must not notify: the user's notifications
    /// are off, the item was sent by the user, or the chat's setting or the item's kind rules it out.
    public static func make(
        user: NotificationUser, chat: NotificationChat, item: NotificationItem,
        previewMode: NotificationPreviewMode
    ) -> NotificationContent? {
        guard user.showNotifications else { return nil }
        let hidden = previewMode == .hidden
        let name = chat.name
        switch item {
        case .sent:
            return nil
        case .received(let received):
            guard shouldNotify(received, in: chat) else { return nil }
            return NotificationContent(
                categoryIdentifier: .messageReceived,
                title: messageTitle(chat: chat, sender: received.sender, hidden: hidden),
                body: previewMode == .message ? messageBody(received) : "new message",
                targetChat: chat.chatId, userId: user.userId)
        case .contactRequest:
            return NotificationContent(
                categoryIdentifier: .contactRequest,
                title: "\(hidden ? "Somebody" : name.displayName) wants to connect!",
                body: "Accept contact request from \(hidden ? "this contact" : name.viewName)?",
                targetChat: chat.chatId, userId: user.userId,
                actions: [.acceptContact, .acceptContactIncognito, .rejectContact])
        case .contactConnected:
            return NotificationContent(
                categoryIdentifier: .contactConnected,
                title: "\(hidden ? "A new contact" : name.localOrDisplayName) is connected!",
                body: "You can now chat with \(hidden ? "this contact" : name.viewName)",
                targetChat: chat.chatId, userId: user.userId)
        case .callInvitation(let media):
            return NotificationContent(
                categoryIdentifier: .callInvitation,
                title: hidden ? contactHidden : "\(name.viewName):",
                body: media == .video ? "Incoming video call" : "Incoming audio call",
                targetChat: chat.chatId, userId: user.userId,
                actions: [.acceptCall, .rejectCall])
        }
    }

    /// The notification for one source; see `make(user:chat:item:previewMode:)`.
    public static func make(_ source: Source, previewMode: NotificationPreviewMode) -> NotificationContent? {
        make(user: source.user, chat: source.chat, item: source.item, previewMode: previewMode)
    }

    /// Whether a received item notifies in `chat`: its kind must be one that notifies (a message, a group
    /// invitation, a notified event), and the chat's setting must be `all`, or `mentions` with the item
    /// mentioning the user.
    public static func shouldNotify(_ item: NotificationItem.ReceivedItem, in chat: NotificationChat) -> Bool
    {
        if case .silent = item.content { return false }
        switch chat.notifications {
        case .all: return true
        case .mentions: return item.mentionsUser
        case .none: return false
        }
    }

    static let contactHidden = "Contact hidden:"

    /// `#<group> <member>:` for a member's item in a group, else `<chat name>:`; the hidden forms say only
    /// which kind of chat it is.
    static func messageTitle(chat: NotificationChat, sender: NotificationName?, hidden: Bool) -> String {
        if case .group(let group) = chat.kind, let member = sender {
            return hidden ? "Group message:" : "#\(group.localOrDisplayName) \(member.viewName):"
        }
        return hidden ? contactHidden : "\(chat.name.viewName):"
    }

    /// The message-mode body (iOS `hideSecrets`): the text with secrets as `...`, a report with its
    /// prefix, and for an empty text the voice message's duration or the attached file's name.
    ///
    /// Unlike iOS, a report's text keeps its `Report: ` prefix even when it has markdown (iOS drops the
    /// prefix then, because it prints the formatted text first).
    static func messageBody(_ item: NotificationItem.ReceivedItem) -> String {
        switch item.content {
        case .message(.report(let text, let reason)):
            return "Report: \(text.isEmpty ? reason.text : NotificationText.hidingSecrets(text))"
        case .message(let content):
            guard content.text.isEmpty else { return NotificationText.hidingSecrets(content.text) }
            if case .voice(_, let duration) = content {
                return "Voice message (\(NotificationItem.durationText(seconds: duration)))"
            }
            return item.fileName ?? ""
        case .groupInvitation(let groupName):
            return "invitation to group \(groupName)"
        case .event(let text):
            return text
        case .silent:
            return ""
        }
    }
}
