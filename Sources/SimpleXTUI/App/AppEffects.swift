import Foundation
import SimpleXChat
import SimpleXDesktop

/// Runs the app's effects against the chat core and the desktop, and reports each result as an
/// event. Effects that need the terminal itself (suspend, `$EDITOR`, the clipboard's OSC 52,
/// quitting) are the runtime's.
public struct AppEffects: Sendable {
    let chat: ChatController
    let groupDirectory: String
    let environment: [String: String]
    /// Where results go (the runtime's event queue).
    let report: @Sendable (AppEvent) -> Void
    /// Keeps the database passphrase's key in the keychain or removes it (the client's keychain
    /// and current key; nil where there is none to change).
    public var setPassphraseStored: (@Sendable (Bool) async throws -> Void)?
    /// Tells the service a chat was read here (its notifications go).
    let chatRead: @Sendable (String) async -> Void
    /// Desktop notifications while the client holds the core (nil without a session bus).
    let notifier: ClientNotifier?
    /// Answers a `Share` request waiting for the user's choice of chat.
    let answerShare: @Sendable (Int, Int64?) async -> Void

    public init(
        chat: ChatController, groupDirectory: String, environment: [String: String], notifier: ClientNotifier? = nil,
        answerShare: @escaping @Sendable (Int, Int64?) async -> Void = { _, _ in },
        chatRead: @escaping @Sendable (String) async -> Void, report: @escaping @Sendable (AppEvent) -> Void
    ) {
        self.answerShare = answerShare
        self.chat = chat
        self.notifier = notifier
        self.groupDirectory = groupDirectory
        self.environment = environment
        self.chatRead = chatRead
        self.report = report
    }

    /// The chat list as the core has it: requests first, then chats and pending connections.
    public func chatList() async -> [ChatListEntry] {
        let user = await chat.user
        let requests = (try? await chat.contactRequests()) ?? []
        var groups: [(ChatGroup, GroupChatItem?, unread: Int)] = []
        var mentions: [String: Int] = [:]
        do {
            for group in try await chat.groups() {
                let name = group.localDisplayName
                groups.append(
                    (group, try await chat.groupItems(name, count: 1).last, try await chat.groupUnreadCount(name)))
                mentions["#\(group.groupId)"] = try await chat.groupUnreadMentionCount(name)
            }
        } catch {
            report(.failed("groups could not be read: \(error)"))
        }
        guard case .apiChats(_, let chats) = await chat.execute(.apiGetChats(userId: user.userId, pendingConnections: true)) else {
            return ChatListEntry.merging(groups, into: ChatListEntry.entries(from: [], requests: requests))
                .withUnreadMentions(mentions)
        }
        return ChatListEntry.merging(groups, into: ChatListEntry.entries(from: chats, requests: requests))
            .withUnreadMentions(mentions)
    }

    /// Runs one effect (those the runtime does not handle itself).
    public func run(_ effect: AppEffect) async {
        do {
            try await perform(effect)
        } catch {
            report(.failed("\(error)"))
        }
    }

    private func perform(_ effect: AppEffect) async throws {
        switch effect {
        case .loadChatList:
            report(.chatList(await chatList()))
        case .openChat(let contactId, let around):
            let contact = try await chat.contact(id: contactId)
            let entry = await chatList().first { $0.id == "@\(contactId)" }
            let firstUnread = (entry?.minUnreadItemId ?? 0) > 0 ? entry?.minUnreadItemId : nil
            let pageSize = ChatViewState.pageSize
            var items: [ChatItem]
            if let target = around ?? firstUnread {
                items = try await chat.chatItems(contactId: contactId, .around(id: target, count: pageSize / 2))
                // Around the first unread: the newest are wanted too when few are unread.
                if around == nil, let last = items.last, last.itemId == entry?.lastItem?.itemId || items.count < pageSize / 2 {
                    items = try await chat.chatItems(contactId: contactId, .last(count: pageSize))
                    if !items.contains(where: { $0.itemId == target }) {
                        items = try await chat.chatItems(contactId: contactId, .around(id: target, count: pageSize / 2))
                    }
                }
            } else {
                items = try await chat.chatItems(contactId: contactId, .last(count: pageSize))
            }
            report(.chatOpened(contact, items, firstUnreadId: firstUnread, focusId: around))
        case .openFiltered(let contactId, let filter):
            let contact = try await chat.contact(id: contactId)
            let items = try await chat.chatItems(contactId: contactId, .last(count: ChatViewState.pageSize), filter: filter)
            report(.chatOpened(contact, items, firstUnreadId: nil, focusId: nil))
        case .loadOlder(let contactId, let before, let count, let filter):
            let items = try await chat.chatItems(contactId: contactId, .before(id: before, count: count), filter: filter)
            report(.olderPage(contactId: contactId, before: before, items, requested: count))
        case .loadNewer(let contactId, let after, let count, let filter):
            let items = try await chat.chatItems(contactId: contactId, .after(id: after, count: count), filter: filter)
            report(.newerPage(contactId: contactId, after: after, items, requested: count))
        case .send(let contactId, let text, let quoting):
            let name = try await chat.contact(id: contactId).localDisplayName
            let item = try await chat.send(to: name, Self.messageContent(text, groupDirectory: groupDirectory), quoting: quoting)
            report(.ownItem(contactId: contactId, item))
        case .edit(let contactId, let item, let text):
            let name = try await chat.contact(id: contactId).localDisplayName
            let edited = try await chat.edit(item, in: name, to: .text(text))
            report(.ownItem(contactId: contactId, edited))
        case .sendFile(let contactId, let path):
            let name = try await chat.contact(id: contactId).localDisplayName
            // An image goes as image content with its thumbnail, as the share helper sends it.
            let directory = groupDirectory + "/tmp"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for shared in try SharedItems.make(text: nil, files: [path], writingInto: directory) {
                let item = try await chat.sendFile(to: name, path: shared.path ?? path, content: shared.content)
                report(.ownItem(contactId: contactId, item))
            }
        case .delete(let contactId, let items, let forEveryone):
            let name = try await chat.contact(id: contactId).localDisplayName
            for item in items {
                try await chat.delete(item, in: name, forEveryone: forEveryone)
                let remaining = try? await chat.chatItems(contactId: contactId, .around(id: item.itemId, count: 0))
                report(.itemDeleted(contactId: contactId, itemId: item.itemId, replacement: remaining?.first { $0.itemId == item.itemId }))
            }
        case .react(let contactId, let item, let emoji, let add):
            let name = try await chat.contact(id: contactId).localDisplayName
            let reacted = try await chat.react(item, in: name, emoji: emoji, add: add)
            report(.ownItem(contactId: contactId, reacted))
        case .forward(let items, let toContactId):
            let name = try await chat.contact(id: toContactId).localDisplayName
            for item in items {
                // A file that is here goes with its message (read through its key when sealed at rest).
                if let file = item.file, let path = file.filePath, file.status == .rcvComplete || file.direction == .sent {
                    report(.ownItem(contactId: toContactId, try await chat.sendFile(to: name, path: path, content: item.content)))
                    continue
                }
                let sent = try await chat.send(to: name, item.content, forwarded: true)
                report(.ownItem(contactId: toContactId, sent))
            }
        case .markRead(let contactId):
            _ = try await chat.markRead(contactId: contactId)
            await chatRead("@\(contactId)")
            await notifier?.close(chat: "@\(contactId)")
        case .acceptRequest(let request, let incognito):
            let contact = try await chat.acceptContact(request.localDisplayName, incognito: incognito)
            report(.notice("accepted \(contact.viewName)\(incognito ? " incognito" : ""): connecting…"))
            report(.chatList(await chatList()))
        case .rejectRequest(let request):
            try await chat.rejectContact(request.localDisplayName)
            report(.notice("rejected \(request.localDisplayName)"))
            report(.chatList(await chatList()))
        case .createInvitation:
            report(.invitation(try await chat.createInvitation()))
        case .showAddress:
            report(.address(try await address()))
        case .connect(let link):
            try await chat.connect(link: link)
            report(.notice("connecting: the chat appears when the other side accepts"))
            report(.chatList(await chatList()))
        case .itemInfo(_, let item):
            let info = try await chat.itemInfo(item)
            report(.info(title: "Message info", lines: Self.infoLines(item, info)))
        case .receiveFile(let fileId):
            let file = try await chat.receiveFile(fileId)
            report(.notice("receiving \(file.fileName)…"))
        case .saveToDownloads(let file):
            let target = try Self.copyToDownloads(file, environment: environment)
            report(.notice("saved to \(target)"))
        case .search(let contactId, let text, let before, let count):
            let name = try await chat.contact(id: contactId).localDisplayName
            // One more than asked says whether older results exist.
            let found = try await chat.search(text, in: name, before: before, count: count + 1)
            report(
                .searchResults(
                    contactId: contactId, text: text, before: before, found.prefix(count).map(\.1),
                    more: found.count > count))
        case .searchAll(let text):
            let found = try await chat.search(text, in: nil, count: 100)
            report(.globalResults(text: text, found.map { FoundItem(contact: $0.0, item: $0.1) }))
        case .copy(let text):
            Self.copyWithProgram(text, environment: environment)
        case .openFile(let file):
            guard let opener = Program.find("xdg-open", environment: environment) else {
                return report(.failed("xdg-open is not installed: save the file with s"))
            }
            // A private plain copy (0600 in a 0700 directory) for the viewer; removed when the
            // client quits and at the next start, since xdg-open returns before the viewer ends.
            let copy = try LocalFile.openableCopy(of: file, privateRoot: Self.openedFilesDirectory(groupDirectory))
            let result = Program.run(opener, [copy], environment: environment, capture: false)
            if result.status != 0 { report(.failed("xdg-open could not open the file")) }
        case .openLink(let link):
            guard let opener = Program.find("xdg-open", environment: environment) else {
                return report(.failed("xdg-open is not installed: copy the link with c"))
            }
            let result = Program.run(opener, [link], environment: environment, capture: false)
            if result.status != 0 { report(.failed("xdg-open could not open the link")) }
        case .answerShare(let id, let contactId):
            await answerShare(id, contactId)
        case .notify(let event):
            await notifier?.notify(event, user: await chat.user)
        case .deleteAllFiles:
            let removed = try await chat.deleteAllFiles()
            report(
                .chatDataChanged(
                    running: nil, usage: FilesUsage(await chat.localFilesUsage()),
                    note: "deleted \(removed) file\(removed == 1 ? "" : "s"): the messages stay", isError: false))
        case .changeSetting, .loadServers, .addServer, .removeServer, .testServer, .loadNotificationStatus, .updateProfile,
            .setAlias, .setNotifications, .setReceipts, .setChatLayout, .clearChat, .deleteContact:
            try await performSettings(effect)
        case .openGroup, .sendGroup, .joinGroup, .createGroup, .inviteMembers, .loadGroupInfo, .leaveGroup, .deleteGroup,
            .editGroupItem, .deleteGroupItem, .moderateGroupItem, .blockMember, .loadGroupReports, .reportGroupItem, .createGroupLink,
            .replyGroup, .reactGroup, .sendGroupFile:
            try await performGroup(effect)
        case .createProfile, .saveDraft, .openEditor, .suspend, .quit, .setAppLocked, .checkPasscode, .selfDestruct, .changeLock, .chatData:
            break  // the runtime's (the terminal, the lock)
        }
    }

    /// The user's address, made on first use.
    private func address() async throws(ChatError) -> String {
        let existing: String?
        do { existing = try await chat.existingAddress() } catch {
            guard error == .noAddress else { throw error }
            existing = nil
        }
        if let existing { return existing }
        return try await chat.createAddress()
    }

    /// Item info: times, status history, earlier versions.
    static func infoLines(_ item: ChatItem, _ info: ChatItemInfo) -> [String] {
        let format = DateFormatter()
        format.dateFormat = "yyyy-MM-dd HH:mm:ss"
        var lines = [
            (item.direction == .sent ? "Sent at: " : "Received at: ") + format.string(from: item.timestamp),
        ]
        if item.forwarded { lines.append("Forwarded") }
        if let timed = item.timed { lines.append("Disappears: \(timed)") }
        if !info.statuses.isEmpty { lines.append("Status history:") }
        for (status, at) in info.statuses {
            lines.append("  \(format.string(from: at))  \(status.rawValue.replacingOccurrences(of: "_", with: " "))")
        }
        if !info.versions.isEmpty { lines.append("Earlier versions:") }
        for (content, at) in info.versions { lines.append("  \(format.string(from: at))  \(content.text)") }
        return lines
    }

    /// Where plain copies of files opened in a viewer are kept while the client runs.
    public static func openedFilesDirectory(_ groupDirectory: String) -> String { groupDirectory + "/tmp/open" }

    /// The XDG download directory (`xdg-user-dir DOWNLOAD`'s file, else ~/Downloads).
    static func downloadDirectory(environment: [String: String]) -> String {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let config = environment["XDG_CONFIG_HOME"] ?? home + "/.config"
        if let text = try? String(contentsOfFile: config + "/user-dirs.dirs", encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix("XDG_DOWNLOAD_DIR=") {
                let value = line.dropFirst("XDG_DOWNLOAD_DIR=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                return value.replacingOccurrences(of: "$HOME", with: home)
            }
        }
        return home + "/Downloads"
    }

    /// Writes the file's contents into the download directory under its name (a free name:
    /// `a (1).txt`), decrypted when it is sealed at rest; a tampered file writes nothing.
    static func copyToDownloads(_ file: ChatFile, environment: [String: String]) throws -> String {
        let name = FileNames.sanitized(file.fileName)
        let directory = downloadDirectory(environment: environment)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let base = (name as NSString).deletingPathExtension
        let ext = (name as NSString).pathExtension
        var target = directory + "/" + name
        var counter = 1
        while FileManager.default.fileExists(atPath: target) {
            target = directory + "/" + base + " (\(counter))" + (ext.isEmpty ? "" : "." + ext)
            counter += 1
        }
        try LocalFile.save(file, to: target)
        return target
    }

    /// The clipboard through wl-copy (Wayland) or xclip (X11), besides OSC 52.
    static func copyWithProgram(_ text: String, environment: [String: String]) {
        let bytes = Array(text.utf8)
        if environment["WAYLAND_DISPLAY"] != nil, let copy = Program.find("wl-copy", environment: environment) {
            _ = Program.run(copy, [], environment: environment, input: bytes)
        } else if environment["DISPLAY"] != nil, let copy = Program.find("xclip", environment: environment) {
            _ = Program.run(copy, ["-selection", "clipboard"], environment: environment, input: bytes)
        }
    }
}

extension AppEffects {
    /// A typed message as iOS sends it: with a link and `privacyLinkPreviews` on, link content
    /// with the page's preview (fetched here, before sending, so messages keep their order; a
    /// page that does not answer in 3 s leaves the message plain text). Read from GroupDefaults
    /// at each send, so the setting applies at once.
    static func messageContent(_ text: String, groupDirectory: String) -> MsgContent {
        let previews = GroupDefaults(path: groupDirectory + "/groupDefaults.json")[.privacyLinkPreviews]
        guard previews, let link = LinkPreviews.firstLink(in: text),
            let preview = LinkPreviews.fetch(link, timeout: .seconds(3))
        else { return .text(text) }
        return .link(text: text, preview: preview)
    }
}
