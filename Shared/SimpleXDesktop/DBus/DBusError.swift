/// An error on the D-Bus boundary: a D-Bus error name (ours are `chat.simplex.Error.*`; errors
/// from the bus or other services keep their own names) and a human-readable message.
public struct DBusError: Error, Equatable, Hashable, CustomStringConvertible {
    /// The D-Bus error name, e.g. `chat.simplex.Error.NameTaken`.
    public let name: String
    /// What went wrong, for people; never contains secrets.
    public let message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { message.isEmpty ? name : "\(name): \(message)" }

    /// The prefix of every error name this app defines.
    public static let namePrefix = "chat.simplex.Error."

    /// A generic failure (a handler threw a non-D-Bus error, libdbus ran out of memory, ...).
    public static func failed(_ message: String) -> DBusError {
        DBusError(name: namePrefix + "Failed", message: message)
    }

    /// The well-known name is owned by another connection; we never queue for it.
    public static func nameTaken(_ name: String) -> DBusError {
        DBusError(
            name: namePrefix + "NameTaken",
            message: "the bus name \(name) is already owned by another process")
    }

    /// No reply arrived within the caller's timeout.
    public static func timeout(_ what: String, after timeout: Duration) -> DBusError {
        DBusError(name: namePrefix + "Timeout", message: "\(what) got no reply within \(timeout)")
    }

    /// The connection was closed, or the bus went away.
    public static func disconnected(_ message: String = "the D-Bus connection is closed") -> DBusError {
        DBusError(name: namePrefix + "Disconnected", message: message)
    }

    /// Arguments had the wrong number or type, or a value cannot be sent (bad UTF-8, bad path...).
    public static func invalidArgs(_ message: String) -> DBusError {
        DBusError(name: namePrefix + "InvalidArgs", message: message)
    }

    /// There is no session bus (DBUS_SESSION_BUS_ADDRESS unset) or it cannot be reached.
    public static func noBus(_ message: String) -> DBusError {
        DBusError(name: namePrefix + "NoBus", message: message)
    }

    /// The call was cancelled by its task.
    public static func cancelled(_ what: String) -> DBusError {
        DBusError(name: namePrefix + "Cancelled", message: "\(what) was cancelled")
    }

    /// The error the bus sends for a method nobody exports.
    public static func unknownMethod(_ message: String) -> DBusError {
        DBusError(name: "org.freedesktop.DBus.Error.UnknownMethod", message: message)
    }

    /// The error name the bus uses when the destination has no owner and cannot be activated.
    public static let serviceUnknownName = "org.freedesktop.DBus.Error.ServiceUnknown"

    /// The short name after `chat.simplex.Error.`, or nil for other errors.
    public var simplexName: String? {
        name.hasPrefix(Self.namePrefix) ? String(name.dropFirst(Self.namePrefix.count)) : nil
    }
}
