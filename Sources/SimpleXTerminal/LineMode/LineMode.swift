import Foundation
import SimpleXChat
import SimpleXDesktop
import SimpleXProtocol
import Synchronization

/// `simplex-chat --cli`: the chat in lines, as the SimpleX terminal CLI — commands read from
/// standard input, messages and events printed as they come.
struct LineMode {
    let environment: [String: String]
    let servers: [String]
    /// A chat to open at start (`--open @12`).
    var open: String? = nil
    /// A link to connect to at start (`simplex-chat --cli simplex:/...`).
    var connect: String? = nil
    let output: @Sendable (String) -> Void
    let errors: @Sendable (String) -> Void
    let view = CLIView()

    /// Why `name` cannot be the user's display name (`Profile.displayNameProblem`).
    static func displayNameProblem(_ name: String) -> String? { Profile.displayNameProblem(name) }

    func run() async -> Int32 {
        let access: CoreAccess
        do {
            access = try await CoreAccess.open(
                environment: environment, askPassphrase: { [output] in PassphrasePrompt.read($0, output: output) }
            ) { errors("simplex-chat: \($0)") }
        } catch {
            errors("simplex-chat: \(error)")
            return error.status
        }
        let status = await run(access)
        await access.close()
        return status
    }

    private func run(_ access: CoreAccess) async -> Int32 {
        let container = access.container
        let input = StandardInput()

        let chat: ChatController
        do {
            if try ChatController.activeUser(groupDirectory: container.path, databaseKey: access.databaseKey) == nil {
                output("No user profile yet. Your display name (shown to your contacts, no spaces):")
                // Asked again until it is one word, as SimpleX's CLI does; only the end of the
                // input gives up.
                var name = ""
                while name.isEmpty {
                    guard let line = await input.nextLine() else {
                        errors("simplex-chat: a display name is needed (one word)")
                        return ExitStatus.failure
                    }
                    let candidate = line.trimmingCharacters(in: .whitespaces)
                    if let problem = Self.displayNameProblem(candidate) {
                        output("\(problem); your display name:")
                    } else {
                        name = candidate
                    }
                }
                _ = try ChatController.createUser(
                    groupDirectory: container.path, profile: Profile(displayName: name, fullName: ""),
                    databaseKey: access.databaseKey)
            }
            try access.applyServers(servers, environment: environment, note: output)
            if try ChatController.servers(groupDirectory: container.path, databaseKey: access.databaseKey).isEmpty {
                errors(
                    "simplex-chat: no relays configured: start with -s smp://<fingerprint>@<host>[:port] (make run starts a local one)"
                )
                return ExitStatus.usage
            }
            chat = try await access.openChat()
        } catch {
            let failure = ClientFailure(error)
            errors("simplex-chat: \(failure)")
            return failure.status
        }
        let session = Session()
        let chatRead = access.chatRead
        let printer = Task {
            for await event in chat.events {
                switch event {
                case .newItem(let contact, _), .itemUpdated(let contact, _):
                    session.setActive(contact.viewName)
                case .chatRead(let contact):
                    await chatRead("@\(contact.contactId)")
                default: break
                }
                view.event(event).forEach(output)
            }
        }
        await chat.start()
        let user = await chat.user
        output("Current user: \(user.profile.displayName)")
        // A notification click opens a chat: at start (--open), or on the running client (OpenChat).
        let opener: @Sendable (String) async -> Void = { [view, output] ref in
            await Self.openChat(ref, chat: chat, session: session, view: view, output: output)
        }
        // Share: a reply typed into a notification (or the share helper) is sent from here and
        // shown as if typed.
        let sharer: @Sendable (ClientHandoff.SharedContent, String) async throws -> String = { [view, output] content, ref in
            try await Self.share(
                content, to: ref, chat: chat, session: session, view: view,
                linkPreviews: GroupDefaults(container: container)[.privacyLinkPreviews], output: output)
        }
        await access.exportChatMethods(openChat: opener, share: sharer)
        if let open { await opener(open) }
        if let connect {
            do { try await perform(.connect(link: connect), chat: chat, session: session) } catch {
                output("error: \(error)")
            }
        }
        var rekey: (current: DatabaseKey, new: String)?
        while let line = await input.nextLine() {
            if let limit = input.terminalLineLimit, line.utf8.count >= limit {
                // The terminal dropped what came after: sending the rest would send a cut message.
                output(
                    "error: the terminal cut this line at \(limit) bytes, so nothing was sent: send long text with simplex-chat -e, or as a file with /f"
                )
                continue
            }
            do {
                switch try DatabasePassphraseCommand.parse(line) {
                case .store(let store)?:
                    output(try Self.setStored(store, access: access))
                    continue
                case .change(let current, let new)?:
                    // Checked before the chat stops: a wrong passphrase changes nothing.
                    rekey = (try Self.currentKey(current, access: access), new)
                case nil: break
                }
            } catch {
                output("error: \(error)")
                continue
            }
            if rekey != nil { break }
            let command: CLICommand?
            do { command = try CLICommand.parse(line) } catch {
                output("error: \(error)")
                continue
            }
            guard let command else { continue }
            if command == .quit { break }
            do {
                try await perform(command, chat: chat, session: session)
            } catch {
                output("error: \(error)")
            }
        }
        await chat.stop()
        await printer.value
        if let rekey {
            // The core is stopped and core.lock still held: nothing else writes the databases.
            do { output(try Self.changeKey(from: rekey.current, to: rekey.new, access: access)) } catch {
                errors("simplex-chat: \(error)")
                return error.status
            }
        }
        return ExitStatus.ok
    }

    /// Sends what `Share` brought to chat `ref` (`@12`): the text, then each file (the text goes
    /// with the first, as separate items here); returns the last item's reference (`@12/345`).
    private static func share(
        _ content: ClientHandoff.SharedContent, to ref: String, chat: ChatController, session: Session, view: CLIView,
        linkPreviews: Bool, output: @Sendable (String) -> Void
    ) async throws -> String {
        if let group = await SharedContentSender.group(ref, chat: chat) {
            let item: GroupChatItem
            do { item = try await SharedContentSender.send(content, to: group, chat: chat, linkPreviews: linkPreviews) } catch
                let failure as SharedContentSender.Failure
            {
                throw DBusError.invalidArgs(failure.description)
            }
            view.groupItem(item, group: group).forEach(output)
            return "\(ref)/\(item.itemId)"
        }
        guard let contact = await SharedContentSender.contact(ref, chat: chat) else {
            throw DBusError.invalidArgs("Share: no chat \(ref) (the line mode has no chat picker: name one, e.g. @12)")
        }
        let sent: [ChatItem]
        do { sent = try await SharedContentSender.send(content, to: contact, chat: chat, linkPreviews: linkPreviews) } catch
            let failure as SharedContentSender.Failure
        {
            throw DBusError.invalidArgs(failure.description)
        }
        for item in sent { view.item(item, contact: contact).forEach(output) }
        let last = sent.last
        session.setActive(contact.viewName)
        return last.map { "\(ref)/\($0.itemId)" } ?? ref
    }

    /// Makes the chat `ref` (`@12`) the active one and prints its last messages, as `/tail` does.
    private static func openChat(
        _ ref: String, chat: ChatController, session: Session, view: CLIView, output: @Sendable (String) -> Void
    ) async {
        guard ref.hasPrefix("@"), let id = Int64(ref.dropFirst()),
            let contact = try? await chat.contact(id: id)
        else {
            output("error: no chat \(ref) to open")
            return
        }
        session.setActive(contact.viewName)
        output("\(contact.viewName): the chat is open (a bare line goes there)")
        for item in (try? await chat.lastItems(in: contact.localDisplayName, count: 10)) ?? [] {
            view.item(item, contact: contact).forEach(output)
        }
        try? await chat.markRead(contact.localDisplayName)
    }

    private func perform(_ command: CLICommand, chat: ChatController, session: Session) async throws {
        switch command {
        case .createInvitation:
            view.invitation(try await chat.createInvitation()).forEach(output)
        case .connect(let link):
            try await chat.connect(link: link)
            output("connection request sent!")
        case .address:
            view.address(try await chat.contactAddress()).forEach(output)
        case .showAddress:
            view.address(try await chat.existingAddress()).forEach(output)
        case .deleteAddress:
            try await chat.deleteAddress()
            output("Your chat address is deleted - accepted contacts will remain connected.")
            output("To create a new chat address use /ad")
        case .acceptContact(let name, let incognito):
            let contact = try await chat.acceptContact(name, incognito: incognito)
            output("\(contact.viewName): accepting contact request...")
        case .rejectContact(let name):
            try await chat.rejectContact(name)
            output("\(name): contact request rejected")
        case .deleteContact(let name):
            try await chat.deleteContact(name)
            output("\(name): contact is deleted")
        case .clearChat(let name):
            let contact = try await chat.clearChat(name)
            output("\(contact.viewName): all messages are removed locally ONLY")
        case .send(let name, let text):
            try await send(name, text, chat: chat, session: session)
        case .sendToActive(let text):
            guard let name = session.active else {
                throw ChatError.invalidCommand("no chat yet: write @name message")
            }
            try await send(name, text, chat: chat, session: session)
        case .reply(let name, let quoted, let text):
            let item = try await chat.findItem(in: name, direction: nil, textPrefix: quoted)
            let sent = try await chat.send(to: name, .text(text), quoting: item)
            view.item(sent, contact: try await chat.contact(id: sent.contactId)).forEach(output)
        case .edit(let name, let old, let new):
            let item = try await chat.findItem(in: name, direction: .sent, textPrefix: old)
            let edited = try await chat.edit(item, in: name, to: .text(new))
            view.item(edited, contact: try await chat.contact(id: edited.contactId)).forEach(output)
        case .delete(let name, let text):
            let item = try await chat.findItem(in: name, direction: .sent, textPrefix: text)
            try await chat.delete(item, in: name, forEveryone: true)
            output("message deleted")
        case .react(let name, let marker, let text):
            guard let emoji = Self.emoji(marker) else {
                throw ChatError.invalidCommand("reactions are +1 -1 +😀 +😂 +😢 +❤️ +🚀 +✅")
            }
            let item = try await chat.findItem(in: name, direction: nil, textPrefix: text)
            let reacted = try await chat.react(
                item, in: name, emoji: emoji, add: !marker.hasPrefix("-") || marker == "-1")
            view.item(reacted, contact: try await chat.contact(id: reacted.contactId)).forEach(output)
        case .forward(let to, let from, let text):
            let item = try await chat.findItem(in: from, direction: nil, textPrefix: text)
            let sent = try await chat.send(to: to, item.content, forwarded: true)
            view.item(sent, contact: try await chat.contact(id: sent.contactId)).forEach(output)
        case .tail(let name, let count):
            if let name {
                for item in try await chat.lastItems(in: name, count: count) {
                    view.item(item, contact: try await chat.contact(id: item.contactId)).forEach(output)
                }
                try await chat.markRead(name)
            } else {
                var all: [(ChatItem, ChatContact)] = []
                for preview in try await chat.chatList() {
                    for item in try await chat.lastItems(in: preview.contact.localDisplayName, count: count) {
                        all.append((item, preview.contact))
                    }
                }
                for (item, contact) in all.sorted(by: { $0.0.itemId < $1.0.itemId }).suffix(count) {
                    view.item(item, contact: contact).forEach(output)
                }
            }
        case .search(let name, let text):
            let found = try await chat.search(text, in: name)
            if found.isEmpty { output("no messages found") }
            for (contact, item) in found.reversed() { view.item(item, contact: contact).forEach(output) }
        case .chats:
            var groups: [(group: ChatGroup, lastItem: GroupChatItem?)] = []
            for group in try await chat.groups() {
                groups.append((group, try await chat.groupItems(group.localDisplayName, count: 1).last))
            }
            view.chats(try await chat.chatList(), groups: groups).forEach(output)
        case .profile(let display, let full):
            try await chat.updateProfile(displayName: display, fullName: full)
            output(
                "user profile is changed to \(display)" + (full.isEmpty ? "" : " (\(full))")
                    + " (your contacts are notified)")
        case .alias(let name, let alias):
            let contact = try await chat.setAlias(name, alias: alias)
            output("contact \(contact.localDisplayName) alias: \(alias.isEmpty ? "removed" : alias)")
        case .info(let name, let text):
            let item = try await chat.findItem(in: name, direction: nil, textPrefix: text)
            view.info(item, try await chat.itemInfo(item)).forEach(output)
        case .servers(let texts):
            var addresses: [SMPServerAddress] = []
            for text in texts { addresses.append(try SMPServerAddress(text)) }
            // Through the running core's own (encrypted) store; its agent takes them at once.
            try await chat.setServers(addresses)
            output("relays saved: new connections use them")
        case .sendFile(let name, let path):
            let item = try await chat.sendFile(to: name, path: path)
            session.setActive(name)
            view.item(item, contact: try await chat.contact(id: item.contactId)).forEach(output)
        case .receiveFile(let id, let path):
            let file = try await chat.receiveFile(id, to: path)
            view.fileAccepted(file, contact: try await chat.filePeer(file)).forEach(output)
        case .cancelFile(let id):
            let file = try await chat.cancelFile(id)
            view.fileCancelled(file, contact: try await chat.filePeer(file)).forEach(output)
        case .localFiles(let delete):
            if delete {
                let removed = try await chat.deleteAllFiles()
                output("deleted \(removed) file\(removed == 1 ? "" : "s")")
            } else {
                let (count, bytes) = await chat.localFilesUsage()
                output("files and media: \(count) file\(count == 1 ? "" : "s"), \(FileChunking.readableSize(bytes))")
            }
        case .showTTL:
            output("delete messages after: \(ChatItemTTL.text(try await chat.chatItemTTL()))")
        case .setTTL(let seconds):
            let deleted = try await chat.setChatItemTTL(seconds)
            output(
                "delete messages after: \(ChatItemTTL.text(seconds))"
                    + (deleted > 0 ? "; \(deleted) older message\(deleted == 1 ? "" : "s") deleted" : ""))
        case .saveFile(let id, let path):
            output("file \(id) saved to \(try await chat.saveFile(id, to: path))")
        case .fileStatus(let id):
            let (file, done) = try await chat.fileStatus(id)
            view.fileStatus(file, chunksDone: done, contact: try await chat.filePeer(file))
                .forEach(output)
        case .chatCommand(let command):
            switch await chat.execute(command) {
            case .chatCmdError(_, let error): throw error
            case .userProfileUpdated(_, let from, let to, _):
                view.preferencesUpdated(from: from, to: to).forEach(output)
            case .userProfileNoChange: output("user profile did not change")
            default: output("ok")
            }
        case .createGroup, .addMember, .joinGroup, .groupMembers, .sendGroup, .editGroup, .deleteGroup, .tailGroup,
            .leaveGroup, .changeRole, .removeMember, .deleteGroupChat, .moderateGroup, .blockForAll, .reportGroup,
            .replyGroup, .reactGroup, .sendGroupFile:
            try await performGroup(command, chat: chat)
        case .groupAdmin(let command):
            try await performGroupAdmin(command, chat: chat)
        case .help:
            CLICommand.helpText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                .forEach(output)
        case .quit:
            break
        }
    }

    private func send(_ name: String, _ text: String, chat: ChatController, session: Session) async throws {
        let item = try await chat.send(to: name, .text(text))
        session.setActive(name)
        view.item(item, contact: try await chat.contact(id: item.contactId)).forEach(output)
    }

    static func emoji(_ marker: String) -> MsgReactionEmoji? {
        switch marker {
        case "+1", "+👍": return .thumbsUp
        case "-1", "+👎": return .thumbsDown
        default:
            let body = String(marker.dropFirst()).replacingOccurrences(of: "\u{FE0F}", with: "")
            return MsgReactionEmoji.allCases.first { $0.rawValue == body }
        }
    }
}

/// The chat a bare line goes to: the last one written to or received from.
private final class Session: Sendable {
    private let state = Mutex<String?>(nil)
    var active: String? { state.withLock { $0 } }
    func setActive(_ name: String) { state.withLock { $0 = name } }
}

/// Lines of standard input, read on a thread of their own so no cooperative thread blocks.
final class StandardInput: Sendable {
    /// When standard input is a terminal in canonical mode, the longest line it passes on
    /// whole: Linux keeps 4,095 bytes of a line and drops the rest, so a line that long may
    /// have been cut. Nil for a pipe or a file, whose lines arrive whole.
    let terminalLineLimit: Int? = {
        var settings = termios()
        guard isatty(STDIN_FILENO) != 0, tcgetattr(STDIN_FILENO, &settings) == 0,
            settings.c_lflag & tcflag_t(ICANON) != 0
        else { return nil }
        return 4_095
    }()

    private struct State {
        var lines: [String] = []
        var finished = false
        var waiter: CheckedContinuation<String?, Never>?
    }
    private let state = Mutex(State())

    init() {
        Thread { [self] in
            while let line = readLine() {
                let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
                    if let waiter = state.waiter {
                        state.waiter = nil
                        return waiter
                    }
                    state.lines.append(line)
                    return nil
                }
                waiter?.resume(returning: line)
            }
            let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
                state.finished = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }.start()
    }

    /// The next line, or nil at the end of input. One caller at a time.
    func nextLine() async -> String? {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> String?? in
                if !state.lines.isEmpty { return .some(state.lines.removeFirst()) }
                if state.finished { return .some(nil) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
