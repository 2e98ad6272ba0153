import Foundation
import SimpleXChat
import SimpleXDesktop
import SimpleXSystem
import Synchronization

/// `simplex-nse` serving on the session bus (instant mode): owns the service's bus name, exports
/// `chat.simplex.NotificationService1`, and runs the chat core while the client does not, as
/// `ServiceCoordinator` decides; this actor carries its actions out.
actor NotificationService {
    let container: GroupContainer
    let defaults: GroupDefaults
    let bus: DBusConnection
    let names: CoordinationNames
    let environment: [String: String]
    let log: @Sendable (String) -> Void
    private let presenter: any NotificationPresenting
    private let notifier: ChatNotifier
    private var machine = ServiceCoordinator()
    private var lock: FileLock?
    private var core: ChatController?
    private var suspendReplies: [UInt64: AsyncStream<Bool>.Continuation] = [:]
    private var nextCall: UInt64 = 1
    private var finishedWaiters: [CheckedContinuation<Void, Never>] = []
    private var isFinished = false
    /// Who waits for the service to settle (no core running, nothing starting): `receiveOnce`.
    private var settledWaiters: [CheckedContinuation<Void, Never>] = []
    /// The task handing the running core's events to the notifier, kept so `--once` can wait for
    /// the notifications of its pass before it exits.
    private var notifying: Task<Void, Never>?
    /// Notification actions that came while no core ran (`carryOut`).
    private var pendingIntents: [ChatNotifier.Intent] = []
    /// Since when no core runs or starts (nil while one does).
    private var idleSince: ContinuousClock.Instant? = .now
    /// How long a takeover waits for core.lock: a crashed client's lock is released by the kernel,
    /// which may be after the bus saw its name go.
    var lockWait: Duration = .seconds(2)

    init(
        container: GroupContainer, bus: DBusConnection, environment: [String: String],
        presenter: any NotificationPresenting, sessionLock: SessionLockMonitor? = nil,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.container = container
        self.bus = bus
        self.environment = environment
        self.log = log
        let defaults = GroupDefaults(container: container) { problem in log("\(problem)") }
        self.defaults = defaults
        names = CoordinationNames(container: container, environment: environment)
        self.presenter = presenter
        notifier = ChatNotifier(
            presenter: presenter, defaults: defaults, sessionLocked: { sessionLock?.isLocked ?? false },
            badge: { count in await LauncherBadge.show(count, on: bus) }, log: log)
    }

    /// Exports `chat.simplex.NotificationService1`: before the name is requested, so the call that
    /// started the service by D-Bus activation (queued until the name is owned) finds the object.
    func exportInterface() throws {
        try bus.export(
            path: CoordinationNames.servicePath, interface: CoordinationNames.serviceInterface,
            methods: [
                "Suspend": { [weak self] call in
                    let arguments = try call.arguments(matching: "u")
                    guard let self, case .uint32(let milliseconds) = arguments[0] else { return [.bool(true)] }
                    return [.bool(await self.suspend(timeoutMs: milliseconds))]
                },
                "Resume": { [weak self] _ in
                    await self?.wanted()
                    return []
                },
                "ReceiveNow": { [weak self] _ in
                    await self?.receiveNow()
                    return []
                },
                "GetState": { [weak self] _ in
                    [.string(await self?.machine.state.rawValue ?? NSEState.suspended.rawValue)]
                },
            ])
    }

    /// Watches the client's name and the notifications' actions, and starts receiving; the name
    /// is owned by then (a second instance stops before it touches anything).
    ///
    /// With `startReceiving` false (`--once`, and a service started in periodic mode) nothing
    /// starts until a pass or `Resume` asks for it.
    func start(startReceiving: Bool = true) async throws {
        let owners = try await bus.signals(
            path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
            sender: "org.freedesktop.DBus")
        let client = names.client
        Task { [weak self] in
            for await signal in owners {
                // (name, old owner, new owner): the client's name lost its owner.
                guard signal.arguments.count == 3, signal.arguments[0] == .string(client),
                    signal.arguments[2] == .string("")
                else { continue }
                await self?.wanted()
            }
        }
        // A chat the user read in the client loses its notification here.
        let reads = try await bus.signals(
            path: CoordinationNames.clientPath, interface: CoordinationNames.clientInterface,
            member: CoordinationNames.chatRead, sender: client)
        let notifier = notifier
        Task {
            for await signal in reads {
                guard case .string(let chat)? = signal.arguments.first else { continue }
                await notifier.close(chat: chat)
            }
        }
        let presenter = presenter
        Task { [weak self] in
            for await event in presenter.events {
                guard let self, let intent = await self.notifier.action(for: event) else { continue }
                await self.carryOut(intent)
            }
        }
        if startReceiving { await wanted() }
    }

    /// Does what a notification's action asked, on the running core; while the client runs the
    /// chat, it is the client's to do (the user sees the chat there).
    private func carryOut(_ intent: ChatNotifier.Intent) async {
        if case .openChat(let ref, let token) = intent {
            await open(ref, activationToken: token)
            return
        }
        guard let core else {
            if (try? await bus.nameHasOwner(names.client)) == true {
                // A reply goes to the client, which sends it (and shows it in the chat).
                if case .reply(let contactId, let text) = intent, await share(text, to: "@\(contactId)") { return }
                log("a notification action came while the client runs the chat: left to the client")
                return
            }
            // Nothing runs the chat (periodic mode after its pass, or starting): the action waits
            // for the core, which a pass starts for it if nothing else does.
            pendingIntents.append(intent)
            if defaults[.notificationMode] == .instant { await wanted() } else { await handle(.passRequested) }
            return
        }
        await execute(intent, on: core)
    }

    /// The actions that came while no core ran, done on `core` now.
    private func runPendingIntents(on core: ChatController) async {
        guard !pendingIntents.isEmpty else { return }
        let intents = pendingIntents
        pendingIntents = []
        for intent in intents { await execute(intent, on: core) }
        // What they send (an acceptance, a reply) leaves before a pass stops the core.
        _ = await core.waitForDeliveries(timeout: .seconds(10))
    }

    private func execute(_ intent: ChatNotifier.Intent, on core: ChatController) async {
        let command: ChatCommand
        switch intent {
        case .openChat: return
        case .markRead(let contactId): command = .apiChatRead(.direct(contactId))
        case .acceptContact(let requestId, let incognito):
            command = .apiAcceptContact(incognito: incognito, contactReqId: requestId)
        case .rejectContact(let requestId): command = .apiRejectContact(contactReqId: requestId)
        case .reply(let contactId, let text):
            command = .apiSendMessages(
                .direct(contactId), live: false, ttl: nil, composedMessages: [ComposedMessage(msgContent: .text(text))])
        }
        if case .chatCmdError(_, let error) = await core.execute(command) {
            // The kind of failure only: its text can name a contact.
            let kind = Mirror(reflecting: error).children.first?.label ?? "\(type(of: error))"
            log("a notification action (\(command.cmdString.prefix { $0 != " " })) failed: \(kind)")
        }
    }

    /// `Share({text}, chat)` on the running client: whether it took it.
    private func share(_ text: String, to ref: String) async -> Bool {
        guard (try? await bus.nameHasOwner(names.client)) == true else { return false }
        do {
            _ = try await bus.call(
                destination: names.client, path: CoordinationNames.clientPath,
                interface: CoordinationNames.clientInterface, method: "Share",
                arguments: [.variantDictionary(["text": .string(text)]), .string(ref)], timeout: .seconds(10))
            return true
        } catch {
            log("the client did not send the reply: \(error)")
            return false
        }
    }

    /// Opens chat `ref` for the user: on the running client (`OpenChat`), else by starting the
    /// client in a terminal emulator (`ClientLauncher`) with `--open`, passing on the server's
    /// activation token so the new window may take the focus.
    private func open(_ ref: String, activationToken: String?) async {
        if (try? await bus.nameHasOwner(names.client)) == true {
            do {
                _ = try await bus.call(
                    destination: names.client, path: CoordinationNames.clientPath,
                    interface: CoordinationNames.clientInterface, method: "OpenChat", arguments: [.string(ref)],
                    timeout: .seconds(5))
                return
            } catch {
                log("the client did not open the chat: \(error)")
            }
        }
        var launchEnvironment = environment
        if let activationToken {
            // Wayland (xdg-activation) and X11 (startup notification) each read their own.
            launchEnvironment["XDG_ACTIVATION_TOKEN"] = activationToken
            launchEnvironment["DESKTOP_STARTUP_ID"] = activationToken
        }
        do { try ClientLauncher(environment: launchEnvironment).launch(open: ref) } catch { log("\(error)") }
    }

    /// Stops the core and lets go of everything; returns when done.
    func shutdown() async {
        await handle(.shutdown)
        guard !isFinished else { return }
        await withCheckedContinuation { finishedWaiters.append($0) }
    }

    var state: NSEState { machine.state }

    /// Whether notifications with buttons that this process would carry out are on screen.
    var hasActionableNotifications: Bool { get async { await notifier.hasActionableNotifications } }

    /// Whether no core has run or started for `duration` (a periodic-mode service then exits).
    func hasBeenIdle(for duration: Duration) -> Bool {
        guard let idleSince else { return false }
        return ContinuousClock.now - idleSince >= duration
    }

    // MARK: - Events

    private func wanted() async {
        await handle(.wanted(instant: defaults[.notificationMode] == .instant))
    }

    /// `ReceiveNow`: in instant mode, subscribe if not yet (the client is not running); in
    /// periodic mode, one pass; in off mode nothing (no background receiving at all).
    private func receiveNow() async {
        switch defaults[.notificationMode] {
        case .instant: await wanted()
        case .periodic: await handle(.passRequested)
        case .off: log("ReceiveNow: notificationMode is off, nothing is received in the background")
        }
    }

    /// One pass (`simplex-nse --once`): what waits on the relays is received with GET and
    /// notified; returns once the core is stopped and core.lock released again (at once when the
    /// client holds it), with the pass's notifications shown or given up within `notificationWait`.
    func receiveOnce(notificationWait: Duration = .seconds(15)) async {
        await handle(.passRequested)
        if !machine.state.inactive { await withCheckedContinuation { settledWaiters.append($0) } }
        guard let notifying else { return }
        self.notifying = nil
        let shown = Task { await notifying.value }
        let timer = Task {
            try? await Task.sleep(for: notificationWait)
            shown.cancel()
        }
        await shown.value
        timer.cancel()
    }

    private func suspend(timeoutMs: UInt32) async -> Bool {
        let call = nextCall
        nextCall += 1
        let (reply, continuation) = AsyncStream<Bool>.makeStream()
        suspendReplies[call] = continuation
        Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(Int(timeoutMs)))
            await self?.handle(.suspendTimedOut(call: call))
        }
        await handle(.suspendRequested(call: call))
        for await suspended in reply { return suspended }
        return false
    }

    /// One step of the state machine; its actions run in order. Other events may arrive while an
    /// action awaits (a Suspend while the core starts): the machine already reflects this step.
    private func handle(_ event: ServiceCoordinator.Event) async {
        for action in machine.handle(event) { await perform(action) }
    }

    private func perform(_ action: ServiceCoordinator.Action) async {
        switch action {
        case .setState(let state):
            do { try defaults.set(.nseState, state) } catch { log("cannot write nseState: \(error)") }
            try? await bus.emitSignal(
                path: CoordinationNames.servicePath, interface: CoordinationNames.serviceInterface,
                name: CoordinationNames.stateChanged, arguments: [.string(state.rawValue)])
            idleSince = state.inactive ? (idleSince ?? .now) : nil
            if state == .suspended {
                for waiter in settledWaiters { waiter.resume() }
                settledWaiters.removeAll()
            }
        case .takeLock:
            let taken: FileLock?
            do { taken = try await FileLock.acquire(path: container.coreLockPath, timeout: lockWait) } catch {
                log("core.lock: \(error)")
                taken = nil
            }
            if let taken {
                taken.recordHolder()
                lock = taken
                await handle(.lockAcquired)
            } else {
                await handle(.lockBusy)
            }
        case .startCore:
            do {
                let started = try await openCore()
                core = started
                await started.start()
                await handle(.coreStarted)
                await runPendingIntents(on: started)
            } catch {
                await coreFailed(error)
            }
        case .receivePending:
            do {
                let opened = try await openCore()
                // Kept before the pass so a Suspend meanwhile stops it (the pass then ends early).
                core = opened
                let receipt = await opened.receivePending()
                log("received \(receipt.messages) waiting message(s)")
                await runPendingIntents(on: opened)
                if receipt.unreachableServers > 0 {
                    log("\(receipt.unreachableServers) relay(s) could not be reached: their messages wait there")
                }
                await handle(.passFinished)
            } catch {
                await coreFailed(error)
            }
        case .stopCore:
            // The notifications of what this core received go on showing in the background: a
            // slow notification server must not keep the client waiting for core.lock.
            await core?.stop()
            core = nil
            await handle(.coreStopped)
        case .releaseLock:
            lock?.unlock()
            lock = nil
        case .replySuspend(let call, let suspended):
            if let reply = suspendReplies.removeValue(forKey: call) {
                reply.yield(suspended)
                reply.finish()
            }
        case .log(let line):
            log(line)
        case .finished:
            isFinished = true
            for waiter in finishedWaiters { waiter.resume() }
            finishedWaiters.removeAll()
        }
    }

    // MARK: - The chat core

    private struct CoreFailure: Error, CustomStringConvertible {
        let description: String
        /// What a notification says of it (nil: nothing to tell, e.g. no profile made yet).
        var notified: NotificationContent.EncryptedMessageError?
    }

    /// Why the core failed is for the log; that messages cannot be read is for the user, once
    /// (`Encrypted message: no passphrase`): the service then waits for the client.
    ///
    /// Once means once until the core starts again, across runs (the periodic pass every 10
    /// minutes, a restart): the kind told is kept in `nse-reported` in the group directory.
    private func coreFailed(_ failure: CoreFailure) async {
        if let kind = failure.notified {
            let path = container.path + "/nse-reported"
            let told = (try? AtomicFile.read(path)).flatMap { $0.map { String(decoding: $0, as: UTF8.self) } }
            if told != "\(kind)" {
                await notifier.notifyCannotReceive(kind)
                do { try AtomicFile.write(Array("\(kind)".utf8), to: path) } catch { log("cannot write \(path): \(error)") }
            }
        }
        await handle(.coreFailed(reason: failure.description))
    }

    /// Opens the keychain and the databases; each event of the core goes to the notifier.
    private func openCore() async throws(CoreFailure) -> ChatController {
        let secrets: AgentSecrets
        let databaseKey: DatabaseKey
        do {
            let keychain = try await DesktopKeychain.open(container: container, bus: bus, environment: environment)
            // An import or a passphrase change interrupted by a crash is finished or rolled back
            // (core.lock is held).
            try ChatArchive.recover(container: container, keychain: keychain)
            try DatabasePassphrase.recover(groupDirectory: container.path, keychain: keychain)
            secrets = try AgentSecrets.load(from: keychain)
            databaseKey = try DatabaseKey.load(from: keychain)
        } catch {
            let locked = if case .passphraseRequired? = error as? KeychainError { true } else { false }
            let notStored = if case .databasePassphraseRequired? = error as? KeychainError { true } else { false }
            throw CoreFailure(
                description: locked
                    ? "the keychain is protected by a passphrase, which only the client can ask for: "
                        + "messages arrive when simplex-chat runs"
                    : notStored
                        ? "the database passphrase is not stored in the keychain (storeDBPassphrase off): "
                            + "only the client asks for it; messages arrive when simplex-chat runs"
                        : "keychain: \(error)",
                notified: locked || notStored ? .noPassphrase : .keychain)
        }
        let chat: ChatController
        do {
            chat = try await ChatController.open(
                groupDirectory: container.path, secrets: secrets, databaseKey: databaseKey)
        } catch {
            let notified: NotificationContent.EncryptedMessageError? =
                switch error {
                case .noUser: nil
                case .store: .database
                default: .unexpected
                }
            throw CoreFailure(description: "\(error)", notified: notified)
        }
        // Whatever kept it from starting is over: a next failure is told again.
        unlink(container.path + "/nse-reported")
        let user = await chat.user
        let notifier = notifier
        // What arrived while the last notification was being shown is one batch: one
        // notification for it (the chat's latest, or a joint one for several chats).
        let inbox = EventInbox()
        let (doorbell, ring) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        Task.detached {
            for await event in chat.events {
                inbox.append(event)
                ring.yield()
            }
            ring.finish()
        }
        notifying = Task {
            for await _ in doorbell { await notifier.notify(inbox.takeAll(), user: user) }
            guard !Task.isCancelled else { return }
            await notifier.notify(inbox.takeAll(), user: user)
        }
        return chat
    }
}

/// The chat events that arrived since the notifier last looked, taken all at once.
private final class EventInbox: Sendable {
    private let events = Mutex<[ChatEvent]>([])

    func append(_ event: ChatEvent) { events.withLock { $0.append(event) } }

    func takeAll() -> [ChatEvent] {
        events.withLock { events in
            defer { events.removeAll(keepingCapacity: true) }
            return events
        }
    }
}
