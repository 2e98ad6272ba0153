import Foundation
import SimpleXChat
import SimpleXDesktop
import SimpleXSystem
import Testing
import TestSupport

/// The built `simplex-nse` and `simplex-chat --cli` of one user, a peer, the real relay, a private
/// session bus and python3-dbusmock's notification server: what the user sees while the client
/// is closed, and the handoff when it opens and quits.
@Suite(.timeLimit(.minutes(3)))
struct NotificationServiceEndToEndTests {
    /// A private bus (with the notification server mock unless `notificationServer` is false), the
    /// relay, and Alice (on the bus) and Bob (without one) connected, with Alice's client closed.
    struct Users {
        let bus: TestBus
        let server: MockNotificationServer?
        let relay: RelayProcess
        let alice: TemporaryDirectory
        let bob: CLIUser

        init(notificationServer: Bool = true) async throws {
            bus = try await TestBus()
            server = notificationServer ? try await MockNotificationServer(on: bus) : nil
            relay = try await RelayProcess()
            let client = try await CLIUser("alice", relay: relay, bus: bus)
            bob = try await CLIUser("bob", relay: relay)
            try await CLIUser.connect(client, bob)
            try await client.quit()
            alice = client.directory
        }

        /// Alice's notification service, started; `state` is where it should settle.
        func service(reaching state: NSEState = .active) async throws -> ServiceProcess {
            let service = try await ServiceProcess(for: alice, bus: bus)
            try await service.reach(state)
            return service
        }

        /// Alice's line mode, on the bus.
        func client() async throws -> CLIUser {
            try await CLIUser("alice", relay: relay, directory: alice, bus: bus)
        }

        /// `simplex-chat -e <command>` as Alice, on the bus.
        func execute(_ command: String) async throws -> ChildProcess {
            let process = try ChildProcess(
                try BuiltProducts.path("simplex-chat"), ["-e", command], environment: CLIUser.environment(alice, bus: bus))
            _ = try await process.wait()
            return process
        }

        var defaults: GroupDefaults {
            get throws { GroupDefaults(container: try GroupContainer(path: alice.appending("group"))) }
        }

        var notifications: MockNotificationServer {
            get throws { try server ?? { throw TestSupportError("no notification server in this test") }() }
        }
    }

    @Test func whileTheClientIsClosedMessagesAreNotifiedAsThePreviewModeAllows() async throws {
        let users = try await Users()
        let (alice, bob, server) = (users.alice, users.bob, try users.notifications)
        let service = try await users.service()
        #expect(try users.defaults[.nseState] == .active)

        bob.send("@alice hello from bob")
        let first = try #require(try await server.notifyCalls(atLeast: 1).first)
        #expect(first.appName == "SimpleX Chat")
        #expect(first.summary == "bob:")
        #expect(first.body == "hello from bob")
        #expect(first.replacesID == 0)
        #expect(first.hints["category"] == "s:im.received")
        #expect(first.hints["desktop-entry"] == "s:simplex-chat")

        // The preview mode is read for each notification; the chat's notification is replaced.
        try users.defaults.set(.ntfPreviewMode, .contact)
        bob.send("@alice the second one")
        let second = try await server.notifyCalls(atLeast: 2)[1]
        #expect(second.summary == "bob:")
        #expect(second.body == "new message")
        #expect(second.replacesID != 0)

        try users.defaults.set(.ntfPreviewMode, .hidden)
        bob.send("@alice the third one")
        let third = try await server.notifyCalls(atLeast: 3)[2]
        #expect(third.summary == "Contact hidden:")
        #expect(third.body == "new message")
        #expect(!"\(third)".contains("bob"))

        #expect(try await service.stop() == 0)
        // The service's log has no message text and no names.
        let log = service.process.allErrors.joined(separator: "\n")
        for secret in ["hello from bob", "second one", "third one", "bob"] { #expect(!log.contains(secret)) }
        #expect(try users.defaults[.nseState] == .suspended)
        try await bob.quit()
    }

    @Test func theClientTakesTheChatOverAndHandsItBackOnQuit() async throws {
        let users = try await Users()
        let (alice, bob, server) = (users.alice, users.bob, try users.notifications)
        let service = try await users.service()

        // The client suspends the service and receives itself: nothing is notified meanwhile.
        let client = try await users.client()
        #expect(await service.state() == NSEState.suspended.rawValue)
        #expect(try users.defaults[.appState] == .active)
        bob.send("@alice while your client runs")
        try await client.expectLine(#"\d\d:\d\d bob> while your client runs"#)
        #expect(try await server.notifyCalls().isEmpty)

        // On quit the client resumes the service, which receives again.
        try await client.quit()
        try await service.reach(.active)
        #expect(try users.defaults[.appState] == .suspended)
        bob.send("@alice after your client quit")
        let calls = try await server.notifyCalls(atLeast: 1)
        #expect(calls.map(\.body) == ["after your client quit"])

        // -e runs the same handshake, so a script works while the service runs.
        let execute = try await users.execute("/u")
        #expect(try await execute.wait() == 0, "\(execute.allErrors)")
        #expect(execute.allOutput.first?.contains(#""type":"activeUser""#) == true)
        try await service.reach(.active)
        #expect(try await service.stop() == 0)
        try await bob.quit()
    }

    @Test func aClientKilledWithSIGKILLIsTakenOverByTheService() async throws {
        let users = try await Users()
        let (bob, server) = (users.bob, try users.notifications)
        let client = try await users.client()
        // The service finds the client running the chat and waits.
        let service = try await users.service(reaching: .suspended)

        client.process.kill(SIGKILL)
        _ = try await client.process.wait()
        try await service.reach(.active)
        bob.send("@alice after the crash")
        #expect(try await server.notifyCalls(atLeast: 1).map(\.body) == ["after the crash"])
        #expect(try await service.stop() == 0)
        try await bob.quit()
    }

    @Test func withoutANotificationServerItKeepsReceivingAndSaysSoOnce() async throws {
        let users = try await Users(notificationServer: false)
        let (alice, bob) = (users.alice, users.bob)
        let service = try await users.service()
        bob.send("@alice first while nobody shows notifications")
        bob.send("@alice second while nobody shows notifications")
        #expect(
            await eventually {
                service.process.allErrors.contains { $0.contains("cannot show notifications") }
            })
        #expect(try await service.stop() == 0)
        #expect(service.process.allErrors.filter { $0.contains("cannot show notifications") }.count == 1)
        // Both were received and stored: the chat has them.
        let chat = try await users.execute("/_get chat @1 count=10")
        #expect(try await chat.wait() == 0, "\(chat.allErrors)")
        let items = chat.allOutput.joined()
        for text in ["first while nobody", "second while nobody"] { #expect(items.contains(text)) }
        try await bob.quit()
    }

    @Test func aSecondServiceSaysWhichOneRunsAndExits() async throws {
        let users = try await Users()
        let (alice, bob) = (users.alice, users.bob)
        let service = try await users.service()
        let second = try ChildProcess(
            try BuiltProducts.path("simplex-nse"), [], environment: CLIUser.environment(alice, bus: users.bus))
        #expect(try await second.wait() == 1)
        #expect(
            second.allErrors
                == ["simplex-nse: already running (pid \(service.process.pid)) for \(alice.appending("group"))"])
        #expect(await service.state() == NSEState.active.rawValue)
        #expect(try await service.stop() == 0)
        try await bob.quit()
    }

    @Test func aLockHeldByAProcessThatIgnoresSuspendIsNamedAfterABoundedWait() async throws {
        let users = try await Users(notificationServer: false)
        let (alice, bob) = (users.alice, users.bob)
        // Something holds core.lock and answers no Suspend (a hung service).
        let lock = try #require(try FileLock.attempt(path: alice.appending("group/core.lock")))
        lock.recordHolder()
        let execute = try await users.execute("/u")
        #expect(try await execute.wait() == 1)
        let holder = "core.lock is held by pid \(getpid())"
        #expect(execute.allErrors.count == 1 && execute.allErrors[0].contains(holder), "\(execute.allErrors)")
        #expect(execute.allOutput.isEmpty)
        lock.unlock()
        try await bob.quit()
    }
}
