internal import CDBus

/// Exporting objects, emitting and receiving signals.
extension DBusConnection {
    /// Exports `methods` (by member name) of `interface` at `path`, replacing an earlier export of
    /// the same interface there. Calls to other members answer `org.freedesktop.DBus.Error.UnknownMethod`;
    /// `org.freedesktop.DBus.Introspectable` and `Peer` are answered for every path.
    public func export(path: String, interface: String, methods: [String: DBusMethodHandler]) throws {
        guard path.withCString({ dbus_validate_path($0, nil) }) != 0 else {
            throw DBusError.invalidArgs("\(path.debugDescription) is not a valid object path")
        }
        guard interface.withCString({ dbus_validate_interface($0, nil) }) != 0 else {
            throw DBusError.invalidArgs("\(interface.debugDescription) is not a valid interface name")
        }
        for name in methods.keys where name.withCString({ dbus_validate_member($0, nil) }) == 0 {
            throw DBusError.invalidArgs("\(name.debugDescription) is not a valid method name")
        }
        loop.exports.withLock { $0[path, default: [:]][interface] = methods }
    }

    /// Stops exporting `interface` at `path`.
    public func unexport(path: String, interface: String) {
        loop.exports.withLock { exports in
            exports[path]?[interface] = nil
            if exports[path]?.isEmpty == true { exports[path] = nil }
        }
    }

    /// Emits signal `interface.name` from our object at `path`.
    public func emitSignal(path: String, interface: String, name: String, arguments: [DBusValue] = [])
        async throws
    {
        try await perform { (loop) throws(DBusError) in
            try loop.emitSignal(path: path, interface: interface, name: name, arguments: arguments)
        }
    }

    /// Subscribes to signals; nil filters match anything. Returns once the bus routes matching
    /// signals to us, so a signal emitted after this returns is not missed. `sender` may be a
    /// unique or a well-known name (its owner is tracked). Ending the stream (dropping it or
    /// cancelling its consumer) removes the match rule; the stream finishes when the connection closes.
    public func signals(
        path: String? = nil, interface: String? = nil, member: String? = nil, sender: String? = nil
    ) async throws -> AsyncStream<DBusSignal> {
        if let path, path.withCString({ dbus_validate_path($0, nil) }) == 0 {
            throw DBusError.invalidArgs("\(path.debugDescription) is not a valid object path")
        }
        if let interface, interface.withCString({ dbus_validate_interface($0, nil) }) == 0 {
            throw DBusError.invalidArgs("\(interface.debugDescription) is not a valid interface name")
        }
        if let member, member.withCString({ dbus_validate_member($0, nil) }) == 0 {
            throw DBusError.invalidArgs("\(member.debugDescription) is not a valid member name")
        }
        if let sender, sender.withCString({ dbus_validate_bus_name($0, nil) }) == 0 {
            throw DBusError.invalidArgs("\(sender.debugDescription) is not a valid bus name")
        }
        let filter = DBusSignalFilter(path: path, interface: interface, member: member, sender: sender)
        let id = loop.makeID()
        let (stream, continuation) = AsyncStream.makeStream(of: DBusSignal.self)
        continuation.onTermination = { [loop] _ in loop.enqueue { $0.unsubscribe(id: id) } }
        let loop = self.loop
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, Error>) in
            loop.enqueue(
                DBusLoop.Job(
                    run: { loop in
                        loop.subscribe(id: id, filter: filter, continuation: continuation) { error in
                            if let error { done.resume(throwing: error) } else { done.resume() }
                        }
                    },
                    fail: { error in
                        continuation.finish()
                        done.resume(throwing: error)
                    }))
        }
        return stream
    }
}
