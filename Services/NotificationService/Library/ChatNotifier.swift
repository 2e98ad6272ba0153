import SimpleXChat
import SimpleXDesktop

/// Turns the chat core's events into desktop notifications: the content is the pure
/// `NotificationContent` of (user, chat, item, preview mode), the preview mode read from
/// GroupDefaults for each notification (so a change takes effect at once), one notification per
/// chat, replaced as more arrive. A missing, restarting or hanging notification server is logged
/// once and never holds up receiving: the core does not wait for this.
///
/// Where the server shows actions, a click on a contact's notification opens the chat, a message
/// notification has "Mark read", and a contact request "Accept" and "Reject"; `action(for:)` says
/// what a click on one asks for.
actor ChatNotifier {
    /// What an action on a notification asks the chat core to do.
    enum Intent: Equatable, Sendable {
        /// A click on the notification: open its chat (`@12`).
        case openChat(String)
        case markRead(contactId: Int64)
        case acceptContact(requestId: Int64)
        case rejectContact(requestId: Int64)
    }

    static let markReadAction = DesktopNotification.Action(id: "mark-read", label: "Mark read")

    private let presenter: any NotificationPresenting
    private let defaults: GroupDefaults
    private let log: @Sendable (String) -> Void
    /// The notification shown for each chat (`@12`, `<@3`), replaced by the next one.
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

    init(presenter: any NotificationPresenting, defaults: GroupDefaults, log: @escaping @Sendable (String) -> Void)
    {
        self.presenter = presenter
        self.defaults = defaults
        self.log = log
    }

    /// The notification for `event`, shown (or replacing this chat's last one) when it notifies.
    func notify(_ event: ChatEvent, user: ChatUser) async {
        guard let source = NotificationContent.Source(event: event, user: user),
            let content = NotificationContent.make(source, previewMode: defaults[.ntfPreviewMode])
        else { return }
        await show(content, target: Self.target(of: source.chat))
    }

    /// Why the service cannot receive (`Encrypted message: no passphrase`, ...); the service
    /// decides that it is shown once.
    func notifyCannotReceive(_ error: NotificationContent.EncryptedMessageError) async {
        await show(NotificationContent.encryptedMessage(error), target: nil)
    }

    private func show(_ content: NotificationContent, target: Target?) async {
        let notification = DesktopNotification(
            summary: content.title, body: content.body, icon: "simplex-chat",
            category: content.categoryIdentifier.desktopCategory, desktopEntry: "simplex-chat",
            actions: await actions(content, target))
        let chat = content.targetChat ?? ""
        do {
            let handle: NotificationHandle
            if let previous = shown[chat] {
                handle = try await presenter.replace(previous, with: notification)
                targets[previous] = nil
            } else {
                handle = try await presenter.show(notification)
            }
            shown[chat] = handle
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

    /// What the user asked for with an action, if the notification is one of ours and the action
    /// means something; the notification is closed (it has done its work) or forgotten (closed).
    func action(for event: NotificationEvent) async -> Intent? {
        switch event {
        case .closed(let handle, _):
            forget(handle)
            return nil
        case .actionInvoked(let handle, let actionID):
            guard let target = targets[handle] else { return nil }
            let intent: Intent?
            switch (target, actionID) {
            case (.contact(let id), DesktopNotification.Action.defaultID): intent = .openChat("@\(id)")
            case (.contact(let id), Self.markReadAction.id): intent = .markRead(contactId: id)
            case (.contactRequest(let id), NotificationContent.Action.acceptContact.rawValue):
                intent = .acceptContact(requestId: id)
            case (.contactRequest(let id), NotificationContent.Action.rejectContact.rawValue):
                intent = .rejectContact(requestId: id)
            default: intent = nil
            }
            if intent != nil {
                forget(handle)
                try? await presenter.close(handle)
            }
            return intent
        }
    }

    private func forget(_ handle: NotificationHandle) {
        targets[handle] = nil
        if let chat = shown.first(where: { $0.value == handle })?.key { shown[chat] = nil }
    }

    /// The buttons, where the server shows buttons: the content's own that the service can carry
    /// out (accepting incognito cannot be done yet, calls do not exist yet), and Mark read.
    private func actions(_ content: NotificationContent, _ target: Target?) async -> [DesktopNotification.Action] {
        // Asked until a server answers: one that starts later gets its buttons too.
        if capabilities == nil { capabilities = try? await presenter.serverCapabilities() }
        guard capabilities?.contains("actions") == true, let target else { return [] }
        switch target {
        case .contact:
            // A click opens the chat; a message can also be marked read from here.
            let open = DesktopNotification.Action.default(label: "Open")
            return content.categoryIdentifier == .messageReceived ? [open, Self.markReadAction] : [open]
        case .contactRequest:
            return content.actions.filter { [.acceptContact, .rejectContact].contains($0) }
                .map { DesktopNotification.Action(id: $0.rawValue, label: $0.label) }
        }
    }

    private static func target(of chat: NotificationChat) -> Target? {
        let id = chat.chatId
        if id.hasPrefix("@"), let contactId = Int64(id.dropFirst()) { return .contact(contactId) }
        if id.hasPrefix("<@"), let requestId = Int64(id.dropFirst(2)) { return .contactRequest(requestId) }
        return nil
    }
}
