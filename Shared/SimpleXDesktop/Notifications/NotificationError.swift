/// A failure to show, replace or close a desktop notification, or to ask the server about itself.
public struct NotificationError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No notification server on the session bus (or no session bus at all): an ordinary case.
        case noServer
        /// The server or the bus did not answer in time.
        case timedOut
        /// Anything else, with the library's or the server's own message.
        case failed(String)
    }

    public let kind: Kind
    /// One line: what we tried and what went wrong.
    public let message: String
    /// The D-Bus error name when the failure came from the bus, e.g. `org.freedesktop.DBus.Error.ServiceUnknown`.
    public let dbusErrorName: String?

    public init(_ kind: Kind, _ message: String, dbusErrorName: String? = nil) {
        self.kind = kind
        self.message = Self.oneLine(message)
        self.dbusErrorName = dbusErrorName
    }

    /// A short name for the kind, stable for logs and the test peer: `noServer`, `timedOut`, `failed`.
    public var kindName: String {
        switch kind {
        case .noServer: "noServer"
        case .timedOut: "timedOut"
        case .failed: "failed"
        }
    }

    public var description: String { "notification \(kindName): \(message)" }
}

extension NotificationError {
    /// Classifies a D-Bus error: the names that mean "nobody serves org.freedesktop.Notifications"
    /// become `.noServer`, timeouts `.timedOut`.
    init(context: String, dbusErrorName: String?, message: String, isTimeout: Bool) {
        let kind: Kind
        switch dbusErrorName {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            kind = .noServer
        case let name? where name.hasPrefix("org.freedesktop.DBus.Error.Spawn."):
            kind = .noServer  // a service file names a server that cannot be started
        case "org.freedesktop.DBus.Error.Timeout", "org.freedesktop.DBus.Error.TimedOut",
            "org.freedesktop.DBus.Error.NoReply":
            kind = .timedOut
        default:
            kind = isTimeout ? .timedOut : .failed(Self.oneLine(message))
        }
        let oneLine = Self.oneLine(message)
        self.init(kind, "\(context): \(oneLine)", dbusErrorName: dbusErrorName)
    }

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
