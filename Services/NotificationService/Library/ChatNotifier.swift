import SimpleXChat
import SimpleXDesktop

/// Turns the chat core's events into desktop notifications: the content is the pure
/// `NotificationContent` of (user, chat, item, preview mode), the preview mode read from
/// GroupDefaults for each notification (so a change takes effect at once), one notification per
/// chat, replaced as more arrive. A missing, restarting or hanging notification server is logged
/// once and never holds up receiving: the core does not wait for this.
actor ChatNotifier {
    private let presenter: any NotificationPresenting
    private let defaults: GroupDefaults
    private let log: @Sendable (String) -> Void
    /// The notification shown for each chat (`@12`, `<@3`), replaced by the next one.
    private var shown: [String: NotificationHandle] = [:]
    private var serverFailing = false

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
        let notification = DesktopNotification(
            summary: content.title, body: content.body, icon: "simplex-chat",
            category: content.categoryIdentifier.desktopCategory, desktopEntry: "simplex-chat")
        let chat = content.targetChat ?? ""
        do {
            if let handle = shown[chat] {
                shown[chat] = try await presenter.replace(handle, with: notification)
            } else {
                shown[chat] = try await presenter.show(notification)
            }
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
}
