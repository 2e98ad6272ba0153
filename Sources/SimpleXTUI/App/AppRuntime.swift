import Foundation
import Glibc
import SimpleXChat
import SimpleXSystem
import Synchronization

/// How the full-screen client ended.
public enum AppExit: Equatable, Sendable {
    case quit
    /// The self-destruct passcode was typed: the caller erases everything and starts again.
    case selfDestruct
    /// The chat runs again after Chat data stopped it, or starts on a changed database (imported,
    /// deleted, a new passphrase): the caller opens it anew and shows `note`.
    case restart(note: String?)
}

/// Runs the full-screen client: the terminal's events, the core's events and effect results go
/// into one queue; each batch is applied to the model, its effects started, and one frame
/// drawn for the whole batch (so frames coalesce under load, and nothing runs between events).
public final class AppRuntime: Sendable {
    let session: TerminalSession
    let environment: [String: String]
    /// Where `$EDITOR`'s temporary file goes (the group's tmp directory, 0700).
    let temporaryDirectory: String
    private let inbox = Mutex<[AppEvent]>([])
    private let wake: AsyncStream<Void>
    private let wakeContinuation: AsyncStream<Void>.Continuation
    /// Effects for the core's worker; a reload asked while one waits is not queued again.
    private let coreEffects = CoreEffectQueue()
    /// The effect runner: nil until the chat core runs (before the first profile is made).
    private let runner = Mutex<AppEffects?>(nil)
    /// When the user last pressed a key, and SimpleX Lock's idle limit in seconds (nil: none).
    private let lastInput = Mutex<ContinuousClock.Instant>(.now)
    private let idleLimit = Mutex<Int?>(nil)
    private let exit = Mutex<AppExit>(.quit)

    public init(session: TerminalSession, environment: [String: String], temporaryDirectory: String) {
        self.session = session
        self.environment = environment
        self.temporaryDirectory = temporaryDirectory
        (wake, wakeContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues an event from any thread (the core, the bus, an effect's result).
    public func post(_ event: AppEvent) {
        inbox.withLock { $0.append(event) }
        wakeContinuation.yield()
    }

    /// Runs until the user quits (or self-destructs); the terminal is restored on the way out.
    /// `createProfile` makes the first profile and starts the core (first run); `lock` keeps
    /// SimpleX Lock's passcodes and settings.
    @discardableResult
    public func run(
        model initial: AppModel, layout: ItemLayouter? = nil, effects: AppEffects?, lock: AppLockStore? = nil,
        data: ChatDataAccess? = nil,
        createProfile: @escaping @Sendable (String) async throws -> (ChatUser, AppEffects)
    ) async throws(SystemError) -> AppExit {
        try session.enter()
        defer { session.leave() }
        var model = initial
        if let size = try? session.size() {
            model.width = size.width
            model.height = size.height
        }
        runner.withLock { $0 = effects }
        let view = AppView(layout: layout, symbols: SymbolSet.detect(environment: environment))
        var renderer = Renderer(colors: ColorCapability.detect(environment: environment))
        var graphics = TerminalGraphics(environment: environment)
        if let problem = graphics.problem { model.status = (problem, true) }
        renderer.graphics = graphics.graphicsProtocol
        if graphics.asksTerminal { try? session.write(TerminalGraphics.query) }
        measureCells(view: view, renderer: &renderer)
        let reader = Task { [session] in
            for await event in session.events() {
                switch event {
                case .input(.deviceAttributes(let reply)): post(.deviceAttributes(reply))
                case .input(let input):
                    lastInput.withLock { $0 = .now }
                    KeyInput.from(input).forEach { post(.key($0)) }
                case .resize(let width, let height): post(.resize(width: width, height: height))
                }
            }
            // The terminal went away (its window closed, ssh dropped): nobody can use the client.
            if !Task.isCancelled { post(.terminalClosed) }
        }
        let ticker = Task {
            while !Task.isCancelled {
                let seconds = 60 - Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 60)
                try? await Task.sleep(for: .seconds(seconds))
                post(.tick(Date()))
            }
        }
        // SimpleX Lock's delay: the lock screen goes up once no key came for that long.
        let locker = Task {
            var said: ContinuousClock.Instant?
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(500))
                let last = lastInput.withLock { $0 }
                guard let limit = idleLimit.withLock({ $0 }), said != last,
                    ContinuousClock.now - last >= .seconds(limit)
                else { continue }
                said = last
                post(.lockIdle)
            }
        }
        let effectWorker = Task { [coreEffects] in
            await coreEffects.run { effect in
                guard let current = self.runner.withLock({ $0 }) else { return }
                await current.run(effect)
            }
        }
        defer {
            reader.cancel()
            ticker.cancel()
            locker.cancel()
            effectWorker.cancel()
            coreEffects.finish()
        }
        if effects != nil { coreEffects.enqueue(.loadChatList) }
        if model.lock.locked { lock?.setLocked(true) }
        idleLimit.withLock { $0 = model.lock.idleLimit }
        draw(&model, view: view, renderer: &renderer)
        var iterator = wake.makeAsyncIterator()
        while model.running {
            guard await iterator.next() != nil else { break }
            let batch = inbox.withLock { events in
                defer { events.removeAll(keepingCapacity: true) }
                return events
            }
            var effects: [AppEffect] = []
            for event in batch {
                switch event {
                case .resize:
                    renderer.invalidate()
                    measureCells(view: view, renderer: &renderer)
                case .deviceAttributes(let reply):
                    graphics.answered(reply)
                    renderer.graphics = graphics.graphicsProtocol
                default:
                    break
                }
                effects += model.update(event)
            }
            for effect in effects {
                await perform(effect, model: &model, renderer: &renderer, lock: lock, data: data, createProfile: createProfile)
            }
            idleLimit.withLock { $0 = model.lock.idleLimit }
            if model.running { draw(&model, view: view, renderer: &renderer) }
        }
        // kitty keeps transmitted images until told: free them before the screen goes.
        try? session.write(renderer.releaseGraphics())
        return exit.withLock { $0 }
    }

    /// The terminal's cell size (at start and after a resize, which a font change also sends),
    /// which pictures are fitted and encoded for.
    private func measureCells(view: AppView, renderer: inout Renderer) {
        let cell = session.cellPixelSize() ?? .typical
        renderer.cell = cell
        view.layouter.setCellPixelSize(cell)
    }

    /// Effects the runtime does itself (they need the terminal); the rest go to the core's queue.
    private func perform(
        _ effect: AppEffect, model: inout AppModel, renderer: inout Renderer, lock: AppLockStore?,
        data: ChatDataAccess?,
        createProfile: @escaping @Sendable (String) async throws -> (ChatUser, AppEffects)
    ) async {
        switch effect {
        case .quit:
            model.running = false
        case .setAppLocked(let locked):
            lock?.setLocked(locked)
            // kitty and iTerm2 pictures stay on the screen until deleted.
            if locked { try? session.write(renderer.releaseGraphics()) }
            renderer.invalidate()
        case .checkPasscode(let typed):
            // Argon2id takes a moment: the screen stays live meanwhile.
            Task.detached { self.post(.passcodeChecked(lock?.check(typed) ?? .wrong)) }
        case .selfDestruct:
            exit.withLock { $0 = .selfDestruct }
            model.running = false
        case .chatData(let action):
            guard let data else { return post(.failed("Chat data cannot be changed here")) }
            perform(action, data: data, model: &model)
        case .changeLock(let change):
            guard let lock else { return post(.failed("SimpleX Lock cannot be changed here")) }
            Task.detached {
                do throws(AppPasscode.Failure) {
                    let note = try lock.apply(change)
                    self.post(.lockChanged(lock.settings(), note: note, isError: false))
                } catch {
                    self.post(.lockChanged(lock.settings(), note: error.description, isError: true))
                }
            }
        case .suspend:
            try? session.write(renderer.releaseGraphics())
            try? session.suspend()
            renderer.invalidate()
            if let size = try? session.size() {
                model.width = size.width
                model.height = size.height
            }
        case .copy(let text):
            // OSC 52 reaches the clipboard through the terminal (over ssh too); the runner also
            // tries wl-copy / xclip.
            let encoded = Data(text.utf8).base64EncodedString()
            try? session.write(Array("\u{1B}]52;c;\(encoded)\u{07}".utf8))
            coreEffects.enqueue(effect)
        case .openEditor(let text):
            let edited = editExternally(text)
            renderer.invalidate()
            post(.editorClosed(edited))
        case .createProfile(let name):
            do {
                let (user, effects) = try await createProfile(name)
                runner.withLock { $0 = effects }
                post(.profileCreated(user))
            } catch {
                post(.failed("could not create the profile: \(error)"))
            }
        case .saveDraft:
            break
        default:
            coreEffects.enqueue(effect)
        }
    }

    /// Chat data's actions: stopping drops the effect runner first (nothing reaches a stopped
    /// core); running again, and a changed database, end this client for a new one.
    private func perform(_ action: ChatDataAction, data: ChatDataAccess, model: inout AppModel) {
        func result(running: Bool? = nil, usage: FilesUsage? = nil, note: String?, isError: Bool = false) {
            post(.chatDataChanged(running: running, usage: usage, note: note, isError: isError))
        }
        switch action {
        case .loadUsage:
            result(usage: data.filesUsage(), note: nil)
        case .start:
            exit.withLock { $0 = .restart(note: "the chat runs again") }
            model.running = false
        case .stop:
            runner.withLock { $0 = nil }
            Task {
                await data.stop()
                result(running: false, note: "chat stopped: export, import or delete the database now; Run chat starts it again")
            }
        case .export(let path, let passphrase):
            Task {
                do { result(note: try await data.export(path, passphrase)) } catch { result(note: "\(error)", isError: true) }
            }
        case .importArchive, .deleteDatabase, .changePassphrase:
            Task {
                do {
                    let note: String
                    switch action {
                    case .importArchive(let path, let passphrase): note = try await data.importArchive(path, passphrase)
                    case .changePassphrase(let current, let new): note = try await data.changePassphrase(current, new)
                    default: note = try await data.deleteDatabase()
                    }
                    exit.withLock { $0 = .restart(note: note) }
                    post(.terminalClosed)
                } catch {
                    result(note: "\(error)", isError: true)
                }
            }
        }
    }

    private func draw(_ model: inout AppModel, view: AppView, renderer: inout Renderer) {
        let screen = view.draw(&model)
        // The page runs on the core's worker while the user reads this frame.
        if let page = model.pageRequest(screen) { coreEffects.enqueue(page) }
        let frame = Frame(
            width: model.width, height: model.height, lines: screen.lines,
            cursor: screen.cursor.map { ScreenPosition(row: $0.row, column: $0.column) })
        let store = view.layouter.pictures
        let kind = renderer.graphics
        let cell = renderer.cell
        let bytes = renderer.render(frame) { picture in
            kind.flatMap { store.graphics(picture, as: $0, cell: cell) }
        }
        if !bytes.isEmpty { try? session.write(bytes) }
    }

    /// `$VISUAL` / `$EDITOR` (else vi) on a 0600 temporary file with the draft; the text after it
    /// exits with status 0, nil otherwise. The terminal is handed to the editor meanwhile.
    private func editExternally(_ text: String) -> String? {
        let path = temporaryDirectory + "/draft-\(UUID().uuidString).txt"
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            return nil
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let editor = environment["VISUAL"] ?? environment["EDITOR"] ?? "vi"
        session.leave()
        defer { try? session.enter() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \(editor) \"$1\"", "editor", path]
        process.environment = environment
        do { try process.run() } catch { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0, let data = FileManager.default.contents(atPath: path) else { return nil }
        var edited = String(decoding: data, as: UTF8.self)
        if edited.hasSuffix("\n") { edited.removeLast() }
        return edited
    }
}
