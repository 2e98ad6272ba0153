import SimpleXChat
import SimpleXDesktop

extension ShareMain {
    /// `--to '#team'`: text and files into a group, through the running client or with a core of our
    /// own. Every file is checked, and the group's files preference, before anything is sent.
    static func shareToGroup(
        _ chatName: String, _ request: ShareRequest, container: GroupContainer, environment: [String: String]
    ) async throws(ShareSender.Failure) -> String {
        guard request.text?.isEmpty == false || !request.files.isEmpty else {
            throw .init(description: "nothing to share: give files, --text, or pipe text in", status: ShareExit.usage)
        }
        for file in request.files { try check(file) }
        let groups: [ChatGroup]
        let databaseKey = try await databaseKeyForReading(container: container, environment: environment)
        do { groups = try ChatController.groups(groupDirectory: container.path, databaseKey: databaseKey) } catch {
            throw .init(description: "\(error)", status: ShareExit.unavailable)
        }
        let group: ChatGroup
        do { group = try ChatChoice.resolveGroup(chatName, among: groups) } catch {
            throw .init(description: error.description, status: ShareExit.dataError)
        }
        let name = "#\(group.localDisplayName)"
        if !request.files.isEmpty, !group.profile.allowsGroupFeature("files", role: group.membership.role) {
            throw .init(description: "files are prohibited in \(name)", status: ShareExit.dataError)
        }
        // Kept first (the originals may go), then the items: images prepared as iOS does.
        var copies: [String] = []
        var items: [SharedItem] = []
        let directory = request.files.isEmpty ? "" : try SharedFiles.directory(in: container.path)
        do throws(ShareSender.Failure) {
            for file in request.files { copies.append(try SharedFiles.keep(file, into: directory)) }
            let previews = GroupDefaults(container: container)[.privacyLinkPreviews]
            do {
                items = try SharedItems.make(
                    text: request.text, files: copies, writingInto: directory,
                    linkPreview: previews ? { LinkPreviews.fetch($0) } : nil)
            } catch {
                throw ShareSender.Failure(description: error.description, status: ShareExit.dataError)
            }
        } catch {
            if !directory.isEmpty { SharedFiles.remove(directory) }
            throw error
        }
        let bus = try? await DBusConnection.session()
        defer { bus?.close() }
        let sender = ShareSender(container: container, environment: environment, bus: bus)
        let count = items.count == 1 ? "1 item" : "\(items.count) items"
        if await sender.clientRuns() {
            let item = try await sender.throughClient(request.text, items.compactMap(\.path), chat: "#\(group.groupId)")
            return "sent \(count) to \(name) through the running client (\(item))"
        }
        try await sender.standalone(items, to: group)
        let files = items.contains { $0.path != nil } ? " (files go to each member who accepts them)" : ""
        return "sent \(count) to \(name)\(files)"
    }
}

extension ShareMain {
    /// The user's groups for the picker and the dialog (none when they cannot be read: the contacts
    /// are still offered).
    static func pickableGroups(_ container: GroupContainer, databaseKey: DatabaseKey?) -> [ChatGroup] {
        (try? ChatController.groups(groupDirectory: container.path, databaseKey: databaseKey)) ?? []
    }
}
