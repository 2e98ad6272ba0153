extension Markdown {
    /// The most markup tokens a text may have and still get blocks (seed 000 §4: "The core sends
    /// markdownBlocks for text with block syntax or an empty line, up to 2000 markup tokens").
    public static let maxMarkupTokens = 2000

    /// The blocks of `text` (the `markdownBlocks` a chat item carries), or nil when it should be
    /// drawn as lines of inline markdown only: when it has neither block syntax (a heading, list,
    /// quote, code block, table or rule) nor an empty line, or has more than `maxMarkupTokens`
    /// markup tokens (`markupTokenCount`). Over the limit, nothing is parsed as blocks: a client
    /// draws the `formattedText` runs, one full line per empty line.
    public static func parseBlocks(_ text: String) -> MarkdownBlocks? {
        let lines = blockLines(text)
        // Every line is a token, so a text of too many lines is refused before any parsing.
        guard lines.count <= maxMarkupTokens else { return nil }
        let (blocks, trailingEmptyLines) = BlockParser.parse(lines[...])
        let hasEmptyLine = lines.contains(where: BlockLines.isBlank)
        let hasBlockSyntax = blocks.contains { if case .paragraph = $0.content { false } else { true } }
        guard hasEmptyLine || hasBlockSyntax else { return nil }
        let parsed = MarkdownBlocks(blocks: blocks, trailingEmptyLines: trailingEmptyLines)
        guard lines.count + parsed.formattedRunCount <= maxMarkupTokens else { return nil }
        return parsed
    }

    /// The markup tokens of `text` as `parseBlocks` counts them: one per line (empty lines, code
    /// lines and table rows included; a final line break ends a line and adds none), plus one per
    /// formatted inline run in the block text (a bold run, a link, a mention...; merged runs of
    /// one format count once; code block content is not markup).
    public static func markupTokenCount(_ text: String) -> Int {
        let lines = blockLines(text)
        return lines.count + MarkdownBlocks(blocks: BlockParser.parse(lines[...]).blocks).formattedRunCount
    }

    /// The lines of `text` for blocks: as for inline markdown, with a `\r` before each `\n` dropped.
    static func blockLines(_ text: String) -> [BlockLine] {
        splitLines(text).map { line in line.last == "\r" ? line.dropLast() : line[...] }
    }
}

extension MarkdownBlocks {
    /// The formatted inline runs in all block text.
    var formattedRunCount: Int { blocks.reduce(0) { $0 + $1.formattedRunCount } }
}

extension MarkdownBlock {
    /// The formatted inline runs in this block and the blocks inside it.
    var formattedRunCount: Int {
        func count(_ runs: [FormattedText]) -> Int { runs.reduce(0) { $0 + ($1.format == nil ? 0 : 1) } }
        switch content {
        case .paragraph(let text), .heading(_, let text): return count(text)
        case .bulletList(_, let items), .orderedList(_, _, let items):
            return items.reduce(0) { total, item in
                total + item.blocks.reduce(0) { $0 + $1.formattedRunCount }
            }
        case .quote(let blocks): return blocks.reduce(0) { $0 + $1.formattedRunCount }
        case .table(let table):
            return table.header.reduce(0) { $0 + count($1) }
                + table.rows.reduce(0) { total, row in total + row.reduce(0) { $0 + count($1) } }
        case .codeBlock, .rule: return 0
        }
    }
}
