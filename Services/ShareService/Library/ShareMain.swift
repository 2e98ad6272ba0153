import Foundation
import Glibc
import SimpleXChat
import SimpleXDesktop
import SimpleXSystem

/// The `simplex-share` program; the executable's main only calls `run`.
public enum ShareMain {
    /// Runs the command line. `standardInput` is read for the text when it is piped.
    public static func run(
        _ arguments: [String], environment: [String: String] = ProcessEnvironment.current,
        output: @escaping @Sendable (String) -> Void = { print($0) },
        errors: @escaping @Sendable (String) -> Void = {
            FileHandle.standardError.write(Data(($0 + "\n").utf8))
        }
    ) async -> Int32 {
        let command: ShareCommand
        let display = ProgressDisplay.forThisProcess()
        do {
            command = try ShareCommand.parse(
                arguments, workingDirectory: FileManager.default.currentDirectoryPath)
        } catch {
            errors("simplex-share: \(error)")
            await display.outcome(summary: "SimpleX Chat: not sent", body: error.description)
            return ShareExit.usage
        }
        guard case .share(var request) = command else {
            output(ShareCommand.usage)
            return ShareExit.ok
        }
        if request.text == nil, standardInputIsPiped(), let piped = readStandardInput() {
            request.text = piped
        }
        do {
            let line = try await share(request, environment: environment, display: display)
            // Started by a file manager, nobody sees standard error: the outcome is a notification.
            await display.outcome(
                summary: "SimpleX Chat", body: line.prefix(1).uppercased() + line.dropFirst())
            output(line)
            return ShareExit.ok
        } catch {
            await display.finish()
            errors("simplex-share: \(error.description)")
            await display.outcome(summary: "SimpleX Chat: not sent", body: error.description)
            return error.status
        }
    }

    /// No --to while the full-screen client runs: it shows its own chat picker and sends (as
    /// Telegram Desktop's -sendpath). nil when no client runs, or when it has no picker (the line
    /// mode): the helper then picks itself.
    private static func pickedByClient(
        _ request: ShareRequest, container: GroupContainer, contacts: [ChatContact],
        environment: [String: String]
    ) async throws(ShareSender.Failure) -> String? {
        guard let bus = try? await DBusConnection.session() else { return nil }
        defer { bus.close() }
        let sender = ShareSender(container: container, environment: environment, bus: bus)
        guard await sender.clientRuns() else { return nil }
        let directory = request.files.isEmpty ? "" : try SharedFiles.directory(in: container.path)
        var copies: [String] = []
        do throws(ShareSender.Failure) {
            for file in request.files { copies.append(try SharedFiles.keep(file, into: directory)) }
        } catch {
            if !directory.isEmpty { SharedFiles.remove(directory) }
            throw error
        }
        guard let reference = try await sender.throughClientPicker(request.text, copies) else {
            if !directory.isEmpty { SharedFiles.remove(directory) }
            return nil
        }
        let chat = reference.split(separator: "/").first.map(String.init) ?? reference
        let name = contacts.first { "@\($0.contactId)" == chat }?.viewName ?? chat
        let count = max(1, copies.count) == 1 ? "1 item" : "\(copies.count) items"
        return "sent \(count) to \(name) through the running client (\(reference))"
    }

    private static func share(
        _ request: ShareRequest, environment: [String: String], display: ProgressDisplay
    )
        async throws(ShareSender.Failure)
        -> String
    {
        guard request.text != nil || !request.files.isEmpty else {
            throw .init(
                description: "nothing to share: give files, --text, or pipe text in", status: ShareExit.usage)
        }
        let container: GroupContainer
        do { container = try GroupContainer.open(environment: environment) } catch {
            throw .init(description: "\(error)", status: ShareExit.unavailable)
        }
        if let chatName = request.chat, chatName.hasPrefix("#") {
            return try await shareToGroup(chatName, request, container: container, environment: environment)
        }
        // Every file is checked before anything is sent: nothing half sent.
        for file in request.files { try check(file) }
        let contacts: [ChatContact]
        let databaseKey = try await databaseKeyForReading(container: container, environment: environment)
        do {
            contacts = try ChatController.contacts(
                groupDirectory: container.path, databaseKey: databaseKey, recentFirst: request.chat == nil)
        } catch {
            let why = error == .noUser ? "no user profile yet: run simplex-chat --cli first" : "\(error)"
            throw .init(description: why, status: ShareExit.unavailable)
        }
        if request.chat == nil,
            let sent = try await pickedByClient(
                request, container: container, contacts: contacts, environment: environment)
        {
            return sent
        }
        let contact: ChatContact
        if let chatName = request.chat {
            do { contact = try ChatChoice.resolve(chatName, among: contacts) } catch {
                throw .init(description: error.description, status: ShareExit.dataError)
            }
        } else if ChatPicker.hasTerminal {
            // No --to: the user picks in the terminal, a contact or a group.
            let picker = ChatPicker(
                contacts: contacts.filter(\.active), groups: pickableGroups(container, databaseKey: databaseKey), files: !request.files.isEmpty)
            switch try picker.choose() {
            case .contact(let picked): contact = picked
            case .group(let group):
                return try await shareToGroup("#\(group.groupId)", request, container: container, environment: environment)
            case nil: throw .init(description: "no chat chosen: nothing was sent", status: ShareExit.usage)
            }
        } else {
            // Started without a terminal (a file manager): a dialog, or a terminal of its own.
            let choosable = contacts.filter(ChatPicker.selectable)
            let groups = pickableGroups(container, databaseKey: databaseKey).filter {
                ShareChoice.groupProblem($0, files: !request.files.isEmpty) == nil
            }
            let count = request.files.isEmpty ? 1 : request.files.count
            var again = request.text.map { ["--text", $0] } ?? []
            again += ["--"] + request.files
            switch DialogChooser(environment: environment).choose(choosable, groups: groups, items: count, again: again) {
            case .chosenGroup(let id):
                guard groups.contains(where: { $0.groupId == id }) else {
                    throw .init(description: "the dialog chose #\(id), which is not a group here", status: ShareExit.dataError)
                }
                return try await shareToGroup("#\(id)", request, container: container, environment: environment)
            case .chosen(let id):
                guard let picked = choosable.first(where: { $0.contactId == id }) else {
                    throw .init(
                        description: "the dialog chose @\(id), which is not a chat here",
                        status: ShareExit.dataError)
                }
                contact = picked
            case .cancelled:
                throw .init(description: "no chat chosen: nothing was sent", status: ShareExit.usage)
            case .handedToTerminal:
                return "choosing the chat in a new terminal"
            case .noDialog:
                throw .init(
                    description:
                        "no terminal and no dialog program (zenity, kdialog or yad) to choose the chat: "
                        + "run simplex-share --to @name in a terminal", status: ShareExit.usage)
            }
        }
        // Kept first (the originals may go), then the items: images prepared as iOS does.
        let directory = request.files.isEmpty ? "" : try SharedFiles.directory(in: container.path)
        // The files kept in the group directory and the items made of them (thumbnails, link
        // previews); run while the service suspends when this process sends itself.
        func prepare() throws(ShareSender.Failure) -> [SharedItem] {
            var copies: [String] = []
            do throws(ShareSender.Failure) {
                for file in request.files { copies.append(try SharedFiles.keep(file, into: directory)) }
                let previews = GroupDefaults(container: container)[.privacyLinkPreviews]
                do {
                    return try SharedItems.make(
                        text: request.text, files: copies, writingInto: directory,
                        linkPreview: previews ? { LinkPreviews.fetch($0) } : nil)
                } catch {
                    throw ShareSender.Failure(description: error.description, status: ShareExit.dataError)
                }
            } catch {
                if !directory.isEmpty { SharedFiles.remove(directory) }
                throw error
            }
        }
        let bus = try? await DBusConnection.session()
        defer { bus?.close() }
        var sender = ShareSender(container: container, environment: environment, bus: bus)
        sender.waits = TransferWaits(environment: environment)
        func counted(_ items: [SharedItem]) -> String { items.count == 1 ? "1 item" : "\(items.count) items" }
        if await sender.clientRuns() {
            let items = try prepare()
            let item = try await sender.throughClient(request.text, items.compactMap(\.path), to: contact)
            return "sent \(counted(items)) to \(contact.viewName) through the running client (\(item))"
        }
        let (items, files) = try await sender.standalone(preparing: prepare, to: contact, display: display)
        let count = counted(items)
        if let files, !files.isAccepted {
            let which = files.transfers.count == 1 ? "the file goes" : "the files go"
            return "sent \(count) to \(contact.viewName) (\(which) when \(contact.viewName) accepts)"
        }
        return "sent \(count) to \(contact.viewName)"
    }

    /// A file that can be sent: present, readable, a regular file, not over the limit.
    static func check(_ path: String) throws(ShareSender.Failure) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw .init(description: "\(path): no such file", status: ShareExit.noInput)
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            let what = (status.st_mode & S_IFMT) == S_IFDIR ? "a directory" : "not a regular file"
            throw .init(
                description: "\(path) is \(what): only files can be shared", status: ShareExit.dataError)
        }
        guard access(path, R_OK) == 0 else {
            throw .init(description: "\(path): cannot be read (permission denied)", status: ShareExit.noInput)
        }
        // A static image is made small enough first (a GIF goes as it is).
        let resized = ImagePreparation.isImageName(path) && !path.lowercased().hasSuffix(".gif")
        guard resized || Int64(status.st_size) <= FileChunking.maxFileSize else {
            throw .init(
                description:
                    "\(path) is \(status.st_size) bytes: over the \(FileChunking.maxFileSize / 1_048_576) MiB a chat can send",
                status: ShareExit.dataError)
        }
    }

    /// Whether standard input is a pipe or a file (`git log | simplex-share`, `< notes.txt`), not a
    /// terminal or the /dev/null a file manager gives.
    static func standardInputIsPiped() -> Bool {
        var status = stat()
        guard fstat(0, &status) == 0 else { return false }
        let type = status.st_mode & S_IFMT
        return type == S_IFIFO || type == S_IFREG
    }

    /// Piped text, without its final newline; nil when there is none.
    static func readStandardInput() -> String? {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        var text = String(decoding: data, as: UTF8.self)
        while text.hasSuffix("\n") { text.removeLast() }
        return text.isEmpty ? nil : text
    }
}
