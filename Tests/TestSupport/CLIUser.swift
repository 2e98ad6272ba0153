import Foundation

/// A user of `simplex-chat --cli` in its own process and group directory.
public final class CLIUser: Sendable {
    public let directory: TemporaryDirectory
    public let process: ChildProcess
    public let name: String

    /// Starts the line mode for `name` (answering the first run's prompt); with `bus`, on that
    /// session bus (the notification service's handshake), else with none; `arguments` follow
    /// `--cli -s <relay>` (a link to connect to).
    public convenience init(
        _ name: String, relay: RelayProcess, directory: TemporaryDirectory? = nil, bus: TestBus? = nil,
        arguments: [String] = []
    ) async throws {
        try await self.init(name, relayAddress: relay.address, directory: directory, bus: bus, arguments: arguments)
    }

    /// As above, with a relay given by its address (one the test did not start itself).
    public init(
        _ name: String, relayAddress: String, directory: TemporaryDirectory? = nil, bus: TestBus? = nil,
        arguments: [String] = []
    ) async throws {
        self.name = name
        let directory = try directory ?? TemporaryDirectory("cli-\(name)")
        self.directory = directory
        process = try ChildProcess(
            try BuiltProducts.path("simplex-chat"), ["--cli", "-s", relayAddress] + arguments,
            environment: Self.environment(directory, bus: bus))
        let first = try await process.line(timeout: .seconds(30)) {
            $0.hasPrefix("No user profile yet") || $0.hasPrefix("Current user")
        }
        if first.hasPrefix("No user") {
            // The first run asks for a display name.
            process.send(name)
            _ = try await process.line(timeout: .seconds(30)) { $0 == "Current user: \(name)" }
        } else if first != "Current user: \(name)" {
            throw TestSupportError("\(name)'s client started as \(first)")
        }
    }

    /// The user's group and config directories; no session bus unless `bus` (without one, the
    /// keychain falls back to its key file; on a bus without a Secret Service, too).
    public static func environment(_ directory: TemporaryDirectory, bus: TestBus? = nil) -> [String: String?] {
        [
            "SIMPLEX_GROUP_DIR": directory.appending("group"),
            "XDG_CONFIG_HOME": directory.appending("config"),
            "DBUS_SESSION_BUS_ADDRESS": bus?.address, "DISPLAY": nil, "WAYLAND_DISPLAY": nil, "TZ": "UTC",
        ]
    }

    public func send(_ line: String) { process.send(line) }

    /// The next printed line containing `text` (earlier lines are passed over).
    @discardableResult
    public func expect(_ text: String, timeout: Duration = .seconds(30)) async throws -> String {
        try await process.line(timeout: timeout) { $0.contains(text) }
    }

    /// The next printed line matching `pattern` (a regular expression), whole.
    @discardableResult
    public func expectLine(_ pattern: String, timeout: Duration = .seconds(30)) async throws -> String {
        _ = try Regex(pattern)  // a malformed pattern fails here, not as a timeout
        return try await process.line(timeout: timeout) { line in
            (try? Regex(pattern)).map { line.wholeMatch(of: $0) != nil } ?? false
        }
    }

    /// `/q`, and the client exits with status 0.
    public func quit() async throws {
        process.send("/q")
        let status = try await process.wait(timeout: .seconds(30))
        guard status == 0 else { throw TestSupportError("\(name)'s client exited \(status) on /q: \(process.allErrors)") }
    }

    /// Connects two users through an invitation, as they would type it.
    public static func connect(_ alice: CLIUser, _ bob: CLIUser) async throws {
        alice.send("/c")
        let link = try await alice.expect("simplex:/invitation#/?v=")
        bob.send("/c \(link)")
        try await bob.expect("connection request sent!")
        try await alice.expectLine("\(bob.name): contact is connected")
        try await bob.expectLine("\(alice.name): contact is connected")
    }
}
