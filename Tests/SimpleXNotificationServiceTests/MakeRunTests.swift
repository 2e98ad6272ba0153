import Foundation
import SimpleXChat
import SimpleXDesktop
import Testing
import TestSupport

/// `make run`'s script on a fresh home: the local relay, the notification service and the client;
/// after the client quits, the service receives and notifies; `make stop` ends them.
@Suite(.timeLimit(.minutes(3)))
struct MakeRunTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Services/Relay/run-local.sh").standardized.path

    @Test func makeRunStartsRelayServiceAndClientAndTheServiceReceivesAfterQuit() async throws {
        let home = try TemporaryDirectory("make-run-home")
        let bus = try await TestBus()
        let server = try await MockNotificationServer(on: bus)
        let environment: [String: String?] = [
            "HOME": home.path, "XDG_DATA_HOME": home.appending("data"), "XDG_CONFIG_HOME": home.appending("config"),
            "SIMPLEX_GROUP_DIR": nil, "DBUS_SESSION_BUS_ADDRESS": bus.address, "DISPLAY": nil, "WAYLAND_DISPLAY": nil,
            "SIMPLEX_LOCAL_RELAY_PORT": String(try freeLoopbackPort()), "TZ": "UTC",
        ]
        let run = try ChildProcess("/bin/bash", [Self.script, BuiltProducts.directory], environment: environment)
        _ = try await run.line(timeout: .seconds(30)) { $0.hasPrefix("No user profile yet") }
        run.send("alice")
        let using = try await run.line(timeout: .seconds(30)) { $0.hasPrefix("Using the local relay ") }
        let address = try #require(using.firstMatch(of: /smp:\/\/\S+/)).output
        _ = try await run.line(timeout: .seconds(30)) { $0 == "Current user: alice" }
        run.send("/c")
        let link = try await run.line(timeout: .seconds(30)) { $0.hasPrefix("simplex:/invitation#/?v=") }
        let bob = try await CLIUser("bob", relayAddress: String(address))
        bob.send("/c \(link)")
        try await bob.expectLine("alice: contact is connected")
        run.send("/q")
        #expect(try await run.wait() == 0, "\(run.allErrors)")
        #expect(run.allOutput.last?.hasPrefix("make run: the notification service (pid ") == true, "\(run.allOutput.suffix(3))")

        // The client is closed; the service it started receives and notifies.
        bob.send("@alice are you still there?")
        #expect(try await server.notifyCalls(atLeast: 1).map(\.body) == ["are you still there?"])
        let connection = try await DBusConnection(address: bus.address)
        defer { connection.close() }
        #expect(try await connection.nameHasOwner(CoordinationNames.defaultService))

        let stop = try ChildProcess("/bin/bash", [Self.script, BuiltProducts.directory, "--stop"], environment: environment)
        #expect(try await stop.wait() == 0)
        #expect(stop.allOutput.count == 2, "\(stop.allOutput)")
        #expect(await eventually { (try? await connection.nameHasOwner(CoordinationNames.defaultService)) == false })
        try await bob.quit()
    }
}
