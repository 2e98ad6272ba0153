internal import CNotify

// Thin Swift over the GLib / GDBus calls the presenter makes on the notify thread.

let notificationsBusName = "org.freedesktop.Notifications"
private let notificationsPath = "/org/freedesktop/Notifications"

/// Takes ownership of a GError and turns it into a NotificationError.
func notificationError(_ error: UnsafeMutablePointer<GError>?, context: String) -> NotificationError {
    guard let error else { return NotificationError(.failed("unknown error"), "\(context): unknown error") }
    defer { g_error_free(error) }
    var name: String?
    if error.pointee.domain == CNotify_dbusErrorQuark() || g_dbus_error_is_remote_error(error) != 0,
        let remote = g_dbus_error_get_remote_error(error)
    {
        name = String(cString: remote)
        g_free(remote)
        g_dbus_error_strip_remote_error(error)
    }
    let isTimeout =
        error.pointee.domain == CNotify_ioErrorQuark()
        && error.pointee.code == Int32(G_IO_ERROR_TIMED_OUT.rawValue)
    let message = error.pointee.message.map { String(cString: $0) } ?? "code \(error.pointee.code)"
    return NotificationError(context: context, dbusErrorName: name, message: message, isTimeout: isTimeout)
}

/// The session bus connection (GDBus's shared singleton, the one libnotify's proxy uses).
struct SessionBus {
    let connection: OpaquePointer

    /// Connects (or returns the shared connection); no session bus at all means no notification server.
    static func connect() throws(NotificationError) -> SessionBus {
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            let cause = notificationError(error, context: "connecting to the session bus")
            throw NotificationError(.noServer, cause.message, dbusErrorName: cause.dbusErrorName)
        }
        return SessionBus(connection: connection)
    }

    func release() { g_object_unref(UnsafeMutableRawPointer(connection)) }

    /// The unique name that owns `org.freedesktop.Notifications`, or nil when nobody does. Never starts a service.
    func notificationServerOwner(timeoutMs: Int32) throws(NotificationError) -> String? {
        do throws(NotificationError) {
            return try call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus", method: "GetNameOwner", argument: notificationsBusName,
                replyType: "(s)", autoStart: false, timeoutMs: timeoutMs,
                context: "asking the bus who serves notifications"
            ) { String(cString: g_variant_get_string($0, nil)) }
        } catch {
            guard error.dbusErrorName == "org.freedesktop.DBus.Error.NameHasNoOwner" else { throw error }
            return nil
        }
    }

    /// Whether a D-Bus service file lets the bus start a notification server on demand.
    func notificationServerIsActivatable(timeoutMs: Int32) throws(NotificationError) -> Bool {
        let names = try call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus", method: "ListActivatableNames", argument: nil,
            replyType: "(as)", autoStart: false, timeoutMs: timeoutMs,
            context: "listing activatable services",
            decode: strings)
        return names.contains(notificationsBusName)
    }

    /// The server's `GetCapabilities` (starts an activatable server).
    func notificationServerCapabilities(timeoutMs: Int32) throws(NotificationError) -> [String] {
        try call(
            destination: notificationsBusName, path: notificationsPath, interface: notificationsBusName,
            method: "GetCapabilities", argument: nil, replyType: "(as)", autoStart: true,
            timeoutMs: timeoutMs,
            context: "asking the notification server for its capabilities", decode: strings)
    }

    private func call<Value>(
        destination: String, path: String, interface: String, method: String, argument: String?,
        replyType: String, autoStart: Bool, timeoutMs: Int32, context: String,
        decode: (OpaquePointer) -> Value
    ) throws(NotificationError) -> Value {
        var error: UnsafeMutablePointer<GError>?
        let reply: OpaquePointer? =
            if let argument {
                CNotify_call(
                    connection, destination, path, interface, method, argument, replyType, autoStart ? 1 : 0,
                    timeoutMs, &error)
            } else {
                CNotify_call(
                    connection, destination, path, interface, method, nil, replyType, autoStart ? 1 : 0,
                    timeoutMs, &error)
            }
        guard let reply else { throw notificationError(error, context: context) }
        defer { g_variant_unref(reply) }
        guard let first = g_variant_get_child_value(reply, 0) else {
            throw NotificationError(.failed("empty reply"), "\(context): empty reply")
        }
        defer { g_variant_unref(first) }
        return decode(first)
    }
}

/// The strings of an `as` value.
private func strings(_ value: OpaquePointer) -> [String] {
    var count = 0
    guard let array = g_variant_get_strv(value, &count) else { return [] }
    defer { g_free(array) }
    return (0..<count).compactMap { array[$0].map { String(cString: $0) } }
}
