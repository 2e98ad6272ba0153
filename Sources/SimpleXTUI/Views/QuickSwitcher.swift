/// Ctrl+K: type part of a name, the chats whose names match as a fuzzy subsequence are listed
/// best first, Enter opens the selected one.
public struct QuickSwitcher: Sendable {
    public var query = ComposeState()
    public var selected = 0
    let entries: [ChatListEntry]

    public init(entries: [ChatListEntry]) { self.entries = entries }

    /// Entries matching the query, best first (a prefix beats a word start beats letters
    /// spread out; ties keep the chat list's order).
    public var matches: [ChatListEntry] {
        let needle = Array(query.string.lowercased())
        guard !needle.isEmpty else { return entries }
        let scored = entries.enumerated().compactMap { index, entry -> (Int, Int, ChatListEntry)? in
            let best = entry.searchableNames.compactMap { Self.score(needle, in: $0) }.max()
            return best.map { ($0, index, entry) }
        }
        return scored.sorted { $0.0 != $1.0 ? $0.0 > $1.0 : $0.1 < $1.1 }.map(\.2)
    }

    /// nil when `needle` is not a subsequence of `name`.
    static func score(_ needle: [Character], in name: String) -> Int? {
        let hay = Array(name.lowercased())
        guard !hay.isEmpty else { return nil }
        var score = 0
        var position = 0
        var previous = -2
        for character in needle {
            guard let found = hay[position...].firstIndex(of: character) else { return nil }
            if found == 0 { score += 10 }
            if found > 0, !hay[found - 1].isLetter { score += 6 }
            if found == previous + 1 { score += 4 }
            score -= min(found - position, 5)
            previous = found
            position = found + 1
        }
        return score
    }

    public var choice: ChatListEntry? {
        let found = matches
        return found.isEmpty ? nil : found[min(selected, found.count - 1)]
    }

    public func lines(width: Int, height: Int) -> [StyledLine] {
        var lines = [StyledLine(" Go to chat: " + query.string + "▏", Style(attributes: .bold)).truncated(to: width)]
        let found = matches
        if found.isEmpty { lines.append(StyledLine("  no chat matches", Style(foreground: .brightBlack))) }
        for (index, entry) in found.prefix(max(1, height - 2)).enumerated() {
            let line = StyledLine((index == selected ? " ▸ " : "   ") + entry.name, index == selected ? Style(attributes: .reverse) : .plain)
            lines.append(line.truncated(to: width).padded(to: width, index == selected ? Style(attributes: .reverse) : .plain))
        }
        lines.append(StyledLine(" ↑↓ choose · Enter open · Esc close", Style(foreground: .brightBlack)).truncated(to: width))
        return lines
    }
}
