/// A message's text as blocks (`markdownBlocks` of seed 000 §4): our extension of SimpleX
/// markdown, made by `Markdown.parseBlocks`.
///
/// Empty lines are kept as counts so a renderer can draw the gaps the user typed: each block and
/// list item has the empty lines before it, and `trailingEmptyLines` are those after the last
/// block. A final line break ends the last line and is not an empty line.
public struct MarkdownBlocks: Equatable, Sendable {
    /// The blocks in order.
    public var blocks: [MarkdownBlock]
    /// Empty lines after the last block.
    public var trailingEmptyLines: Int

    /// Blocks and the empty lines after them.
    public init(blocks: [MarkdownBlock], trailingEmptyLines: Int = 0) {
        self.blocks = blocks
        self.trailingEmptyLines = trailingEmptyLines
    }

    /// Empty lines before the first block.
    public var leadingEmptyLines: Int { blocks.first?.emptyLinesBefore ?? 0 }
}

/// One block: a paragraph, heading, list, quote, code block, table or rule.
public struct MarkdownBlock: Equatable, Sendable {
    /// Empty lines typed between the previous block (or the start of its container) and this one.
    public var emptyLinesBefore: Int
    /// What the block is.
    public var content: Content

    /// A block after `emptyLinesBefore` empty lines.
    public init(_ content: Content, emptyLinesBefore: Int = 0) {
        self.content = content
        self.emptyLinesBefore = emptyLinesBefore
    }

    /// What a block is. Leaf text is inline markdown, one line break per source line break.
    public enum Content: Equatable, Sendable {
        /// Lines of text.
        case paragraph([FormattedText])
        /// `#` to `######`, a space, then the text: level 1 to 6.
        case heading(level: Int, text: [FormattedText])
        /// Items marked by `-`, `*` or `+` (`marker`) and a space.
        case bulletList(marker: String, items: [MarkdownListItem])
        /// Items numbered from `start`, with `.` or `)` after the number (`delimiter`).
        case orderedList(start: Int, delimiter: String, items: [MarkdownListItem])
        /// Lines starting with `>`, which hold blocks of their own.
        case quote([MarkdownBlock])
        /// Lines between ```` ``` ```` (or `~~~`) fences, not parsed; `language` is the first word
        /// after the opening fence.
        case codeBlock(language: String?, code: String)
        /// A pipe table with a header separator row.
        case table(MarkdownTable)
        /// `---`, `***` or `___`; `markup` is the line as typed (trimmed), for texts drawn as source.
        case rule(markup: String)
    }

    /// Whether the block is drawn as a card: a code block, table or rule (seed 000 §9).
    public var isCard: Bool {
        switch content {
        case .codeBlock, .table, .rule: return true
        case .paragraph, .heading, .bulletList, .orderedList, .quote: return false
        }
    }

    /// Whether the block is a heading.
    public var isHeading: Bool {
        if case .heading = content { return true }
        return false
    }

    /// Whether the block, or a block inside it, has text (everything but rules and empty code).
    public var hasText: Bool {
        switch content {
        case .paragraph, .heading, .table: return true
        case .codeBlock(_, let code): return !code.isEmpty
        case .rule: return false
        case .quote(let blocks): return blocks.contains(where: \.hasText)
        case .bulletList(_, let items), .orderedList(_, _, let items):
            return items.contains { $0.blocks.contains(where: \.hasText) }
        }
    }
}

/// One list item: the blocks indented under its marker (nested lists among them).
public struct MarkdownListItem: Equatable, Sendable {
    /// Empty lines typed between the previous item and this one.
    public var emptyLinesBefore: Int
    /// The item's blocks; the first starts on the marker's line.
    public var blocks: [MarkdownBlock]

    /// An item of these blocks.
    public init(_ blocks: [MarkdownBlock], emptyLinesBefore: Int = 0) {
        self.blocks = blocks
        self.emptyLinesBefore = emptyLinesBefore
    }
}

/// A GitHub pipe table: every row has as many cells as the header.
public struct MarkdownTable: Equatable, Sendable {
    /// How a column's cells are aligned, from the colons of the separator row.
    public enum Alignment: String, Sendable {
        case none, left, center, right
    }

    /// One alignment per column.
    public var alignments: [Alignment]
    /// The header cells.
    public var header: [[FormattedText]]
    /// The body rows, each padded or cut to the header's width.
    public var rows: [[[FormattedText]]]

    /// A table; rows are expected to have one cell per alignment.
    public init(alignments: [Alignment], header: [[FormattedText]], rows: [[[FormattedText]]]) {
        self.alignments = alignments
        self.header = header
        self.rows = rows
    }
}
