/// Reads a command's text left to right, as SimpleX's attoparsec command parser does: literals,
/// decimals, chat references, `on|off`, id lists, JSON; each failure says what was expected.
struct CommandScanner {
    private var rest: Substring
    /// The command's words read so far (its first word to begin with), for error messages.
    private(set) var command: String

    init(_ text: String) {
        rest = text[...]
        command = String(text.prefix { $0 != " " })
    }

    var isAtEnd: Bool { rest.isEmpty }

    /// Consumes the command words `keyword` when the text starts with them followed by a space
    /// or the end (so `/u` does not match `/unread`).
    mutating func keyword(_ keyword: String) -> Bool {
        guard rest.hasPrefix(keyword) else { return false }
        let after = rest.dropFirst(keyword.count)
        guard after.isEmpty || after.first == " " else { return false }
        rest = after
        command = keyword
        return true
    }

    /// Consumes `literal` when the text continues with it.
    mutating func take(_ literal: String) -> Bool {
        guard rest.hasPrefix(literal) else { return false }
        rest = rest.dropFirst(literal.count)
        return true
    }

    mutating func expect(_ literal: String) throws(ChatCommandParseError) {
        guard !take(literal) else { return }
        let shown = literal.trimmingCharacters(in: .whitespaces)
        throw invalid("expected " + (shown.isEmpty ? "a space" : "\"\(shown)\"") + found)
    }

    /// A non-negative decimal number (ids, counts).
    mutating func decimal(_ what: String) throws(ChatCommandParseError) -> Int64 {
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { throw invalid("expected \(what) (a number)\(found)") }
        guard let value = Int64(digits) else { throw invalid("\(what) \(digits) is too large") }
        rest = rest.dropFirst(digits.count)
        return value
    }

    mutating func count(_ what: String) throws(ChatCommandParseError) -> Int {
        let value = try decimal(what)
        guard value <= Int32.max else { throw invalid("\(what) \(value) is too large") }
        return Int(value)
    }

    /// `@12`, `#3`, `*1` or `:7`.
    mutating func chatRef() throws(ChatCommandParseError) -> ChatRef {
        guard let type = rest.first.flatMap({ ChatType(rawValue: String($0)) }) else {
            throw invalid("expected a chat (@contactId)\(found)")
        }
        rest = rest.dropFirst()
        return ChatRef(type, try decimal("a chat id"))
    }

    /// `on` or `off`.
    mutating func onOff() throws(ChatCommandParseError) -> Bool {
        if take("on") { return true }
        if take("off") { return false }
        throw invalid("expected on or off\(found)")
    }

    /// `5` or `5,6,7`.
    mutating func ids() throws(ChatCommandParseError) -> [Int64] {
        var ids = [try decimal("an item id")]
        while take(",") { ids.append(try decimal("an item id")) }
        return ids
    }

    /// `ttl=default` or `ttl=<seconds>`.
    mutating func ttl() throws(ChatCommandParseError) -> Int? {
        if take("default") { return nil }
        return try count("ttl seconds")
    }

    /// The text up to the next space (or the end).
    mutating func word() -> String {
        let word = rest.prefix { $0 != " " }
        rest = rest.dropFirst(word.count)
        return String(word)
    }

    /// Text in `quote` characters (the quotes consumed, not returned); nil when the text does
    /// not start with `quote`.
    mutating func quoted(_ quote: Character) throws(ChatCommandParseError) -> String? {
        guard rest.first == quote else { return nil }
        let body = rest.dropFirst()
        guard let close = body.firstIndex(of: quote) else { throw invalid("no closing \(quote)") }
        rest = body[body.index(after: close)...]
        return String(body[..<close])
    }

    /// All the remaining text, as it is.
    mutating func remainder() -> String {
        defer { rest = rest[rest.endIndex...] }
        return String(rest)
    }

    /// The remaining text as JSON (SimpleX's `jsonP` takes the rest of the command).
    mutating func json(_ what: String) throws(ChatCommandParseError) -> JSON {
        let text = remainder()
        do { return try JSON(parsing: text) } catch { throw invalid("\(what): not valid JSON: \(error)") }
    }

    /// Only spaces may follow (SimpleX allows trailing spaces after every command).
    mutating func end() throws(ChatCommandParseError) {
        let trailing = rest.drop { $0 == " " }
        guard trailing.isEmpty else { throw invalid("unexpected \"\(trailing.prefix(40))\"") }
        rest = trailing
    }

    func invalid(_ reason: String) -> ChatCommandParseError {
        .invalid(command: command, reason: reason)
    }

    private var found: String {
        rest.isEmpty ? ", found the end" : ", found \"\(rest.prefix(20))\""
    }
}

/// Why a command's text could not be read: an unknown command, or a known one written wrongly.
public enum ChatCommandParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a command this build knows (the text's first word).
    case unknownCommand(String)
    /// A known command (its first word) with its arguments wrong.
    case invalid(command: String, reason: String)

    public var description: String {
        switch self {
        case .unknownCommand(let word):
            word.isEmpty
                ? "empty command"
                : "unknown command \(word) (commands are SimpleX's, e.g. /u, /_get chats 1 pcc=on)"
        case .invalid(let command, let reason): "invalid \(command) command: \(reason)"
        }
    }
}
