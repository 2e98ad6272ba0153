import SimpleXChat

/// The chat a share goes to, from what the user typed (`--to`).
struct ChatChoice {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The contact `text` names: `@12` / `12` by id, else `@name` / `name` by local name or alias
    /// (exactly, then ignoring case); several with that name are listed. A contact that cannot
    /// receive yet (still connecting, or it deleted us) is refused with why.
    static func resolve(_ text: String, among contacts: [ChatContact]) throws(Failure) -> ChatContact {
        let name = text.hasPrefix("@") ? String(text.dropFirst()) : text
        let found: ChatContact
        if let id = Int64(name) {
            guard let contact = contacts.first(where: { $0.contactId == id }) else {
                throw Failure(description: "no chat @\(id)\(known(contacts))")
            }
            found = contact
        } else {
            var matches = contacts.filter { $0.localDisplayName == name || $0.localAlias == name }
            if matches.isEmpty {
                let lowered = name.lowercased()
                matches = contacts.filter { $0.localDisplayName.lowercased() == lowered || $0.localAlias.lowercased() == lowered }
            }
            guard !matches.isEmpty else { throw Failure(description: "no chat named \(name)\(known(contacts))") }
            guard matches.count == 1 else {
                let candidates = matches.map { "@\($0.contactId) (\($0.localDisplayName)\($0.localAlias.isEmpty ? "" : ", alias \($0.localAlias)"))" }
                throw Failure(description: "\(name) is ambiguous: \(candidates.joined(separator: ", ")); use the chat id")
            }
            found = matches[0]
        }
        guard found.active else { throw Failure(description: "\(found.viewName) deleted the contact: nothing can be sent there") }
        guard found.ready else { throw Failure(description: "\(found.viewName) is still connecting: nothing can be sent yet") }
        return found
    }

    private static func known(_ contacts: [ChatContact]) -> String {
        let names = contacts.filter(\.active).map(\.viewName)
        return names.isEmpty ? " (you have no contacts yet)" : ": your chats are \(names.joined(separator: ", "))"
    }
}
