import Foundation
import SimpleXChat
import SimpleXDesktop
import SimpleXTUI

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
        let session: TerminalSession
        do { session = try TerminalSession.open() } catch {
            errors("simplex-chat: no terminal to draw on (\(error)): use simplex-chat --cli, or -e for one command")
            return ExitStatus.failure
        }
        var notes: [String] = []
        let access: CoreAccess
        do {
            access = try await CoreAccess.open(environment: environment) { notes.append($0) }
        } catch {
            errors("simplex-chat: \(error)")
            return error.status
        }
        let status = await run(access, session: session, notes: notes)
        await access.close()
        return status
    }

    private func run(_ access: CoreAccess, session: TerminalSession, notes: [String]) async -> Int32 {
        let container = access.container
        let defaults = GroupDefaults(container: container)
        let runtime = AppRuntime(
            session: session, environment: environment, temporaryDirectory: container.path + "/tmp")
        try? FileManager.default.createDirectory(
            atPath: container.path + "/tmp", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let started = StartedCore()
        let user: ChatUser?
        do {
            user = try ChatController.activeUser(groupDirectory: container.path)
            if user != nil { try await start(access, runtime: runtime, started: started, defaults: defaults) }
        } catch {
            errors("simplex-chat: \(ClientFailure(error))")
            return ClientFailure(error).status
        }
        let size = (try? session.size()) ?? TerminalSize(width: 80, height: 24)
        var model = AppModel(width: size.width, height: size.height, now: Date(), user: user)
        model.showPreviews = defaults[.privacyShowChatPreviews]
        model.saveDrafts = defaults[.privacySaveLastDraft]
        model.chatSettings.layout = defaults[.chatLayout]
        model.chatSettings.theme = Self.theme(defaults[.currentTheme])
        model.preferences = AppEffects.settings(from: defaults)
        model.noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        if let note = notes.first { model.status = (note, false) }
        if let open { runtime.post(.openRequested(open)) }
        if let connect { runtime.post(.connectRequested(connect)) }
        do {
            try await runtime.run(model: model, layout: nil, effects: await started.effects) { name in
                _ = try ChatController.createUser(
                    groupDirectory: container.path, profile: Profile(displayName: name, fullName: ""))
                try await start(access, runtime: runtime, started: started, defaults: defaults)
                guard let user = try ChatController.activeUser(groupDirectory: container.path),
                    let effects = await started.effects
                else { throw ClientFailure("the profile was not saved") }
                return (user, effects)
            }
        } catch {
            errors("simplex-chat: the terminal: \(error)")
        }
        await started.stop()
        return ExitStatus.ok
    }

    /// Opens and starts the core, forwards its events to the runtime and answers the bus.
    private func start(_ access: CoreAccess, runtime: AppRuntime, started: StartedCore, defaults: GroupDefaults) async throws {
        try access.applyServers(servers, environment: environment) { runtime.post(.notice($0)) }
        if try ChatController.servers(groupDirectory: access.container.path).isEmpty {
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
        let effects = AppEffects(
            chat: chat, groupDirectory: access.container.path, environment: environment, chatRead: chatRead,
            report: { runtime.post($0) })
        await started.set(chat: chat, effects: effects, forwarder: forwarder)
        await access.exportChatMethods(
            openChat: { ref in runtime.post(.openRequested(ref)) },
            share: { content, ref in
                guard let contact = await SharedContentSender.contact(ref, chat: chat) else {
                    throw DBusError.invalidArgs("Share: no chat \(ref)")
                }
                let sent: [ChatItem]
                do {
                    sent = try await SharedContentSender.send(
                        content, to: contact, chat: chat, linkPreviews: defaults[.privacyLinkPreviews])
                } catch let failure as SharedContentSender.Failure {
                    throw DBusError.invalidArgs(failure.description)
                }
                for item in sent { runtime.post(.ownItem(contactId: contact.contactId, item)) }
                return sent.last.map { "\(ref)/\($0.itemId)" } ?? ref
            })
    }

    static func theme(_ name: String) -> Theme {
        switch name.uppercased() {
        case "LIGHT": .light
        case "DARK": .dark
        default: .terminal
        }
    }
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

    func stop() async {
        await chat?.stop()
        await forwarder?.value
    }
}
