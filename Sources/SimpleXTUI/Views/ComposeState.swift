import SimpleXChat

/// The compose field: multi-line text with a cursor, and what the message will be (new, a
/// reply, an edit).
public struct ComposeState: Equatable, Sendable {
    /// What sending does.
    public enum Mode: Equatable, Sendable {
        case new
        case reply(ChatItem)
        case edit(ChatItem)
    }

    /// SimpleX's limit for a message's text, in UTF-8 bytes (its JSON must fit one SMP message).
    public static let textLimit = 15_000
    /// The remaining length is shown once fewer than this many bytes are left.
    static let remainingShownBelow = 1_000

    public private(set) var text: [Character] = []
    /// Index into `text` (0...count).
    public private(set) var cursor = 0
    public var mode: Mode = .new

    public init(text: String = "", mode: Mode = .new) {
        self.text = Array(text)
        cursor = self.text.count
        self.mode = mode
    }

    public var string: String { String(text) }
    public var isEmpty: Bool { text.allSatisfy(\.isWhitespace) }
    public var byteCount: Int { string.utf8.count }
    public var remaining: Int { Self.textLimit - byteCount }

    // MARK: - Editing

    public mutating func insert(_ typed: String) {
        let characters = Array(typed.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n"))
        text.insert(contentsOf: characters, at: cursor)
        cursor += characters.count
    }

    public mutating func newline() { insert("\n") }

    public mutating func backspace() {
        guard cursor > 0 else { return }
        text.remove(at: cursor - 1)
        cursor -= 1
    }

    public mutating func deleteForward() {
        guard cursor < text.count else { return }
        text.remove(at: cursor)
    }

    /// Ctrl+W: the word before the cursor.
    public mutating func deleteWordBackward() {
        let start = wordStart(before: cursor)
        text.removeSubrange(start..<cursor)
        cursor = start
    }

    /// Ctrl+U: from the start of the line to the cursor.
    public mutating func deleteToLineStart() {
        let start = lineStart(cursor)
        text.removeSubrange(start..<cursor)
        cursor = start
    }

    public mutating func moveLeft() { cursor = max(0, cursor - 1) }
    public mutating func moveRight() { cursor = min(text.count, cursor + 1) }
    public mutating func moveWordLeft() { cursor = wordStart(before: cursor) }

    public mutating func moveWordRight() {
        var index = cursor
        while index < text.count, !text[index].isLetter && !text[index].isNumber { index += 1 }
        while index < text.count, text[index].isLetter || text[index].isNumber { index += 1 }
        cursor = index
    }

    public mutating func moveLineStart() { cursor = lineStart(cursor) }

    public mutating func moveLineEnd() {
        var index = cursor
        while index < text.count, text[index] != "\n" { index += 1 }
        cursor = index
    }

    /// Up in a multi-line text; false on the first line (the key then goes to the chat).
    public mutating func moveUp() -> Bool {
        let start = lineStart(cursor)
        guard start > 0 else { return false }
        let column = cursor - start
        let previousStart = lineStart(start - 1)
        cursor = min(previousStart + column, start - 1)
        return true
    }

    /// Down in a multi-line text; false on the last line.
    public mutating func moveDown() -> Bool {
        var end = cursor
        while end < text.count, text[end] != "\n" { end += 1 }
        guard end < text.count else { return false }
        let column = cursor - lineStart(cursor)
        let nextStart = end + 1
        var nextEnd = nextStart
        while nextEnd < text.count, text[nextEnd] != "\n" { nextEnd += 1 }
        cursor = min(nextStart + column, nextEnd)
        return true
    }

    public mutating func clear() {
        text.removeAll()
        cursor = 0
        mode = .new
    }

    private func lineStart(_ index: Int) -> Int {
        var start = index
        while start > 0, text[start - 1] != "\n" { start -= 1 }
        return start
    }

    private func wordStart(before index: Int) -> Int {
        var start = index
        while start > 0, text[start - 1].isWhitespace { start -= 1 }
        while start > 0, !text[start - 1].isWhitespace { start -= 1 }
        return start
    }

    // MARK: - Drawing

    /// The field drawn in `width` cells and at most `maxRows` rows of text (scrolled to keep the
    /// cursor visible), with its banner (reply / edit) and the remaining length near the limit;
    /// `cursor` is the (row, column) of the cursor within the returned lines.
    public func lines(width: Int, maxRows: Int, placeholder: String, style: ComposeStyle) -> (lines: [StyledLine], cursor: (row: Int, column: Int)) {
        var banner: [StyledLine] = []
        switch mode {
        case .new: break
        case .reply(let item):
            var line = StyledLine()
            line.append(" ↩ reply to: ", style.banner)
            line.append(Markdown.hidingSecrets(item.text).replacingOccurrences(of: "\n", with: " "), style.banner.with(.italic))
            line.append("  (Esc cancels)", style.hint)
            banner.append(line.truncated(to: width))
        case .edit(let item):
            var line = StyledLine()
            line.append(" ✎ editing: ", style.banner)
            line.append(Markdown.hidingSecrets(item.text).replacingOccurrences(of: "\n", with: " "), style.banner.with(.italic))
            line.append("  (Esc cancels)", style.hint)
            banner.append(line.truncated(to: width))
        }
        let prompt = "> "
        let room = max(1, width - prompt.count)
        // Visual rows: each logical line wrapped by cells, the cursor tracked through.
        var rows: [StyledLine] = [StyledLine()]
        var cursorRow = 0
        var cursorColumn = 0
        var column = 0
        func place() {
            cursorRow = rows.count - 1
            cursorColumn = column
        }
        for (index, character) in text.enumerated() {
            if index == cursor { place() }
            if character == "\n" {
                rows.append(StyledLine())
                column = 0
                continue
            }
            let span = Span(String(character), style.text)
            if column + span.width > room {
                rows.append(StyledLine())
                column = 0
                if index == cursor { place() }
            }
            rows[rows.count - 1].append(span)
            column += span.width
        }
        if cursor == text.count {
            if column >= room {
                rows.append(StyledLine())
                column = 0
            }
            place()
        }
        let visibleRows = max(1, maxRows)
        let first = max(0, min(cursorRow - visibleRows + 1, rows.count - visibleRows))
        var result = banner
        for (offset, row) in rows[first...].prefix(visibleRows).enumerated() {
            var line = StyledLine()
            line.append(offset == 0 && first == 0 ? prompt : "  ", style.prompt)
            if text.isEmpty {
                line.append(placeholder, style.hint)
            } else {
                line.append(row)
            }
            result.append(line.truncated(to: width))
        }
        if remaining < Self.remainingShownBelow {
            let note = remaining < 0 ? " \(-remaining) bytes over the limit: shorten the message" : " \(remaining) bytes left"
            result.append(StyledLine(note, remaining < 0 ? style.error : style.hint).truncated(to: width))
        }
        return (result, (banner.count + cursorRow - first, prompt.count + cursorColumn))
    }
}

/// Colours of the compose field.
public struct ComposeStyle: Sendable {
    public var text = Style.plain
    public var prompt = Style(foreground: .blue, attributes: .bold)
    public var banner = Style(foreground: .cyan)
    public var hint = Style(foreground: .brightBlack)
    public var error = Style(foreground: .red, attributes: .bold)
    public init() {}
}
