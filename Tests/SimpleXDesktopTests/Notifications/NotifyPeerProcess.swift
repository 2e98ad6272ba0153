import Foundation
import SimpleXDesktop
import TestSupport

/// `simplex-test-peer notify` on a test's bus: the presenter in its own process, because libnotify and
/// GDBus bind to DBUS_SESSION_BUS_ADDRESS once per process.
struct NotifyPeerProcess {
    let child: ChildProcess

    init(bus: TestBus, arguments: [String] = []) throws {
        child = try ChildProcess(
            try BuiltProducts.path("simplex-test-peer"), ["notify"] + arguments, environment: bus.environment)
    }

    var pid: Int32 { child.pid }

    /// Sends one command and returns its result line (event lines stay in `allOutput`).
    func request(_ command: String) async throws -> String {
        child.send(command)
        return try await child.line { !Self.isEvent($0) }
    }

    func show(_ notification: DesktopNotification) async throws -> String {
        try await request("show \(try Self.json(notification))")
    }

    func replace(_ id: UInt32, with notification: DesktopNotification) async throws -> String {
        try await request("replace \(id) \(try Self.json(notification))")
    }

    /// Waits until the peer has printed the event line `line`.
    func waitForEvent(_ line: String, timeout: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !events.contains(line) {
            if ContinuousClock.now > deadline {
                throw TestSupportError("no event \(line.debugDescription); output: \(child.allOutput)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The event lines printed so far.
    var events: [String] { child.allOutput.filter(Self.isEvent) }

    private static func isEvent(_ line: String) -> Bool {
        line.hasPrefix("action ") || line.hasPrefix("closed ")
    }

    private static func json(_ notification: DesktopNotification) throws -> String {
        String(decoding: try JSONEncoder().encode(notification), as: UTF8.self)
    }
}
