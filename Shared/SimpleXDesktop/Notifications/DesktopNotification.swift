/// What a desktop notification shows and how the server should treat it (freedesktop notification spec).
public struct DesktopNotification: Sendable, Equatable, Codable {
    /// How urgent the server should consider the notification (the `urgency` hint, a byte 0/1/2).
    public enum Urgency: String, Sendable, Equatable, Codable, CaseIterable {
        case low, normal, critical
    }

    /// A button on the notification; the id `"default"` is a click on the notification itself.
    public struct Action: Sendable, Equatable, Codable {
        /// The action id the server reports back in `ActionInvoked`.
        public var id: String
        /// The button label the user sees.
        public var label: String

        public init(id: String, label: String) {
            self.id = id
            self.label = label
        }

        /// The click on the notification itself.
        public static func `default`(label: String) -> Action { Action(id: defaultID, label: label) }
        /// The action id of a click on the notification.
        public static let defaultID = "default"
        /// The action id of a reply field in the notification (servers with `inline-reply`); the
        /// reply comes as `NotificationReplied`, to the connection that called Notify only.
        public static let inlineReplyID = "inline-reply"
        /// A reply field, labelled `label` (its placeholder).
        public static func inlineReply(label: String) -> Action { Action(id: inlineReplyID, label: label) }
    }

    /// The title; must not be empty (libnotify refuses an empty summary on update).
    public var summary: String
    /// Plain message text; escaped for servers that interpret body markup.
    public var body: String
    /// An icon theme name or a file path or URI, sent as the Notify `app_icon`.
    public var icon: String?
    /// The `category` hint, e.g. `im.received`.
    public var category: String?
    /// The `desktop-entry` hint: the desktop file name without `.desktop`, e.g. `simplex-chat`.
    public var desktopEntry: String?
    /// The `sound-name` hint: a freedesktop sound theme name, e.g. `message-new-instant`.
    public var soundName: String?
    public var urgency: Urgency
    public var actions: [Action]
    /// The `transient` hint: the server should not keep the notification in its history.
    public var transient: Bool
    /// The `resident` hint: the notification stays after an action is invoked.
    public var resident: Bool
    /// Expiry in milliseconds; -1 is the server default, 0 never expires.
    public var timeoutMs: Int32
    /// The `value` hint: a transfer's progress, 0–100, which servers draw as a bar (clamped).
    public var progress: Int32?

    public init(
        summary: String, body: String = "", icon: String? = nil, category: String? = nil,
        desktopEntry: String? = nil, soundName: String? = nil, urgency: Urgency = .normal, actions: [Action] = [],
        transient: Bool = false, resident: Bool = false, timeoutMs: Int32 = -1, progress: Int32? = nil
    ) {
        self.summary = summary
        self.body = body
        self.icon = icon
        self.category = category
        self.desktopEntry = desktopEntry
        self.soundName = soundName
        self.urgency = urgency
        self.actions = actions
        self.transient = transient
        self.resident = resident
        self.timeoutMs = timeoutMs
        self.progress = progress.map { min(100, max(0, $0)) }
    }
}

extension DesktopNotification {
    /// The Notify `body` for a server with or without the `body-markup` capability: a server that
    /// interprets markup would render `<b>` in a message as bold (or drop it), so `& < >` are escaped.
    func bodyText(serverCapabilities: [String]) -> String {
        serverCapabilities.contains("body-markup") ? Self.escapeMarkup(body) : body
    }

    /// Escapes the three characters the notification body markup gives meaning to.
    static func escapeMarkup(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
