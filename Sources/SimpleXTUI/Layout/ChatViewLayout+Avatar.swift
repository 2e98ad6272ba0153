import Foundation

/// The avatar gutter of group chats (seed 000 §3: avatars in groups only): a member's profile
/// image drawn in one cell (chafa's symbols), or without one the member's initial in the member's
/// colour, beside the row that names the member, blank beside the rest, in both layouts.
extension ChatViewLayout {
    /// Cells the gutter takes: a space and the initial (the row's own start padding follows).
    public static let avatarGutterWidth = 2

    /// The colours members are told apart by (a member keeps one: it comes from its sender id).
    static let avatarColors: [Color] = [.red, .green, .yellow, .blue, .magenta, .cyan]

    public static func avatarColor(_ senderId: String) -> Color {
        // FNV-1a: stable across runs, unlike `hashValue`.
        let hash = senderId.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
        return avatarColors[Int(hash % UInt32(avatarColors.count))]
    }

    /// The item's lines in a group at `width`, the gutter included: the member's initial on the
    /// row that names the member (terminal rows name it in their sender row; classic bubbles get
    /// the name above a run's first bubble, as iOS draws it), blank beside the rest.
    public static func groupLines(
        for item: ChatViewItem, older: ChatViewItem?, width: Int, settings: ChatViewSettings,
        state: ItemRenderState, now: Date
    ) -> [StyledLine] {
        guard width > avatarGutterWidth * 2 else {
            return lines(for: item, older: older, width: width, settings: settings, state: state, now: now)
        }
        let inner = width - avatarGutterWidth
        var body = lines(for: item, older: older, width: inner, settings: settings, state: state, now: now)
        var senderRow: Int?
        if let sender = item.sender, !sender.isUser, !item.isEvent,
            terminalItemShowsSender(item, older: older)
        {
            let aboveCount = above(
                item, older: older, width: inner, settings: settings, state: state, now: now
            ).count
            senderRow = aboveCount
            if settings.layout == .classic {
                let style = Style(foreground: settings.theme.secondary, attributes: .bold)
                body.insert(StyledLine(" " + sender.name, style).truncated(to: inner), at: aboveCount)
            }
        }
        let blank = String(repeating: " ", count: avatarGutterWidth)
        return body.enumerated().map { index, line in
            var row = StyledLine()
            if index == senderRow, let sender = item.sender, let picture = sender.picture {
                row.append(" ")
                row.append(picture)
            } else if index == senderRow, let sender = item.sender {
                let initial = sender.name.first.map { String($0).uppercased() } ?? "?"
                row.append(" ")
                row.append(initial, Style(foreground: avatarColor(sender.id), attributes: [.bold, .reverse]))
            } else {
                row.append(blank)
            }
            row.append(line)
            return row
        }
    }
}
