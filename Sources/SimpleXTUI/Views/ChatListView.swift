import Foundation
import SimpleXChat
import Synchronization

/// The chat list: two lines per chat (name and time; last message and unread count), requests
/// first, a filter typed by the user, an unread-only switch.
public struct ChatListView: Sendable {
    public var entries: [ChatListEntry] = []
    /// The selected chat (by id), kept across reloads.
    public var selectedID: String?
    /// Typed text that filters by name.
    public var filter = ""
    public var unreadOnly = false
    /// The first visible entry of the filtered list.
    var scrollTop = 0

    public init(entries: [ChatListEntry] = []) { self.entries = entries }

    /// Entries the filter and the unread switch let through, in list order.
    public var visible: [ChatListEntry] {
        // No filter: the entries as they are, not a copy of a thousand of them.
        guard unreadOnly || !filter.isEmpty else { return entries }
        return entries.filter { entry in
            if unreadOnly, entry.unreadCount == 0, !entry.unreadChat, !entry.isRequest { return false }
            guard !filter.isEmpty else { return true }
            return entry.searchableNames.contains { $0.localizedCaseInsensitiveContains(filter) }
        }
    }

    public var selected: ChatListEntry? {
        let shown = visible
        return shown.first { $0.id == selectedID } ?? shown.first
    }

    /// A new item of `contact`'s chat: it becomes the chat's last item (unread unless `read`) and
    /// the chat moves to the top, below the requests. False when the list has no such chat yet.
    @discardableResult
    public mutating func received(_ item: ChatItem, from contact: ChatContact, read: Bool) -> Bool {
        guard let index = entries.firstIndex(where: { $0.contact?.contactId == contact.contactId }) else { return false }
        var entry = entries.remove(at: index)
        entry.kind = .contact(contact)
        entry.lastItem = item
        if !read {
            entry.unreadCount += 1
            if entry.minUnreadItemId == 0 { entry.minUnreadItemId = item.itemId }
        }
        entries.insert(entry, at: entries.firstIndex { !$0.isRequest } ?? entries.count)
        return true
    }

    /// An item changed (edited, its status, a reaction): the preview follows when it is the last.
    public mutating func changed(_ item: ChatItem, of contact: ChatContact) {
        guard let index = entries.firstIndex(where: { $0.contact?.contactId == contact.contactId }),
            entries[index].lastItem?.itemId == item.itemId
        else { return }
        entries[index].lastItem = item
    }

    /// The chat was marked read here.
    public mutating func markedRead(_ contactId: Int64) {
        guard let index = entries.firstIndex(where: { $0.contact?.contactId == contactId }) else { return }
        entries[index].unreadCount = 0
        entries[index].unreadChat = false
        entries[index].minUnreadItemId = 0
    }

    /// A key in a list used to pick a chat (forward to, share to): ↑↓ move, letters filter,
    /// Backspace unfilters; true for Enter, when the selected chat is the choice.
    public mutating func pickerKey(_ key: KeyInput) -> Bool {
        switch key {
        case .key(.up, _): move(-1)
        case .key(.down, _): move(1)
        case .key(.enter, _): return true
        case .character(let character):
            filter.append(character)
            selectedID = visible.first?.id
        case .key(.backspace, _):
            if !filter.isEmpty { filter.removeLast() }
        default: break
        }
        return false
    }

    /// Moves the selection by `offset` rows of the filtered list (clamped).
    public mutating func move(_ offset: Int) {
        let shown = visible
        guard !shown.isEmpty else { return }
        let current = shown.firstIndex { $0.id == selectedID } ?? 0
        selectedID = shown[max(0, min(shown.count - 1, current + offset))].id
    }

    /// Selects the n-th visible chat (Alt+1…9), when there is one.
    public mutating func select(index: Int) {
        let shown = visible
        if shown.indices.contains(index) { selectedID = shown[index].id }
    }

    /// The list drawn in `width` × `height` cells.
    public mutating func lines(
        width: Int, height: Int, style: ChatListStyle, now: Date, cache: ChatListRowCache? = nil
    ) -> [StyledLine] {
        var lines: [StyledLine] = []
        var header = StyledLine()
        header.append(" Chats", style.title)
        if unreadOnly { header.append(" · unread", style.secondary) }
        if !filter.isEmpty { header.append(" · /\(filter)", style.accent) }
        lines.append(header.truncated(to: width))
        let shown = visible
        if shown.isEmpty {
            lines.append(StyledLine(filter.isEmpty && !unreadOnly ? " No chats yet: Ctrl+N to connect" : " No chats match", style.secondary).truncated(to: width))
            return lines
        }
        let rowsPerEntry = 2
        let capacity = max(1, (height - 1) / rowsPerEntry)
        // As `selected` (the selected id, else the first), without filtering the list again per entry.
        let selectedIndex = shown.firstIndex { $0.id == selectedID } ?? 0
        if selectedIndex < scrollTop { scrollTop = selectedIndex }
        if selectedIndex >= scrollTop + capacity { scrollTop = selectedIndex - capacity + 1 }
        scrollTop = max(0, min(scrollTop, max(0, shown.count - capacity)))
        for (offset, entry) in shown[scrollTop...].prefix(capacity).enumerated() {
            let isSelected = scrollTop + offset == selectedIndex
            let number = scrollTop + offset < 9 ? scrollTop + offset + 1 : nil
            if let cache {
                lines += cache.rows(entry, width: width, selected: isSelected, number: number, style: style, now: now)
            } else {
                lines += Self.rows(entry, width: width, selected: isSelected, number: number, style: style, now: now)
            }
        }
        return lines
    }

    /// The two lines of one entry.
    static func rows(
        _ entry: ChatListEntry, width: Int, selected: Bool, number: Int?, style: ChatListStyle, now: Date
    ) -> [StyledLine] {
        let base = selected ? style.selected : Style.plain
        var nameLine = StyledLine()
        nameLine.append(selected ? "▌" : " ", selected ? style.accent : base)
        nameLine.append(entry.name, base.with(entry.unreadCount > 0 || entry.unreadChat ? .bold : []))
        if entry.isMuted { nameLine.append(" 🔕", base) }
        if entry.notifiesMentionsOnly { nameLine.append(" 🔕@", base) }
        let time = entry.activity.map { ChatTime.listText($0, now: now, timeZone: style.timeZone, format: style.timeFormat) } ?? ""
        let timeSpan = Span(time.isEmpty ? "" : " " + time + " ", base.foreground(style.secondaryColor))
        nameLine = nameLine.truncated(to: max(1, width - timeSpan.width)).padded(to: width - timeSpan.width, base)
        nameLine.append(timeSpan)

        var previewLine = StyledLine()
        previewLine.append(" ", base)
        let previewStyle = base.foreground(style.secondaryColor)
        let preview = Self.preview(entry, showPreviews: style.showPreviews)
        var badge = ""
        if entry.unreadCount > 0 {
            badge = entry.unreadMentions > 0 ? " @ \(entry.unreadCount) " : " \(entry.unreadCount) "
        } else if entry.unreadChat {
            badge = " ● "
        }
        let badgeSpan = Span(badge, base.foreground(style.accentColor).with(.bold).with(.reverse))
        let numberSpan = Span(number.map { " \($0)" } ?? "  ", base.foreground(style.secondaryColor).with(.dim))
        previewLine.append(preview, previewStyle)
        let room = max(1, width - badgeSpan.width - numberSpan.width)
        previewLine = previewLine.truncated(to: room).padded(to: room, base)
        previewLine.append(badgeSpan)
        previewLine.append(numberSpan)
        return [nameLine.truncated(to: width), previewLine.truncated(to: width)]
    }

    /// What the second line says about the chat.
    static func preview(_ entry: ChatListEntry, showPreviews: Bool) -> String {
        switch entry.kind {
        case .request: return "wants to connect: Enter to accept"
        case .pending(let connection):
            return connection.pccConnStatus == "new" ? "share the link to connect" : "waiting for the contact"
        case .group(let group):
            if entry.isGroupInvitation { return "invited: Enter to join" }
            guard showPreviews, let item = entry.groupLastItem else { return "" }
            let sender = item.member.map { $0.localDisplayName + ": " } ?? "you: "
            if item.moderation == .blocked { return sender + "blocked by admin" }
            if case .report = item.content, item.moderation == nil { return sender + item.content.displayText }
            return item.deleted || item.moderation != nil ? sender + "message deleted" : sender + Markdown.hidingSecrets(item.text).split(whereSeparator: \.isNewline).joined(separator: " ")
        case .contact(let contact):
            if !contact.ready { return "connecting…" }
            guard showPreviews, let item = entry.lastItem else { return "" }
            let own = item.direction == .sent ? "you: " : ""
            if item.deleted { return own + "message deleted" }
            let text = Markdown.hidingSecrets(item.text).split(whereSeparator: \.isNewline).joined(separator: " ")
            if !text.isEmpty { return own + text }
            switch item.content {
            case .image: return own + "image"
            case .video: return own + "video"
            case .voice: return own + "voice message"
            default: return own + (item.file.map { "file \($0.fileName)" } ?? "")
            }
        }
    }
}

/// Colours and options of the chat list.
public struct ChatListStyle: Sendable {
    public var title = Style(attributes: .bold)
    public var selected = Style(attributes: .reverse)
    public var secondaryColor = Color.brightBlack
    public var accentColor = Color.blue
    public var showPreviews = true
    public var timeZone = TimeZone.current
    public var timeFormat = TimeFormat.twentyFourHour

    public init() {}

    var secondary: Style { Style(foreground: secondaryColor) }
    var accent: Style { Style(foreground: accentColor) }
}

extension ChatTime {
    /// A chat list time. Today: `14:05`; this week: the weekday; earlier: `05.01.26`.
    static func listText(_ date: Date, now: Date, timeZone: TimeZone, format: TimeFormat) -> String {
        let day = day(date, timeZone)
        let today = self.day(now, timeZone)
        if day == today { return time(date, timeZone, format) }
        if day < today, today - day < 7 { return weekdays[((day % 7) + 11) % 7] }
        let (year, month, dayOfMonth) = civil(day)
        let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(dayOfMonth)).\(two(month)).\(two(year % 100))"
    }
}

/// The chat list's rows kept between frames: a keystroke in the compose field redraws the
/// screen, and the rows of chats that did not change (their entry, width, selection, the
/// minute their time is written for) are not laid out again.
public final class ChatListRowCache: Sendable {
    struct Key: Hashable {
        let id: String
        let width: Int
        let selected: Bool
        let number: Int?
        let minute: Int
        let showPreviews: Bool
    }

    private let rows = Mutex<[Key: (entry: ChatListEntry, lines: [StyledLine])]>([:])
    /// Rows kept at most (many screens of chats); beyond it the cache starts again.
    static let capacity = 4_000

    public init() {}

    func rows(
        _ entry: ChatListEntry, width: Int, selected: Bool, number: Int?, style: ChatListStyle, now: Date
    ) -> [StyledLine] {
        let key = Key(
            id: entry.id, width: width, selected: selected, number: number,
            minute: Int(now.timeIntervalSince1970 / 60), showPreviews: style.showPreviews)
        if let hit = rows.withLock({ $0[key] }), hit.entry == entry { return hit.lines }
        let lines = ChatListView.rows(entry, width: width, selected: selected, number: number, style: style, now: now)
        rows.withLock { rows in
            if rows.count >= Self.capacity { rows.removeAll(keepingCapacity: true) }
            rows[key] = (entry, lines)
        }
        return lines
    }
}
