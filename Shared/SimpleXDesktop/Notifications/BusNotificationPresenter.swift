import Synchronization

/// Desktop notifications over the project's own D-Bus connection instead of libnotify, for what
/// libnotify cannot do: a reply field (`inline-reply`, KDE Plasma), whose `NotificationReplied`
/// the server sends only to the connection that called `Notify`. It speaks the freedesktop
/// notification spec directly: `Notify`, `CloseNotification`, `GetCapabilities`, and the signals
/// `ActionInvoked`, `ActivationToken`, `NotificationReplied` and `NotificationClosed` for the
/// notifications it showed.
public final class BusNotificationPresenter: NotificationPresenting {
    public let events: AsyncStream<NotificationEvent>
    private let sink: AsyncStream<NotificationEvent>.Continuation
    private let connection: DBusConnection
    private let appName: String
    private let timeout: Duration
    private let state = Mutex(State())

    private struct State {
        /// Our notifications by the id the server gave them, and their keys.
        var keys: [UInt32: UInt64] = [:]
        /// Tokens the server sent ahead of an action (`ActivationToken`, then `ActionInvoked`).
        var tokens: [UInt32: String] = [:]
        var capabilities: [String]?
        var subscription: Task<Void, any Error>?
    }

    /// Keys of this presenter's handles: apart from libnotify's, so `RoutingPresenter` can tell
    /// which presenter a handle belongs to.
    static let keyBase: UInt64 = 1 << 62
    private static let nextKey = Atomic<UInt64>(keyBase)

    static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    public init(connection: DBusConnection, appName: String, timeout: Duration = .seconds(3)) {
        self.connection = connection
        self.appName = appName
        self.timeout = timeout
        (events, sink) = AsyncStream.makeStream()
    }

    deinit {
        state.withLock { $0.subscription?.cancel() }
        sink.finish()
    }

    public func show(_ notification: DesktopNotification) async throws -> NotificationHandle {
        try await notify(notification, replacing: 0, key: Self.nextKey.wrappingAdd(1, ordering: .relaxed).oldValue)
    }

    @discardableResult
    public func replace(_ handle: NotificationHandle, with notification: DesktopNotification) async throws
        -> NotificationHandle
    {
        let live = state.withLock { $0.keys[handle.serverID] == handle.key }
        // A notification the server closed meanwhile is shown anew, as libnotify does.
        return try await notify(notification, replacing: live ? handle.serverID : 0, key: handle.key)
    }

    public func close(_ handle: NotificationHandle) async throws {
        guard state.withLock({ $0.keys.removeValue(forKey: handle.serverID) }) != nil else { return }
        try await call("closing \(handle)", "CloseNotification", [.uint32(handle.serverID)])
    }

    public func serverCapabilities() async throws -> [String] {
        if let known = state.withLock({ $0.capabilities }) { return known }
        let reply = try await call("asking for server capabilities", "GetCapabilities", [])
        guard case .array(_, let values)? = reply.first else {
            throw NotificationError(.failed("GetCapabilities returned \(reply)"), "asking for server capabilities")
        }
        let list = values.compactMap(\.string)
        state.withLock { $0.capabilities = list }
        return list
    }

    private func notify(_ content: DesktopNotification, replacing id: UInt32, key: UInt64) async throws
        -> NotificationHandle
    {
        guard !content.summary.isEmpty else {
            throw NotificationError(.failed("empty summary"), "a notification needs a non-empty summary")
        }
        try await subscribe()
        let capabilities = try await serverCapabilities()
        var hints: [String: DBusValue] = ["urgency": .byte(content.urgency.byte)]
        if let category = content.category { hints["category"] = .string(category) }
        if let entry = content.desktopEntry, !entry.isEmpty { hints["desktop-entry"] = .string(entry) }
        if let sound = content.soundName, !sound.isEmpty { hints["sound-name"] = .string(sound) }
        if content.transient { hints["transient"] = .bool(true) }
        if content.resident { hints["resident"] = .bool(true) }
        if let progress = content.progress { hints["value"] = .int32(progress) }
        let reply = try await call(
            id == 0 ? "showing a notification" : "replacing notification \(id)", "Notify",
            [
                .string(appName), .uint32(id), .string(content.icon ?? ""), .string(content.summary),
                .string(content.bodyText(serverCapabilities: capabilities)),
                .stringArray(content.actions.flatMap { [$0.id, $0.label] }), .variantDictionary(hints),
                .int32(content.timeoutMs),
            ])
        guard let serverID = reply.first?.uint32 else {
            throw NotificationError(.failed("Notify returned \(reply)"), "showing a notification")
        }
        state.withLock { state in
            if id != 0, id != serverID { state.keys[id] = nil }
            state.keys[serverID] = key
        }
        return NotificationHandle(serverID: serverID, key: key)
    }

    /// Starts listening to the server's signals, once, before the first Notify (a click right
    /// after it must not be missed).
    private func subscribe() async throws {
        let task = state.withLock { state in
            if let task = state.subscription { return task }
            let connection = connection
            let task = Task<Void, any Error> { [weak self] in
                let signals = try await connection.signals(interface: Self.name, sender: Self.name)
                Task { [weak self] in
                    for await signal in signals { self?.received(signal) }
                }
            }
            state.subscription = task
            return task
        }
        do { try await task.value } catch {
            state.withLock { $0.subscription = nil }
            throw NotificationError(.failed("\(error)"), "listening to the notification server")
        }
    }

    private func received(_ signal: DBusSignal) {
        guard let id = signal.arguments.first?.uint32 else { return }
        let second = signal.arguments.count > 1 ? signal.arguments[1] : nil
        let event: NotificationEvent? = state.withLock { state in
            guard let key = state.keys[id] else { return nil }
            let handle = NotificationHandle(serverID: id, key: key)
            switch (signal.member, second) {
            case ("ActivationToken", .string(let token)?):
                state.tokens[id] = token
                return nil
            case ("ActionInvoked", .string(let action)?):
                return .actionInvoked(handle, actionID: action, activationToken: state.tokens.removeValue(forKey: id))
            case ("NotificationReplied", .string(let text)?):
                return .replied(handle, text: text)
            case ("NotificationClosed", .uint32(let reason)?):
                state.keys[id] = nil
                state.tokens[id] = nil
                return .closed(handle, NotificationCloseReason(code: reason))
            default:
                return nil
            }
        }
        if let event { sink.yield(event) }
    }

    @discardableResult
    private func call(_ what: String, _ method: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        do {
            return try await connection.call(
                destination: Self.name, path: Self.path, interface: Self.name, method: method, arguments: arguments,
                timeout: timeout)
        } catch let error as DBusError {
            // A server that failed may come back as another one, with other capabilities.
            state.withLock { $0.capabilities = nil }
            throw NotificationError(
                context: what, dbusErrorName: error.name, message: error.message,
                isTimeout: error.name == DBusError.namePrefix + "Timeout")
        }
    }
}

extension DesktopNotification.Urgency {
    /// The `urgency` hint's byte.
    var byte: UInt8 {
        switch self {
        case .low: 0
        case .normal: 1
        case .critical: 2
        }
    }
}

/// Shows each notification through libnotify, except those with a reply field, which go through a
/// `BusNotificationPresenter` (libnotify never hands a reply on); the events of both come as one
/// stream. A notification that gains or loses its reply field moves between them (the old one is
/// closed).
public final class RoutingPresenter: NotificationPresenting {
    public let events: AsyncStream<NotificationEvent>
    private let standard: any NotificationPresenting
    private let replying: any NotificationPresenting
    private let forwarding: [Task<Void, Never>]

    public init(standard: any NotificationPresenting, replying: any NotificationPresenting) {
        self.standard = standard
        self.replying = replying
        let (events, sink) = AsyncStream<NotificationEvent>.makeStream()
        self.events = events
        forwarding = [standard, replying].map { presenter in
            Task {
                for await event in presenter.events { sink.yield(event) }
            }
        }
    }

    deinit { forwarding.forEach { $0.cancel() } }

    private static func replies(_ notification: DesktopNotification) -> Bool {
        notification.actions.contains { $0.id == DesktopNotification.Action.inlineReplyID }
    }

    private static func replies(_ handle: NotificationHandle) -> Bool {
        handle.key >= BusNotificationPresenter.keyBase
    }

    private func presenter(replying: Bool) -> any NotificationPresenting { replying ? self.replying : standard }

    private func owner(of handle: NotificationHandle) -> any NotificationPresenting {
        presenter(replying: Self.replies(handle))
    }

    public func show(_ notification: DesktopNotification) async throws -> NotificationHandle {
        try await presenter(replying: Self.replies(notification)).show(notification)
    }

    @discardableResult
    public func replace(_ handle: NotificationHandle, with notification: DesktopNotification) async throws
        -> NotificationHandle
    {
        let target = Self.replies(notification)
        if target == Self.replies(handle) { return try await presenter(replying: target).replace(handle, with: notification) }
        try? await owner(of: handle).close(handle)
        return try await presenter(replying: target).show(notification)
    }

    public func close(_ handle: NotificationHandle) async throws { try await owner(of: handle).close(handle) }

    public func serverCapabilities() async throws -> [String] { try await standard.serverCapabilities() }
}
