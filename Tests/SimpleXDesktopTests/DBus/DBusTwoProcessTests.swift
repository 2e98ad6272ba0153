import Foundation
import SimpleXDesktop
import Synchronization
import TestSupport
import Testing

/// The test process and `simplex-test-peer dbus` (a separate process) call each other on a
/// private bus.
@Suite(.timeLimit(.minutes(1)))
struct DBusTwoProcessTests {
    @Test func twoProcessesCallEachOtherAndExchangeSignals() async throws {
        let bus = try await TestBus()
        let peer = try ChildProcess(
            BuiltProducts.path("simplex-test-peer"), ["dbus", bus.address, "serve"],
            environment: bus.environment)
        let ready = try await peer.line(timeout: .seconds(20)) { $0.hasPrefix("ready ") }
        let peerUniqueName = String(ready.dropFirst("ready ".count))

        let connection = try await DBusConnection(address: bus.address)
        let callers = Mutex<[String]>([])
        try connection.export(
            path: "/chat/simplex/TestClient", interface: "chat.simplex.TestClient1",
            methods: [
                "Greeting": { call in
                    callers.withLock { $0.append(call.sender) }
                    return [.string("hello from the test")]
                }
            ])
        try await connection.requestName("chat.simplex.TestClient")
        #expect(try await connection.nameHasOwner("chat.simplex.TestPeer"))
        let combined = try await connection.signals(
            interface: "chat.simplex.TestPeer1", member: "Combined", sender: "chat.simplex.TestPeer")

        // The peer calls back into this process before it answers.
        let reply = try await connection.call(
            destination: "chat.simplex.TestPeer", path: "/chat/simplex/TestPeer",
            interface: "chat.simplex.TestPeer1", method: "Combine",
            arguments: [.string("chat.simplex.TestClient"), .string("and the peer")], timeout: .seconds(10))
        #expect(reply == [.string("hello from the test and the peer")])
        #expect(callers.withLock { $0 } == [peerUniqueName])

        let signal = try #require(try await next(combined))
        #expect(signal.arguments == [.string("hello from the test and the peer")])
        #expect(signal.sender == peerUniqueName)

        // Values cross the process boundary intact.
        let values = DBusValueTests.everyType
        let echoed = try await connection.call(
            destination: "chat.simplex.TestPeer", path: "/chat/simplex/TestPeer",
            interface: "chat.simplex.TestPeer1", method: "Echo", arguments: values)
        #expect(echoed == values)

        // The peer's name is not ours to take.
        let taken = await dbusError { try await connection.requestName("chat.simplex.TestPeer") }
        #expect(taken?.name == "chat.simplex.Error.NameTaken")

        // When the peer exits, its name is free.
        peer.send("quit")
        #expect(try await peer.wait(timeout: .seconds(10)) == 0)
        #expect(try await connection.nameHasOwner("chat.simplex.TestPeer") == false)
    }
}
