import SimpleXChat
import SimpleXDesktop

extension ShareMain {
    /// `--to '#team'`: text into a group, through the running client or with a core of our own. Files
    /// are refused before anything is sent: the chat core sends files to contacts only so far.
    static func shareToGroup(
        _ chatName: String, _ request: ShareRequest, container: GroupContainer, environment: [String: String]
    ) async throws(ShareSender.Failure) -> String {
        guard request.files.isEmpty else {
            throw .init(
                description: "files cannot be shared into a group yet (only into a contact's chat): share text to \(chatName)",
                status: ShareExit.usage)
        }
        guard let text = request.text, !text.isEmpty else {
            throw .init(description: "nothing to share: give --text, or pipe text in", status: ShareExit.usage)
        }
        let groups: [ChatGroup]
        let databaseKey = try await databaseKeyForReading(container: container, environment: environment)
        do { groups = try ChatController.groups(groupDirectory: container.path, databaseKey: databaseKey) } catch {
            throw .init(description: "\(error)", status: ShareExit.unavailable)
        }
        let group: ChatGroup
        do { group = try ChatChoice.resolveGroup(chatName, among: groups) } catch {
            throw .init(description: error.description, status: ShareExit.dataError)
        }
        let bus = try? await DBusConnection.session()
        defer { bus?.close() }
        let sender = ShareSender(container: container, environment: environment, bus: bus)
        let name = "#\(group.localDisplayName)"
        if await sender.clientRuns() {
            let item = try await sender.throughClient(text, [], chat: "#\(group.groupId)")
            return "sent 1 item to \(name) through the running client (\(item))"
        }
        try await sender.standalone(text, to: group)
        return "sent 1 item to \(name)"
    }
}
