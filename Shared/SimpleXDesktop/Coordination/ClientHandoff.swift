import SimpleXChat
import SimpleXSystem

/// The client's side of DESIGN §4's handshake, shared by the line mode, `-e`, (later) the
/// full-screen client, and the share helper: suspend the notification service, take core.lock
/// within a bounded time, and hand the core back on exit.
public struct ClientHandoff: Sendable {
    /// Who takes the core: the client (appState, its bus name) or the share helper (shareState
    /// sendingMessage while it sends; it owns no name, the client's stays free).
    public enum Role: Sendable {
        case client, share
    }

    /// Why the core could not be taken; `description` is the one line the user sees.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public let container: GroupContainer
    public let defaults: GroupDefaults
    public let bus: DBusConnection?
    public let names: CoordinationNames
    /// How long `Suspend` may take (its argument; iOS gives the extension 2 s).
    public var suspendTimeout: Duration = .seconds(2)
    /// How long to wait for core.lock once the service was asked to suspend.
    public var lockTimeout: Duration = .seconds(5)
    public let role: Role

    public init(
        container: GroupContainer, defaults: GroupDefaults, bus: DBusConnection?, environment: [String: String],
        role: Role = .client
    ) {
        self.role = role
        self.container = container
        self.defaults = defaults
        self.bus = bus
        names = CoordinationNames(container: container, environment: environment)
    }

    /// appState=activating; when the service runs, `Suspend`; then core.lock within `lockTimeout`
    /// and appState=active. Another client holding the core is refused at once, naming its pid, and
    /// so is any holder when there is no session bus (core.lock alone decides then).
    public func takeCore() async throws(Failure) -> FileLock {
        let path = container.coreLockPath
        if let lock = try attempt(path) {
            // A service started after this finds the lock taken and stays suspended.
            setState(.active)
            return lock
        }
        guard let bus else { throw heldFailure(path) }
        // Another client keeps the core until the user quits it.
        if (try? await bus.nameHasOwner(names.client)) == true { throw heldFailure(path) }
        setState(.activating)
        await suspendService(on: bus)
        let lock: FileLock?
        do { lock = try await FileLock.acquire(path: path, timeout: lockTimeout) } catch {
            throw Failure(description: "\(error)")
        }
        guard let lock else {
            setState(.suspended)
            throw heldFailure(path)
        }
        lock.recordHolder()
        setState(.active)
        return lock
    }

    /// appState for the client; shareState for the share helper (sendingMessage from the moment
    /// it asks for the core until it hands it back).
    private func setState(_ state: AppState) {
        switch role {
        case .client: try? defaults.set(.appState, state)
        case .share: try? defaults.set(.shareState, state.inactive ? .inactive : .sendingMessage)
        }
    }

    /// Releases core.lock, appState=suspended (stopped when the user stopped chat), and, in instant
    /// mode, `Resume` (D-Bus activation starts the service when it is not running).
    public func handBack(_ lock: FileLock, stopped: Bool = false) async {
        lock.unlock()
        let state: AppState = stopped ? .stopped : .suspended
        setState(state)
        guard let bus else { return }
        if role == .client {
            await stateChanged(state)
            try? await bus.releaseName(names.client)
        }
        guard !stopped, defaults[.notificationMode] == .instant else { return }
        _ = try? await bus.call(
            destination: names.service, path: CoordinationNames.servicePath,
            interface: CoordinationNames.serviceInterface, method: "Resume", timeout: .seconds(5))
    }

    /// Owns the client's bus name (so the service sees the client come and go) and answers
    /// `GetState` with appState. Without a bus, or with the name owned elsewhere, nothing happens:
    /// core.lock already decided who runs.
    public func announce() async {
        guard let bus else { return }
        exportMethods(openChat: nil, share: nil)
        try? await bus.requestName(names.client)
        await stateChanged(defaults[.appState])
        // The user is here: what the service counted while they were away is seen.
        try? defaults.set(.ntfBadgeCount, 0)
        await LauncherBadge.show(0, on: bus)
    }

    /// `ChatRead(chatRef)`: the user read chat `ref` (`@12`) here, so the service closes its
    /// notification.
    public func chatRead(_ ref: String) async {
        try? await bus?.emitSignal(
            path: CoordinationNames.clientPath, interface: CoordinationNames.clientInterface,
            name: CoordinationNames.chatRead, arguments: [.string(ref)])
    }

    /// `StateChanged(appState)` from the client's object.
    private func stateChanged(_ state: AppState) async {
        try? await bus?.emitSignal(
            path: CoordinationNames.clientPath, interface: CoordinationNames.clientInterface,
            name: CoordinationNames.stateChanged, arguments: [.string(state.rawValue)])
    }

    /// What `Share(a{sv} content, s chatRef) -> s itemRef` brings: `text`, and `files` (paths or
    /// `file://` URIs).
    public struct SharedContent: Sendable, Equatable {
        public var text: String?
        public var files: [String]
    }

    /// Answers `OpenChat(s chatRef)` with `open`, and `Share` with `share` (which returns the
    /// reference of the item it sent), once the client can do them.
    public func exportChatMethods(
        openChat: @escaping @Sendable (String) async -> Void,
        share: (@Sendable (SharedContent, String) async throws -> String)? = nil
    ) {
        exportMethods(openChat: openChat, share: share)
    }

    private func exportMethods(
        openChat: (@Sendable (String) async -> Void)?, share: (@Sendable (SharedContent, String) async throws -> String)?
    ) {
        guard let bus else { return }
        let defaults = defaults
        var methods: [String: DBusMethodHandler] = ["GetState": { _ in [.string(defaults[.appState].rawValue)] }]
        if let openChat {
            methods["OpenChat"] = { call in
                guard case .string(let ref) = try call.arguments(matching: "s")[0] else { return [] }
                await openChat(ref)
                return []
            }
        }
        if let share {
            methods["Share"] = { call in
                let arguments = try call.arguments(matching: "a{sv}s")
                guard case .dictionary(_, _, let entries) = arguments[0], case .string(let ref) = arguments[1] else {
                    return []
                }
                var content = SharedContent(text: nil, files: [])
                for entry in entries {
                    switch (entry.key, entry.value) {
                    case (.string("text"), .variant(.string(let text))): content.text = text
                    case (.string("files"), .variant(.array(_, let files))): content.files = files.compactMap(\.string)
                    case (.string(let key), _):
                        throw DBusError.invalidArgs("Share: unknown or mistyped content \(key) (text s, files as)")
                    default: break
                    }
                }
                do { return [.string(try await share(content, ref))] } catch let error as DBusError { throw error } catch {
                    throw DBusError.failed("\(error)")
                }
            }
        }
        try? bus.export(path: CoordinationNames.clientPath, interface: CoordinationNames.clientInterface, methods: methods)
    }

    private func attempt(_ path: String) throws(Failure) -> FileLock? {
        do {
            guard let lock = try FileLock.attempt(path: path) else { return nil }
            lock.recordHolder()
            return lock
        } catch {
            throw Failure(description: "\(error)")
        }
    }

    /// Asks the service to let go of the core; a service that does not answer in time is waited
    /// for through the lock.
    private func suspendService(on bus: DBusConnection) async {
        guard (try? await bus.nameHasOwner(names.service)) == true else { return }
        let milliseconds = UInt32(suspendTimeout.components.seconds * 1000)
        _ = try? await bus.call(
            destination: names.service, path: CoordinationNames.servicePath,
            interface: CoordinationNames.serviceInterface, method: "Suspend",
            arguments: [.uint32(milliseconds)], timeout: suspendTimeout + .seconds(1))
    }

    private func heldFailure(_ path: String) -> Failure {
        var holder = ""
        if let pid = FileLock.recordedHolder(path: path) {
            holder = " by pid \(pid)" + (processName(pid).map { " (\($0))" } ?? "")
        }
        return Failure(
            description: "another process runs the chat on \(container.path) (core.lock is held\(holder)): "
                + "quit it (simplex-chat --cli) and try again")
    }
}
