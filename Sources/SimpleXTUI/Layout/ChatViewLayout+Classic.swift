import SimpleXChat

/// Classic bubbles: received on the left, sent on the right, at most 3/4 of the width, the time
/// and status inside the bubble's last line; events centred without a bubble.
extension ChatViewLayout {
    /// The widest a bubble is, of the width (iOS maxWidth).
    static func bubbleMaxWidth(_ width: Int) -> Int { max(min(width, 8), width * 3 / 4) }

    static func classicBody(
        _ item: ChatViewItem, width: Int, settings: ChatViewSettings, state: ItemRenderState
    ) -> ItemLines {
        let theme = settings.theme
        let start = rowStart(state, first: true, theme: theme)
        let row = max(1, width - start.width - rowPadding)
        let meta = self.meta(item, settings: settings).truncated(to: row)
        let content = ContentLayout(settings: settings, state: state, terminal: false)
        let sent = item.sender?.isUser == true

        if item.isEvent || item.sender == nil && !item.isCardItem {
            // CIEventView: centred text, the time after it.
            var lines = content.parts(item, width: row, metaWidth: 0).flatMap(\.lines)
            if let last = lines.last, last.width + 1 + meta.width <= row {
                lines[lines.count - 1] = last.appending(StyledLine(" ")).appending(meta)
            } else {
                lines.append(meta)
            }
            return ItemLines(lines: place(lines.map { centred($0, width: row) }, state: state, theme: theme))
        }

        let boxed = theme.boxedBubbles
        let overhead = boxed ? 4 : 2
        let maxInner = max(1, min(row, bubbleMaxWidth(row)) - overhead)
        let parts = content.parts(item, width: maxInner, metaWidth: meta.width)
        var lines: [StyledLine] = []
        var media: (line: Int, size: CellSize)?
        var metaOwnLine = false
        for part in parts {
            lines.append(contentsOf: repeatElement(StyledLine(), count: part.gapAbove))
            if let box = part.media { media = (lines.count + box.line, box.size) }
            lines.append(contentsOf: part.lines)
            metaOwnLine = part.metaOwnLine
        }
        let emojiOnly = parts.count == 1 && parts[0].kind == .emoji
        // The bubble is as wide as its widest line, or the last line with the time beside it.
        var inner = lines.map(\.width).max() ?? 0
        let lastWidth = lines.last?.width ?? 0
        let metaBeside = !metaOwnLine && !lines.isEmpty && lastWidth + 1 + meta.width <= maxInner
        inner = min(maxInner, max(inner, metaBeside ? lastWidth + 1 + meta.width : meta.width))
        if metaBeside {
            lines[lines.count - 1] = lines[lines.count - 1].padded(to: inner - meta.width).appending(meta)
        } else {
            lines.append(StyledLine().padded(to: inner - meta.width).appending(meta))
        }

        var bubble: [StyledLine]
        let mediaColumn: Int
        if emojiOnly {
            // EmojiItemView: no bubble.
            bubble = lines
            mediaColumn = 0
        } else {
            let background = sent ? theme.sentBubble : theme.receivedBubble
            bubble = lines.map {
                bubbleLine($0, inner: inner, background: background, boxed: boxed, theme: theme)
            }
            if boxed {
                let border = Style(foreground: theme.secondary)
                bubble.insert(StyledLine("╭" + String(repeating: "─", count: inner + 2) + "╮", border), at: 0)
                bubble.append(StyledLine("╰" + String(repeating: "─", count: inner + 2) + "╯", border))
            }
            mediaColumn = boxed ? 2 : 1
        }
        let bubbleWidth = bubble.map(\.width).max() ?? 0
        let offset = sent ? max(0, row - bubbleWidth) : 0
        var rows = bubble.map { sent ? StyledLine(String(repeating: " ", count: offset)).appending($0) : $0 }
        for line in reactions(item, width: row, theme: theme) {
            rows.append(
                sent
                    ? StyledLine(String(repeating: " ", count: max(0, offset + bubbleWidth - line.width)))
                        .appending(line) : line)
        }
        let placement = media.map {
            MediaPlacement(
                line: $0.line + (boxed && !emojiOnly ? 1 : 0), column: start.width + offset + mediaColumn,
                size: $0.size)
        }
        return ItemLines(lines: place(rows, state: state, theme: theme), media: placement)
    }

    /// A content line in its bubble: padding (or box sides) and the background to the bubble's width.
    private static func bubbleLine(
        _ line: StyledLine, inner: Int, background: Color, boxed: Bool, theme: Theme
    ) -> StyledLine {
        let fill = Style(background: background)
        var content = StyledLine()
        for span in line.truncated(to: inner).spans {
            var style = span.style
            if style.background == .default { style.background = background }
            content.append(Span(sanitized: span.text, width: span.width, style: style))
        }
        content = content.padded(to: inner, fill)
        let side = Style(foreground: theme.secondary)
        var result = boxed ? StyledLine([Span("│", side), Span(" ", fill)]) : StyledLine(" ", fill)
        result.append(content)
        if boxed {
            result.append(" ", fill)
            result.append("│", side)
        } else {
            result.append(" ", fill)
        }
        return result
    }

    /// Rows after the row start (cursor mark, check box).
    private static func place(_ rows: [StyledLine], state: ItemRenderState, theme: Theme) -> [StyledLine] {
        rows.enumerated().map { index, line in
            rowStart(state, first: index == 0, theme: theme).appending(line)
        }
    }
}
