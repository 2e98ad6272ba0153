/// Answers one method of an exported interface. Runs in its own task (never on the connection's
/// loop thread); the reply is sent when it returns. A thrown `DBusError` reaches the caller with
/// its name; any other error arrives as `chat.simplex.Error.Failed`.
public typealias DBusMethodHandler = @Sendable (DBusMethodCall) async throws -> [DBusValue]

/// A method call received on an exported object.
public struct DBusMethodCall: Sendable {
    /// The caller's unique connection name (`:1.42`).
    public let sender: String
    public let path: String
    /// Nil when the caller did not name an interface.
    public let interface: String?
    public let member: String
    public let arguments: [DBusValue]

    public init(sender: String, path: String, interface: String?, member: String, arguments: [DBusValue]) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }

    /// The arguments, after checking their joined signature is `signature`; throws
    /// `chat.simplex.Error.InvalidArgs` (sent back to the caller) otherwise.
    public func arguments(matching signature: String) throws(DBusError) -> [DBusValue] {
        let actual = arguments.map(\.signature).joined()
        guard actual == signature else {
            throw .invalidArgs("\(member) takes (\(signature)), got (\(actual))")
        }
        return arguments
    }
}

/// A signal received from the bus.
public struct DBusSignal: Sendable, Equatable {
    /// The emitter's unique connection name (or `org.freedesktop.DBus` for the bus itself).
    public let sender: String
    public let path: String
    public let interface: String
    public let member: String
    public let arguments: [DBusValue]

    public init(sender: String, path: String, interface: String, member: String, arguments: [DBusValue]) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }
}

/// What a signal subscription listens for; nil fields match anything.
struct DBusSignalFilter: Sendable {
    var path: String?
    var interface: String?
    var member: String?
    var sender: String?

    /// The bus match rule, so the daemon routes these signals to us.
    var matchRule: String {
        var parts = ["type='signal'"]
        if let sender { parts.append("sender='\(sender)'") }
        if let path { parts.append("path='\(path)'") }
        if let interface { parts.append("interface='\(interface)'") }
        if let member { parts.append("member='\(member)'") }
        return parts.joined(separator: ",")
    }

    /// Whether `signal` matches; `senderOwner` is the current unique owner of a well-known
    /// `sender` (signals always carry the unique name).
    func matches(_ signal: DBusSignal, senderOwner: String?) -> Bool {
        if let path, path != signal.path { return false }
        if let interface, interface != signal.interface { return false }
        if let member, member != signal.member { return false }
        if let sender, sender != signal.sender, senderOwner != signal.sender { return false }
        return true
    }

    /// Whether `sender` is a well-known name whose owner we must track to filter locally.
    var wellKnownSender: String? {
        guard let sender, !sender.hasPrefix(":"), sender != DBusNames.bus else { return nil }
        return sender
    }
}

/// Names of the bus daemon and the standard interfaces.
enum DBusNames {
    static let bus = "org.freedesktop.DBus"
    static let busPath = "/org/freedesktop/DBus"
    static let local = "org.freedesktop.DBus.Local"
    static let peer = "org.freedesktop.DBus.Peer"
    static let introspectable = "org.freedesktop.DBus.Introspectable"
}
