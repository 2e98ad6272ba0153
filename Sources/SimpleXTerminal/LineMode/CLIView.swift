import Foundation
import SimpleXChat

/// What the line mode prints, as the SimpleX terminal CLI prints it (ios-coordination.md §7):
/// pure functions from chat events and items to lines.
public struct CLIView: Sendable {
    /// For timestamps: `HH:MM` today, `MM-DD` before.
    public var timeZone: TimeZone
    public var now: @Sendable () -> Date

    public init(timeZone: TimeZone = .current, now: @escaping @Sendable () -> Date = Date.init) {
        self.timeZone = timeZone
        self.now = now
    }

    public func time(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let today = calendar.dateComponents([.year, .month, .day], from: now())
        func two(_ value: Int?) -> String { let v = value ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        if parts.year == today.year && parts.month == today.month && parts.day == today.day {
            return "\(two(parts.hour)):\(two(parts.minute))"
        }
        return "\(two(parts.month))-\(two(parts.day))"
    }

    /// An item as a chat line: `12:01 alice> hello` received, `12:01 @bob hello` sent.
    public func item(_ item: ChatItem, contact: ChatContact) -> [String] {
        if let file = item.file { return fileItem(item, file: file, contact: contact) }
        let prefix = item.direction == .sent ? "\(time(item.timestamp)) @\(contact.viewName) " : "\(time(item.timestamp)) \(contact.viewName)> "
        var text = item.text
        if item.forwarded { text = "[forwarded] " + text }
        if item.edited { text = "[edited] " + text }
        if item.deleted { text = "[marked deleted] " + text }
        var lines: [String] = []
        if let quote = item.quote {
            let author = quote.sentByUser == (item.direction == .sent) ? (item.direction == .sent ? "you" : contact.viewName) : (item.direction == .sent ? contact.viewName : "you")
            lines.append(prefix + "> \(author): \(quote.content.text)")
            lines.append(String(repeating: " ", count: prefix.count) + text)
        } else {
            lines.append(prefix + text)
        }
        if !item.reactions.isEmpty {
            lines.append(String(repeating: " ", count: prefix.count) + item.reactions.map(\.emoji).joined(separator: " "))
        }
        return lines
    }

    /// What the line mode prints for an event.
    public func event(_ event: ChatEvent) -> [String] {
        switch event {
        case .contactConnected(let contact):
            return ["\(contact.viewName): contact is connected"]
        case .chatRead:
            return []
        case .contactRequest(let request):
            return [
                "\(request.localDisplayName) (\(request.profile.fullName.isEmpty ? request.profile.displayName : request.profile.fullName)) wants to connect to you!",
                "to accept: /ac \(request.localDisplayName)",
                "to reject: /rc \(request.localDisplayName) (the sender will NOT be notified)",
            ]
        case .newItem(let contact, let item):
            // As SimpleX's CLI: of the event items only an integrity error is printed as it comes
            // (`alice> skipped message ID 3`); the others show in `/tail`.
            if let made = item.event, !made.isIntegrityError { return [] }
            return self.item(item, contact: contact)
        case .itemUpdated(let contact, let item), .itemDeleted(let contact, let item):
            if item.event != nil { return [] }  // a decryption error's count that grew
            return self.item(item, contact: contact)
        case .itemReaction(let contact, let item, let emoji, let add):
            let sign = add ? "+" : "-"
            return ["\(time(now())) \(contact.viewName)> \(sign)\(emoji) to: \(item.text)"]
        case .itemStatus, .itemsExpired:
            // SimpleX's CLI prints nothing when a disappearing message goes.
            return []
        case .contactUpdated(let contact, let old):
            // As SimpleX's CLI: by local names, which follow the contact's display name.
            let (name, fullName) = (contact.localDisplayName, contact.profile.fullName)
            if name == old.localDisplayName {
                guard fullName != old.profile.fullName else { return [] }
                return [
                    "contact \(name)"
                        + (fullName.isEmpty || fullName == name ? " removed full name" : " updated full name: \(fullName)")
                ]
            }
            return [
                "contact \(old.localDisplayName) changed to \(name)"
                    + (fullName.isEmpty || fullName == name ? "" : " (\(fullName))"),
                "use @\(name) <message> to send messages",
            ]
        case .contactPreferencesUpdated(let contact, let own, let old, let new):
            return contactPreferencesUpdated(contact, user: own, from: old, to: new)
        case .contactSwitchedDevice(let contact):
            return ["\(contact.viewName): contact is connected to another client"]
        case .file(let event):
            return fileEvent(event)
        case .group(let event):
            return groupEvent(event)
        case .error(let message):
            return ["error: \(message)"]
        }
    }

    /// A contact's changed preferences, as SimpleX's CLI prints them (`viewContactPrefsUpdated`):
    /// `alice updated preferences for you:`, then for each that changed its state between you,
    /// `Voice messages: off (you allow: default (yes), contact allows: no)`.
    func contactPreferencesUpdated(
        _ contact: ChatContact, user: ChatPreferences, from old: ChatPreferences, to new: ChatPreferences
    ) -> [String] {
        let changed = ChatFeature.allCases.compactMap { feature -> String? in
            let theirs = new.preference(feature)
            guard old.preference(feature) != theirs else { return nil }
            let (enabled, param) = ChatPreferences.featureState(feature, user: user, contact: new)
            // "default": this build has no preferences of the user's for one contact.
            return "\(feature.name): \(ChatItemEvent.enabledText(feature, enabled, param: param))"
                + " (you allow: default (\(user.preference(feature).text(feature))),"
                + " contact allows: \(theirs.text(feature)))"
        }
        return changed.isEmpty ? [] : ["\(contact.viewName) updated preferences for you:"] + changed
    }

    /// The user's changed preferences, as SimpleX's CLI prints them (`viewPrefsUpdated`):
    /// `updated preferences:`, then `Voice messages allowed: no` for each that changed.
    public func preferencesUpdated(from old: Profile, to new: Profile) -> [String] {
        let (before, after) = (ChatPreferences(json: old.preferences), ChatPreferences(json: new.preferences))
        let changed = ChatFeature.allCases.compactMap { feature -> String? in
            let preference = after.preference(feature)
            guard before.preference(feature) != preference else { return nil }
            return "\(feature.name) allowed: \(preference.text(feature))"
        }
        return changed.isEmpty ? [] : ["updated preferences:"] + changed
    }

    public func invitation(_ link: String) -> [String] {
        [
            "pass this invitation link to your contact (via another channel):", "", link, "",
            "and ask them to connect: /c <invitation_link_above>",
        ]
    }

    public func address(_ link: String) -> [String] {
        ["Your chat address:", "", link, "", "Anyone can send you contact requests with: /c <contact_link_above>"]
    }

    /// `/chats`: contacts (`@bob (2 unread): hi`) and groups (`#team: bob> hi`), most recent first.
    public func chats(_ previews: [ChatPreview], groups: [(group: ChatGroup, lastItem: GroupChatItem?)] = []) -> [String] {
        guard !previews.isEmpty || !groups.isEmpty else { return ["no chats"] }
        var entries: [(at: Date, line: String)] = previews.map { preview in
            let unread = preview.unreadCount > 0 ? " (\(preview.unreadCount) unread)" : ""
            let last = preview.lastItem.map { ": " + ($0.direction == .sent ? "you: " : "") + previewText($0) } ?? ""
            return (preview.lastItem?.timestamp ?? .distantPast, "@\(preview.contact.viewName)\(unread)\(last)")
        }
        entries += groups.map { (group, item) in
            (item?.timestamp ?? .distantPast, "#\(group.localDisplayName)" + (item.map { ": " + groupPreviewText($0) } ?? ""))
        }
        return entries.enumerated().sorted { ($0.element.at, $1.offset) > ($1.element.at, $0.offset) }.map(\.element.line)
    }

    /// An item as the chat list shows it: its text, or for a file without one the file's name; a
    /// message deleted for everyone shows that, never its old text.
    private func previewText(_ item: ChatItem) -> String {
        if item.deleted { return "[marked deleted]" }
        guard item.text.isEmpty, let file = item.file else { return item.text }
        return "file \(file.fileName)"
    }

    public func info(_ item: ChatItem, _ info: ChatItemInfo) -> [String] {
        var lines = ["message: \(item.text)", "sent: \(item.direction == .sent ? "yes" : "no"), at \(time(item.timestamp))"]
        for (status, at) in info.statuses { lines.append("status \(status.rawValue) at \(time(at))") }
        for (content, at) in info.versions { lines.append("earlier version (\(time(at))): \(content.text)") }
        return lines
    }
}
