internal import CDBus
import Foundation

/// Incoming messages: replies to our calls, method calls on our exported objects, signals.
/// Everything here runs on the loop thread.
extension DBusLoop {
    func handleIncoming(_ message: OpaquePointer) {
        switch dbus_message_get_type(message) {
        case CDBus_messageTypeMethodReturn, CDBus_messageTypeError:
            handleReply(message)
        case CDBus_messageTypeMethodCall:
            handleMethodCall(message)
        case CDBus_messageTypeSignal:
            handleSignal(message)
        default:
            break
        }
    }

    private func handleMethodCall(_ message: OpaquePointer) {
        let sender = Self.field(dbus_message_get_sender(message))
        let path = Self.field(dbus_message_get_path(message))
        let interface = dbus_message_get_interface(message).map { String(cString: $0) }
        let member = Self.field(dbus_message_get_member(message))
        let serial = dbus_message_get_serial(message)
        let wantsReply = dbus_message_get_no_reply(message) == 0
        let reply = { [self] (result: Result<[DBusValue], DBusError>) in
            if wantsReply { sendReply(to: sender, serial: serial, result: result) }
        }

        if interface == DBusNames.peer
            || (interface == nil && (member == "Ping" || member == "GetMachineId")),
            let answer = peerAnswer(member)
        {
            return reply(answer)
        }
        if (interface == DBusNames.introspectable || interface == nil) && member == "Introspect" {
            return reply(.success([.string(introspection(of: path))]))
        }

        let objects = exports.withLock { $0 }
        guard let interfaces = objects[path] else {
            return reply(
                .failure(
                    DBusError(
                        name: "org.freedesktop.DBus.Error.UnknownObject", message: "no object at \(path)")))
        }
        let handler: DBusMethodHandler? =
            if let interface { interfaces[interface]?[member] } else {
                interfaces.keys.sorted().lazy.compactMap { interfaces[$0]?[member] }.first
            }
        guard let handler else {
            return reply(
                .failure(
                    .unknownMethod(
                        "no method \(interface.map { "\($0)." } ?? "")\(member) at \(path)")))
        }
        let arguments: [DBusValue]
        do throws(DBusError) {
            var reader = DBusMessageReader(message: message)
            arguments = try reader.readAll()
        } catch {
            return reply(.failure(error))
        }

        let call = DBusMethodCall(
            sender: sender, path: path, interface: interface, member: member, arguments: arguments)
        let id = makeID()
        // The handler runs on the cooperative pool; only its reply comes back to this thread.
        handlerTasks[id] = Task { [self] in
            let result: Result<[DBusValue], DBusError>
            do {
                result = .success(try await handler(call))
            } catch let error as DBusError {
                result = .failure(error)
            } catch {
                result = .failure(.failed(String(describing: error)))
            }
            enqueue { loop in
                loop.handlerTasks[id] = nil
                if wantsReply { loop.sendReply(to: sender, serial: serial, result: result) }
            }
        }
    }

    private func peerAnswer(_ member: String) -> Result<[DBusValue], DBusError>? {
        switch member {
        case "Ping":
            return .success([])
        case "GetMachineId":
            var error = CDBus_Error()
            dbus_error_init(&error)
            defer { dbus_error_free(&error) }
            guard let id = dbus_try_get_local_machine_id(&error) else {
                return .failure(.failed("no machine id: \(Self.message(error))"))
            }
            defer { dbus_free(id) }
            return .success([.string(String(cString: id))])
        default:
            return nil
        }
    }

    /// Minimal introspection data: our interfaces and method names at `path`, and child nodes.
    private func introspection(of path: String) -> String {
        let objects = exports.withLock { $0 }
        var xml = """
            <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
            <node>
              <interface name="\(DBusNames.introspectable)"><method name="Introspect">\
            <arg name="xml" type="s" direction="out"/></method></interface>
              <interface name="\(DBusNames.peer)"><method name="Ping"/><method name="GetMachineId">\
            <arg name="id" type="s" direction="out"/></method></interface>

            """
        for (interface, methods) in (objects[path] ?? [:]).sorted(by: { $0.key < $1.key }) {
            xml += "  <interface name=\"\(interface)\">"
            for name in methods.keys.sorted() { xml += "<method name=\"\(name)\"/>" }
            xml += "</interface>\n"
        }
        let prefix = path == "/" ? "/" : path + "/"
        let children = Set(
            objects.keys.filter { $0.hasPrefix(prefix) }.compactMap {
                $0.dropFirst(prefix.count).split(separator: "/").first.map(String.init)
            })
        for child in children.sorted() { xml += "  <node name=\"\(child)\"/>\n" }
        return xml + "</node>\n"
    }

    private func handleSignal(_ message: OpaquePointer) {
        let interface = Self.field(dbus_message_get_interface(message))
        let member = Self.field(dbus_message_get_member(message))
        if interface == DBusNames.local && member == "Disconnected" {
            return shutdown(.disconnected("the bus closed the connection"))
        }
        var reader = DBusMessageReader(message: message)
        guard let arguments = try? reader.readAll() else { return }
        let signal = DBusSignal(
            sender: Self.field(dbus_message_get_sender(message)),
            path: Self.field(dbus_message_get_path(message)),
            interface: interface, member: member, arguments: arguments)
        if signal.sender == DBusNames.bus, member == "NameOwnerChanged", arguments.count == 3,
            let name = arguments[0].string, watchedNames[name] != nil
        {
            let owner = arguments[2].string ?? ""
            watchedNames[name]?.owner = owner.isEmpty ? nil : owner
        }
        for subscription in subscriptions.values {
            let owner = subscription.filter.wellKnownSender.flatMap { watchedNames[$0]?.owner }
            if subscription.filter.matches(signal, senderOwner: owner) {
                subscription.continuation.yield(signal)
            }
        }
    }

    static func field(_ value: UnsafePointer<CChar>?) -> String {
        value.map { String(cString: $0) } ?? ""
    }
}
