import Foundation
import SimpleXChat
import SimpleXDesktop
import Synchronization
import Testing
import TestSupport

/// What the desktop around the service does with its notifications: a reply typed into one (KDE's
/// inline reply), the activation token of a click, a chat read in the client, the launcher badge,
/// a locked screen, and servers with and without actions and markup.
@Suite(.timeLimit(.minutes(3)))
struct NotificationDesktopIntegrationTests {
    typealias Users = NotificationServiceEndToEndTests.Users

    @Test func aReplyTypedIntoTheNotificationIsSentByTheServiceOrByTheRunningClient() async throws {
        let users = try await Users(capabilities: "body actions body-markup inline-reply")
        let (bob, server) = (users.bob, try users.notifications)
        let service = try await users.service()
        bob.send("@alice are you coming?")
        let call = try #require(try await server.notifyCalls(atLeast: 1).first)
        #expect(call.actions == ["default", "Open", "mark-read", "Mark read", "inline-reply", "Reply"])
        try await server.emitReplied(id: 1, text: "on my way")
        try await bob.expectLine(#"\d\d:\d\d alice> on my way"#)
        #expect(await eventually(every: .milliseconds(200)) { (try? await server.closeCalls())?.contains(1) == true })

        // The client runs when the user answers a notification it did not see: it sends the reply
        // (Share on its bus name) and shows it.
        bob.send("@alice bring bread")
        _ = try await server.notifyCalls(atLeast: 2)
        let client = try await users.client()
        try await server.emitReplied(id: 2, text: "ok, bread")
        try await client.expectLine(#"\d\d:\d\d @bob ok, bread"#)
        try await bob.expectLine(#"\d\d:\d\d alice> ok, bread"#)
        try await client.quit()
        #expect(try await service.stop() == 0)
        let log = service.process.allErrors.joined(separator: "\n")
        for secret in ["on my way", "bread", "bob"] { #expect(!log.contains(secret)) }
        try await bob.quit()
    }

    @Test func theClickActivationTokenGoesToTheTerminalItOpens() async throws {
        let users = try await Users()
        let server = try users.notifications
        let recorded = users.alice.appending("terminal-environment")
        let terminal = users.alice.appending("terminal")
        try "#!/bin/sh\necho \"$XDG_ACTIVATION_TOKEN $DESKTOP_STARTUP_ID\" > \(recorded)\n".write(
            toFile: terminal, atomically: true, encoding: .utf8)
        chmod(terminal, 0o755)
        let service = try await users.service(extra: ["SIMPLEX_TERMINAL": terminal])
        users.bob.send("@alice look")
        _ = try await server.notifyCalls(atLeast: 1)
        try await server.emitActivationToken(id: 1, token: "token-4711")
        try await server.emitActionInvoked(id: 1, action: "default")
        #expect(await eventually { ((try? String(contentsOfFile: recorded, encoding: .utf8)) ?? "").contains("\n") })
        #expect(try String(contentsOfFile: recorded, encoding: .utf8) == "token-4711 token-4711\n")
        #expect(try await service.stop() == 0)
        try await users.bob.quit()
    }

    @Test func aChatReadInTheClientLosesItsNotificationAndTheBadgeFollows() async throws {
        let users = try await Users()
        let server = try users.notifications
        let watcher = try await DBusConnection(address: users.bus.address)
        defer { watcher.close() }
        let badges = try await watcher.signals(interface: LauncherBadge.interface, member: "Update")
        var badge = badges.makeAsyncIterator()
        let service = try await users.service()
        users.bob.send("@alice one")
        users.bob.send("@alice two")
        _ = try await server.notifyCalls(atLeast: 1)
        let first = await badge.next()
        #expect(first?.arguments.first == .string("application://simplex-chat.desktop"))
        #expect(first?.arguments.last == LauncherBadge.properties(1) || first?.arguments.last == LauncherBadge.properties(2))
        #expect(await eventually { (try? users.defaults[.ntfBadgeCount]) == 2 })

        // The user opens the chat in the client: it is read there, so the notification goes, and
        // the badge is cleared.
        let client = try await CLIUser("alice", relay: users.relay, directory: users.alice, bus: users.bus, arguments: ["--open", "@1"])
        try await client.expectLine(#"\d\d:\d\d bob> two"#)
        let shown = try await server.notifyCalls().last!
        #expect(await eventually(every: .milliseconds(200)) { (try? await server.closeCalls())?.contains(shown.replacesID == 0 ? 1 : shown.replacesID) == true })
        var cleared = false
        while let next = await badge.next() {
            if next.arguments.last == LauncherBadge.properties(0) {
                cleared = true
                break
            }
        }
        #expect(cleared)
        #expect(try users.defaults[.ntfBadgeCount] == 0)
        try await client.quit()
        #expect(try await service.stop() == 0)
        try await users.bob.quit()
    }

    /// A screensaver of the test's own on the bus: active (locked) at first.
    final class ScreenSaver: Sendable {
        final class Flag: Sendable {
            let value = Mutex(true)
        }
        let connection: DBusConnection
        let active = Flag()

        init(on bus: TestBus) async throws {
            connection = try await DBusConnection(address: bus.address)
            let active = active
            try connection.export(
                path: "/org/freedesktop/ScreenSaver", interface: "org.freedesktop.ScreenSaver",
                methods: ["GetActive": { _ in [.bool(active.value.withLock { $0 })] }])
            try await connection.requestName("org.freedesktop.ScreenSaver")
        }

        func set(_ locked: Bool) async throws {
            active.value.withLock { $0 = locked }
            try await connection.emitSignal(
                path: "/org/freedesktop/ScreenSaver", interface: "org.freedesktop.ScreenSaver", name: "ActiveChanged",
                arguments: [.bool(locked)])
        }
    }

    @Test func whileTheScreenIsLockedNotificationsAreHidden() async throws {
        let users = try await Users()
        let server = try users.notifications
        let screensaver = try await ScreenSaver(on: users.bus)
        defer { screensaver.connection.close() }
        let service = try await users.service()
        users.bob.send("@alice secret plans")
        let locked = try #require(try await server.notifyCalls(atLeast: 1).first)
        #expect(locked.summary == "Contact hidden:")
        #expect(locked.body == "new message")
        #expect(!"\(locked)".contains("bob") && !"\(locked)".contains("secret"))

        try await screensaver.set(false)
        try await Task.sleep(for: .milliseconds(300))
        users.bob.send("@alice lunch?")
        let unlocked = try await server.notifyCalls(atLeast: 2)[1]
        #expect(unlocked.summary == "bob:")
        #expect(unlocked.body == "lunch?")
        #expect(try await service.stop() == 0)
        try await users.bob.quit()
    }

    @Test(arguments: [("body", false), ("body actions body-markup", true)])
    func theBodyIsEscapedOnlyForMarkupServersAndButtonsOnlyWhereShown(capabilities: String, markup: Bool) async throws
    {
        let users = try await Users(capabilities: capabilities)
        let server = try users.notifications
        let service = try await users.service()
        users.bob.send("@alice <b>not bold</b> & co")
        let call = try #require(try await server.notifyCalls(atLeast: 1).first)
        #expect(call.body == (markup ? "&lt;b&gt;not bold&lt;/b&gt; &amp; co" : "<b>not bold</b> & co"))
        #expect(call.actions.isEmpty == !markup)
        #expect(call.hints["sound-name"] == "s:message-new-instant")
        #expect(call.hints["urgency"] == "y:1")
        #expect(try await service.stop() == 0)
        try await users.bob.quit()
    }

    /// logind of the test's own on a second bus standing in for the system bus: the user's display
    /// session `c1`, whose LockedHint starts true.
    final class Logind: Sendable {
        final class Flag: Sendable {
            let value = Mutex(true)
        }
        static let session = "/org/freedesktop/login1/session/c1"
        let bus: TestBus
        let connection: DBusConnection
        let locked = Flag()

        init() async throws {
            bus = try await TestBus()
            connection = try await DBusConnection(address: bus.address)
            let locked = locked
            try connection.export(
                path: "/org/freedesktop/login1/user/self", interface: "org.freedesktop.DBus.Properties",
                methods: [
                    "Get": { call in
                        let arguments = try call.arguments(matching: "ss")
                        guard arguments == [.string("org.freedesktop.login1.User"), .string("Display")] else {
                            throw DBusError(name: "org.freedesktop.DBus.Error.UnknownProperty", message: "\(arguments)")
                        }
                        return [.variant(.structure([.string("c1"), .objectPath(Self.session)]))]
                    }
                ])
            try connection.export(
                path: Self.session, interface: "org.freedesktop.DBus.Properties",
                methods: [
                    "Get": { call in
                        let arguments = try call.arguments(matching: "ss")
                        guard arguments == [.string("org.freedesktop.login1.Session"), .string("LockedHint")] else {
                            throw DBusError(name: "org.freedesktop.DBus.Error.UnknownProperty", message: "\(arguments)")
                        }
                        return [.variant(.bool(locked.value.withLock { $0 }))]
                    }
                ])
            try await connection.requestName("org.freedesktop.login1")
        }

        func set(_ value: Bool) async throws {
            locked.value.withLock { $0 = value }
            try await connection.emitSignal(
                path: Self.session, interface: "org.freedesktop.DBus.Properties", name: "PropertiesChanged",
                arguments: [
                    .string("org.freedesktop.login1.Session"), .variantDictionary(["LockedHint": .bool(value)]),
                    .stringArray([]),
                ])
        }
    }

    @Test func whileLogindSaysTheSessionIsLockedNotificationsAreHidden() async throws {
        let users = try await Users()
        let server = try users.notifications
        let logind = try await Logind()
        defer { logind.connection.close() }
        let service = try await users.service(extra: ["DBUS_SYSTEM_BUS_ADDRESS": logind.bus.address])
        users.bob.send("@alice the password is swordfish")
        let locked = try #require(try await server.notifyCalls(atLeast: 1).first)
        #expect(locked.summary == "Contact hidden:")
        #expect(locked.body == "new message")

        try await logind.set(false)
        try await Task.sleep(for: .milliseconds(300))
        users.bob.send("@alice unlocked now")
        let unlocked = try await server.notifyCalls(atLeast: 2)[1]
        #expect(unlocked.summary == "bob:")
        #expect(unlocked.body == "unlocked now")
        #expect(try await service.stop() == 0)
        try await users.bob.quit()
    }
}
