/// One source line for block parsing, and what it may start.
///
/// Block rules follow CommonMark and GitHub tables where they suit chat messages, with these
/// deliberate differences: no indented code blocks (indentation only nests list content), no
/// setext headings (`---` under text is a rule), no lazy continuation lines (a line without `>`
/// ends a quote, an unindented line ends a list), a heading or list item needs text after its
/// marker, and table rows need a `|`.
typealias BlockLine = ArraySlice<Unicode.Scalar>

/// A list item marker and where its text starts.
struct ListMarker {
    enum Kind: Equatable {
        case bullet(Unicode.Scalar)
        case ordered(number: Int, delimiter: Unicode.Scalar)
    }

    var kind: Kind
    /// The column of the item's content: lines indented this far belong to the item.
    var contentColumn: Int
    /// The text after the marker.
    var content: BlockLine

    /// Whether `other` continues the same list (same bullet, or same number delimiter).
    func continues(with other: ListMarker) -> Bool {
        switch (kind, other.kind) {
        case (.bullet(let a), .bullet(let b)): return a == b
        case (.ordered(_, let a), .ordered(_, let b)): return a == b
        default: return false
        }
    }
}

/// An opening code fence.
struct CodeFence {
    var indent: Int
    var character: Unicode.Scalar
    var length: Int
    var language: String?
}

enum BlockLines {
    static func isBlank(_ line: BlockLine) -> Bool { line.allSatisfy { $0 == " " || $0 == "\t" } }

    /// The indentation in columns (a tab to the next multiple of 4) and where the text starts.
    static func indentation(_ line: BlockLine) -> (columns: Int, start: Int) {
        var columns = 0
        var index = line.startIndex
        while index < line.endIndex {
            if line[index] == " " {
                columns += 1
            } else if line[index] == "\t" {
                columns += 4 - columns % 4
            } else {
                break
            }
            index += 1
        }
        return (columns, index)
    }

    /// The line without up to `columns` columns of indentation.
    static func dropIndent(_ line: BlockLine, _ columns: Int) -> BlockLine {
        var removed = 0
        var index = line.startIndex
        while index < line.endIndex && removed < columns && (line[index] == " " || line[index] == "\t") {
            removed += line[index] == "\t" ? 4 - removed % 4 : 1
            index += 1
        }
        return line[index...]
    }

    /// The line without spaces and tabs at both ends.
    static func trimmed(_ line: BlockLine) -> BlockLine {
        var result = line
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }

    /// The text after at most 3 spaces of indentation, or nil when indented more.
    static func afterShortIndent(_ line: BlockLine) -> BlockLine? {
        let (columns, start) = indentation(line)
        return columns <= 3 ? line[start...] : nil
    }

    /// ```` ``` ```` or `~~~` (3 or more) and an optional info string whose first word is the language.
    static func codeFence(_ line: BlockLine) -> CodeFence? {
        guard let text = afterShortIndent(line), let character = text.first,
            character == "`" || character == "~"
        else { return nil }
        let length = text.prefix { $0 == character }.count
        guard length >= 3 else { return nil }
        let info = trimmed(text.dropFirst(length))
        if character == "`" && info.contains("`") { return nil }
        let language = info.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map {
            String(scalars: $0)
        }
        return CodeFence(
            indent: indentation(line).columns, character: character, length: length, language: language)
    }

    /// Whether `line` closes `fence`: the same character at least as many times, nothing else.
    static func closes(_ line: BlockLine, _ fence: CodeFence) -> Bool {
        guard let text = afterShortIndent(line) else { return false }
        let length = text.prefix { $0 == fence.character }.count
        return length >= fence.length && isBlank(text.dropFirst(length))
    }

    /// `#`-`######`, a space or tab, then text; a closing run of `#` after a space is dropped.
    static func heading(_ line: BlockLine) -> (level: Int, text: BlockLine)? {
        guard let text = afterShortIndent(line) else { return nil }
        let level = text.prefix { $0 == "#" }.count
        guard (1...6).contains(level), let separator = text.dropFirst(level).first,
            separator == " " || separator == "\t"
        else { return nil }
        var content = trimmed(text.dropFirst(level))
        guard !content.isEmpty else { return nil }
        let closing = content.reversed().prefix { $0 == "#" }.count
        if closing == content.count {
            content = content.prefix(0)
        } else if closing > 0, let before = content.dropLast(closing).last, before == " " || before == "\t" {
            content = trimmed(content.dropLast(closing))
        }
        return (level, content)
    }

    /// Three or more `-`, `*` or `_`, one kind, spaces between allowed, nothing else.
    static func isRule(_ line: BlockLine) -> Bool {
        guard let text = afterShortIndent(line) else { return false }
        let marks = text.filter { $0 != " " && $0 != "\t" }
        guard let first = marks.first, first == "-" || first == "*" || first == "_" else { return false }
        return marks.count >= 3 && marks.allSatisfy { $0 == first }
    }

    /// The text of a quote line after `>` and one optional space.
    static func quoteContent(_ line: BlockLine) -> BlockLine? {
        guard let text = afterShortIndent(line), text.first == ">" else { return nil }
        let rest = text.dropFirst()
        if let first = rest.first, first == " " || first == "\t" { return rest.dropFirst() }
        return rest
    }

    /// `-`, `*` or `+`, or 1-9 digits and `.` or `)`, then spaces and text.
    static func listMarker(_ line: BlockLine) -> ListMarker? {
        let (indent, start) = indentation(line)
        let text = line[start...]
        guard let first = text.first else { return nil }
        let kind: ListMarker.Kind
        let markerWidth: Int
        if first == "-" || first == "*" || first == "+" {
            kind = .bullet(first)
            markerWidth = 1
        } else {
            let digits = text.prefix { $0.isASCIIDigit }
            guard (1...9).contains(digits.count), let delimiter = text.dropFirst(digits.count).first,
                delimiter == "." || delimiter == ")", let number = Int(String(scalars: digits))
            else { return nil }
            kind = .ordered(number: number, delimiter: delimiter)
            markerWidth = digits.count + 1
        }
        let afterMarker = text.dropFirst(markerWidth)
        let spaces = afterMarker.prefix { $0 == " " || $0 == "\t" }.count
        guard spaces > 0, !isBlank(afterMarker) else { return nil }
        // More than 4 spaces: the item starts after one, and the rest is part of its text.
        let used = spaces > 4 ? 1 : spaces
        return ListMarker(
            kind: kind, contentColumn: indent + markerWidth + used, content: afterMarker.dropFirst(used))
    }
}
