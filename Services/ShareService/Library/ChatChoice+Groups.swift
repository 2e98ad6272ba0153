import SimpleXChat

extension ChatChoice {
    /// The group `text` names: `#12` by id, else `#name` by local name (exactly, then ignoring case).
    /// A group the user cannot send to (not joined yet, left or removed, an observer) is refused with why.
    static func resolveGroup(_ text: String, among groups: [ChatGroup]) throws(Failure) -> ChatGroup {
        let name = text.hasPrefix("#") ? String(text.dropFirst()) : text
        let lowered = name.lowercased()
        let found =
            Int64(name).flatMap { id in groups.first { $0.groupId == id } }
            ?? groups.first { $0.localDisplayName == name }
            ?? groups.first { $0.localDisplayName.lowercased() == lowered }
        guard let group = found else {
            let names = groups.map { "#\($0.localDisplayName)" }
            throw Failure(
                description: "no group #\(name)"
                    + (names.isEmpty ? " (you are in no groups yet)" : ": your groups are \(names.joined(separator: ", "))"))
        }
        if let why = sendProblem(group) { throw Failure(description: why) }
        return group
    }

    /// Why nothing can be sent to `group` now, or nil when the user can send there.
    static func sendProblem(_ group: ChatGroup) -> String? {
        let name = "#\(group.localDisplayName)"
        switch group.membership.status {
        case .invited: return "you are invited to \(name) but have not joined: /j \(group.localDisplayName) first"
        case let status where !status.isCurrent: return "you are no longer a member of \(name): nothing can be sent there"
        default: break
        }
        guard group.membership.role >= .author else {
            return "you are an observer in \(name): observers cannot send messages"
        }
        return nil
    }
}
