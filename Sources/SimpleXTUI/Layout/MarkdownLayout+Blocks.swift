import SimpleXChat

/// Block markdown: headings bold, lists with markers and indentation, quotes with a bar, code
/// blocks, tables and rules as cards (MarkdownBlocksView). Gaps have zero width.
extension MarkdownLayout {
    static let bullets = ["•", "◦", "▪"]

    func blocks(_ text: MarkdownBlocks, width: Int, minRuleWidth: Int) -> [StyledLine] {
        var rules: [Int] = []
        var lines = column(text.blocks, width: width, depth: 0, rules: &rules)
        lines.append(contentsOf: repeatElement(StyledLine(), count: emptyLines(text.trailingEmptyLines)))
        if !rules.isEmpty {
            // A rule is as wide as the widest block, so the column keeps one width.
            var widest = minRuleWidth
            for (index, line) in lines.enumerated() where !rules.contains(index) {
                widest = max(widest, line.width)
            }
            let rule = ruleLine(min(width, max(3, widest)))
            for index in rules { lines[index] = rule }
        }
        return lines
    }

    /// Blocks one under another; `rules` collects the indices of top-level rules (depth 0).
    private func column(_ blocks: [MarkdownBlock], width: Int, depth: Int, rules: inout [Int]) -> [StyledLine]
    {
        var lines: [StyledLine] = []
        var previous: MarkdownBlock?
        for block in blocks {
            let typed = block.emptyLinesBefore
            let gap: Int
            if let previous, previous.isCard || block.isCard {
                // A card next to another block: a paragraph gap, or the typed empty lines when higher.
                gap = terminal ? emptyLines(max(1, typed)) : max(1, emptyLines(typed))
            } else {
                gap = emptyLines(typed)
            }
            lines.append(contentsOf: repeatElement(StyledLine(), count: gap))
            if case .rule = block.content, depth == 0 {
                rules.append(lines.count)
                lines.append(StyledLine())
            } else {
                lines.append(contentsOf: self.block(block, width: width, depth: depth, rules: &rules))
            }
            previous = block
        }
        return lines
    }

    private func block(_ block: MarkdownBlock, width: Int, depth: Int, rules: inout [Int]) -> [StyledLine] {
        switch block.content {
        case .paragraph(let text):
            return StyledLine.wrap(runs(text), width: width)
        case .heading(_, let text):
            return StyledLine.wrap(runs(text, extra: .bold), width: width)
        case .bulletList(_, let items):
            let marker = Self.bullets[depth % Self.bullets.count] + " "
            return list(items.map { _ in marker }, items, width: width, depth: depth, rules: &rules)
        case .orderedList(let start, let delimiter, let items):
            let numbers = items.indices.map { "\(start + $0)\(delimiter)" }
            let widest = numbers.map(\.count).max() ?? 0
            let markers = numbers.map { String(repeating: " ", count: widest - $0.count) + $0 + " " }
            return list(markers, items, width: width, depth: depth, rules: &rules)
        case .quote(let blocks):
            var inner: [Int] = []
            let bar = Span("▌ ", Style(foreground: theme.quoteBar))
            return column(blocks, width: max(1, width - 2), depth: depth + 1, rules: &inner).map { line in
                var prefixed = StyledLine([bar])
                prefixed.append(line)
                return prefixed
            }
        case .codeBlock(_, let code):
            return codeCard(code, width: width)
        case .table(let table):
            return self.table(table, width: width)
        case .rule:
            return [ruleLine(min(width, 20))]
        }
    }

    private func list(
        _ markers: [String], _ items: [MarkdownListItem], width: Int, depth: Int, rules: inout [Int]
    ) -> [StyledLine] {
        var lines: [StyledLine] = []
        let markerStyle = base.foreground(theme.secondary)
        for (index, item) in items.enumerated() {
            if index > 0 {
                lines.append(
                    contentsOf: repeatElement(StyledLine(), count: emptyLines(item.emptyLinesBefore)))
            }
            let marker = Span(markers[index], markerStyle)
            let indent = Span(String(repeating: " ", count: marker.width))
            var inner: [Int] = []
            let body = column(
                item.blocks, width: max(1, width - marker.width), depth: depth + 1, rules: &inner)
            for (row, line) in (body.isEmpty ? [StyledLine()] : body).enumerated() {
                var prefixed = StyledLine([row == 0 ? marker : indent])
                prefixed.append(line)
                lines.append(row == 0 ? prefixed : (line.width == 0 ? StyledLine() : prefixed))
            }
        }
        return lines
    }

    func ruleLine(_ width: Int) -> StyledLine {
        StyledLine(String(repeating: "─", count: max(1, width)), Style(foreground: theme.secondary))
    }

    /// Code lines on the card background, one cell of padding at each side; long lines wrap with
    /// their spaces kept (a terminal cannot scroll one message sideways).
    private func codeCard(_ code: String, width: Int) -> [StyledLine] {
        let style = Style(foreground: theme.code, background: theme.cardBackground)
        let inner = max(1, width - 2)
        var rows: [StyledLine] = []
        for source in code.split(separator: "\n", omittingEmptySubsequences: false) {
            rows.append(
                contentsOf: Self.hardWrap(
                    source.replacingOccurrences(of: "\t", with: "    "), width: inner, style: style))
        }
        return Self.card(rows, width: width, style: style)
    }

    /// Rows on a card: one cell of padding each side, all as wide as the widest.
    static func card(_ rows: [StyledLine], width: Int, style: Style) -> [StyledLine] {
        let inner = min(max(1, width - 2), rows.map(\.width).max() ?? 0)
        let pad = Span(" ", style)
        return rows.map { row in
            var line = StyledLine([pad])
            line.append(row.truncated(to: inner))
            return line.padded(to: inner + 1, style).padded(to: inner + 2, style)
        }
    }

    /// Text cut into lines of at most `width` cells, spaces kept.
    static func hardWrap(_ text: String, width: Int, style: Style) -> [StyledLine] {
        var lines: [StyledLine] = []
        var piece = ""
        var pieceWidth = 0
        TextWidth.forEachGrapheme(text) { grapheme, cells in
            if pieceWidth + cells > width, pieceWidth > 0 {
                lines.append(StyledLine(piece, style))
                piece = ""
                pieceWidth = 0
            }
            piece += grapheme
            pieceWidth += cells
        }
        lines.append(StyledLine(piece, style))
        return lines
    }
}
