import Foundation
import SimpleXChat

/// The lines of one chat item and of what goes above it, at a width: pure, so the app lays out
/// only the visible window of a long chat. Every cell mapping of seed 000 §9 is in
/// docs/tui-chat-layout.md (the gap rule: a gap of a third of a line or more is one
/// blank line, a smaller one none; `chatItemTextPadding` is one cell).
public enum ChatViewLayout {
    /// The lines of `item` below `older` (the item just before it; nil for the oldest): the date
    /// separator when the day changes, the row gap, the "new messages" line, then the item. No
    /// line is wider than `width`.
    public static func lines(
        for item: ChatViewItem, older: ChatViewItem?, width: Int, settings: ChatViewSettings,
        state: ItemRenderState, now: Date
    ) -> [StyledLine] {
        layout(for: item, older: older, width: width, settings: settings, state: state, now: now).lines
    }

    /// The lines, and where an image or video box is among them (for the media view to draw into).
    public static func layout(
        for item: ChatViewItem, older: ChatViewItem?, width: Int, settings: ChatViewSettings,
        state: ItemRenderState, now: Date
    ) -> ItemLines {
        let width = max(1, width)
        var result = ItemLines(
            lines: above(item, older: older, width: width, settings: settings, state: state, now: now))
        var body: ItemLines
        switch settings.layout {
        case .terminal:
            body = terminalBody(item, older: older, width: width, settings: settings, state: state)
        case .classic: body = classicBody(item, width: width, settings: settings, state: state)
        }
        if state.isSelected {
            body.lines = body.lines.map { tinted($0, settings.theme.selectedBackground, width: width) }
        }
        if var media = body.media {
            media.line += result.lines.count
            result.media = media
        }
        result.lines.append(contentsOf: body.lines)
        return result
    }

    /// The newest row's bottom padding (8pt, over a third of a line): drawn by the list below it.
    public static let newestRowBottomLines = 1

    /// The date separator, the row gap and the "new messages" line.
    static func above(
        _ item: ChatViewItem, older: ChatViewItem?, width: Int, settings: ChatViewSettings,
        state: ItemRenderState, now: Date
    ) -> [StyledLine] {
        var lines: [StyledLine] = []
        let theme = settings.theme
        if older == nil || rowsSeparated(item, older: older, timeZone: settings.timeZone) {
            if older != nil { lines.append(StyledLine()) }
            let text = ChatTime.separator(item.timestamp, now: now, settings.timeZone)
            lines.append(
                centred(StyledLine(text, Style(foreground: theme.secondary, attributes: .bold)), width: width)
            )
        } else {
            let gap: Int
            switch settings.layout {
            case .terminal: gap = terminalRowGap(item, older: older, timeZone: settings.timeZone)
            case .classic: gap = older.map { isLargeGap(item, older: $0) } == true ? 1 : 0
            }
            lines.append(contentsOf: repeatElement(StyledLine(), count: gap))
        }
        if state.showsNewMessagesLineAbove {
            let style = Style(foreground: theme.newMessages)
            let label = StyledLine(" new messages ", style).truncated(to: width)
            let side = max(0, width - label.width)
            var line = StyledLine(String(repeating: "─", count: side / 2), style)
            line.append(label)
            line.append(String(repeating: "─", count: side - side / 2), style)
            lines.append(line)
        }
        return lines
    }

    /// Time, edit mark, timer and status, as CIMetaView: `✎ ⌛5m ✓✓ 12:01`.
    static func meta(_ item: ChatViewItem, settings: ChatViewSettings) -> StyledLine {
        let theme = settings.theme
        let style = Style(foreground: theme.secondary)
        var line = StyledLine()
        if item.edited { line.append("✎ ", style) }
        if let ttl = item.timedTTL { line.append("⌛" + ChatTime.ttl(ttl) + " ", style) }
        switch item.status {
        case .sndNew?: line.append("◷ ", style)
        case .sndSent?: line.append("✓ ", style)
        case .sndRcvd?: line.append("✓✓ ", style)
        case .sndError?: line.append("⚠ ", style.foreground(theme.error))
        case .rcvNew?, .rcvRead?, nil: break
        }
        line.append(ChatTime.time(item.timestamp, settings.timeZone, settings.timeFormat), style)
        return line
    }

    /// Reactions as lines of text, `👍 2  ❤️ 1`, the user's own in bold primary.
    static func reactions(_ item: ChatViewItem, width: Int, theme: Theme) -> [StyledLine] {
        var lines: [StyledLine] = []
        var line = StyledLine()
        for reaction in item.reactions {
            let style =
                reaction.byUser
                ? Style(foreground: theme.primary, attributes: .bold) : Style(foreground: theme.secondary)
            var chunk = StyledLine(reaction.emoji)
            chunk.append(" \(reaction.count)", style)
            chunk = chunk.truncated(to: width)
            if line.width > 0, line.width + 2 + chunk.width > width {
                lines.append(line)
                line = StyledLine()
            }
            if line.width > 0 { line.append("  ") }
            line.append(chunk)
        }
        if line.width > 0 { lines.append(line) }
        return lines
    }

    /// `line` with `meta` at its end, `width` cells from its start, when both fit with a gap of
    /// `gap` cells; nil when they do not.
    static func withMeta(_ line: StyledLine, _ meta: StyledLine, width: Int, gap: Int, style: Style = .plain)
        -> StyledLine?
    {
        guard line.width + gap + meta.width <= width else { return nil }
        var result = line.padded(to: width - meta.width, style)
        result.append(meta)
        return result
    }

    static func centred(_ line: StyledLine, width: Int) -> StyledLine {
        let cut = line.truncated(to: width)
        var result = StyledLine(String(repeating: " ", count: (width - cut.width) / 2))
        result.append(cut)
        return result
    }

    /// A selected row: the default background of each cell, and the rest of the row, tinted.
    static func tinted(_ line: StyledLine, _ color: Color, width: Int) -> StyledLine {
        var result = StyledLine()
        for span in line.spans {
            var style = span.style
            if style.background == .default { style.background = color }
            result.append(Span(sanitized: span.text, width: span.width, style: style))
        }
        return result.padded(to: width, Style(background: color))
    }

    /// The start of a row: the cursor mark in the start padding, then the check box when selecting.
    static func rowStart(_ state: ItemRenderState, first: Bool, theme: Theme) -> StyledLine {
        var start = state.isCursor ? StyledLine("▌", Style(foreground: theme.primary)) : StyledLine(" ")
        if state.selecting {
            start.append(first ? (state.isSelected ? "● " : "○ ") : "  ", Style(foreground: theme.primary))
        }
        return start
    }
}

/// An item's lines and where its media box is.
public struct ItemLines: Equatable, Sendable {
    public var lines: [StyledLine]
    /// The image or video placeholder, if the item has one.
    public var media: MediaPlacement?
    public init(lines: [StyledLine], media: MediaPlacement? = nil) {
        self.lines = lines
        self.media = media
    }
}

/// Where an image or video box is: its first line among an item's lines, its first column, its cells.
public struct MediaPlacement: Equatable, Sendable {
    public var line: Int
    public var column: Int
    public var size: CellSize
    public init(line: Int, column: Int, size: CellSize) {
        self.line = line
        self.column = column
        self.size = size
    }
}
