import SimpleXChat

/// Terminal rows (seed 000 §9): full width, start-aligned, no bubbles; the sender name once per
/// run of messages; the time at the row end.
extension ChatViewLayout {
    /// Columns of the row's start padding (chatItemTextPadding, 12pt) and of its end padding.
    static let rowPadding = 1

    static func terminalBody(
        _ item: ChatViewItem, older: ChatViewItem?, width: Int, settings: ChatViewSettings,
        state: ItemRenderState
    ) -> ItemLines {
        let theme = settings.theme
        let start = rowStart(state, first: true, theme: theme)
        let inner = max(1, width - start.width - rowPadding)
        var lines: [StyledLine] = []
        if terminalItemShowsSender(item, older: older), let sender = item.sender {
            let style = Style(foreground: sender.isUser ? theme.primary : theme.secondary, attributes: .bold)
            lines.append(
                StyledLine(sender.isUser ? settings.userName : sender.name, style).truncated(to: inner))
            if terminalItemStartsWithCard(item) { lines.append(StyledLine()) }
        }
        let meta = self.meta(item, settings: settings).truncated(to: inner)
        let content = ContentLayout(settings: settings, state: state, terminal: true)
        var mediaPlacement: MediaPlacement?
        var metaOwnLine = false
        for part in content.parts(item, width: inner, metaWidth: meta.width) {
            lines.append(contentsOf: repeatElement(StyledLine(), count: part.gapAbove))
            if let media = part.media {
                mediaPlacement = MediaPlacement(
                    line: lines.count + media.line, column: start.width, size: media.size)
            }
            lines.append(contentsOf: part.lines)
            metaOwnLine = part.metaOwnLine
        }
        // The time on the last line when it fits with two cells before it, else on a line below
        // (terminalMetaGap, under a third of a line: no blank line).
        if !metaOwnLine, let last = lines.last, let joined = withMeta(last, meta, width: inner, gap: 2) {
            lines[lines.count - 1] = joined
        } else {
            lines.append(StyledLine().padded(to: inner - meta.width).appending(meta))
        }
        if !item.reactions.isEmpty {
            lines.append(contentsOf: repeatElement(StyledLine(), count: terminalCardBottomGap(item)))
            lines.append(contentsOf: reactions(item, width: inner, theme: theme))
        }
        let rest = rowStart(state, first: false, theme: theme)
        return ItemLines(
            lines: lines.enumerated().map { index, line in
                guard line.width > 0 || state.isCursor || state.isSelected else { return line }
                var row = index == 0 ? start : rest
                row.append(line)
                return row
            }, media: mediaPlacement)
    }
}

extension StyledLine {
    /// This line followed by `other`.
    func appending(_ other: StyledLine) -> StyledLine {
        var copy = self
        copy.append(other)
        return copy
    }
}
