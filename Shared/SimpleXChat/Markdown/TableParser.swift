/// GitHub pipe tables: a header row, a separator row of `-` cells with optional `:` for the
/// alignment, then body rows up to an empty line or a line without `|`.
///
/// ```
/// | Name  | Qty |
/// |:------|----:|
/// | apple |   3 |
/// ```
/// Leading and trailing pipes are optional; `\|` is a pipe inside a cell. The header and the
/// separator row need the same number of cells; body rows are padded or cut to it.
enum TableParser {
    /// The table starting at `start`, and the index after it.
    static func table(_ lines: ArraySlice<BlockLine>, at start: Int) -> (table: MarkdownTable, end: Int)? {
        guard start + 1 < lines.endIndex, lines[start].contains("|"), lines[start + 1].contains("|"),
            let alignments = separatorRow(lines[start + 1])
        else { return nil }
        let header = cells(lines[start])
        guard header.count == alignments.count else { return nil }
        var rows: [[[FormattedText]]] = []
        var end = start + 2
        while end < lines.endIndex, isBodyRow(lines[end]) {
            var row = cells(lines[end])
            if row.count > alignments.count { row.removeLast(row.count - alignments.count) }
            row += Array(repeating: [], count: alignments.count - row.count)
            rows.append(row)
            end += 1
        }
        return (MarkdownTable(alignments: alignments, header: header, rows: rows), end)
    }

    /// A body row has a `|` and does not start another kind of block.
    private static func isBodyRow(_ line: BlockLine) -> Bool {
        line.contains("|") && !BlockLines.isBlank(line) && BlockLines.codeFence(line) == nil
            && BlockLines.heading(line) == nil && BlockLines.quoteContent(line) == nil
            && !BlockLines.isRule(line)
    }

    /// The alignments of a separator row such as `|:--|:-:|--:|`, or nil when it is not one.
    private static func separatorRow(_ line: BlockLine) -> [MarkdownTable.Alignment]? {
        guard BlockLines.afterShortIndent(line) != nil else { return nil }
        var alignments: [MarkdownTable.Alignment] = []
        for cell in split(line) {
            let text = BlockLines.trimmed(cell)
            let left = text.first == ":"
            let right = text.last == ":" && text.count > 1
            let dashes = text.dropFirst(left ? 1 : 0).dropLast(right ? 1 : 0)
            guard !dashes.isEmpty, dashes.allSatisfy({ $0 == "-" }) else { return nil }
            switch (left, right) {
            case (true, true): alignments.append(.center)
            case (true, false): alignments.append(.left)
            case (false, true): alignments.append(.right)
            case (false, false): alignments.append(.none)
            }
        }
        return alignments.isEmpty ? nil : alignments
    }

    /// The inline markdown of each cell of a row.
    private static func cells(_ line: BlockLine) -> [[FormattedText]] {
        split(line).map { cell in
            let text = String(scalars: BlockLines.trimmed(cell)).replacingPipeEscapes
            return InlineParser.parse(line: Array(text.unicodeScalars))
        }
    }

    /// The cells of a row between unescaped pipes, without an outer pipe at either end.
    private static func split(_ line: BlockLine) -> [BlockLine] {
        var row = BlockLines.trimmed(line)
        if row.first == "|" { row = row.dropFirst() }
        if row.last == "|", !(row.count >= 2 && row[row.endIndex - 2] == "\\") { row = row.dropLast() }
        var cells: [BlockLine] = []
        var cellStart = row.startIndex
        var index = row.startIndex
        while index < row.endIndex {
            if row[index] == "\\" {
                index += 2
                continue
            }
            if row[index] == "|" {
                cells.append(row[cellStart..<index])
                cellStart = index + 1
            }
            index += 1
        }
        cells.append(row[cellStart..<min(index, row.endIndex)])
        return cells
    }
}

extension String {
    /// `\|` as `|`.
    fileprivate var replacingPipeEscapes: String {
        var result = ""
        var previousBackslash = false
        for scalar in unicodeScalars {
            if previousBackslash && scalar == "|" { result.removeLast() }
            result.unicodeScalars.append(scalar)
            previousBackslash = scalar == "\\"
        }
        return result
    }
}
