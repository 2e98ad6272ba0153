import Foundation
import SimpleXDesktop

/// A real gnome-keyring Secret Service on a test's private bus, in its own temp home.
///
/// Recipe: with HOME, XDG_DATA_HOME, XDG_CONFIG_HOME, XDG_CACHE_HOME and XDG_RUNTIME_DIR (0700)
/// in a temp directory, DBUS_SESSION_BUS_ADDRESS set to the test bus and no DISPLAY:
/// 1. `gnome-keyring-daemon --foreground --login --components=secrets` with a password on stdin
///    (then EOF) creates and unlocks the login keyring (without `--login` it would want a GUI
///    prompt); kept in the foreground so the test owns, kills and reaps it. A daemonized one
///    inherits the spawner's exit-monitoring socket, so Foundation's Process never sees `sh` exit.
/// 2. Once `$XDG_RUNTIME_DIR/keyring/control` exists, `gnome-keyring-daemon --start
///    --components=secrets` asks that daemon to start its secrets component, which then takes
///    `org.freedesktop.secrets` (started earlier, it would launch a second, locked daemon).
public final class TestKeyring: Sendable {
    public let bus: TestBus
    public let home: TemporaryDirectory
    public let connection: DBusConnection
    /// The environment the daemon runs with: the test bus and the temp home directories.
    public let environment: [String: String?]
    private let daemon: ChildProcess

    public init() async throws {
        bus = try await TestBus()
        home = try TemporaryDirectory("keyring")
        var environment = bus.environment
        for (name, directory) in [
            ("HOME", "home"), ("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"),
            ("XDG_CACHE_HOME", "cache"), ("XDG_RUNTIME_DIR", "runtime"),
        ] {
            let path = home.appending(directory)
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            environment[name] = path
        }
        self.environment = environment
        daemon = try ChildProcess(
            "/usr/bin/gnome-keyring-daemon", ["--foreground", "--login", "--components=secrets"],
            environment: environment)
        daemon.send("test-password")
        daemon.closeInput()

        let control = home.appending("runtime/keyring/control")
        try await Self.waitUntil("gnome-keyring's control socket", daemon) {
            FileManager.default.fileExists(atPath: control)
        }
        let start = try ChildProcess(
            "/usr/bin/gnome-keyring-daemon", ["--start", "--components=secrets"], environment: environment)
        let status = try await start.wait(timeout: .seconds(20))
        guard status == 0 else {
            throw TestSupportError("gnome-keyring-daemon --start failed (\(status)): \(start.allErrors)")
        }
        connection = try await DBusConnection(address: bus.address)
        let connection = self.connection
        try await Self.waitUntil("org.freedesktop.secrets to be owned", daemon) {
            try await connection.nameHasOwner(SecretServiceClient.busName)
        }
    }

    /// Stops the keyring daemon: the Secret Service leaves the bus.
    public func stop() async throws {
        // SIGKILL: children of the test runner start with SIGTERM blocked.
        daemon.kill(SIGKILL)
        try await daemon.wait(timeout: .seconds(20))
    }

    /// Calls the Secret Service directly, for set-up and checks the client does not offer.
    public func service(
        _ path: String, _ interface: String, _ method: String, _ arguments: [DBusValue] = []
    ) async throws -> [DBusValue] {
        try await connection.call(
            destination: SecretServiceClient.busName, path: path, interface: interface, method: method,
            arguments: arguments, timeout: .seconds(10))
    }

    private static func waitUntil(
        _ what: String, _ daemon: ChildProcess, _ condition: () async throws -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while try await !condition() {
            guard daemon.isRunning, ContinuousClock.now < deadline else {
                throw TestSupportError("gave up waiting for \(what): \(daemon.allErrors)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    deinit { connection.close() }
}
