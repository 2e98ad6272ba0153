import Foundation
import SimpleXChat
import SimpleXDesktop
import TestSupport

/// A user's `simplex-nse` process on a test's private bus, and a connection of the test's own to
/// ask it what it is doing.
final class ServiceProcess: Sendable {
    let process: ChildProcess
    let names: CoordinationNames
    private let connection: DBusConnection

    /// Starts the service for the user in `directory` (a `CLIUser`'s), on `bus`, with `extra`
    /// environment (the terminal it opens chats in), and `arguments` (`--once`).
    init(
        for directory: TemporaryDirectory, bus: TestBus, arguments: [String] = [], extra: [String: String?] = [:]
    ) async throws {
        let environment = CLIUser.environment(directory, bus: bus).merging(extra) { $1 }
        process = try ChildProcess(try BuiltProducts.path("simplex-nse"), arguments, environment: environment)
        names = try Self.names(directory)
        connection = try await DBusConnection(address: bus.address)
    }

    /// The bus names of the user whose group directory is in `directory`.
    static func names(_ directory: TemporaryDirectory) throws -> CoordinationNames {
        let path = directory.appending("group")
        return CoordinationNames(
            container: try GroupContainer(path: path), environment: ["SIMPLEX_GROUP_DIR": path, "HOME": "/root"])
    }

    /// The service's `GetState`, or nil while it is not on the bus.
    func state() async -> String? {
        let reply = try? await connection.call(
            destination: names.service, path: CoordinationNames.servicePath,
            interface: CoordinationNames.serviceInterface, method: "GetState", timeout: .seconds(5))
        return reply?.first?.string
    }

    /// Waits until `GetState` answers `state`.
    func reach(_ state: NSEState, timeout: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if await self.state() == state.rawValue { return }
            guard process.isRunning else { throw TestSupportError("simplex-nse exited: \(process.allErrors)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestSupportError("simplex-nse did not reach \(state) (it is \(await self.state() ?? "off the bus")): \(process.allErrors)")
    }

    /// SIGTERM, and the exit status.
    func stop() async throws -> Int32 {
        process.kill(SIGTERM)
        defer { connection.close() }
        return try await process.wait(timeout: .seconds(30))
    }
}
