import Foundation

/// A private D-Bus session bus for one test: its own `dbus-daemon` on a socket in a temp
/// directory. Tests pass `address` to the code under test and to child processes
/// (`DBUS_SESSION_BUS_ADDRESS`), so tests on different buses run in parallel.
public final class TestBus: Sendable {
    public let address: String
    public let directory: TemporaryDirectory
    private let daemon: ChildProcess

    public init() async throws {
        StrayChildren.reapOnce()
        directory = try TemporaryDirectory("bus")
        daemon = try ChildProcess(
            "/usr/bin/dbus-daemon",
            [
                "--session", "--nofork", "--nopidfile", "--print-address=1",
                "--address=unix:path=\(directory.path)/bus",
            ])
        address = try await daemon.line(timeout: .seconds(10)) { $0.hasPrefix("unix:") }
    }

    /// The environment a child process needs to use this bus as its session bus.
    public var environment: [String: String?] {
        ["DBUS_SESSION_BUS_ADDRESS": address, "DISPLAY": nil, "WAYLAND_DISPLAY": nil]
    }

    // SIGKILL: children of the test runner start with SIGTERM blocked.
    deinit { daemon.kill(SIGKILL) }
}
