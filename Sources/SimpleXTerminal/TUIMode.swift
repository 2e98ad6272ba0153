import Foundation
import SimpleXChat
import SimpleXDesktop
import SimpleXCrypto
import SimpleXTUI
import Synchronization

/// `simplex-chat` with no arguments: the full-screen client. The same handoff as the line mode
/// (CoreAccess), the same effects on the core; the terminal is restored however it ends.
struct TUIMode {
    let environment: [String: String]
    var servers: [String] = []
    /// A chat to open at start (`--open @12`).
    var open: String? = nil
    /// A `simplex:` link to connect to at start.
    var connect: String? = nil
    let errors: @Sendable (String) -> Void

    func run() async -> Int32 {
        var session: TerminalSession
        do { session = try TerminalSession.open() } catch {
            errors("simplex-chat: no terminal to draw on (\(error)): use simplex-chat --cli, or -e for one command")
            return ExitStatus.failure
        }
        var notes: [String] = []
        var access: CoreAccess
        do {
            // Asked before the full screen opens, on the terminal with echo off.
            access = try await CoreAccess.open(
                environment: environment,
                askPassphrase: { prompt in PassphrasePrompt.read(prompt) { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) } }
            ) { notes.append($0) }
        } catch {
            errors("simplex-chat: \(error)")
            return error.status
        }
        var profileName: String? = nil
        var lockAtStart = true
        // A key Chat data made (a new passphrase): the next client opens the databases with it.
        let nextKey = KeyBox()
        while true {
            let (status, exit) = await run(
                access, session: session, notes: notes, profileName: profileName, lockAtStart: lockAtStart,
                nextKey: nextKey)
            do {
                switch exit {
                case .quit:
                    await access.close()
                    return status
                case .selfDestruct:
                    // Everything goes, and the client starts again, empty, with core.lock still
                    // held (the service must not open what is being erased).
                    (access, profileName) = try access.selfDestruct()
                    notes = []
                    lockAtStart = true
                case .restart(let note):
                    // Chat data ran the chat again, or changed the database under it.
                    access = try access.reloaded(databaseKey: nextKey.take())
                    notes = note.map { [$0] } ?? []
                    profileName = nil
                    lockAtStart = false
                }
                // A terminal session reads its keys once: the new client gets a new one.
                session = try TerminalSession.open()
            } catch {
                await access.close()
                errors("simplex-chat: \(error)")
                return ExitStatus.failure
            }
        }
    }

    private func run(
        _ access: CoreAccess, session: TerminalSession, notes: [String], profileName: String?, lockAtStart: Bool,
        nextKey: KeyBox
    ) async -> (Int32, AppExit) {
        let container = access.container
        let defaults = GroupDefaults(container: container)
        let runtime = AppRuntime(
            session: session, environment: environment, temporaryDirectory: container.path + "/tmp")
        try? FileManager.default.createDirectory(
            atPath: container.path + "/tmp", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // Plain copies of files opened in a viewer: a viewer that outlived the last run has had them.
        let opened = AppEffects.openedFilesDirectory(container.path)
        LocalFile.removeOpenedCopies(privateRoot: opened)
        defer { LocalFile.removeOpenedCopies(privateRoot: opened) }
        let started = StartedCore()
        let user: ChatUser?
        do {
            if let profileName {
                _ = try ChatController.createUser(
                    groupDirectory: container.path, profile: Profile(displayName: profileName, fullName: ""),
                    databaseKey: access.databaseKey)
            }
            user = try ChatController.activeUser(groupDirectory: container.path, databaseKey: access.databaseKey)
            if user != nil { try await start(access, runtime: runtime, started: started, defaults: defaults) }
        } catch {
            errors("simplex-chat: \(ClientFailure(error))")
            return (ClientFailure(error).status, .quit)
        }
        let size = (try? session.size()) ?? TerminalSize(width: 80, height: 24)
        var model = AppModel(width: size.width, height: size.height, now: Date(), user: user)
        model.showPreviews = defaults[.privacyShowChatPreviews]
        model.saveDrafts = defaults[.privacySaveLastDraft]
        model.chatSettings.layout = defaults[.chatLayout]
        model.chatLayouts = defaults[.chatLayoutByChat]
        model.chatSettings.theme = Self.theme(defaults[.currentTheme])
        model.preferences = AppEffects.settings(from: defaults)
        model.preferences.databasePassphraseSet = DatabasePassphrase.isSet(groupDirectory: access.container.path)
        model.noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        let lock = AppLockStore(keychain: access.keychain, defaults: defaults)
        let lockSettings = lock.settings()
        model.lock = LockState(settings: lockSettings, locked: lockSettings.enabled && lockAtStart)
        model.preferences.lock = lockSettings
        model.preferences.chatItemTTL = await started.chatItemTTL()
        if let note = notes.first { model.status = (note, false) }
        if let open { runtime.post(.openRequested(open)) }
        if let connect { runtime.post(.connectRequested(connect)) }
        var exit = AppExit.quit
        do {
            let data = chatData(access, started: started, nextKey: nextKey)
            exit = try await runtime.run(
                model: model, layout: nil, effects: await started.effects, lock: lock, data: data
            ) { name in
                _ = try ChatController.createUser(
                    groupDirectory: container.path, profile: Profile(displayName: name, fullName: ""),
                    databaseKey: access.databaseKey)
                try await start(access, runtime: runtime, started: started, defaults: defaults)
                guard
                    let user = try ChatController.activeUser(
                        groupDirectory: container.path, databaseKey: access.databaseKey),
                    let effects = await started.effects
                else { throw ClientFailure("the profile was not saved") }
                return (user, effects)
            }
        } catch {
            errors("simplex-chat: the terminal: \(error)")
        }
        await started.stop()
        return (ExitStatus.ok, exit)
    }

    /// Opens and starts the core, forwards its events to the runtime and answers the bus.
    private func start(_ access: CoreAccess, runtime: AppRuntime, started: StartedCore, defaults: GroupDefaults) async throws {
        try access.applyServers(servers, environment: environment) { runtime.post(.notice($0)) }
        if try ChatController.servers(groupDirectory: access.container.path, databaseKey: access.databaseKey).isEmpty {
            throw ClientFailure(
                "no relays configured: start with -s smp://<fingerprint>@<host>[:port] (make run starts a local one)",
                status: ExitStatus.usage)
        }
        let chat = try await access.openChat()
        let chatRead = access.chatRead
        let forwarder = Task {
            for await event in chat.events {
                runtime.post(.core(event))
                if case .chatRead(let contact) = event { await chatRead("@\(contact.contactId)") }
            }
        }
        await chat.start()
        // Notifications while the client holds the core, on the session bus's notification server.
        let notifier: ClientNotifier? =
            environment["DBUS_SESSION_BUS_ADDRESS"] == nil
            ? nil : ClientNotifier(presenter: NotificationPresenter(appName: "SimpleX Chat", timeout: .seconds(5)), defaults: defaults)
        await notifier?.listen { runtime.post(.openRequested($0)) }
        let shareRequests = ShareRequests()
        var effects = AppEffects(
            chat: chat, groupDirectory: access.container.path, environment: environment, notifier: notifier,
            answerShare: { id, contactId in await shareRequests.answer(id, contactId) },
            chatRead: chatRead, report: { runtime.post($0) })
        effects.setPassphraseStored = { on in
            do {
                try DatabasePassphrase.setStored(
                    on, groupDirectory: access.container.path, keychain: access.keychain, current: access.databaseKey)
                try GroupDefaults(container: access.container).set(.storeDBPassphrase, on)
            } catch { throw ClientFailure("\(error)") }
        }
        await started.set(chat: chat, effects: effects, forwarder: forwarder)
        await access.exportChatMethods(
            openChat: { ref in runtime.post(.openRequested(ref)) },
            share: { content, ref in
                if let group = await SharedContentSender.group(ref, chat: chat) {
                    // Group chats are not on this client's screens yet (issue 24): sent, not shown.
                    do {
                        let item = try await SharedContentSender.send(content, to: group, chat: chat)
                        return "\(ref)/\(item.itemId)"
                    } catch let failure as SharedContentSender.Failure {
                        throw DBusError.invalidArgs(failure.description)
                    }
                }
                let contact: ChatContact
                if ref.isEmpty {
                    // No chat named: the user chooses one here (as Telegram Desktop's -sendpath).
                    let (id, answer) = await shareRequests.open()
                    runtime.post(.shareRequested(id: id, summary: Self.summary(content)))
                    guard let contactId = await answer(), let chosen = try? await chat.contact(id: contactId) else {
                        throw DBusError.failed("Share: the user did not choose a chat")
                    }
                    contact = chosen
                } else {
                    guard let named = await SharedContentSender.contact(ref, chat: chat) else {
                        throw DBusError.invalidArgs("Share: no chat \(ref)")
                    }
                    contact = named
                }
                let sent: [ChatItem]
                do {
                    sent = try await SharedContentSender.send(
                        content, to: contact, chat: chat, linkPreviews: defaults[.privacyLinkPreviews])
                } catch let failure as SharedContentSender.Failure {
                    throw DBusError.invalidArgs(failure.description)
                }
                for item in sent { runtime.post(.ownItem(contactId: contact.contactId, item)) }
                let chatRef = "@\(contact.contactId)"
                return sent.last.map { "\(chatRef)/\($0.itemId)" } ?? chatRef
            })
    }

    /// Settings → Chat data, done on this client's core and group directory.
    private func chatData(_ access: CoreAccess, started: StartedCore, nextKey: KeyBox) -> ChatDataAccess {
        let container = access.container
        return ChatDataAccess(
            stop: { await started.stop() },
            export: { path, passphrase in
                guard await !started.isRunning else { throw ClientFailure("stop the chat first") }
                let summary = try ChatArchive.export(
                    container: container, keychain: access.keychain, databaseKey: access.databaseKey, to: path,
                    passphrase: SecureBytes(copying: Array(passphrase.utf8)))
                return "exported to \(path): both databases and \(summary.files) file\(summary.files == 1 ? "" : "s"), sealed with the archive passphrase"
            },
            importArchive: { path, passphrase in
                guard await !started.isRunning else { throw ClientFailure("stop the chat first") }
                let summary = try ChatArchive.import(
                    from: path, passphrase: SecureBytes(copying: Array(passphrase.utf8)), container: container,
                    keychain: access.keychain)
                return "imported \((path as NSString).lastPathComponent) with \(summary.files) file\(summary.files == 1 ? "" : "s"): stop the chat on the other machine"
            },
            deleteDatabase: {
                guard await !started.isRunning else { throw ClientFailure("stop the chat first") }
                try ChatArchive.deleteDatabase(container: container, keychain: access.keychain)
                return "database deleted: make a new profile"
            },
            changePassphrase: { current, new in
                guard await !started.isRunning else { throw ClientFailure("stop the chat first") }
                let currentKey = try LineMode.currentKey(current, access: access)
                let note = try LineMode.changeKey(from: currentKey, to: new, access: access)
                nextKey.put(
                    new.isEmpty
                        ? try DatabaseKey.load(from: access.keychain)
                        : try DatabasePassphrase.unlock(
                            groupDirectory: container.path, keychain: access.keychain,
                            passphrase: SecureBytes(copying: Array(new.utf8))))
                return note.replacingOccurrences(of: "; the chat was stopped for it: start simplex-chat again", with: "")
            },
            filesUsage: { FilesUsage(ChatController.localFilesUsage(filesDirectory: container.filesDirectory)) })
    }

    /// What a share holds, for the picker's title: `2 files (a.txt, b.png) and text`.
    static func summary(_ content: ClientHandoff.SharedContent) -> String {
        let names = content.files.map { ($0 as NSString).lastPathComponent }
        var parts: [String] = []
        if names.count == 1 { parts.append(names[0]) }
        if names.count > 1 { parts.append("\(names.count) files (\(names.prefix(3).joined(separator: ", "))\(names.count > 3 ? ", …" : ""))") }
        if let text = content.text, !text.isEmpty { parts.append(names.isEmpty ? "“\(text.prefix(40))”" : "text") }
        return parts.joined(separator: " and ")
    }

    static func theme(_ name: String) -> Theme {
        switch name.uppercased() {
        case "LIGHT": .light
        case "DARK": .dark
        default: .terminal
        }
    }
}

/// `Share` calls waiting for the user to pick a chat in the client.
private actor ShareRequests {
    private var next = 1
    private var waiting: [Int: CheckedContinuation<Int64?, Never>] = [:]
    private var answers: [Int: Int64?] = [:]

    /// A new request's id, and how to wait for its answer.
    func open() -> (Int, @Sendable () async -> Int64?) {
        let id = next
        next += 1
        return (id, { await self.wait(id) })
    }

    private func wait(_ id: Int) async -> Int64? {
        if let answer = answers.removeValue(forKey: id) { return answer }
        return await withCheckedContinuation { waiting[id] = $0 }
    }

    func answer(_ id: Int, _ contactId: Int64?) {
        if let continuation = waiting.removeValue(forKey: id) {
            continuation.resume(returning: contactId)
        } else {
            answers[id] = contactId
        }
    }
}

/// A database key handed from a Chat data change to the next client.
private final class KeyBox: Sendable {
    private let key = Mutex<DatabaseKey?>(nil)
    func put(_ value: DatabaseKey) { key.withLock { $0 = value } }
    func take() -> DatabaseKey? { key.withLock { value in defer { value = nil }; return value } }
}

/// The core once it runs (at start, or after the first profile is made in the TUI).
private actor StartedCore {
    private var chat: ChatController?
    private(set) var effects: AppEffects?
    private var forwarder: Task<Void, Never>?

    func set(chat: ChatController, effects: AppEffects, forwarder: Task<Void, Never>) {
        self.chat = chat
        self.effects = effects
        self.forwarder = forwarder
    }

    var isRunning: Bool { chat != nil }

    /// "Delete messages after" of the running core (nil: never, or no core yet).
    func chatItemTTL() async -> Int? { (try? await chat?.chatItemTTL()) ?? nil }

    func stop() async {
        await chat?.stop()
        await forwarder?.value
        chat = nil
        effects = nil
    }
}
