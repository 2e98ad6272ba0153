import SimpleXChat

/// Tables as cards, columns aligned by display width (CJK and emoji take their real cells).
extension MarkdownLayout {
    static let columnSeparator = " │ "

    func table(_ table: MarkdownTable, width: Int) -> [StyledLine] {
        let cardStyle = Style(background: theme.cardBackground)
        var header = base
        header.background = theme.cardBackground
        var body = base
        body.background = theme.cardBackground
        let headerCells = table.header.map { cell(runs($0, extra: .bold), style: header) }
        let rows = table.rows.map { row in row.map { cell(runs($0), style: body) } }
        let columns = max(headerCells.count, table.alignments.count)
        guard columns > 0 else { return [] }
        var widths = Array(repeating: 1, count: columns)
        for row in [headerCells] + rows {
            for (index, cell) in row.enumerated() where index < columns {
                widths[index] = max(widths[index], cell.width)
            }
        }
        // Narrow screens: the widest columns give up cells first; cut cells end with `…`.
        let room = max(columns, width - 2 - Self.columnSeparator.count * (columns - 1))
        while widths.reduce(0, +) > room, let widest = widths.indices.max(by: { widths[$0] < widths[$1] }),
            widths[widest] > 1
        {
            widths[widest] -= 1
        }
        let separator = Span(
            Self.columnSeparator, Style(foreground: theme.secondary, background: theme.cardBackground))
        func line(_ cells: [StyledLine]) -> StyledLine {
            var line = StyledLine()
            for index in 0..<columns {
                if index > 0 { line.append(separator) }
                let cell = index < cells.count ? cells[index].truncated(to: widths[index]) : StyledLine()
                let alignment = index < table.alignments.count ? table.alignments[index] : .none
                let spare = widths[index] - cell.width
                let before = alignment == .right ? spare : alignment == .center ? spare / 2 : 0
                line.append(Span(String(repeating: " ", count: before), cardStyle))
                line.append(cell)
                line.append(Span(String(repeating: " ", count: spare - before), cardStyle))
            }
            return line
        }
        let rule = widths.map { String(repeating: "─", count: $0) }.joined(separator: "─┼─")
        var result = [
            line(headerCells),
            StyledLine(rule, Style(foreground: theme.secondary, background: theme.cardBackground)),
        ]
        result.append(contentsOf: rows.map(line))
        return Self.card(result, width: width, style: cardStyle)
    }

    /// A cell on one line: its line breaks become spaces.
    private func cell(_ runs: [TextRun], style: Style) -> StyledLine {
        var line = StyledLine()
        for run in runs {
            var runStyle = run.style
            runStyle.background = style.background
            line.append(Span(run.text.replacingOccurrences(of: "\n", with: " "), runStyle))
        }
        return line
    }
}
