/// A shown notification, as the presenter that showed it knows it.
public struct NotificationHandle: Sendable, Hashable, CustomStringConvertible {
    /// The id the notification server gave it (the Notify return value).
    public let serverID: UInt32
    /// The presenter's own key for the notification object; stays the same across replaces.
    let key: UInt64

    init(serverID: UInt32, key: UInt64) {
        self.serverID = serverID
        self.key = key
    }

    public var description: String { "notification \(serverID)" }
}

/// Why the server closed a notification (`NotificationClosed` reason).
public enum NotificationCloseReason: Sendable, Equatable, CustomStringConvertible {
    case expired
    case dismissed
    case closedByCall
    case undefined(UInt32)

    init(code: UInt32) {
        switch code {
        case 1: self = .expired
        case 2: self = .dismissed
        case 3: self = .closedByCall
        default: self = .undefined(code)
        }
    }

    /// The spec's numeric reason.
    public var code: UInt32 {
        switch self {
        case .expired: 1
        case .dismissed: 2
        case .closedByCall: 3
        case .undefined(let code): code
        }
    }

    public var description: String {
        switch self {
        case .expired: "expired"
        case .dismissed: "dismissed"
        case .closedByCall: "closedByCall"
        case .undefined(let code): "undefined(\(code))"
        }
    }
}

/// Something the user or the server did to a shown notification.
public enum NotificationEvent: Sendable, Equatable {
    /// The user chose an action (`"default"`: clicked the notification); `activationToken` is what
    /// the server gave for it (`ActivationToken`, spec 1.2), to be passed to the window it opens
    /// (`XDG_ACTIVATION_TOKEN`, `DESKTOP_STARTUP_ID`) so the desktop lets it take the focus.
    case actionInvoked(NotificationHandle, actionID: String, activationToken: String? = nil)
    /// The user typed `text` into the notification's reply field (`NotificationReplied`, KDE's
    /// `inline-reply` action).
    case replied(NotificationHandle, text: String)
    /// The server closed the notification; the handle is finished (a later `replace` shows anew).
    case closed(NotificationHandle, NotificationCloseReason)
}
