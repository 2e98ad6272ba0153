import Foundation
import SimpleXDesktop
import Synchronization
import TestSupport

/// Two connections on a fresh private bus: `server` exports things, `client` calls them.
struct DBusPair {
    let bus: TestBus
    let server: DBusConnection
    let client: DBusConnection

    init() async throws {
        bus = try await TestBus()
        server = try await DBusConnection(address: bus.address)
        client = try await DBusConnection(address: bus.address)
    }

    static let path = "/chat/simplex/Test"
    static let interface = "chat.simplex.Test1"

    /// Exports `methods` on the server at the test object.
    func export(_ methods: [String: DBusMethodHandler]) throws {
        try server.export(path: Self.path, interface: Self.interface, methods: methods)
    }

    /// Calls `method` of the test object on the server.
    func call(
        _ method: String, _ arguments: [DBusValue] = [], timeout: Duration = .seconds(10)
    ) async throws -> [DBusValue] {
        try await client.call(
            destination: server.uniqueName, path: Self.path, interface: Self.interface, method: method,
            arguments: arguments, timeout: timeout)
    }
}

/// Runs `body`, failing with a test-plumbing error if it takes longer than `limit`.
func within<T: Sendable>(
    _ limit: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { .some(try await body()) }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw TestSupportError("\(what) did not finish within \(limit)")
        }
        return value
    }
}

/// The next element of `stream`, or a test error after `limit`.
func next(_ stream: AsyncStream<DBusSignal>, within limit: Duration = .seconds(10)) async throws
    -> DBusSignal?
{
    try await within(limit, "waiting for a signal") { () async -> DBusSignal? in
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()
    }
}

/// The error `body` throws, as a `DBusError` (nil if it did not throw one).
func dbusError(_ body: () async throws -> Void) async -> DBusError? {
    do {
        try await body()
        return nil
    } catch let error as DBusError {
        return error
    } catch {
        return DBusError(name: "not a DBusError", message: String(describing: error))
    }
}

/// A flag shared between a handler and the test.
final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
