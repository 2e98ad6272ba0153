import SimpleXChat

/// A context action on a chat item (seed 000 §7).
public enum ItemAction: String, CaseIterable, Sendable {
    case reply, forward, copy, edit, react, info, select, saveFile, openFile, openLink, reveal
    case deleteForMe, deleteForEveryone

    /// The key that runs it from the item cursor, and in the menu.
    public var key: Character {
        switch self {
        case .reply: "r"
        case .forward: "f"
        case .copy: "c"
        case .edit: "e"
        case .react: "+"
        case .info: "i"
        case .select: "v"
        case .saveFile: "s"
        case .openFile: "O"
        case .openLink: "o"
        case .reveal: "h"
        case .deleteForMe: "d"
        case .deleteForEveryone: "D"
        }
    }

    public var title: String {
        switch self {
        case .reply: "Reply"
        case .forward: "Forward"
        case .copy: "Copy"
        case .edit: "Edit"
        case .react: "React"
        case .info: "Info"
        case .select: "Select"
        case .saveFile: "Save file"
        case .openFile: "Open file"
        case .openLink: "Open link"
        case .reveal: "Reveal secret"
        case .deleteForMe: "Delete for me"
        case .deleteForEveryone: "Delete for everyone"
        }
    }

    /// The actions that apply to `item` (only these are listed).
    public static func applicable(to item: ChatItem, contactReady: Bool) -> [ItemAction] {
        // An item of the core's own (a gap, a feature change) is no message: nothing to reply
        // to, react to, forward or edit (iOS offers only these on event items).
        if item.event != nil { return [.info, .select, .deleteForMe] }
        var actions: [ItemAction] = []
        let live = !item.deleted
        if live, contactReady { actions.append(.reply) }
        if live, contactReady { actions.append(.react) }
        if live { actions.append(.forward) }
        if live, !item.text.isEmpty { actions.append(.copy) }
        if live, item.direction == .sent, contactReady, item.file == nil { actions.append(.edit) }
        if live, item.file != nil { actions.append(.saveFile) }
        if live, let file = item.file, file.filePath != nil, file.status == .rcvComplete || file.direction == .sent {
            actions.append(.openFile)
        }
        if live, Self.firstLink(in: item.text) != nil { actions.append(.openLink) }
        if live, Markdown.parse(item.text).contains(where: { if case .secret = $0.format { true } else { false } }) {
            actions.append(.reveal)
        }
        actions.append(.info)
        actions.append(.select)
        actions.append(.deleteForMe)
        if live, item.direction == .sent, contactReady { actions.append(.deleteForEveryone) }
        return actions
    }

    /// The first web link in `text`, as the markdown parser finds it.
    public static func firstLink(in text: String) -> String? {
        for run in Markdown.parse(text) {
            if case .uri = run.format { return run.text.contains("://") ? run.text : "https://" + run.text }
        }
        return nil
    }
}

/// The menu of what applies to the item under the cursor.
public struct ItemMenu: Sendable {
    public let item: ChatItem
    public let actions: [ItemAction]
    public var selected = 0

    public init(item: ChatItem, contactReady: Bool) {
        self.item = item
        actions = ItemAction.applicable(to: item, contactReady: contactReady)
    }

    public func lines(width: Int) -> [StyledLine] {
        var lines = [StyledLine(" Message actions", Style(attributes: .bold))]
        for (index, action) in actions.enumerated() {
            let style = index == selected ? Style(attributes: .reverse) : Style.plain
            var line = StyledLine()
            line.append(" \(action.key)  ", style.foreground(.blue))
            line.append(action.title, action == .deleteForMe || action == .deleteForEveryone ? style.foreground(.red) : style)
            lines.append(line.truncated(to: width).padded(to: width, style))
        }
        lines.append(StyledLine(" ↑↓ Enter, or the key · Esc close", Style(foreground: .brightBlack)))
        return lines.map { $0.truncated(to: width) }
    }
}

/// The reactions SimpleX offers (its `MsgReaction` emoji set) in a row to choose from.
public struct ReactionPicker: Sendable {
    public static let emoji = MsgReactionEmoji.allCases
    /// The direct chat's item reacted to; nil when it is a group's (`groupItem`).
    public let item: ChatItem?
    /// The group item reacted to, and its group.
    public let groupItem: GroupChatItem?
    public let groupId: Int64?
    public var selected = 0

    public init(item: ChatItem) {
        self.item = item
        groupItem = nil
        groupId = nil
    }

    public init(groupId: Int64, item: GroupChatItem) {
        self.item = nil
        groupItem = item
        self.groupId = groupId
    }

    /// Whether the user already reacted with `emoji` (choosing it again removes it).
    public func isMine(_ emoji: MsgReactionEmoji) -> Bool {
        if let groupItem {
            return groupItem.reactions.contains { $0.byUser && $0.emoji == emoji.displayText }
        }
        return item?.reactions.contains { $0.emoji == emoji.rawValue && $0.byUser } ?? false
    }

    public func lines(width: Int) -> [StyledLine] {
        var line = StyledLine(" React: ")
        for (index, emoji) in Self.emoji.enumerated() {
            let mine = isMine(emoji)
            line.append(" \(index + 1)", Style(foreground: .brightBlack))
            line.append(emoji.displayText, index == selected ? Style(attributes: .reverse) : mine ? Style(attributes: .underline) : .plain)
        }
        return [
            line.truncated(to: width),
            StyledLine(" ←→ or 1–8, Enter sets (again removes yours) · Esc close", Style(foreground: .brightBlack)).truncated(to: width),
        ]
    }
}

/// Why a member's message is reported, as SimpleX lists the reasons.
public struct ReportReasonPicker: Sendable {
    public static let reasons: [(reason: ReportReason, title: String)] = [
        (.spam, "Spam"), (.content, "Inappropriate content"), (.community, "Community guidelines violation"),
        (.profile, "Inappropriate profile"), (.other, "Another reason"),
    ]
    public let groupId: Int64
    public let item: GroupChatItem
    public var selected = 0

    public init(groupId: Int64, item: GroupChatItem) {
        self.groupId = groupId
        self.item = item
    }

    public func lines(width: Int) -> [StyledLine] {
        let author = item.member?.localDisplayName ?? ""
        var lines = [StyledLine(" Report \(author)'s message to the moderators", Style(attributes: .bold))]
        for (index, entry) in Self.reasons.enumerated() {
            let style = index == selected ? Style(attributes: .reverse) : Style.plain
            var line = StyledLine()
            line.append(" \(index + 1)  ", style.foreground(.blue))
            line.append(entry.title, style)
            lines.append(line.truncated(to: width).padded(to: width, style))
        }
        lines.append(StyledLine(" ↑↓ Enter, or the digit · Esc close", Style(foreground: .brightBlack)))
        return lines.map { $0.truncated(to: width) }
    }
}
