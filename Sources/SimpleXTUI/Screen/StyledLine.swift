/// A run of text in one style; its text is sanitized (see `TextWidth`) and measured once.
public struct Span: Equatable, Sendable {
    public let text: String
    public let style: Style
    /// Cells the text takes.
    public let width: Int

    public init(_ text: String, _ style: Style = .plain) {
        if TextWidth.asciiWidth(text) != nil {
            self.text = text
            width = text.utf8.count
        } else {
            var clean = ""
            var total = 0
            TextWidth.forEachGrapheme(text) { grapheme, cells in
                clean += grapheme == "\t" ? " " : grapheme
                total += cells
            }
            self.text = clean
            width = total
        }
        self.style = style
    }

    /// A span whose text is already sanitized and measured (graphemes from `TextWidth`).
    init(sanitized text: String, width: Int, style: Style) {
        self.text = text
        self.width = width
        self.style = style
    }
}

/// Unsanitized text in one style, line breaks included: the input of `StyledLine.wrap`.
public struct TextRun: Equatable, Sendable {
    public var text: String
    public var style: Style
    public init(_ text: String, _ style: Style = .plain) {
        self.text = text
        self.style = style
    }
}

/// One terminal row of styled text, as layouts produce it and the renderer draws it.
public struct StyledLine: Equatable, Sendable {
    public private(set) var spans: [Span]
    /// Cells the line takes.
    public private(set) var width: Int

    public init(_ spans: [Span] = []) {
        self.spans = []
        width = 0
        for span in spans { append(span) }
    }

    public init(_ text: String, _ style: Style = .plain) { self.init([Span(text, style)]) }

    /// The text without styles (what a user reads; what layout tests assert on).
    public var text: String { spans.map(\.text).joined() }

    public mutating func append(_ span: Span) {
        guard !span.text.isEmpty else { return }
        if let last = spans.last, last.style == span.style {
            spans[spans.count - 1] = Span(sanitized: last.text + span.text, width: last.width + span.width, style: span.style)
        } else {
            spans.append(span)
        }
        width += span.width
    }

    public mutating func append(_ text: String, _ style: Style = .plain) { append(Span(text, style)) }

    public mutating func append(_ line: StyledLine) { for span in line.spans { append(span) } }

    /// The line cut to at most `maxWidth` cells; a cut line ends with `ellipsis` (a wide
    /// grapheme that would straddle the edge is left out whole).
    public func truncated(to maxWidth: Int, ellipsis: String = "…") -> StyledLine {
        guard width > maxWidth else { return self }
        let mark = Span(ellipsis)
        let room = max(0, maxWidth - mark.width)
        var result = StyledLine()
        var used = 0
        outer: for span in spans {
            var piece = ""
            var pieceWidth = 0
            var full = false
            TextWidth.forEachGrapheme(span.text) { grapheme, cells in
                guard !full else { return }
                if used + pieceWidth + cells > room {
                    full = true
                    return
                }
                piece += grapheme
                pieceWidth += cells
            }
            result.append(Span(sanitized: piece, width: pieceWidth, style: span.style))
            used += pieceWidth
            if full { break outer }
        }
        if maxWidth >= mark.width { result.append(Span(ellipsis, spans.last?.style ?? .plain)) }
        return result
    }

    /// The line filled with spaces in `style` up to `targetWidth` cells.
    public func padded(to targetWidth: Int, _ style: Style = .plain) -> StyledLine {
        guard width < targetWidth else { return self }
        var result = self
        result.append(Span(sanitized: String(repeating: " ", count: targetWidth - width), width: targetWidth - width, style: style))
        return result
    }

    /// Runs of text broken into lines of at most `maxWidth` cells, at spaces where it can, inside
    /// a word where a word is longer than a line. Line breaks in the text start new lines; spaces at
    /// a break are dropped.
    public static func wrap(_ runs: [TextRun], width maxWidth: Int) -> [StyledLine] {
        let limit = max(1, maxWidth)
        var lines: [StyledLine] = []
        var line = StyledLine()
        // The word being gathered (graphemes with styles) and its width.
        var word: [(String, Int, Style)] = []
        var wordWidth = 0

        func flushWord() {
            if line.width + wordWidth > limit, line.width > 0 {
                lines.append(line.trimmingTrailingSpaces())
                line = StyledLine()
            }
            for (grapheme, cells, style) in word {
                if line.width + cells > limit {
                    lines.append(line)
                    line = StyledLine()
                }
                line.append(Span(sanitized: grapheme, width: cells, style: style))
            }
            word.removeAll(keepingCapacity: true)
            wordWidth = 0
        }

        for span in runs {
            for rawLine in split(span.text) {
                if rawLine.isBreak {
                    flushWord()
                    lines.append(line.trimmingTrailingSpaces())
                    line = StyledLine()
                    continue
                }
                TextWidth.forEachGrapheme(rawLine.text) { grapheme, cells in
                    if grapheme == " " || grapheme == "\t" {
                        flushWord()
                        if line.width > 0, line.width < limit {
                            line.append(Span(sanitized: " ", width: 1, style: span.style))
                        }
                    } else {
                        word.append((grapheme, cells, span.style))
                        wordWidth += cells
                    }
                }
            }
        }
        flushWord()
        lines.append(line.trimmingTrailingSpaces())
        return lines
    }

    /// The line without spaces at its end.
    public func trimmingTrailingSpaces() -> StyledLine {
        var copy = spans
        while let last = copy.last {
            let trimmed = String(last.text.reversed().drop(while: { $0 == " " }).reversed())
            if trimmed.count == last.text.count { break }
            copy.removeLast()
            if !trimmed.isEmpty {
                copy.append(Span(sanitized: trimmed, width: last.width - (last.text.count - trimmed.count), style: last.style))
                break
            }
        }
        return StyledLine(copy)
    }

    private enum Piece {
        case text(Substring)
        case lineBreak
        var isBreak: Bool { if case .lineBreak = self { true } else { false } }
        var text: String { if case .text(let t) = self { String(t) } else { "" } }
    }

    private static func split(_ text: String) -> [Piece] {
        var pieces: [Piece] = []
        var first = true
        for part in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !first { pieces.append(.lineBreak) }
            first = false
            if !part.isEmpty { pieces.append(.text(part)) }
        }
        return pieces
    }
}
