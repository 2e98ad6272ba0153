internal import CDBus
import Foundation

/// A private connection to a D-Bus bus (normally the session bus), usable from Swift concurrency.
///
/// libdbus is driven by one dedicated thread per connection (see `DBusLoop`); every method here
/// only queues work for it and awaits the result, so no cooperative thread ever blocks on the bus.
/// Method calls carry their own deadline, enforced by that thread. When the bus goes away, or after
/// `close()`, pending and later calls fail with `chat.simplex.Error.Disconnected`.
public final class DBusConnection: Sendable {
    /// Our unique connection name on the bus (`:1.42`).
    public let uniqueName: String
    let loop: DBusLoop

    /// The default timeout of a method call (libdbus uses the same).
    public static let defaultTimeout = Duration.seconds(25)

    /// Connects to the session bus named by `DBUS_SESSION_BUS_ADDRESS`; fails with
    /// `chat.simplex.Error.NoBus` when it is unset (ssh sessions, servers) or unreachable.
    public static func session() async throws -> DBusConnection {
        guard let address = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"],
            !address.isEmpty
        else {
            throw DBusError.noBus("DBUS_SESSION_BUS_ADDRESS is not set: there is no session bus")
        }
        return try await DBusConnection(address: address)
    }

    /// Connects to the bus at `address` (e.g. `unix:path=/run/user/1000/bus`) and registers on it.
    public init(address: String) async throws {
        (loop, uniqueName) = try await DBusLoop.start(address: address)
    }

    deinit { loop.close(.disconnected("the connection was released")) }

    /// Closes the connection; pending calls fail with `chat.simplex.Error.Disconnected`, signal
    /// streams end. Names we own are released by the bus.
    public func close() {
        loop.close(.disconnected("the connection was closed by this process"))
    }

    /// False once the connection is closed, by us or by the bus.
    public var isConnected: Bool { !loop.isClosed }

    // MARK: - Names

    /// Becomes the primary owner of `name`, refusing to queue: when another connection owns it,
    /// throws `chat.simplex.Error.NameTaken`.
    public func requestName(_ name: String) async throws {
        let reply = try await callBus("RequestName", [.string(name), .uint32(CDBus_nameFlagDoNotQueue)])
        switch reply.first?.uint32 {
        case UInt32(DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER), UInt32(DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER):
            return
        case UInt32(DBUS_REQUEST_NAME_REPLY_EXISTS), UInt32(DBUS_REQUEST_NAME_REPLY_IN_QUEUE):
            throw DBusError.nameTaken(name)
        default:
            throw DBusError.failed("RequestName(\(name)) answered \(reply)")
        }
    }

    /// Gives up `name` (no error when we did not own it).
    public func releaseName(_ name: String) async throws {
        _ = try await callBus("ReleaseName", [.string(name)])
    }

    /// Whether some connection currently owns `name`.
    public func nameHasOwner(_ name: String) async throws -> Bool {
        let reply = try await callBus("NameHasOwner", [.string(name)])
        guard let owned = reply.first?.bool else {
            throw DBusError.failed("NameHasOwner(\(name)) answered \(reply)")
        }
        return owned
    }

    /// The names the bus can start on demand (D-Bus activation).
    public func activatableNames() async throws -> [String] {
        let reply = try await callBus("ListActivatableNames", [])
        guard let names = reply.first?.stringArray else {
            throw DBusError.failed("ListActivatableNames answered \(reply)")
        }
        return names
    }

    // MARK: - Calls

    /// Calls `method` and returns its reply's arguments. Throws the remote error (with its D-Bus
    /// name), `chat.simplex.Error.Timeout` when no reply came within `timeout`,
    /// `chat.simplex.Error.Cancelled` when the task was cancelled.
    public func call(
        destination: String, path: String, interface: String, method: String,
        arguments: [DBusValue] = [], timeout: Duration = DBusConnection.defaultTimeout
    ) async throws -> [DBusValue] {
        try await call(
            DBusLoop.CallTarget(destination: destination, path: path, interface: interface, method: method),
            timeout: timeout,
            encode: { (writer) throws(DBusError) in try writer.append(arguments) },
            decode: { (reader) throws(DBusError) in try reader.readAll() })
    }

    /// A method call with custom marshalling: `encode` and `decode` run on the loop thread, with
    /// the message's own buffers (used to move secrets without intermediate Swift arrays).
    func call<T: Sendable>(
        _ target: DBusLoop.CallTarget, timeout: Duration,
        encode: @escaping @Sendable (inout DBusMessageWriter) throws(DBusError) -> Void,
        decode: @escaping @Sendable (inout DBusMessageReader) throws(DBusError) -> T
    ) async throws -> T {
        let id = loop.makeID()
        let deadline = ContinuousClock.now + timeout
        let loop = self.loop
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (reply: CheckedContinuation<T, Error>) in
                if Task.isCancelled { return reply.resume(throwing: DBusError.cancelled(target.description)) }
                loop.enqueue(
                    DBusLoop.Job(
                        run: { loop in
                            loop.startCall(
                                id: id, target, deadline: deadline, timeout: timeout, encode: encode
                            ) { result in
                                reply.resume(
                                    with: result.flatMap { (message) -> Result<T, DBusError> in
                                        var reader = DBusMessageReader(message: message)
                                        return Result { () throws(DBusError) in try decode(&reader) }
                                    }.mapError { $0 as Error })
                            }
                        },
                        fail: { reply.resume(throwing: $0) }))
            }
        } onCancel: {
            loop.enqueue { $0.cancelCall(id: id) }
        }
    }

    private func callBus(_ method: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        try await call(
            destination: DBusNames.bus, path: DBusNames.busPath, interface: DBusNames.bus, method: method,
            arguments: arguments, timeout: DBusLoop.busTimeout)
    }

    /// Runs `body` on the loop thread and returns its result.
    func perform<T: Sendable>(_ body: @escaping @Sendable (DBusLoop) throws(DBusError) -> T) async throws -> T
    {
        let loop = self.loop
        return try await withCheckedThrowingContinuation { (done: CheckedContinuation<T, Error>) in
            loop.enqueue(
                DBusLoop.Job(
                    run: { loop in done.resume(with: Result { () throws(DBusError) in try body(loop) }) },
                    fail: { done.resume(throwing: $0) }))
        }
    }
}
