import SimpleXChat
import SimpleXDesktop

/// Turns the chat core's events into desktop notifications: the content is the pure
/// `NotificationContent` of (user, chat, item, preview mode), the preview mode read from
/// GroupDefaults for each batch (so a change takes effect at once) — hidden while the desktop
/// session is locked — one notification per chat, replaced as more arrive, and one joint
/// notification when a batch brings news from several chats. A missing, restarting or hanging
/// notification server is logged once and never holds up receiving: the core does not wait for this.
///
/// Where the server shows actions, a click on a contact's notification opens the chat, a message
/// notification has "Mark read" (and a reply field where the server has `inline-reply`), and a
/// contact request "Accept", "Accept incognito" and "Reject"; `action(for:)` says what a click on
/// one asks for. A chat read on this device has its notification closed. Each notifying event adds
/// one to `ntfBadgeCount`, which `badge` shows on the launcher.
actor ChatNotifier {
    /// What an action on a notification asks the chat core to do.
    enum Intent: Equatable, Sendable {
        /// A click on the notification: open its chat (`@12`), with the server's activation token.
        case openChat(String, activationToken: String?)
        case markRead(contactId: Int64)
        case acceptContact(requestId: Int64, incognito: Bool)
        case rejectContact(requestId: Int64)
        /// Text typed into the notification's reply field.
        case reply(contactId: Int64, text: String)
    }

    static let markReadAction = DesktopNotification.Action(id: "mark-read", label: "Mark read")
    /// The contact request buttons (iOS: Accept and Accept incognito; Reject as SimpleX's CLI).
    static let contactRequestActions: [NotificationContent.Action] = [
        .acceptContact, .acceptContactIncognito, .rejectContact,
    ]
    static let replyAction = DesktopNotification.Action.inlineReply(label: "Reply")
    /// The freedesktop sound theme's name for a message arriving.
    static let messageSound = "message-new-instant"
    /// The key of the joint notification in `shown` (chat ids start with `@` or `<@`).
    private static let jointKey = "*"

    private let presenter: any NotificationPresenting
    private let defaults: GroupDefaults
    private let sessionLocked: @Sendable () -> Bool
    private let badge: @Sendable (Int) async -> Void
    private let log: @Sendable (String) -> Void
    /// The notification shown for each chat (`@12`, `<@3`, and `*` for the joint one), replaced by
    /// the next one.
    private var shown: [String: NotificationHandle] = [:]
    /// What each shown notification's actions act on.
    private var targets: [NotificationHandle: Target] = [:]
    private var serverFailing = false
    /// The server's capabilities, asked once it first shows one (nil until then).
    private var capabilities: [String]?

    private enum Target: Equatable {
        case contact(Int64)
        case contactRequest(Int64)
    }

    init(
        presenter: any NotificationPresenting, defaults: GroupDefaults,
        sessionLocked: @escaping @Sendable () -> Bool = { false },
        badge: @escaping @Sendable (Int) async -> Void = { _ in }, log: @escaping @Sendable (String) -> Void
    ) {
        self.presenter = presenter
        self.defaults = defaults
        self.sessionLocked = sessionLocked
        self.badge = badge
        self.log = log
    }

    /// The preview mode for what is made now: hidden while the session is locked, as Telegram
    /// Desktop does, or while the client shows its SimpleX Lock screen (`appLocked`), else the user's.
    private var previewMode: NotificationPreviewMode {
        sessionLocked() || defaults[.appLocked] ? .hidden : defaults[.ntfPreviewMode]
    }

    /// The notifications for a batch of events (what arrived together): the only chat with news
    /// gets its notification (its latest item), several chats one joint "New messages"; a chat
    /// read meanwhile loses its notification.
    func notify(_ events: [ChatEvent], user: ChatUser) async {
        for event in events {
            if case .chatRead(let contact) = event { await close(chat: "@\(contact.contactId)") }
        }
        let sources = events.compactMap { NotificationContent.Source(event: $0, user: user) }
        guard !sources.isEmpty else { return }
        let mode = previewMode
        let notifying = sources.filter { NotificationContent.make($0, previewMode: mode) != nil }
        guard let content = NotificationContent.summary(of: sources, previewMode: mode) else { return }
        // One chat's news carries its chat; the joint notification none.
        if let chat = content.targetChat {
            await show(content, key: chat, target: Self.target(of: chat))
        } else {
            await show(content, key: Self.jointKey, target: nil)
        }
        await count(notifying.count)
    }

    /// One event alone (tests and callers without batches).
    func notify(_ event: ChatEvent, user: ChatUser) async { await notify([event], user: user) }

    /// Why the service cannot receive (`Encrypted message: no passphrase`, ...); the service
    /// decides that it is shown once.
    func notifyCannotReceive(_ error: NotificationContent.EncryptedMessageError) async {
        await show(NotificationContent.encryptedMessage(error), key: "!", target: nil)
    }

    /// Closes the notification of `chat` (`@12`): it was read on this device.
    func close(chat: String) async {
        guard let handle = shown.removeValue(forKey: chat) else { return }
        targets[handle] = nil
        try? await presenter.close(handle)
    }

    private func count(_ events: Int) async {
        guard events > 0 else { return }
        let total = defaults[.ntfBadgeCount] + events
        do { try defaults.set(.ntfBadgeCount, total) } catch { log("cannot write ntfBadgeCount: \(error)") }
        await badge(total)
    }

    private func show(_ content: NotificationContent, key: String, target: Target?) async {
        let message = content.categoryIdentifier == .messageReceived || content.categoryIdentifier == .manyEvents
        let notification = DesktopNotification(
            summary: content.title, body: content.body, icon: "simplex-chat",
            category: content.categoryIdentifier.desktopCategory, desktopEntry: "simplex-chat",
            soundName: message || content.categoryIdentifier == .contactRequest ? Self.messageSound : nil,
            urgency: content.categoryIdentifier == .callInvitation ? .critical : .normal,
            actions: await actions(content, target))
        do {
            let handle: NotificationHandle
            if let previous = shown[key] {
                handle = try await presenter.replace(previous, with: notification)
                targets[previous] = nil
            } else {
                handle = try await presenter.show(notification)
            }
            shown[key] = handle
            targets[handle] = target
            if serverFailing {
                serverFailing = false
                log("notifications are shown again")
            }
        } catch {
            // Once per outage: the error names the server's failure, never the content.
            if !serverFailing {
                serverFailing = true
                log("cannot show notifications (receiving goes on): \(error)")
            }
        }
    }

    /// Whether any notification on screen has buttons (their clicks come to this process).
    var hasActionableNotifications: Bool { !targets.isEmpty && capabilities?.contains("actions") == true }

    /// What the user asked for with an action, if the notification is one of ours and the action
    /// means something; the notification is closed (it has done its work) or forgotten (closed).
    func action(for event: NotificationEvent) async -> Intent? {
        let intent: Intent?
        let handle: NotificationHandle
        switch event {
        case .closed(let closed, _):
            forget(closed)
            return nil
        case .replied(let replied, let text):
            handle = replied
            guard case .contact(let id)? = targets[handle], !text.isEmpty else { return nil }
            intent = .reply(contactId: id, text: text)
        case .actionInvoked(let invoked, let actionID, let token):
            handle = invoked
            guard let target = targets[handle] else { return nil }
            switch (target, actionID) {
            case (.contact(let id), DesktopNotification.Action.defaultID):
                intent = .openChat("@\(id)", activationToken: token)
            case (.contact(let id), Self.markReadAction.id): intent = .markRead(contactId: id)
            case (.contactRequest(let id), NotificationContent.Action.acceptContact.rawValue):
                intent = .acceptContact(requestId: id, incognito: false)
            case (.contactRequest(let id), NotificationContent.Action.acceptContactIncognito.rawValue):
                intent = .acceptContact(requestId: id, incognito: true)
            case (.contactRequest(let id), NotificationContent.Action.rejectContact.rawValue):
                intent = .rejectContact(requestId: id)
            default: intent = nil
            }
        }
        if intent != nil {
            forget(handle)
            try? await presenter.close(handle)
        }
        return intent
    }

    private func forget(_ handle: NotificationHandle) {
        targets[handle] = nil
        if let chat = shown.first(where: { $0.value == handle })?.key { shown[chat] = nil }
    }

    /// The buttons, where the server shows buttons: the content's own that the service can carry
    /// out (calls do not exist yet), Mark read, and a reply field where the server has one.
    private func actions(_ content: NotificationContent, _ target: Target?) async -> [DesktopNotification.Action] {
        // Asked until a server answers: one that starts later gets its buttons too.
        if capabilities == nil { capabilities = try? await presenter.serverCapabilities() }
        guard let capabilities, capabilities.contains("actions"), let target else { return [] }
        switch target {
        case .contact:
            // A click opens the chat; a message can also be marked read or answered from here.
            let open = DesktopNotification.Action.default(label: "Open")
            guard content.categoryIdentifier == .messageReceived else { return [open] }
            return [open, Self.markReadAction] + (capabilities.contains("inline-reply") ? [Self.replyAction] : [])
        case .contactRequest:
            return content.actions.filter { Self.contactRequestActions.contains($0) }
                .map { DesktopNotification.Action(id: $0.rawValue, label: $0.label) }
        }
    }

    private static func target(of id: String) -> Target? {
        if id.hasPrefix("@"), let contactId = Int64(id.dropFirst()) { return .contact(contactId) }
        if id.hasPrefix("<@"), let requestId = Int64(id.dropFirst(2)) { return .contactRequest(requestId) }
        return nil
    }
}
