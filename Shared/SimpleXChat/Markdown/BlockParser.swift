/// Block markdown (our extension, seed 000 §4): splits lines into blocks, recursively for quotes
/// and list items, and parses leaf text with SimpleX's inline markdown. See `BlockLine` for the
/// rules and where they differ from CommonMark.
enum BlockParser {
    /// How deep quotes and lists nest; deeper markers are text. A line of thousands of `>` would
    /// otherwise recurse as deep and could exhaust the stack.
    static let maxNestingDepth = 16

    /// The blocks of `lines`, inside `depth` quotes and list items, and the empty lines after the last one.
    static func parse(_ lines: ArraySlice<BlockLine>, depth: Int = 0) -> (
        blocks: [MarkdownBlock], trailingEmptyLines: Int
    ) {
        var blocks: [MarkdownBlock] = []
        var emptyLines = 0
        var index = lines.startIndex
        while index < lines.endIndex {
            if BlockLines.isBlank(lines[index]) {
                emptyLines += 1
                index += 1
                continue
            }
            let (content, next) = block(lines, at: index, depth: depth)
            blocks.append(MarkdownBlock(content, emptyLinesBefore: emptyLines))
            emptyLines = 0
            index = next
        }
        return (blocks, emptyLines)
    }

    /// The block starting at the non-blank line `start`, and the index after it.
    private static func block(_ lines: ArraySlice<BlockLine>, at start: Int, depth: Int) -> (
        MarkdownBlock.Content, Int
    ) {
        let line = lines[start]
        if let fence = BlockLines.codeFence(line) { return codeBlock(lines, at: start, fence) }
        if let (level, text) = BlockLines.heading(line) {
            return (.heading(level: level, text: inline([text])), start + 1)
        }
        if BlockLines.isRule(line) {
            return (.rule(markup: String(scalars: BlockLines.trimmed(line))), start + 1)
        }
        if depth < maxNestingDepth {
            if BlockLines.quoteContent(line) != nil { return quote(lines, at: start, depth: depth) }
            if let marker = BlockLines.listMarker(line) {
                return list(lines, at: start, marker, depth: depth)
            }
        }
        if let table = TableParser.table(lines, at: start) { return (.table(table.table), table.end) }
        return paragraph(lines, at: start, depth: depth)
    }

    /// Lines up to a blank line or a line that starts another block.
    private static func paragraph(_ lines: ArraySlice<BlockLine>, at start: Int, depth: Int) -> (
        MarkdownBlock.Content, Int
    ) {
        var end = start + 1
        while end < lines.endIndex && !BlockLines.isBlank(lines[end])
            && !interruptsParagraph(lines, at: end, depth: depth)
        {
            end += 1
        }
        return (.paragraph(inline(lines[start..<end])), end)
    }

    /// Whether the line at `index` starts a block that ends a paragraph before it. An ordered
    /// list does only when it starts at 1, so a number at a line start ("1984. It was...") is text.
    private static func interruptsParagraph(_ lines: ArraySlice<BlockLine>, at index: Int, depth: Int) -> Bool
    {
        let line = lines[index]
        if BlockLines.codeFence(line) != nil || BlockLines.heading(line) != nil || BlockLines.isRule(line)
            || TableParser.table(lines, at: index) != nil
        {
            return true
        }
        guard depth < maxNestingDepth else { return false }
        if BlockLines.quoteContent(line) != nil { return true }
        guard let marker = BlockLines.listMarker(line) else { return false }
        if case .ordered(let number, _) = marker.kind { return number == 1 }
        return true
    }

    /// A fenced code block, to the closing fence or the end of its container.
    private static func codeBlock(_ lines: ArraySlice<BlockLine>, at start: Int, _ fence: CodeFence)
        -> (MarkdownBlock.Content, Int)
    {
        var end = start + 1
        var code: [String] = []
        while end < lines.endIndex && !BlockLines.closes(lines[end], fence) {
            code.append(String(scalars: BlockLines.dropIndent(lines[end], fence.indent)))
            end += 1
        }
        let next = end < lines.endIndex ? end + 1 : end
        return (.codeBlock(language: fence.language, code: code.joined(separator: "\n")), next)
    }

    /// Consecutive `>` lines; their text, without the markers, holds blocks of its own.
    private static func quote(_ lines: ArraySlice<BlockLine>, at start: Int, depth: Int) -> (
        MarkdownBlock.Content, Int
    ) {
        var inner: [BlockLine] = []
        var end = start
        while end < lines.endIndex, let content = BlockLines.quoteContent(lines[end]) {
            inner.append(content)
            end += 1
        }
        return (.quote(parse(inner[...], depth: depth + 1).blocks), end)
    }

    /// Items of one list: each holds the lines indented to its content column (empty lines among
    /// them), and the list goes on while the next unindented line has a marker of the same kind.
    private static func list(
        _ lines: ArraySlice<BlockLine>, at start: Int, _ first: ListMarker, depth: Int
    )
        -> (MarkdownBlock.Content, Int)
    {
        var items: [MarkdownListItem] = []
        var marker = first
        var itemStart = start
        var emptyLinesBefore = 0
        while true {
            var itemLines: [BlockLine] = [marker.content]
            var next = itemStart + 1
            var emptyLines = 0
            while next < lines.endIndex {
                let line = lines[next]
                if BlockLines.isBlank(line) {
                    emptyLines += 1
                } else if BlockLines.indentation(line).columns >= marker.contentColumn {
                    itemLines += Array(repeating: BlockLine(), count: emptyLines)
                    itemLines.append(BlockLines.dropIndent(line, marker.contentColumn))
                    emptyLines = 0
                } else {
                    break
                }
                next += 1
            }
            items.append(
                MarkdownListItem(
                    parse(itemLines[...], depth: depth + 1).blocks, emptyLinesBefore: emptyLinesBefore))
            guard next < lines.endIndex, !BlockLines.isRule(lines[next]),
                let sibling = BlockLines.listMarker(lines[next]), first.continues(with: sibling)
            else {
                // The empty lines after the list belong to the block after it.
                let end = next - emptyLines
                switch first.kind {
                case .bullet(let bullet): return (.bulletList(marker: String(bullet), items: items), end)
                case .ordered(let number, let delimiter):
                    return (.orderedList(start: number, delimiter: String(delimiter), items: items), end)
                }
            }
            marker = sibling
            itemStart = next
            emptyLinesBefore = emptyLines
        }
    }

    /// The inline markdown of these lines, joined by line breaks.
    static func inline(_ lines: some Collection<BlockLine>) -> [FormattedText] {
        Markdown.parse(lines: lines.map { Array($0) })
    }
}
