// One notification for many things at once (iOS NSE `prepareNotification` and `createJointNtf`).
//
// iOS shows one notification per push; when a push brings news from several places it shows a joint
// "New messages" notification instead. Here the receiving service calls `summary(of:previewMode:)`
// with what one receiving run produced (a periodic `simplex-nse --once` run, or the instant service
// catching up after it reconnects); messages that arrive one at a time are notified one by one with
// `make`, one notification per chat.

extension NotificationContent {
    /// The one notification for a batch: nil when nothing in it notifies; the notification of the only
    /// chat with news (its latest item); otherwise a joint notification. Messages take precedence: when
    /// any chat has a message, chats with only events (contact requests, calls, ...) are left out, as iOS
    /// does; with events only, "New events".
    public static func summary(of sources: [Source], previewMode: NotificationPreviewMode)
        -> NotificationContent?
    {
        // The latest source of each chat, chats in the order their news first arrived; a later item
        // that does not notify (deleted, or an edit) replaces an earlier one, as iOS does. Chat ids
        // are per user, so the user is part of the key.
        var order: [String] = []
        var latest: [String: Source] = [:]
        for source in sources {
            let key = "\(source.user.userId)\(source.chat.chatId)"
            if latest[key] == nil { order.append(key) }
            latest[key] = source
        }
        let chats = order.compactMap { latest[$0] }.filter { make($0, previewMode: previewMode) != nil }
        let messages = chats.filter { if case .received = $0.item { true } else { false } }
        let shown = messages.isEmpty ? chats : messages
        switch shown.count {
        case 0: return nil
        case 1: return make(shown[0], previewMode: previewMode)
        default:
            guard messages.isEmpty else {
                return newMessages(
                    fromChats: shown.map(\.chat.name.viewName), previewMode: previewMode,
                    userId: shown[0].user.userId)
            }
            return newEvents(count: shown.count)
        }
    }

    /// "New messages" from several chats: `From: A`, `From: A and B`, `From: A, B and C`,
    /// `From: A, B and N other chats`; hidden mode `From N chats` (iOS: "From %d chat(s)").
    public static func newMessages(
        fromChats names: [String], previewMode: NotificationPreviewMode, userId: Int64? = nil
    ) -> NotificationContent {
        let body =
            previewMode == .hidden
            ? "From \(names.count) \(names.count == 1 ? "chat" : "chats")"
            : "From: \(chatNamesList(names))"
        return NotificationContent(
            categoryIdentifier: .manyEvents, title: "New messages", body: body, userId: userId)
    }

    /// "New events" when several non-message events arrived together (iOS `%d new events`).
    public static func newEvents(count: Int) -> NotificationContent {
        NotificationContent(categoryIdentifier: .manyEvents, title: "New events", body: "\(count) new events")
    }

    /// The chat names of a joint notification: two in full, and a count for the rest from four on.
    static func chatNamesList(_ names: [String]) -> String {
        switch names.count {
        case 0: ""
        case 1: names[0]
        case 2: "\(names[0]) and \(names[1])"
        case 3: "\(names[0]), \(names[1]) and \(names[2])"
        default: "\(names[0]), \(names[1]) and \(names.count - 2) other chats"
        }
    }
}
