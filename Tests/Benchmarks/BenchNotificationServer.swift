// A notification server for timing: owns org.freedesktop.Notifications on the bench's private bus
// and stamps each Notify with the time it arrived and its body. python3-dbusmock (the tests'
// server) answers in milliseconds of its own, which is the order of the figure measured here.
import Foundation
import SimpleXDesktop

/// One `Notify` as the server saw it.
struct BenchNotify: Sendable {
    let arrived: ContinuousClock.Instant
    let body: String
    let replacesID: UInt32
}

/// `org.freedesktop.Notifications` at /org/freedesktop/Notifications in this process: Notify,
/// GetCapabilities, CloseNotification and GetServerInformation, answered at once.
final class BenchNotificationServer: Sendable {
    private let connection: DBusConnection
    private let state = Locked(State())

    private struct State {
        var nextID: UInt32 = 1
        var received: [BenchNotify] = []
        /// When each body first arrived.
        var byBody: [String: ContinuousClock.Instant] = [:]
    }

    /// Connects to the bus at `address`, exports the interface and owns the name.
    init(busAddress: String) async throws {
        connection = try await DBusConnection(address: busAddress)
        let state = self.state
        try connection.export(
            path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications",
            methods: [
                "Notify": { call in
                    // Stamped first: the hop from the bus thread to this handler is in the figure.
                    let arrived = ContinuousClock.now
                    let arguments = call.arguments
                    let replaces = arguments.count > 1 ? arguments[1].uint32 ?? 0 : 0
                    let body = arguments.count > 4 ? arguments[4].string ?? "" : ""
                    let id = state.withLock { state -> UInt32 in
                        state.received.append(BenchNotify(arrived: arrived, body: body, replacesID: replaces))
                        if state.byBody[body] == nil { state.byBody[body] = arrived }
                        if replaces != 0 { return replaces }
                        defer { state.nextID += 1 }
                        return state.nextID
                    }
                    return [.uint32(id)]
                },
                "GetCapabilities": { _ in [.stringArray(["body", "actions", "body-markup"])] },
                "CloseNotification": { _ in [] },
                "GetServerInformation": { _ in
                    [.string("simplex-bench"), .string("SimpleX"), .string("1.0"), .string("1.2")]
                },
            ])
        try await connection.requestName("org.freedesktop.Notifications")
    }

    /// How many Notify calls have arrived.
    var count: Int { state.withLock { $0.received.count } }

    /// Every Notify so far, in arrival order.
    var received: [BenchNotify] { state.withLock { $0.received } }

    /// When a Notify with `body` arrived, waiting up to `timeout` for it (nil if none came). The
    /// wait polls; the arrival time was taken by the handler, so the polling is not in it.
    func arrival(ofBody body: String, timeout: Duration) async -> ContinuousClock.Instant? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let arrived = state.withLock({ $0.byBody[body] }) { return arrived }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return nil
    }

    /// Waits until `count` Notify calls have arrived in all, or none has for `idle`; the count.
    @discardableResult
    func waitForCount(_ count: Int, idle: Duration) async -> Int {
        var last = self.count
        var quietSince = ContinuousClock.now
        while true {
            let now = self.count
            if now >= count { return now }
            if now != last {
                last = now
                quietSince = .now
            }
            if ContinuousClock.now - quietSince > idle { return now }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    func close() { connection.close() }
}
