internal import CDBus
import Foundation

/// Outgoing messages: method calls with their own deadlines, replies, errors and signals.
/// Everything here runs on the loop thread.
extension DBusLoop {
    /// The target of a method call.
    struct CallTarget: Sendable {
        var destination: String
        var path: String
        var interface: String
        var method: String
        /// Whether the bus may start (D-Bus activate) the destination when nobody owns it.
        var autoStart = true

        var description: String { "\(destination) \(path) \(interface).\(method)" }
    }

    /// Sends a method call; `complete` runs on the loop thread with the reply or the error
    /// (including a timeout at `deadline`). Without `complete` no reply is requested.
    func startCall(
        id: UInt64, _ target: CallTarget, deadline: ContinuousClock.Instant, timeout: Duration,
        encode: (inout DBusMessageWriter) throws(DBusError) -> Void, complete: Completion?
    ) {
        if cancelledBeforeStart.remove(id) != nil {
            complete?(.failure(.cancelled(target.description)))
            return
        }
        do throws(DBusError) {
            try Self.validateTarget(target)
            guard let connection else { throw .disconnected() }
            guard
                let message = dbus_message_new_method_call(
                    target.destination, target.path, target.interface, target.method)
            else { throw .failed("libdbus could not create a message (out of memory)") }
            defer { dbus_message_unref(message) }
            if complete == nil { dbus_message_set_no_reply(message, 1) }
            if !target.autoStart { dbus_message_set_auto_start(message, 0) }
            var writer = DBusMessageWriter(message: message)
            try encode(&writer)
            var serial: UInt32 = 0
            guard dbus_connection_send(connection, message, &serial) != 0 else {
                throw .failed("libdbus could not queue a message (out of memory)")
            }
            guard let complete else { return }
            pending[serial] = PendingCall(
                id: id, deadline: deadline, timeout: timeout, what: target.description, complete: complete)
            pendingSerials[id] = serial
        } catch {
            complete?(.failure(error))
        }
    }

    /// Abandons a call whose task was cancelled; a late reply is then dropped.
    func cancelCall(id: UInt64) {
        guard let serial = pendingSerials.removeValue(forKey: id) else {
            cancelledBeforeStart.insert(id)
            return
        }
        if let call = pending.removeValue(forKey: serial) {
            call.complete(.failure(.cancelled(call.what)))
        }
    }

    /// Completes the call that `reply` (a method return or an error) answers.
    func handleReply(_ reply: OpaquePointer) {
        let serial = dbus_message_get_reply_serial(reply)
        guard let call = pending.removeValue(forKey: serial) else { return }
        pendingSerials[call.id] = nil
        if dbus_message_get_type(reply) == CDBus_messageTypeError {
            let name = dbus_message_get_error_name(reply).map { String(cString: $0) } ?? "unknown"
            var reader = DBusMessageReader(message: reply)
            let text = (try? reader.read())?.string ?? ""
            call.complete(.failure(DBusError(name: name, message: text)))
        } else {
            call.complete(.success(reply))
        }
    }

    /// Fails every call whose deadline has passed with a timeout error.
    func expireDeadlines() {
        guard !pending.isEmpty else { return }
        let now = ContinuousClock.now
        let expired = pending.filter { $0.value.deadline <= now }
        for (serial, call) in expired {
            pending[serial] = nil
            pendingSerials[call.id] = nil
            call.complete(.failure(.timeout(call.what, after: call.timeout)))
        }
    }

    /// Sends the reply to a method call we received.
    func sendReply(to sender: String, serial: UInt32, result: Result<[DBusValue], DBusError>) {
        guard let connection else { return }
        var outcome = result
        if case .success(let values) = result {
            do throws(DBusError) {
                try send(
                    makeReply(CDBus_messageTypeMethodReturn, to: sender, serial: serial) {
                        (message) throws(DBusError) in
                        var writer = DBusMessageWriter(message: message)
                        try writer.append(values)
                    }, on: connection)
                return
            } catch {
                outcome = .failure(.failed("the reply could not be sent: \(error)"))
            }
        }
        guard case .failure(var error) = outcome else { return }
        if error.name.withCString({ dbus_validate_error_name($0, nil) }) == 0 {
            error = .failed(error.description)
        }
        let name = error.name
        let text = error.message
        try? send(
            makeReply(CDBus_messageTypeError, to: sender, serial: serial) { (message) throws(DBusError) in
                dbus_message_set_error_name(message, name)
                var writer = DBusMessageWriter(message: message)
                try writer.append(.string(text))
            }, on: connection)
    }

    /// Emits a signal from one of our objects.
    func emitSignal(
        path: String, interface: String, name: String, arguments: [DBusValue]
    ) throws(DBusError) {
        guard let connection else { throw .disconnected() }
        guard path.withCString({ dbus_validate_path($0, nil) }) != 0,
            interface.withCString({ dbus_validate_interface($0, nil) }) != 0,
            name.withCString({ dbus_validate_member($0, nil) }) != 0
        else { throw .invalidArgs("invalid signal \(path) \(interface).\(name)") }
        guard let message = dbus_message_new_signal(path, interface, name) else {
            throw .failed("libdbus could not create a message (out of memory)")
        }
        var writer = DBusMessageWriter(message: message)
        do {
            try writer.append(arguments)
        } catch {
            dbus_message_unref(message)
            throw error
        }
        try send(message, on: connection)  // releases the message
    }

    private func makeReply(
        _ type: Int32, to destination: String, serial: UInt32,
        _ fill: (OpaquePointer) throws(DBusError) -> Void
    ) throws(DBusError) -> OpaquePointer {
        guard let message = dbus_message_new(type) else {
            throw .failed("libdbus could not create a message (out of memory)")
        }
        dbus_message_set_no_reply(message, 1)
        guard dbus_message_set_reply_serial(message, serial) != 0,
            destination.isEmpty || dbus_message_set_destination(message, destination) != 0
        else {
            dbus_message_unref(message)
            throw .failed("libdbus could not address a reply (out of memory)")
        }
        do {
            try fill(message)
        } catch {
            dbus_message_unref(message)
            throw error
        }
        return message
    }

    /// Queues `message` and releases our reference to it.
    private func send(_ message: OpaquePointer, on connection: OpaquePointer) throws(DBusError) {
        defer { dbus_message_unref(message) }
        guard dbus_connection_send(connection, message, nil) != 0 else {
            throw .failed("libdbus could not queue a message (out of memory)")
        }
    }

    static func validateTarget(_ target: CallTarget) throws(DBusError) {
        var problems: [String] = []
        if target.destination.withCString({ dbus_validate_bus_name($0, nil) }) == 0 {
            problems.append("bus name \(target.destination.debugDescription)")
        }
        if target.path.withCString({ dbus_validate_path($0, nil) }) == 0 {
            problems.append("object path \(target.path.debugDescription)")
        }
        if target.interface.withCString({ dbus_validate_interface($0, nil) }) == 0 {
            problems.append("interface \(target.interface.debugDescription)")
        }
        if target.method.withCString({ dbus_validate_member($0, nil) }) == 0 {
            problems.append("method \(target.method.debugDescription)")
        }
        guard problems.isEmpty else { throw .invalidArgs("invalid " + problems.joined(separator: ", ")) }
    }
}
