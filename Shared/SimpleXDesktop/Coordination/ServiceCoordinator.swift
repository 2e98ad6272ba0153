import SimpleXChat

/// The notification service's side of DESIGN §4's handshake, without I/O: events in, actions out
/// (swift-nio's handlers are the model). The service carries the actions out — core.lock, the chat
/// core, GroupDefaults and D-Bus are its edges — and feeds back what happened as events.
///
/// It keeps the invariant of §4: the service runs the chat core only while it holds core.lock,
/// and a `Suspend` is answered only once the core is stopped and the lock released (or when it
/// timed out, answered `false`, and the client falls back to waiting for the lock).
public struct ServiceCoordinator: Sendable, Equatable {
    /// What happened, as the service's edges report it.
    public enum Event: Sendable, Equatable {
        /// The service may run the core now: it started in instant mode, `Resume` or `ReceiveNow`
        /// was called, or the client's bus name vanished (the client quit or crashed). `instant` is
        /// the notification mode as GroupDefaults says at that moment.
        case wanted(instant: Bool)
        /// One pass of receiving what waits on the relays (periodic mode: `simplex-nse --once`, or
        /// `ReceiveNow` when the mode is not instant), with GET, then stopping again.
        case passRequested
        /// The pass has taken everything that waited (or failed to reach a relay).
        case passFinished
        /// core.lock was taken.
        case lockAcquired
        /// core.lock is held by another process (the client) after the wait.
        case lockBusy
        /// The chat core is running and subscribed.
        case coreStarted
        /// The chat core could not start (the database, the keychain): `reason` is for the log.
        case coreFailed(reason: String)
        /// The chat core has stopped and closed its store.
        case coreStopped
        /// A client called `Suspend`; `call` names the pending reply.
        case suspendRequested(call: UInt64)
        /// The `Suspend` call's own timeout passed before the core stopped.
        case suspendTimedOut(call: UInt64)
        /// The service is shutting down (SIGTERM, the bus went away).
        case shutdown
    }

    /// What the edges must do, in order.
    public enum Action: Sendable, Equatable {
        /// Write `nseState` to GroupDefaults and emit `StateChanged`.
        case setState(NSEState)
        /// Try to take core.lock, waiting at most a short while (a crashed client's lock is released
        /// by the kernel, possibly after the bus noticed); report `lockAcquired` or `lockBusy`.
        case takeLock
        /// Start the chat core (it subscribes every queue); report `coreStarted` or `coreFailed`.
        case startCore
        /// Start the chat core without subscribing and receive what waits (GET); report
        /// `passFinished`, or `coreFailed`.
        case receivePending
        /// Stop the chat core; report `coreStopped`.
        case stopCore
        case releaseLock
        /// Answer the pending `Suspend` call.
        case replySuspend(call: UInt64, suspended: Bool)
        /// Log a failure (never message content).
        case log(String)
        /// Nothing more will happen: the service may exit.
        case finished
    }

    public private(set) var state: NSEState = .created
    /// `Suspend` calls not answered yet, in arrival order.
    public private(set) var pendingSuspends: [UInt64] = []
    private var holdsLock = false
    /// The core runs (or is about to run) for one pass, not subscribed.
    public private(set) var passing = false
    private var shuttingDown = false

    public init() {}

    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .wanted(let instant):
            guard instant, !shuttingDown, state.inactive else { return [] }
            state = .starting
            return [.setState(.starting), .takeLock]

        case .passRequested:
            // While subscribed (or about to be) everything arrives anyway.
            guard !shuttingDown, state.inactive else { return [] }
            state = .starting
            passing = true
            return [.setState(.starting), .takeLock]

        case .passFinished:
            guard passing, state == .active else { return [] }
            state = .suspending
            return [.setState(.suspending), .stopCore]

        case .lockAcquired:
            holdsLock = true
            guard state == .starting else { return release() }
            if !pendingSuspends.isEmpty || shuttingDown { return release() }
            if passing {
                // Active while it receives, as the iOS extension is while it runs.
                state = .active
                return [.setState(.active), .receivePending]
            }
            return [.startCore]

        case .lockBusy:
            guard state == .starting else { return [] }
            return suspended()

        case .coreStarted:
            guard state == .starting else { return [] }
            if !pendingSuspends.isEmpty || shuttingDown {
                state = .suspending
                return [.setState(.suspending), .stopCore]
            }
            state = .active
            return [.setState(.active)]

        case .coreFailed(let reason):
            return [.log("cannot start the chat core: \(reason)")] + release()

        case .coreStopped:
            return release()

        case .suspendRequested(let call):
            switch state {
            case .created, .suspended:
                return [.replySuspend(call: call, suspended: true)]
            case .starting:
                pendingSuspends.append(call)
                return []
            case .active:
                pendingSuspends.append(call)
                state = .suspending
                return [.setState(.suspending), .stopCore]
            case .suspending:
                pendingSuspends.append(call)
                return []
            }

        case .suspendTimedOut(let call):
            guard let index = pendingSuspends.firstIndex(of: call) else { return [] }
            pendingSuspends.remove(at: index)
            return [.replySuspend(call: call, suspended: false)]

        case .shutdown:
            shuttingDown = true
            switch state {
            case .active:
                state = .suspending
                return [.setState(.suspending), .stopCore]
            case .created, .suspended:
                return [.finished]
            case .starting, .suspending:
                // Finished when the lock or the core reports back.
                return []
            }
        }
    }

    /// Lets go of the lock (if held) and settles in `suspended`, answering every pending Suspend.
    private mutating func release() -> [Action] {
        var actions: [Action] = []
        if holdsLock {
            holdsLock = false
            actions.append(.releaseLock)
        }
        return actions + suspended()
    }

    private mutating func suspended() -> [Action] {
        passing = false
        var actions: [Action] = []
        if state != .suspended {
            state = .suspended
            actions.append(.setState(.suspended))
        }
        actions += pendingSuspends.map { .replySuspend(call: $0, suspended: true) }
        pendingSuspends.removeAll()
        if shuttingDown { actions.append(.finished) }
        return actions
    }
}
