internal import CNotify
import Synchronization

/// A presenter's libnotify side: its NotifyNotification objects and what it knows about the server.
///
/// @unchecked Sendable: no lock; confined to `NotifyThread` — every member is touched only from work
/// that `NotifyThread.shared` runs (checked by `assertOnNotifyThread`), including libnotify's callbacks,
/// which that thread's GMainLoop dispatches.
final class PresenterCore: @unchecked Sendable {
    private struct Entry {
        let notification: UnsafeMutablePointer<NotifyNotification>
        var serverID: UInt32
    }

    let appName: String
    /// Bound for each synchronous call to the bus or the server made here.
    let callTimeoutMs: Int32
    private let events: AsyncStream<NotificationEvent>.Continuation
    private var notifications: [UInt64: Entry] = [:]
    /// Capabilities of the server instance (unique bus name) that last answered.
    private var capabilities: (owner: String, list: [String])?

    init(appName: String, callTimeoutMs: Int32, events: AsyncStream<NotificationEvent>.Continuation) {
        self.appName = appName
        self.callTimeoutMs = callTimeoutMs
        self.events = events
    }

    /// Keys are unique in the process, so a handle from another presenter is just unknown here.
    private static let keys = Atomic<UInt64>(1)

    private func assertOnNotifyThread() {
        assert(NotifyThread.shared.isCurrent, "libnotify used off the notify thread")
    }

    // MARK: Server

    /// The capabilities of the running server; `.noServer` at once when nothing owns the name and no
    /// service file can start it (two quick calls to the bus daemon, never to a missing server).
    func serverCapabilities() throws(NotificationError) -> [String] {
        assertOnNotifyThread()
        let bus = try SessionBus.connect()
        defer { bus.release() }
        let owner = try bus.notificationServerOwner(timeoutMs: callTimeoutMs)
        if let owner, let capabilities, capabilities.owner == owner { return capabilities.list }
        if owner == nil, try !bus.notificationServerIsActivatable(timeoutMs: callTimeoutMs) {
            throw NotificationError(
                .noServer,
                "no notification server: nothing owns \(notificationsBusName) on the session bus "
                    + "and no D-Bus service file provides it")
        }
        let list = try bus.notificationServerCapabilities(timeoutMs: callTimeoutMs)
        // An activated server has an owner now; cache against it so a restarted server is asked again.
        if let current = owner ?? (try? bus.notificationServerOwner(timeoutMs: callTimeoutMs)) ?? nil {
            capabilities = (current, list)
        }
        return list
    }

    // MARK: Show, replace, close

    func show(_ content: DesktopNotification) throws(NotificationError) -> NotificationHandle {
        assertOnNotifyThread()
        let capabilities = try serverCapabilities()
        initializeLibnotify()
        guard let notification = notify_notification_new(content.summary, nil, nil) else {
            throw NotificationError(
                .failed("notify_notification_new returned NULL"), "creating a notification")
        }
        let key = Self.keys.wrappingAdd(1, ordering: .relaxed).oldValue
        CNotify_connectClosed(
            notification, closedHandler, EventTarget(core: self, key: key).retainedPointer,
            releaseClosureTarget)
        configure(notification, key: key, content, capabilities: capabilities)
        var error: UnsafeMutablePointer<GError>?
        guard notify_notification_show(notification, &error) != 0 else {
            g_object_unref(notification)
            throw notificationError(error, context: "showing a notification")
        }
        let serverID = CNotify_serverID(notification)
        notifications[key] = Entry(notification: notification, serverID: serverID)
        return NotificationHandle(serverID: serverID, key: key)
    }

    /// Updates the same NotifyNotification and shows it again, so the server gets `replaces_id` = its id.
    /// A handle that is closed (or unknown here) is shown as a new notification.
    func replace(_ handle: NotificationHandle, with content: DesktopNotification) throws(NotificationError)
        -> NotificationHandle
    {
        assertOnNotifyThread()
        guard var entry = notifications[handle.key] else { return try show(content) }
        let capabilities = try serverCapabilities()
        let notification = entry.notification
        notify_notification_clear_hints(notification)
        notify_notification_clear_actions(notification)
        configure(notification, key: handle.key, content, capabilities: capabilities)
        var error: UnsafeMutablePointer<GError>?
        guard notify_notification_show(notification, &error) != 0 else {
            throw notificationError(error, context: "replacing notification \(entry.serverID)")
        }
        entry.serverID = CNotify_serverID(notification)
        notifications[handle.key] = entry
        return NotificationHandle(serverID: entry.serverID, key: handle.key)
    }

    /// Asks the server to close the notification and forgets it; no `.closed` event follows. Closing a
    /// handle that is already closed, or when the server has gone (taking its notifications), succeeds.
    func close(_ handle: NotificationHandle) throws(NotificationError) {
        assertOnNotifyThread()
        guard let entry = notifications.removeValue(forKey: handle.key) else { return }
        defer { g_object_unref(entry.notification) }
        do throws(NotificationError) {
            let bus = try SessionBus.connect()
            defer { bus.release() }
            guard try bus.notificationServerOwner(timeoutMs: callTimeoutMs) != nil else { return }
        } catch {
            guard error.kind == .noServer else { throw error }
            return
        }
        var error: UnsafeMutablePointer<GError>?
        guard notify_notification_close(entry.notification, &error) != 0 else {
            throw notificationError(error, context: "closing notification \(entry.serverID)")
        }
    }

    /// Closes a notification whose `show` finished after its caller had given up.
    func withdraw(_ handle: NotificationHandle) {
        try? close(handle)
    }

    /// Drops every notification object (they stay on screen; their actions are no longer reported).
    func shutdown() {
        assertOnNotifyThread()
        for entry in notifications.values { g_object_unref(entry.notification) }
        notifications.removeAll()
        events.finish()
    }

    func initializeLibnotify() {
        assertOnNotifyThread()
        if notify_is_initted() == 0 { notify_init(appName) }
    }

    private func configure(
        _ notification: UnsafeMutablePointer<NotifyNotification>, key: UInt64, _ content: DesktopNotification,
        capabilities: [String]
    ) {
        notify_notification_update(
            notification, content.summary, content.bodyText(serverCapabilities: capabilities), content.icon)
        notify_notification_set_app_name(notification, appName)
        notify_notification_set_timeout(notification, content.timeoutMs)
        if let category = content.category { notify_notification_set_category(notification, category) }
        notify_notification_set_urgency(notification, content.urgency.libnotify)
        if let desktopEntry = content.desktopEntry, !desktopEntry.isEmpty {
            notify_notification_set_hint(notification, "desktop-entry", g_variant_new_string(desktopEntry))
        }
        if let soundName = content.soundName, !soundName.isEmpty {
            notify_notification_set_hint(notification, "sound-name", g_variant_new_string(soundName))
        }
        if content.transient {
            notify_notification_set_hint(notification, "transient", g_variant_new_boolean(1))
        }
        if content.resident {
            notify_notification_set_hint(notification, "resident", g_variant_new_boolean(1))
        }
        if let progress = content.progress {
            notify_notification_set_hint(notification, "value", g_variant_new_int32(progress))
        }
        for action in content.actions {
            notify_notification_add_action(
                notification, action.id, action.label, actionHandler,
                EventTarget(core: self, key: key).retainedPointer, releaseTarget)
        }
    }

    // MARK: Events (libnotify callbacks, on the notify thread)

    fileprivate func actionInvoked(key: UInt64, serverID: UInt32, actionID: String, activationToken: String?) {
        assertOnNotifyThread()
        events.yield(
            .actionInvoked(
                NotificationHandle(serverID: serverID, key: key), actionID: actionID,
                activationToken: activationToken))
    }

    fileprivate func closed(key: UInt64, serverID: UInt32, reason: NotificationCloseReason) {
        assertOnNotifyThread()
        guard let entry = notifications.removeValue(forKey: key) else { return }
        events.yield(.closed(NotificationHandle(serverID: serverID, key: key), reason))
        // libnotify holds its own reference while it emits "closed"; ours can go now.
        g_object_unref(entry.notification)
    }
}

extension DesktopNotification.Urgency {
    fileprivate var libnotify: NotifyUrgency {
        switch self {
        case .low: NOTIFY_URGENCY_LOW
        case .normal: NOTIFY_URGENCY_NORMAL
        case .critical: NOTIFY_URGENCY_CRITICAL
        }
    }
}

/// What a libnotify callback's user data points to: the presenter and which of its notifications.
private final class EventTarget {
    let core: PresenterCore
    let key: UInt64
    init(core: PresenterCore, key: UInt64) {
        self.core = core
        self.key = key
    }
    /// A +1 reference for libnotify to hold; released by its free function.
    var retainedPointer: UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }
    static func from(_ pointer: UnsafeMutableRawPointer) -> EventTarget {
        Unmanaged<EventTarget>.fromOpaque(pointer).takeUnretainedValue()
    }
}

private let actionHandler: NotifyActionCallback = { notification, action, userData in
    guard let notification, let action, let userData else { return }
    let target = EventTarget.from(userData)
    // The server's ActivationToken for this action, when it sent one (libnotify keeps it while
    // the action's callback runs).
    let token = notify_notification_get_activation_token(notification).map { String(cString: $0) }
    target.core.actionInvoked(
        key: target.key, serverID: CNotify_serverID(notification), actionID: String(cString: action),
        activationToken: token.flatMap { $0.isEmpty ? nil : $0 })
}

private let closedHandler: CNotify_ClosedHandler = { notification, userData in
    guard let notification, let userData else { return }
    let target = EventTarget.from(userData)
    let reason = NotificationCloseReason(
        code: UInt32(bitPattern: notify_notification_get_closed_reason(notification)))
    target.core.closed(key: target.key, serverID: CNotify_serverID(notification), reason: reason)
}

private let releaseTarget: GFreeFunc = { userData in
    guard let userData else { return }
    Unmanaged<EventTarget>.fromOpaque(userData).release()
}

private let releaseClosureTarget: GClosureNotify = { userData, _ in
    guard let userData else { return }
    Unmanaged<EventTarget>.fromOpaque(userData).release()
}
