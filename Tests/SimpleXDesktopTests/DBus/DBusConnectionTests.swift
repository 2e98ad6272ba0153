import Foundation
import SimpleXDesktop
import Synchronization
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1)))
struct DBusConnectionTests {
    @Test func aSecondOwnerIsRefusedWithNameTakenInsteadOfQueueing() async throws {
        let pair = try await DBusPair()
        try await pair.server.requestName("chat.simplex.Chat")
        try await pair.server.requestName("chat.simplex.Chat")  // asking again as the owner is fine

        let error = await dbusError { try await pair.client.requestName("chat.simplex.Chat") }
        #expect(error?.name == "chat.simplex.Error.NameTaken")
        #expect(error?.message.contains("chat.simplex.Chat") == true)

        // Not queued: when the owner releases the name, nobody inherits it.
        try await pair.server.releaseName("chat.simplex.Chat")
        #expect(try await pair.client.nameHasOwner("chat.simplex.Chat") == false)
        try await pair.client.requestName("chat.simplex.Chat")
        #expect(try await pair.server.nameHasOwner("chat.simplex.Chat"))
    }

    @Test func aCallTimesOutWhileTheHandlerIsStillRunning() async throws {
        let pair = try await DBusPair()
        let started = Flag()
        let finished = Flag()
        try pair.export([
            "Slow": { _ in
                started.set()
                try? await Task.sleep(for: .seconds(20))
                finished.set()
                return []
            }
        ])
        let error = await dbusError { _ = try await pair.call("Slow", timeout: .milliseconds(300)) }
        #expect(error?.name == "chat.simplex.Error.Timeout")
        #expect(started.isSet)
        #expect(!finished.isSet)
        // A late reply does not disturb later calls.
        try pair.export(["Fast": { _ in [.bool(true)] }])
        #expect(try await pair.call("Fast") == [.bool(true)])
    }

    @Test func handlerErrorsArriveWithTheirNames() async throws {
        let pair = try await DBusPair()
        struct Oops: Error, CustomStringConvertible { var description: String { "oops happened" } }
        try pair.export([
            "NotFound": { _ in throw DBusError(name: "chat.simplex.Error.ChatNotFound", message: "no chat #7")
            },
            "Oops": { _ in throw Oops() },
            "TakesString": { call in [try call.arguments(matching: "s")[0]] },
        ])
        let notFound = await dbusError { _ = try await pair.call("NotFound") }
        #expect(notFound == DBusError(name: "chat.simplex.Error.ChatNotFound", message: "no chat #7"))

        let oops = await dbusError { _ = try await pair.call("Oops") }
        #expect(oops == DBusError(name: "chat.simplex.Error.Failed", message: "oops happened"))

        let wrongArgs = await dbusError { _ = try await pair.call("TakesString", [.uint32(1)]) }
        #expect(wrongArgs?.name == "chat.simplex.Error.InvalidArgs")
        #expect(try await pair.call("TakesString", [.string("ok")]) == [.string("ok")])

        let unknown = await dbusError { _ = try await pair.call("NoSuchMethod") }
        #expect(unknown?.name == "org.freedesktop.DBus.Error.UnknownMethod")
    }

    @Test func callingANameNobodyOwnsFailsAtOnce() async throws {
        let pair = try await DBusPair()
        let error = await dbusError {
            _ = try await pair.client.call(
                destination: "chat.simplex.Nobody", path: "/chat/simplex/Nobody",
                interface: "chat.simplex.Nobody1", method: "Hello", timeout: .seconds(30))
        }
        // Well inside the 30 s timeout: the bus answers for the missing owner.
        #expect(error?.name == DBusError.serviceUnknownName)
    }

    @Test func peerAndIntrospectionAreAnswered() async throws {
        let pair = try await DBusPair()
        try pair.export(["Hello": { _ in [] }])
        let ping = try await pair.client.call(
            destination: pair.server.uniqueName, path: "/anything", interface: "org.freedesktop.DBus.Peer",
            method: "Ping")
        #expect(ping == [])
        let xml = try await pair.client.call(
            destination: pair.server.uniqueName, path: "/chat/simplex",
            interface: "org.freedesktop.DBus.Introspectable", method: "Introspect")
        #expect(xml.first?.string?.contains("<node name=\"Test\"/>") == true)
        let object = try await pair.client.call(
            destination: pair.server.uniqueName, path: DBusPair.path,
            interface: "org.freedesktop.DBus.Introspectable", method: "Introspect")
        #expect(
            object.first?.string?.contains("<interface name=\"chat.simplex.Test1\"><method name=\"Hello\"/>")
                == true)
    }

    @Test func manyConcurrentCallsAreAllInFlightAtOnce() async throws {
        // 200 calls whose handlers each wait until all 200 have arrived: this completes only if
        // no caller or handler holds a cooperative thread while waiting (the pool has ~2 threads).
        let pair = try await DBusPair()
        let count = 200
        let arrived = Atomic<Int>(0)
        try pair.export([
            "Gather": { call in
                arrived.add(1, ordering: .relaxed)
                while arrived.load(ordering: .relaxed) < count { try await Task.sleep(for: .milliseconds(5)) }
                return call.arguments
            }
        ])
        let replies = try await withThrowingTaskGroup(of: (Int, [DBusValue]).self) { group in
            for i in 0..<count {
                group.addTask {
                    (i, try await pair.call("Gather", [.int32(Int32(i))], timeout: .seconds(30)))
                }
            }
            var replies: [Int: [DBusValue]] = [:]
            for try await (i, reply) in group { replies[i] = reply }
            return replies
        }
        #expect(replies.count == count)
        #expect(replies.allSatisfy { $0.value == [.int32(Int32($0.key))] })
    }

    @Test func cancellingTheCallingTaskEndsTheCall() async throws {
        let pair = try await DBusPair()
        let started = Flag()
        try pair.export([
            "Slow": { _ in
                started.set(); try await Task.sleep(for: .seconds(20)); return []
            }
        ])
        let call = Task { await dbusError { _ = try await pair.call("Slow", timeout: .seconds(30)) } }
        while !started.isSet { try await Task.sleep(for: .milliseconds(5)) }
        call.cancel()
        #expect(await call.value?.name == "chat.simplex.Error.Cancelled")
    }

    @Test func closeFailsPendingCallsAndLaterOnes() async throws {
        let pair = try await DBusPair()
        let started = Flag()
        try pair.export([
            "Slow": { _ in
                started.set(); try await Task.sleep(for: .seconds(20)); return []
            }
        ])
        let signals = try await pair.client.signals(interface: DBusPair.interface)
        let call = Task { await dbusError { _ = try await pair.call("Slow", timeout: .seconds(30)) } }
        while !started.isSet { try await Task.sleep(for: .milliseconds(5)) }
        pair.client.close()
        #expect(await call.value?.name == "chat.simplex.Error.Disconnected")
        #expect(try await next(signals) == nil)  // the stream finished
        #expect(!pair.client.isConnected)
        let later = await dbusError { _ = try await pair.call("Slow") }
        #expect(later?.name == "chat.simplex.Error.Disconnected")
    }

    @Test func aPendingCallFailsWithDisconnectedWhenTheBusDies() async throws {
        // Our own daemon, so the test can kill it.
        let directory = try TemporaryDirectory("bus")
        let daemon = try ChildProcess(
            "/usr/bin/dbus-daemon",
            [
                "--session", "--nofork", "--nopidfile", "--print-address=1",
                "--address=unix:path=\(directory.path)/bus",
            ])
        let address = try await daemon.line(timeout: .seconds(10)) { $0.hasPrefix("unix:") }
        let server = try await DBusConnection(address: address)
        let client = try await DBusConnection(address: address)
        let started = Flag()
        try server.export(
            path: "/t", interface: "chat.simplex.T1",
            methods: [
                "Slow": { _ in
                    started.set(); try await Task.sleep(for: .seconds(30)); return []
                }
            ])
        let call = Task {
            await dbusError {
                _ = try await client.call(
                    destination: server.uniqueName, path: "/t", interface: "chat.simplex.T1", method: "Slow",
                    timeout: .seconds(40))
            }
        }
        while !started.isSet { try await Task.sleep(for: .milliseconds(5)) }
        daemon.kill(SIGKILL)
        let error = try await within(.seconds(10), "the pending call") { await call.value }
        #expect(error?.name == "chat.simplex.Error.Disconnected")
        #expect(!client.isConnected)
    }

    @Test func sessionFailsWithNoBusWithoutAnAddress() async throws {
        let peer = try ChildProcess(
            BuiltProducts.path("simplex-test-peer"), ["dbus", "-", "session"],
            environment: ["DBUS_SESSION_BUS_ADDRESS": nil])
        let line = try await peer.line { $0.hasPrefix("error") || $0.hasPrefix("connected") }
        #expect(line == "error chat.simplex.Error.NoBus")
        #expect(try await peer.wait() == 0)
    }
}
