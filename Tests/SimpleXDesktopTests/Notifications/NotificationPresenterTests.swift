import Foundation
import SimpleXDesktop
import TestSupport
import Testing

/// The presenter in a child process against python3-dbusmock's notification server, each test on its own
/// private bus; asserts what the server received and what the peer reports.
@Suite struct NotificationPresenterTests {
    static let message = DesktopNotification(
        summary: "Alice", body: "see <b>this</b> & that > 2", icon: "simplex-chat", category: "im.received",
        desktopEntry: "simplex-chat", urgency: .normal,
        actions: [.default(label: "Open"), .init(id: "accept", label: "Accept")])

    @Test func showSendsTheExactNotifyArguments() async throws {
        let bus = try await TestBus()
        let server = try await MockNotificationServer(on: bus)
        let peer = try NotifyPeerProcess(bus: bus, arguments: ["--app-name", "SimpleX"])

        #expect(try await peer.show(Self.message) == "shown 1")

        let calls = try await server.notifyCalls()
        #expect(
            calls == [
                NotifyCall(
                    appName: "SimpleX", replacesID: 0, appIcon: "simplex-chat", summary: "Alice",
                    body: "see &lt;b&gt;this&lt;/b&gt; &amp; that &gt; 2",
                    actions: ["default", "Open", "accept", "Accept"],
                    hints: [
                        "category": "s:im.received", "desktop-entry": "s:simplex-chat", "urgency": "y:1",
                        "sender-pid": "x:\(peer.pid)",
                    ],
                    expireTimeout: -1)
            ])
    }

    @Test func bodyIsSentRawWhenTheServerDoesNotInterpretMarkup() async throws {
        let bus = try await TestBus()
        let server = try await MockNotificationServer(on: bus, capabilities: "body actions")
        let peer = try NotifyPeerProcess(bus: bus, arguments: ["--app-name", "SimpleX"])
        let quiet = DesktopNotification(
            summary: "Bob", body: "a <i>b</i> & c", urgency: .low, transient: true, resident: true,
            timeoutMs: 5000)

        #expect(try await peer.request("caps") == "caps body actions")
        #expect(try await peer.show(quiet) == "shown 1")

        let calls = try await server.notifyCalls()
        #expect(
            calls == [
                NotifyCall(
                    appName: "SimpleX", replacesID: 0, appIcon: "", summary: "Bob", body: "a <i>b</i> & c",
                    actions: [],
                    hints: [
                        "urgency": "y:0", "transient": "b:true", "resident": "b:true",
                        "sender-pid": "x:\(peer.pid)",
                    ],
                    expireTimeout: 5000)
            ])
    }

    @Test func replaceUpdatesTheSameNotification() async throws {
        let bus = try await TestBus()
        let server = try await MockNotificationServer(on: bus)
        let peer = try NotifyPeerProcess(bus: bus, arguments: ["--app-name", "SimpleX"])
        let update = DesktopNotification(
            summary: "Alice (2)", body: "2 new messages", category: "im.received",
            desktopEntry: "simplex-chat",
            urgency: .critical, actions: [.default(label: "Open")])

        #expect(try await peer.show(Self.message) == "shown 1")
        #expect(try await peer.replace(1, with: update) == "replaced 1")

        let calls = try await server.notifyCalls()
        try #require(calls.count == 2)
        #expect(calls[0].replacesID == 0)
        #expect(
            calls[1]
                == NotifyCall(
                    appName: "SimpleX", replacesID: 1, appIcon: "", summary: "Alice (2)",
                    body: "2 new messages",
                    actions: ["default", "Open"],
                    hints: [
                        "category": "s:im.received", "desktop-entry": "s:simplex-chat", "urgency": "y:2",
                        "sender-pid": "x:\(peer.pid)",
                    ],
                    expireTimeout: -1))
    }

    @Test func closeSendsCloseNotificationAndEndsTheHandle() async throws {
        let bus = try await TestBus()
        let server = try await MockNotificationServer(on: bus)
        let peer = try NotifyPeerProcess(bus: bus)

        #expect(try await peer.show(Self.message) == "shown 1")
        #expect(try await peer.show(Self.message) == "shown 2")
        #expect(try await peer.request("close 2") == "close-ok 2")
        #expect(try await peer.request("close 2") == "close-ok 2")  // already closed: nothing sent

        #expect(try await server.closeCalls() == [2])
        // The server answers CloseNotification with NotificationClosed; a closed handle reports nothing.
        #expect(try await peer.request("caps") == "caps body actions body-markup")
        #expect(peer.events == [])
    }

    @Test func actionClicksAreReported() async throws {
        let bus = try await TestBus()
        let server = try await MockNotificationServer(on: bus)
        let peer = try NotifyPeerProcess(bus: bus)

        #expect(try await peer.show(Self.message) == "shown 1")
        #expect(try await peer.show(Self.message) == "shown 2")
        try await server.emitActionInvoked(id: 2, action: "accept")
        try await peer.waitForEvent("action 2 accept")
        try await server.emitActionInvoked(id: 1, action: "default")
        try await peer.waitForEvent("action 1 default")

        #expect(peer.events == ["action 2 accept", "action 1 default"])
    }

    @Test func serverClosesAreReportedAndAClosedHandleIsShownAnew() async throws {
        let bus = try await TestBus()
        let server = try await MockNotificationServer(on: bus)
        let peer = try NotifyPeerProcess(bus: bus)

        #expect(try await peer.show(Self.message) == "shown 1")
        try await server.emitClosed(id: 1, reason: 2)
        try await peer.waitForEvent("closed 1 dismissed")
        #expect(try await peer.replace(1, with: Self.message) == "replaced 2")

        #expect(try await server.notifyCalls().map(\.replacesID) == [0, 0])
        #expect(peer.events == ["closed 1 dismissed"])
    }

    @Test func noServerIsReportedAtOnceAndThePresenterRecovers() async throws {
        let bus = try await TestBus()
        let peer = try NotifyPeerProcess(bus: bus)
        #expect(try await peer.request("caps").hasPrefix("error noServer "))  // the peer is up

        let started = ContinuousClock.now
        let failure = try await peer.show(Self.message)
        // A figure for the log, not an assertion (CONVENTIONS: tests never assert on wall-clock time).
        print("no notification server: show failed after \(ContinuousClock.now - started)")
        #expect(failure.hasPrefix("error noServer "), "\(failure)")
        #expect(try await peer.request("caps").hasPrefix("error noServer "))

        let server = try await MockNotificationServer(on: bus)
        #expect(try await peer.show(Self.message) == "shown 1")
        #expect(try await server.notifyCalls().count == 1)
    }

    @Test func aStuckServerTimesCallsOutWithoutDeadlock() async throws {
        let bus = try await TestBus()
        let server = try await MockNotificationServer(on: bus)
        let peer = try NotifyPeerProcess(bus: bus, arguments: ["--timeout-ms", "1500"])
        #expect(try await peer.request("caps") == "caps body actions body-markup")
        // Well past both 1.5 s deadlines, with room for a loaded machine (CI runs a thousand tests on
        // two cores): at 6 s the stall once ended before the second call reached the server.
        try await server.stallNextNotify(seconds: 15)

        let first = try await peer.show(DesktopNotification(summary: "first"))
        #expect(first.hasPrefix("error timedOut "), "\(first)")
        // Queued behind the stuck call: it times out too, and is dropped rather than sent late.
        let second = try await peer.show(DesktopNotification(summary: "second"))
        #expect(second.hasPrefix("error timedOut "), "\(second)")

        // When the stuck call finally returns, the notification nobody holds is withdrawn.
        let deadline = ContinuousClock.now + .seconds(40)
        while try await server.closeCalls() != [1] {
            try #require(ContinuousClock.now < deadline, "the late notification was not closed")
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try await peer.show(DesktopNotification(summary: "third")) == "shown 2")
        #expect(try await server.notifyCalls().map(\.summary) == ["first", "third"])
    }

    @Test func noSessionBusAtAllIsNoServer() async throws {
        let directory = try TemporaryDirectory("nobus")
        let child = try ChildProcess(
            try BuiltProducts.path("simplex-test-peer"), ["notify"],
            environment: [
                "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(directory.appending("missing-bus"))", "DISPLAY": nil,
                "WAYLAND_DISPLAY": nil,
            ])
        child.send(
            "show {\"summary\":\"Alice\",\"body\":\"\",\"urgency\":\"normal\",\"actions\":[],"
                + "\"transient\":false,\"resident\":false,\"timeoutMs\":-1}")
        let failure = try await child.line()
        #expect(failure.hasPrefix("error noServer connecting to the session bus: "), "\(failure)")
        child.send("caps")
        #expect(try await child.line().hasPrefix("error noServer "))
        child.closeInput()
        #expect(try await child.wait() == 0)
    }
}
