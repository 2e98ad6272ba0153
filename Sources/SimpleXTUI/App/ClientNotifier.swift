import Foundation
import SimpleXChat
import SimpleXDesktop

/// Desktop notifications while the full-screen client holds the core: a message in a chat that
/// is not on screen, or any message while the terminal has lost focus. The same content rules
/// and preview mode as the notification service (`NotificationContent`), one notification per
/// chat (replaced), closed when the chat is read; a click opens the chat.
public actor ClientNotifier {
    let presenter: any NotificationPresenting
    let defaults: GroupDefaults
    /// Shown notifications by chat (`@12`), and the chat of each.
    private var shown: [String: NotificationHandle] = [:]
    private var chats: [NotificationHandle: String] = [:]
    private var failing = false
    private var listener: Task<Void, Never>?

    public init(presenter: any NotificationPresenting, defaults: GroupDefaults) {
        self.presenter = presenter
        self.defaults = defaults
    }

    /// Clicks on the notifications: `open` gets the chat (`@12`).
    public func listen(open: @escaping @Sendable (String) -> Void) {
        let events = presenter.events
        listener = Task { [weak self] in
            for await event in events {
                guard case .actionInvoked(let handle, _, _) = event, let chat = await self?.chat(of: handle) else { continue }
                open(chat)
            }
        }
    }

    private func chat(of handle: NotificationHandle) -> String? { chats[handle] }

    /// Notifies `event` of `user`'s chat as the preview mode allows (nothing for events that never
    /// notify, or a muted chat).
    public func notify(_ event: ChatEvent, user: ChatUser) async {
        guard let source = NotificationContent.Source(event: event, user: user),
            // While the lock screen is up nothing of the chats shows, in notifications too.
            let content = NotificationContent.make(source, previewMode: defaults[.appLocked] ? .hidden : defaults[.ntfPreviewMode])
        else { return }
        let chat = source.chat.chatId
        let notification = DesktopNotification(
            summary: content.title, body: content.body, icon: "simplex-chat",
            category: content.categoryIdentifier.desktopCategory, desktopEntry: "simplex-chat",
            soundName: "message-new-instant", actions: [.default(label: "Open")])
        do {
            let handle: NotificationHandle
            if let previous = shown[chat] {
                chats[previous] = nil
                handle = try await presenter.replace(previous, with: notification)
            } else {
                handle = try await presenter.show(notification)
            }
            shown[chat] = handle
            chats[handle] = chat
            failing = false
        } catch {
            // The chat goes on without notifications; the status line is not for this.
            failing = true
        }
    }

    /// The chat was read here: its notification goes.
    public func close(chat: String) async {
        guard let handle = shown.removeValue(forKey: chat) else { return }
        chats[handle] = nil
        try? await presenter.close(handle)
    }
}
