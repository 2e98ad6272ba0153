import Synchronization

/// Whether the desktop session is locked, so notifications can be made as in hidden mode while it
/// is (Telegram Desktop does this; SimpleX users ask for it): a locked screen shows notifications
/// to whoever stands in front of it.
///
/// Two sources, either one saying "locked" is enough:
/// - the screensaver on the session bus (`org.freedesktop.ScreenSaver` and GNOME's
///   `org.gnome.ScreenSaver`): `GetActive()` at start, then `ActiveChanged(b)`;
/// - logind on the system bus: the `LockedHint` of the user's display session
///   (`/org/freedesktop/login1/user/self`'s `Display`), read at start and on `PropertiesChanged`.
/// Neither present (a bare window manager, a test bus): never locked.
public final class SessionLockMonitor: Sendable {
    private struct State {
        var screensavers: [String: Bool] = [:]
        var lockedHint = false
    }

    private let state = Mutex(State())
    private let tasks = Mutex<[Task<Void, Never>]>([])

    static let screensavers: [(name: String, path: String)] = [
        ("org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver"),
        ("org.gnome.ScreenSaver", "/org/gnome/ScreenSaver"),
    ]

    public init() {}

    deinit { tasks.withLock { $0.forEach { $0.cancel() } } }

    public var isLocked: Bool {
        state.withLock { state in state.lockedHint || state.screensavers.values.contains(true) }
    }

    /// Starts watching; returns once the current state is known (or known to be unknown).
    public func start(session: DBusConnection, system: DBusConnection?) async {
        for (name, path) in Self.screensavers {
            await watchScreensaver(name: name, path: path, on: session)
        }
        if let system { await watchLogind(on: system) }
    }

    private func watchScreensaver(name: String, path: String, on bus: DBusConnection) async {
        guard let changes = try? await bus.signals(interface: name, member: "ActiveChanged", sender: name) else {
            return
        }
        keep(
            Task { [weak self] in
                for await signal in changes {
                    guard case .bool(let active)? = signal.arguments.first else { continue }
                    self?.state.withLock { $0.screensavers[name] = active }
                }
            })
        guard (try? await bus.nameHasOwner(name)) == true else { return }
        // A screensaver that does not say (busy, or broken) counts as locked until it signals:
        // better a hidden notification too many than a shown one on a locked screen.
        var active = true
        if let reply = try? await bus.call(
            destination: name, path: path, interface: name, method: "GetActive", timeout: .seconds(10)),
            case .bool(let answer)? = reply.first
        {
            active = answer
        }
        state.withLock { $0.screensavers[name] = $0.screensavers[name] ?? active }
    }

    private static let login1 = "org.freedesktop.login1"
    private static let properties = "org.freedesktop.DBus.Properties"

    private func watchLogind(on bus: DBusConnection) async {
        guard (try? await bus.nameHasOwner(Self.login1)) == true,
            let display = try? await property(
                "Display", of: "/org/freedesktop/login1/user/self", interface: "org.freedesktop.login1.User", on: bus),
            case .structure(let fields) = display, fields.count == 2, case .objectPath(let session) = fields[1],
            session != "/"
        else { return }
        if let changes = try? await bus.signals(
            path: session, interface: Self.properties, member: "PropertiesChanged", sender: Self.login1)
        {
            keep(
                Task { [weak self] in
                    for await signal in changes {
                        guard signal.arguments.count >= 2, case .dictionary(_, _, let entries) = signal.arguments[1],
                            let entry = entries.first(where: { $0.key == .string("LockedHint") }),
                            case .variant(.bool(let locked)) = entry.value
                        else { continue }
                        self?.state.withLock { $0.lockedHint = locked }
                    }
                })
        }
        if case .bool(let locked)? = try? await property(
            "LockedHint", of: session, interface: "org.freedesktop.login1.Session", on: bus)
        {
            state.withLock { $0.lockedHint = locked }
        }
    }

    private func property(_ name: String, of path: String, interface: String, on bus: DBusConnection) async throws
        -> DBusValue?
    {
        let reply = try await bus.call(
            destination: Self.login1, path: path, interface: Self.properties, method: "Get",
            arguments: [.string(interface), .string(name)], timeout: .seconds(10))
        guard case .variant(let value)? = reply.first else { return nil }
        return value
    }

    private func keep(_ task: Task<Void, Never>) { tasks.withLock { $0.append(task) } }
}
