import Foundation

/// Shows desktop notifications and reports what happens to them; a test double can stand in for it.
public protocol NotificationPresenting: Sendable {
    func show(_ notification: DesktopNotification) async throws -> NotificationHandle
    @discardableResult
    func replace(_ handle: NotificationHandle, with notification: DesktopNotification) async throws
        -> NotificationHandle
    func close(_ handle: NotificationHandle) async throws
    func serverCapabilities() async throws -> [String]
    var events: AsyncStream<NotificationEvent> { get }
}

/// Desktop notifications through libnotify (freedesktop `org.freedesktop.Notifications`).
///
/// Every libnotify call runs on one GLib thread (`NotifyThread`); callers await and never block.
/// Each call answers within `timeout`: `.noServer` at once when no notification server is on the session
/// bus, `.timedOut` when the server does not answer — even if the GLib thread is stuck in a call.
public final class NotificationPresenter: NotificationPresenting {
    /// Action clicks and server-side closes, for notifications this presenter showed. One consumer.
    public let events: AsyncStream<NotificationEvent>
    private let core: PresenterCore
    private let timeout: Duration
    private let thread = NotifyThread.shared

    /// `appName` is the Notify `app_name`; `timeout` bounds every call (queueing included).
    public init(appName: String, timeout: Duration = .seconds(3)) {
        let (events, continuation) = AsyncStream<NotificationEvent>.makeStream()
        self.events = events
        self.timeout = timeout
        let milliseconds =
            timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        core = PresenterCore(
            appName: appName, callTimeoutMs: Int32(clamping: max(milliseconds, 1)), events: continuation)
        let core = core
        thread.post { core.initializeLibnotify() }  // notify_init: no D-Bus call yet
    }

    deinit {
        let core = core
        thread.post { core.shutdown() }
    }

    /// Shows a new notification; the handle carries the id the server gave it.
    public func show(_ notification: DesktopNotification) async throws -> NotificationHandle {
        try Self.validate(notification)
        let core = core
        return try await thread.run("showing a notification", timeout: timeout) {
            () throws(NotificationError) in
            try core.show(notification)
        } late: { handle in
            core.withdraw(handle)
        }
    }

    /// Replaces the content of a shown notification in place (the server gets `replaces_id`); returns
    /// the handle to use from now on (a new one when the old notification had already been closed).
    @discardableResult
    public func replace(_ handle: NotificationHandle, with notification: DesktopNotification) async throws
        -> NotificationHandle
    {
        try Self.validate(notification)
        let core = core
        return try await thread.run("replacing \(handle)", timeout: timeout) { () throws(NotificationError) in
            try core.replace(handle, with: notification)
        }
    }

    /// Closes a notification; no `.closed` event follows for it. Closing it twice is not an error.
    public func close(_ handle: NotificationHandle) async throws {
        let core = core
        try await thread.run("closing \(handle)", timeout: timeout) { () throws(NotificationError) in
            try core.close(handle)
        }
    }

    /// The server's capabilities (`GetCapabilities`), e.g. `body`, `actions`, `body-markup`.
    public func serverCapabilities() async throws -> [String] {
        let core = core
        return try await thread.run("asking for server capabilities", timeout: timeout) {
            () throws(NotificationError) in
            try core.serverCapabilities()
        }
    }

    private static func validate(_ notification: DesktopNotification) throws(NotificationError) {
        if notification.summary.isEmpty {
            throw NotificationError(.failed("empty summary"), "a notification needs a non-empty summary")
        }
    }
}
