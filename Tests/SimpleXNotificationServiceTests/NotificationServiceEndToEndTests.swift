import Foundation
import SimpleXChat
import SimpleXCrypto
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

        /// `capabilities`: what the notification server says it can do (the mock's default: body,
        /// actions, body-markup).
        init(notificationServer: Bool = true, capabilities: String? = nil) async throws {
            bus = try await TestBus()
            if !notificationServer {
                server = nil
            } else if let capabilities {
                server = try await MockNotificationServer(on: bus, capabilities: capabilities)
            } else {
                server = try await MockNotificationServer(on: bus)
            }
            relay = try await RelayProcess()
            let client = try await CLIUser("alice", relay: relay, bus: bus)
            bob = try await CLIUser("bob", relay: relay)
            try await CLIUser.connect(client, bob)
            try await client.quit()
            alice = client.directory
        }

        /// Alice's notification service, started; `state` is where it should settle.
        func service(reaching state: NSEState = .active, extra: [String: String?] = [:]) async throws
            -> ServiceProcess
        {
            let service = try await ServiceProcess(for: alice, bus: bus, extra: extra)
            try await service.reach(state)
            return service
        }

        /// `simplex-nse --once` as Alice, run to its end; `linger` seconds for a click afterwards.
        func once(linger: Int = 0) async throws -> ChildProcess {
            let process = try ChildProcess(
                try BuiltProducts.path("simplex-nse"), ["--once", "--linger", String(linger)],
                environment: CLIUser.environment(alice, bus: bus))
            _ = try await process.wait(timeout: .seconds(60))
            return process
        }

        /// The relay's statistics line, asked for now.
        func relayStatistics() async throws -> String {
            let before = relay.log.filter { $0.contains("stats: ") }.count
            relay.requestStatistics()
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                let lines = relay.log.filter { $0.contains("stats: ") }
                if lines.count > before { return lines.last! }
                try await Task.sleep(for: .milliseconds(50))
            }
            throw TestSupportError("the relay printed no statistics: \(relay.log.suffix(5))")
        }

        /// Alice's contact address, made in her line mode (which then quits).
        func contactAddress() async throws -> String {
            let client = try await client()
            client.send("/ad")
            let address = try await client.expect("simplex:/contact#/?v=")
            try await client.quit()
            return address
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

    @Test func theClientSaysItsStateOnTheBus() async throws {
        let users = try await Users(notificationServer: false)
        let names = try ServiceProcess.names(users.alice)
        let connection = try await DBusConnection(address: users.bus.address)
        defer { connection.close() }
        let changes = try await connection.signals(
            interface: CoordinationNames.clientInterface, member: CoordinationNames.stateChanged,
            sender: names.client)
        var iterator = changes.makeAsyncIterator()
        let client = try await users.client()
        #expect(await iterator.next()?.arguments == [.string("active")])
        let state = try await connection.call(
            destination: names.client, path: CoordinationNames.clientPath,
            interface: CoordinationNames.clientInterface, method: "GetState")
        #expect(state == [.string("active")])
        try await client.quit()
        #expect(await iterator.next()?.arguments == [.string("suspended")])
        try await users.bob.quit()
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

    /// The notification server crashes and comes back: receiving goes on meanwhile, the outage is
    /// logged once, and the new server gets the next notification.
    @Test func aNotificationServerThatRestartsIsUsedAgainAndTheOutageLoggedOnce() async throws {
        let users = try await Users()
        let (bob, first) = (users.bob, try users.notifications)
        let service = try await users.service()
        bob.send("@alice before the crash")
        _ = try await first.notifyCalls(atLeast: 1)
        try await first.kill()
        bob.send("@alice during the outage")
        bob.send("@alice still down")
        #expect(await eventually { service.process.allErrors.contains { $0.contains("cannot show notifications") } })
        #expect(try await NotificationServiceChatSettingsTests.stored("still down", users))
        try await service.reach(.active)
        let second = try await MockNotificationServer(on: users.bus)
        bob.send("@alice after the restart")
        #expect(try await second.notifyCalls(atLeast: 1).last?.body == "after the restart")
        #expect(await eventually { service.process.allErrors.contains { $0.contains("notifications are shown again") } })
        #expect(service.process.allErrors.filter { $0.contains("cannot show notifications") }.count == 1)
        #expect(try await service.stop() == 0)
        try await bob.quit()
    }

    /// A notification server that hangs holds up neither receiving nor the handoff: the client
    /// takes the chat over while the service's Notify is still unanswered (the mock answers after
    /// 60 s, longer than the client's whole wait for the lock).
    @Test func aHungNotificationServerHoldsUpNeitherReceivingNorTheClient() async throws {
        let users = try await Users()
        let server = try users.notifications
        let service = try await users.service()
        try await server.stallNextNotify(seconds: 60)
        users.bob.send("@alice into the void")
        try await Task.sleep(for: .seconds(1))
        // The service is stuck in Notify; the client still takes over at once and receives.
        let client = try await users.client()
        #expect(await service.state() == NSEState.suspended.rawValue)
        users.bob.send("@alice while the server hangs")
        try await client.expectLine(#"\d\d:\d\d bob> while the server hangs"#)
        try await client.quit()
        // The client did not get the first message: the service had received it, and was stuck
        // showing it.
        #expect(!client.process.allOutput.contains { $0.contains("into the void") })
        try await service.reach(.active)
        #expect(try await service.stop() == 0)
        // Both messages were stored, the first by the service.
        let chat = try await users.execute("/_get chat @1 count=10")
        for text in ["into the void", "while the server hangs"] { #expect(chat.allOutput.joined().contains(text)) }
        try await users.bob.quit()
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

/// The handoff under load: a peer streams numbered messages while Alice's client starts and
/// stops again and again, once killed, and her service is once killed too.
@Suite(.timeLimit(.minutes(5)))
struct NotificationServiceHandoffStressTests {
    /// The numbers in lines or notification bodies like "m17".
    static func numbers(_ texts: [String], pattern: Regex<(Substring, Substring)>) -> [Int] {
        texts.compactMap { text in text.wholeMatch(of: pattern).flatMap { Int($0.1) } }
    }

    @Test func clientRunsAndCrashesWhileAPeerStreamsLoseNoneShowNoneTwiceAndNotifyNoneTwice() async throws {
        let users = try await NotificationServiceEndToEndTests.Users()
        let server = try users.notifications
        var service = try await users.service()
        let count = 1000
        let streamer = Task {
            for number in 1...count {
                users.bob.send("@alice m\(number)")
                try await Task.sleep(for: .milliseconds(12))
            }
        }
        var printed: [Int] = []
        var services = [service]
        var history: [String] = []
        // The last message each killed process showed: it may have stored the next ones and died
        // before it could show them.
        var lastShownBeforeKill: [Int] = []
        for cycle in 1...20 {
            let client = try await users.client()
            try await Task.sleep(for: .milliseconds(150))
            if cycle == 7 {
                client.process.kill(SIGKILL)
                _ = try await client.process.wait()
            } else {
                try await client.quit()
            }
            let shown = Self.numbers(client.process.allOutput, pattern: /\d\d:\d\d bob> m(\d+)/)
            if cycle == 7 { lastShownBeforeKill.append(shown.last ?? 0) }
            printed += shown
            history.append("client \(cycle): \(shown.first ?? 0)...\(shown.last ?? 0)")
            if shown.isEmpty { history.append("client \(cycle) output: \(client.process.allOutput.suffix(3))") }
            if cycle == 14 {
                // The service crashes while it runs the chat; it is started again (systemd would).
                try await service.reach(.active)
                service.process.kill(SIGKILL)
                _ = try await service.process.wait()
                let before = Self.numbers(try await server.notifyCalls().map(\.body), pattern: /m(\d+)/)
                history.append("service killed after notifying \(before.last ?? 0)")
                lastShownBeforeKill.append(before.last ?? 0)
                service = try await users.service()
                services.append(service)
            }
            try await Task.sleep(for: .milliseconds(150))
        }
        try await streamer.value
        // The rest arrives at the service: wait until everything is seen, or nothing more comes
        // for 5 s (a killed process may have taken a message with it, unshown).
        var notified: [Int] = []
        var lastChange = ContinuousClock.now
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline, ContinuousClock.now - lastChange < .seconds(5) {
            let now = Self.numbers(try await server.notifyCalls().map(\.body), pattern: /m(\d+)/)
            if now.count != notified.count { lastChange = ContinuousClock.now }
            notified = now
            if Set(printed + notified).count >= count { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        let seen = printed + notified
        #expect(printed.count == Set(printed).count, "shown twice by the client")
        #expect(notified.count == Set(notified).count, "notified twice")
        #expect(Set(printed).isDisjoint(with: notified), "shown by the client and notified")
        #expect(!printed.isEmpty && !notified.isEmpty)
        #expect(try await service.stop() == 0)
        // The chat has each message once.
        let chat = try await users.execute("/_get chat @1 count=2000")
        let stored = Self.numbers(
            chat.allOutput.joined().matches(of: /"text":"(m\d+)"/).map { String($0.1) }, pattern: /m(\d+)/)
        #expect(stored.count == Set(stored).count, "stored twice")
        #expect(Set(stored) == Set(1...count), "not stored: \(Set(1...count).subtracting(stored).sorted())")
        // Stored but neither shown nor notified: only what a killed process had received when it
        // died, between the last message it showed and the next one anybody showed. It is in the
        // chat, unread.
        // A notification the server did not take within the service's timeout (a machine loaded
        // with every test at once) is given up, and the service says so: only then may a message
        // that arrived at the service be neither shown nor notified.
        // A notification shows the latest of what arrived together (iOS shows one per batch): it
        // stands for every message since the one seen before it.
        let seenInOrder = Set(seen).sorted()
        var covered = Set(printed)
        for number in notified {
            let before = seenInOrder.last { $0 < number } ?? 0
            covered.formUnion((before + 1)...number)
        }
        let unseen = Set(1...count).subtracting(covered)
        let diedWith = lastShownBeforeKill.flatMap { last in
            (last + 1)..<(seen.filter { $0 > last }.min() ?? count + 1)
        }
        let serverFailed = services.contains { service in
            service.process.allErrors.contains { $0.contains("cannot show notifications") }
        }
        #expect(
            unseen.isSubset(of: diedWith) || serverFailed,
            "stored but neither shown nor notified: \(unseen.sorted()) (a killed process may hold \(diedWith)); \(history)")
        try await users.bob.quit()
    }
}

/// Per-chat notification settings, as the line mode and the API set them.
@Suite(.timeLimit(.minutes(3)))
struct NotificationServiceChatSettingsTests {
    /// Waits until Alice's chat with Bob holds an item with `text` (read with `-e`, which hands the
    /// chat back to the service after each look).
    static func stored(_ text: String, _ users: NotificationServiceEndToEndTests.Users) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let chat = try await users.execute("/_get chat @1 count=10")
            if chat.allOutput.joined().contains(text) { return true }
            try await Task.sleep(for: .milliseconds(200))
        }
        return false
    }

    @Test func aMutedChatIsReceivedButNotNotifiedUntilUnmuted() async throws {
        let users = try await NotificationServiceEndToEndTests.Users()
        let server = try users.notifications
        // Muted in the line mode, as SimpleX's CLI does it.
        let client = try await users.client()
        client.send("/mute @bob")
        try await client.expect("ok")
        try await client.quit()
        let service = try await users.service()

        users.bob.send("@alice while you muted me")
        #expect(try await Self.stored("while you muted me", users))
        try await service.reach(.active)
        #expect(try await server.notifyCalls().isEmpty)
        let chats = try await users.execute("/_get chats 1 pcc=on")
        #expect(chats.allOutput.joined().contains(#""chatSettings":{"enableNtfs":"none""#))

        // Unmuted through the API, as SimpleX's apps send it.
        let unmute = try await users.execute(#"/_settings @1 {"enableNtfs":"all","sendRcpts":null,"favorite":false}"#)
        #expect(try await unmute.wait() == 0, "\(unmute.allErrors)")
        #expect(unmute.allOutput.first?.contains(#""type":"cmdOk""#) == true)
        try await service.reach(.active)
        users.bob.send("@alice and now?")
        #expect(try await server.notifyCalls(atLeast: 1).map(\.body) == ["and now?"])
        #expect(try await service.stop() == 0)
        try await users.bob.quit()
    }
}

/// Buttons on the service's notifications, clicked through the notification server (the mock's
/// ActionInvoked), and carried out by the service.
@Suite(.timeLimit(.minutes(3)))
struct NotificationServiceActionTests {
    @Test func aClickOpensTheChatInTheRunningClient() async throws {
        let users = try await NotificationServiceEndToEndTests.Users()
        let server = try users.notifications
        let service = try await users.service()
        users.bob.send("@alice look at this")
        let call = try #require(try await server.notifyCalls(atLeast: 1).first)
        #expect(call.actions == ["default", "Open", "mark-read", "Mark read"])
        // The user opens the client; the notification is still on screen, and they click it.
        let client = try await users.client()
        try await server.emitActionInvoked(id: 1, action: "default")
        try await client.expectLine("bob: the chat is open .*")
        try await client.expectLine(#"\d\d:\d\d bob> look at this"#)
        // A bare line now goes to bob.
        client.send("seen it")
        try await users.bob.expectLine(#"\d\d:\d\d alice> seen it"#)
        try await client.quit()
        #expect(try await service.stop() == 0)
        try await users.bob.quit()
    }

    @Test func aClickWithoutAClientStartsItInATerminalOnThatChat() async throws {
        let users = try await NotificationServiceEndToEndTests.Users()
        let server = try users.notifications
        // A terminal emulator that writes down what it was asked to run.
        let recorded = users.alice.appending("terminal-arguments")
        let terminal = users.alice.appending("terminal")
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" > \(recorded)\n".write(toFile: terminal, atomically: true, encoding: .utf8)
        chmod(terminal, 0o755)
        let service = try await users.service(extra: ["SIMPLEX_TERMINAL": terminal])
        users.bob.send("@alice come and see")
        _ = try await server.notifyCalls(atLeast: 1)
        try await server.emitActionInvoked(id: 1, action: "default")
        #expect(await eventually { FileManager.default.fileExists(atPath: recorded) })
        try await Task.sleep(for: .milliseconds(200))
        let arguments = try String(contentsOfFile: recorded, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(arguments == ["-e", try BuiltProducts.path("simplex-chat"), "--open", "@1"])
        #expect(try await service.stop() == 0)
        try await users.bob.quit()
    }

    @Test func markReadOnAMessageNotificationReadsTheChatAndClosesIt() async throws {
        let users = try await NotificationServiceEndToEndTests.Users()
        let server = try users.notifications
        let service = try await users.service()
        users.bob.send("@alice read me later")
        let call = try #require(try await server.notifyCalls(atLeast: 1).first)
        #expect(call.actions == ["default", "Open", "mark-read", "Mark read"])
        try await server.emitActionInvoked(id: 1, action: "mark-read")
        #expect(await eventually(every: .milliseconds(200)) { (try? await server.closeCalls()) == [1] })
        try await service.reach(.active)
        let chats = try await users.execute("/_get chats 1 pcc=on")
        #expect(chats.allOutput.joined().contains(#""unreadCount":0"#), "\(chats.allOutput)")
        #expect(!chats.allOutput.joined().contains(#""unreadCount":1"#))
        #expect(try await service.stop() == 0)
        try await users.bob.quit()
    }

    @Test func acceptAndRejectOnContactRequestsDoWhatTheySay() async throws {
        let users = try await NotificationServiceEndToEndTests.Users()
        let server = try users.notifications
        let address = try await users.contactAddress()
        let service = try await users.service()

        let carol = try await CLIUser("carol", relay: users.relay)
        carol.send("/c \(address)")
        let request = try #require(try await server.notifyCalls(atLeast: 1).first)
        #expect(request.summary == "carol wants to connect!")
        #expect(
            request.actions == [
                "NTF_ACT_ACCEPT_CONTACT", "Accept", "NTF_ACT_ACCEPT_CONTACT_INCOGNITO", "Accept incognito",
                "NTF_ACT_REJECT_CONTACT", "Reject",
            ])
        try await server.emitActionInvoked(id: 1, action: "NTF_ACT_ACCEPT_CONTACT")
        try await carol.expectLine("alice: contact is connected")
        let connected = try await server.notifyCalls(atLeast: 2)[1]
        #expect(connected.summary == "carol is connected!")

        let dave = try await CLIUser("dave", relay: users.relay)
        dave.send("/c \(address)")
        let daveRequest = try #require(
            try await server.notifyCalls(atLeast: 3).last { $0.summary == "dave wants to connect!" })
        #expect(daveRequest.replacesID == 0)
        // The third notification is dave's request: its id is 3.
        try await server.emitActionInvoked(id: 3, action: "NTF_ACT_REJECT_CONTACT")
        #expect(await eventually(every: .milliseconds(200)) { (try? await server.closeCalls())?.contains(3) == true })
        try await service.reach(.active)
        let contacts = try await users.execute("/_contacts 1")
        let listed = contacts.allOutput.joined()
        #expect(listed.contains(#""localDisplayName":"carol""#) && !listed.contains(#""localDisplayName":"dave""#))
        #expect(try await service.stop() == 0)
        for user in [users.bob, carol, dave] { try await user.quit() }
    }

    /// Accept incognito: the requester is shown a random profile, never the user's name, and a
    /// later profile change is not sent to it.
    @Test func acceptIncognitoShowsTheRequesterARandomProfile() async throws {
        let users = try await NotificationServiceEndToEndTests.Users()
        let server = try users.notifications
        let address = try await users.contactAddress()
        let service = try await users.service()
        let carol = try await CLIUser("carol", relay: users.relay)
        carol.send("/c \(address)")
        _ = try await server.notifyCalls(atLeast: 1)
        try await server.emitActionInvoked(id: 1, action: "NTF_ACT_ACCEPT_CONTACT_INCOGNITO")
        let connected = try await carol.expectLine(#"[A-Z][a-z]+[A-Z][a-z]+: contact is connected"#)
        #expect(!connected.contains("alice"))
        let incognitoName = String(connected.prefix { $0 != ":" })
        // Alice sees carol as carol; carol sees the random name, and only that.
        #expect(try await server.notifyCalls(atLeast: 2)[1].summary == "carol is connected!")
        #expect(try await service.stop() == 0)
        let rename = try await users.execute(#"/_profile 1 {"displayName":"alicia","fullName":""}"#)
        #expect(try await rename.wait() == 0, "\(rename.allErrors)")
        try await users.bob.expect("alicia")
        carol.send("@\(incognitoName) who are you?")
        try await carol.expectLine(#"\d\d:\d\d @"# + incognitoName + " who are you\\?")
        try await Task.sleep(for: .milliseconds(500))
        #expect(!carol.process.allOutput.contains { $0.contains("alice") || $0.contains("alicia") }, "\(carol.process.allOutput)")
        for user in [users.bob, carol] { try await user.quit() }
    }
}

/// Periodic mode: `simplex-nse --once` (the timer's pass) and `ReceiveNow`.
@Suite(.timeLimit(.minutes(3)))
struct NotificationServicePeriodicTests {
    typealias Users = NotificationServiceEndToEndTests.Users

    /// The numbers of the SUB, END and GET commands the relay has seen.
    static func counts(_ statistics: String) throws -> (subscriptions: Int, ended: Int, gets: Int) {
        let match = try #require(statistics.firstMatch(of: /subscriptions (\d+) \(ended (\d+)\), gets (\d+)/))
        return (Int(match.1)!, Int(match.2)!, Int(match.3)!)
    }

    @Test func aPassReceivesWithGETOnlyNotifiesOnceAndExits() async throws {
        let users = try await Users()
        let (bob, server) = (users.bob, try users.notifications)
        try users.defaults.set(.notificationMode, .periodic)
        let before = try Self.counts(try await users.relayStatistics())
        bob.send("@alice one while you sleep")
        bob.send("@alice two while you sleep")
        // Until the second is notified: each pass takes what is there, and what one pass takes
        // together is one notification (the chat's latest), so "one" has its own only when a pass
        // took it alone.
        var passes: [ChildProcess] = []
        let deadline = ContinuousClock.now + .seconds(30)
        while try await !server.notifyCalls().contains(where: { $0.body == "two while you sleep" }),
            ContinuousClock.now < deadline
        {
            let pass = try await users.once()
            #expect(try await pass.wait() == 0, "\(pass.allErrors)")
            #expect(pass.allErrors.contains { $0.contains("received ") && $0.contains("waiting message(s)") })
            passes.append(pass)
            try await Task.sleep(for: .milliseconds(300))
        }
        let calls = try await server.notifyCalls()
        #expect([["one while you sleep", "two while you sleep"], ["two while you sleep"]].contains(calls.map(\.body)), "\(calls)")
        #expect(calls.allSatisfy { $0.summary == "bob:" })
        // Only GET: no subscription made, none ended; the service left nothing running.
        let after = try Self.counts(try await users.relayStatistics())
        #expect(after.subscriptions == before.subscriptions)
        #expect(after.ended == before.ended)
        #expect(after.gets > before.gets)
        #expect(try users.defaults[.nseState] == .suspended)
        // Another pass finds nothing new and notifies nothing.
        let last = try await users.once()
        #expect(last.allErrors.contains("simplex-nse: received 0 waiting message(s)"), "\(last.allErrors)")
        #expect(try await server.notifyCalls().count == calls.count)
        // The client shows them in the chat, each once, and they are not notified again.
        let chat = try await users.execute("/_get chat @1 count=10")
        let items = chat.allOutput.joined()
        for text in ["one while you sleep", "two while you sleep"] {
            #expect(items.components(separatedBy: "\"text\":\"\(text)\"").count == 2, "\(text) not stored exactly once")
        }
        for pass in passes + [last] {
            for secret in ["while you sleep", "bob"] { #expect(!pass.allErrors.joined().contains(secret)) }
        }
        try await bob.quit()
    }

    /// A contact request notified by a pass is accepted from its notification after the pass:
    /// the process stays for the click, runs the chat for it, and then goes.
    @Test func aClickAfterThePassIsCarriedOutBeforeTheProcessGoes() async throws {
        let users = try await Users()
        let server = try users.notifications
        let address = try await users.contactAddress()
        try users.defaults.set(.notificationMode, .periodic)
        let carol = try await CLIUser("carol", relay: users.relay)
        carol.send("/c \(address)")
        try await carol.expect("connection request sent!")
        try await Task.sleep(for: .milliseconds(500))
        let pass = try ChildProcess(
            try BuiltProducts.path("simplex-nse"), ["--once", "--linger", "20"],
            environment: CLIUser.environment(users.alice, bus: users.bus))
        let request = try #require(try await server.notifyCalls(atLeast: 1).first)
        #expect(request.summary == "carol wants to connect!")
        try await Task.sleep(for: .milliseconds(300))
        #expect(pass.isRunning)
        try await server.emitActionInvoked(id: 1, action: "NTF_ACT_ACCEPT_CONTACT")
        do { try await carol.expectLine("alice: contact is connected") } catch {
            Issue.record("the pass said: \(pass.allErrors)")
            throw error
        }
        // It goes once nothing actionable is left, or when its 20 s are up (when the pass for the
        // click also received carol's side of the connection, "carol is connected!" has an Open
        // button of its own).
        #expect(try await pass.wait(timeout: .seconds(40)) == 0, "\(pass.allErrors)")
        #expect(pass.allErrors.filter { $0.contains("received") }.count == 2)
        try await carol.quit()
        try await users.bob.quit()
    }

    @Test func aPassWhileTheClientRunsLeavesItsSubscriptionsAlone() async throws {
        let users = try await Users()
        try users.defaults.set(.notificationMode, .periodic)
        let client = try await users.client()
        let before = try Self.counts(try await users.relayStatistics())
        let pass = try await users.once()
        #expect(try await pass.wait() == 0)
        #expect(pass.allErrors == ["simplex-nse: the client runs the chat: it receives everything itself"])
        let after = try Self.counts(try await users.relayStatistics())
        #expect(after.ended == before.ended)
        users.bob.send("@alice still subscribed?")
        try await client.expectLine(#"\d\d:\d\d bob> still subscribed\?"#)
        try await client.quit()
        try await users.bob.quit()
    }

    @Test func aPassWhileTheInstantServiceRunsAsksItToReceive() async throws {
        let users = try await Users()
        let service = try await users.service()
        let pass = try await users.once()
        #expect(try await pass.wait() == 0)
        #expect(pass.allErrors == ["simplex-nse: the service runs (pid \(service.process.pid)): asked it to receive now"])
        #expect(await service.state() == NSEState.active.rawValue)
        #expect(try await service.stop() == 0)
        try await users.bob.quit()
    }

    @Test func offModeReceivesNothingInTheBackground() async throws {
        let users = try await Users()
        try users.defaults.set(.notificationMode, .off)
        users.bob.send("@alice nobody listens")
        try await Task.sleep(for: .milliseconds(500))
        let pass = try await users.once()
        #expect(try await pass.wait() == 0)
        #expect(pass.allErrors.first?.contains("notificationMode is off") == true)
        #expect(try await users.notifications.notifyCalls().isEmpty)
        try await users.bob.quit()
    }
}

/// The keychain in passphrase mode: only the client can ask for the passphrase, so the service
/// cannot start the chat; it says so once, waits, and `status` says why.
@Suite(.timeLimit(.minutes(3)))
struct NotificationServiceLockedKeychainTests {
    @Test func aPassphraseKeychainIsReportedOnceAndStatusSaysWhy() async throws {
        let users = try await NotificationServiceEndToEndTests.Users()
        let server = try users.notifications
        let keychain = users.alice.appending("group/keychain")
        unlink(keychain)
        _ = try KeychainStore.open(path: keychain, passphrase: SecureBytes(copying: Array("correct horse".utf8)), limits: .minimum)

        let service = try await users.service(reaching: .suspended)
        let calls = try await server.notifyCalls(atLeast: 1)
        #expect(calls.map(\.summary) == ["Encrypted message: no passphrase"])
        #expect(calls[0].body == "")
        #expect(
            await eventually {
                service.process.allErrors.contains { $0.contains("the keychain is protected by a passphrase") }
            })

        // It waits: asked again (the client quit, a pass), it tries again and tells nobody twice.
        let connection = try await DBusConnection(address: users.bus.address)
        defer { connection.close() }
        _ = try await connection.call(
            destination: service.names.service, path: CoordinationNames.servicePath,
            interface: CoordinationNames.serviceInterface, method: "Resume")
        try await service.reach(.suspended)
        let status = try ChildProcess(
            try BuiltProducts.path("simplex-nse"), ["status"], environment: CLIUser.environment(users.alice, bus: users.bus))
        #expect(try await status.wait() == 0)
        let keychainLine = status.allOutput.first { $0.hasPrefix("keychain") } ?? ""
        #expect(keychainLine.contains("protected by a passphrase: the service cannot start the chat"), "\(status.allOutput)")
        #expect(status.allOutput.contains { $0.contains("running") && $0.contains("state suspended") })
        #expect(try await service.stop() == 0)

        // Nor after a restart, nor in a periodic pass: once until the chat starts again.
        let again = try await users.service(reaching: .suspended)
        #expect(try await again.stop() == 0)
        try users.defaults.set(.notificationMode, .periodic)
        let pass = try await users.once()
        #expect(try await pass.wait() == 0)
        #expect(try await server.notifyCalls().count == 1)
        try await users.bob.quit()
    }
}
