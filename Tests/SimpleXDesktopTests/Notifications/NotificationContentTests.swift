import Foundation
import Testing

@testable import SimpleXDesktop

@Suite struct NotificationContentTests {
    @Test func bodyMarkupIsEscapedOnlyForMarkupServers() {
        let notification = DesktopNotification(summary: "s", body: "1 < 2 && 3 > 2 <b>é</b>")
        #expect(
            notification.bodyText(serverCapabilities: ["body", "body-markup"])
                == "1 &lt; 2 &amp;&amp; 3 &gt; 2 &lt;b&gt;é&lt;/b&gt;")
        #expect(notification.bodyText(serverCapabilities: ["body"]) == "1 < 2 && 3 > 2 <b>é</b>")
    }

    @Test func dbusErrorsAreClassified() {
        let unknown = NotificationError(
            context: "showing", dbusErrorName: "org.freedesktop.DBus.Error.ServiceUnknown",
            message: "The name was not provided\nby any .service files", isTimeout: false)
        #expect(unknown.kind == .noServer)
        #expect(
            unknown.description
                == "notification noServer: showing: The name was not provided by any .service files")
        let cannotStart = NotificationError(
            context: "showing", dbusErrorName: "org.freedesktop.DBus.Error.Spawn.ChildExited",
            message: "Process exited with status 1", isTimeout: false)
        #expect(cannotStart.kind == .noServer)
        let noReply = NotificationError(
            context: "showing", dbusErrorName: "org.freedesktop.DBus.Error.NoReply", message: "no reply",
            isTimeout: false)
        #expect(noReply.kind == .timedOut)
        let local = NotificationError(
            context: "showing", dbusErrorName: nil, message: "Timeout was reached", isTimeout: true)
        #expect(local.kind == .timedOut)
        let other = NotificationError(
            context: "showing", dbusErrorName: "org.freedesktop.DBus.Error.InvalidArgs", message: "bad hint",
            isTimeout: false)
        #expect(other.kind == .failed("bad hint"))
        #expect(other.dbusErrorName == "org.freedesktop.DBus.Error.InvalidArgs")
    }

    @Test func closeReasonsFollowTheSpec() {
        #expect(
            (1...4).map { NotificationCloseReason(code: $0) } == [
                .expired, .dismissed, .closedByCall, .undefined(4),
            ])
        #expect(NotificationCloseReason(code: 7).code == 7)
    }

    @Test func notificationsRoundTripThroughJSON() throws {
        let notification = DesktopNotification(
            summary: "Alice", body: "hi", icon: "simplex-chat", category: "im.received",
            desktopEntry: "simplex-chat",
            urgency: .critical, actions: [.default(label: "Open")], transient: true, timeoutMs: 0)
        let decoded = try JSONDecoder().decode(
            DesktopNotification.self, from: try JSONEncoder().encode(notification))
        #expect(decoded == notification)
    }
}
