/// Runs of formatted text, with adjacent runs of one format merged and empty runs dropped, as
/// Markdown.hs's `Semigroup Markdown` and `parseMaybeMarkdownList` merge them.
struct RunBuilder {
    private(set) var runs: [FormattedText] = []

    mutating func append(_ text: String, _ format: Format? = nil) {
        guard !text.isEmpty else { return }
        if let last = runs.indices.last, runs[last].format == format {
            runs[last].text += text
        } else {
            runs.append(FormattedText(text, format))
        }
    }

    mutating func append(contentsOf others: [FormattedText]) {
        for run in others { append(run.text, run.format) }
    }
}

/// SimpleX's inline markdown for one line of text (Markdown.hs `markdownP`).
///
/// A line is read fragment by fragment. A fragment starts at the line start, after spaces or
/// where the previous one ended, and its first character picks the rule: spaces; `*` `_` `~` `` ` ``
/// a delimited format; `#` a secret; `!` a colour; `@` a mention; `/` a command; `[` a link with
/// text; `+` or a digit a phone number; anything else a word up to the next space, which may be a
/// web address, a SimpleX link, a domain or an email. A rule that does not match falls back to the
/// word rule, so malformed markdown stays as typed. Formats do not nest: the text between
/// delimiters is taken as it is.
struct InlineParser {
    /// Parsed fragments: the runs and the index after them.
    typealias Fragment = (runs: [FormattedText], end: Int)

    let line: [Unicode.Scalar]
    /// For each index, the index at or after it of the next `]`, `)`, space, and punctuation a
    /// link's text may not have (the line end when none): a line of many `[` that do not make
    /// links is still parsed in linear time.
    let nextBracket: [Int]
    let nextParenthesis: [Int]
    let nextSpace: [Int]
    let nextLinkTextPunctuation: [Int]

    init(line: [Unicode.Scalar]) {
        self.line = line
        let hasLinks = line.contains("[")
        nextBracket = hasLinks ? Self.nextIndices(in: line) { $0 == "]" } : []
        nextParenthesis = hasLinks ? Self.nextIndices(in: line) { $0 == ")" } : []
        nextSpace = hasLinks ? Self.nextIndices(in: line) { $0 == " " } : []
        nextLinkTextPunctuation =
            hasLinks ? Self.nextIndices(in: line) { $0.isHaskellPunctuation && $0 != "-" && $0 != "_" } : []
    }

    private static func nextIndices(in line: [Unicode.Scalar], where matches: (Unicode.Scalar) -> Bool)
        -> [Int]
    {
        var next = Array(repeating: line.count, count: line.count + 1)
        for index in line.indices.reversed() { next[index] = matches(line[index]) ? index : next[index + 1] }
        return next
    }

    /// The runs of one line (no line breaks in it).
    static func parse(line: [Unicode.Scalar]) -> [FormattedText] {
        let parser = InlineParser(line: line)
        var builder = RunBuilder()
        var index = 0
        while index < line.count {
            let fragment = parser.fragment(at: index)
            builder.append(contentsOf: fragment.runs)
            // Every rule consumes at least one character; the guard keeps a future rule honest.
            index = max(fragment.end, index + 1)
        }
        return builder.runs
    }

    /// The text of `line[range]`.
    func text(_ range: Range<Int>) -> String { String(scalars: line[range]) }

    /// The fragment starting at `start` (Markdown.hs `fragmentP`).
    func fragment(at start: Int) -> Fragment {
        let first = line[start]
        switch first {
        case " ":
            let end = self.end(from: start) { $0 != " " }
            return ([FormattedText(text(start..<end))], end)
        case "+": return phone(at: start) ?? word(at: start)
        case "*": return delimited(at: start, .bold)
        case "_": return delimited(at: start, .italic)
        case "~": return delimited(at: start, .strikeThrough)
        case "`": return delimited(at: start, .snippet)
        case "#": return secret(at: start)
        case "!": return colored(at: start) ?? word(at: start)
        case "@": return prefixedName(at: start, isCommand: false) ?? word(at: start)
        case "/": return prefixedName(at: start, isCommand: true) ?? word(at: start)
        case "[": return hyperLink(at: start) ?? word(at: start)
        default:
            if first.isASCIIDigit { return phone(at: start) ?? word(at: start) }
            return word(at: start)
        }
    }

    /// The first index at or after `start` where `stop` holds, or the line end.
    func end(from start: Int, where stop: (Unicode.Scalar) -> Bool) -> Int {
        var index = start
        while index < line.count && !stop(line[index]) { index += 1 }
        return index
    }

    /// `*text*` and the like: the text up to the next same delimiter, which must neither start
    /// nor end with a space; otherwise it is plain text up to and including that delimiter, or to
    /// the line end when there is none.
    private func delimited(at start: Int, _ format: Format) -> Fragment {
        let delimiter = line[start]
        let close = end(from: start + 1) { $0 == delimiter }
        guard close < line.count else { return ([FormattedText(text(start..<close))], close) }
        let content = line[(start + 1)..<close]
        guard let first = content.first, let last = content.last, first != " ", last != " " else {
            return ([FormattedText(text(start..<(close + 1)))], close + 1)
        }
        return ([FormattedText(text((start + 1)..<close), format)], close + 1)
    }

    /// `#text#`: leading `#`s, text, then one or more `#`s; the secret is everything between the
    /// first and the last `#`, so `##a##` is the secret `#a#`.
    private func secret(at start: Int) -> Fragment {
        let textStart = end(from: start + 1) { $0 != "#" }
        let textEnd = end(from: textStart) { $0 == "#" }
        let closeEnd = end(from: textEnd) { $0 != "#" }
        let content = line[textStart..<textEnd]
        guard closeEnd > textEnd, let first = content.first, let last = content.last, first != " ",
            last != " "
        else { return ([FormattedText(text(start..<closeEnd))], closeEnd) }
        return ([FormattedText(text((start + 1)..<(closeEnd - 1)), .secret)], closeEnd)
    }

    /// `!1 text!`: a colour digit 1-6 or name (`r`, `red`, ...), one space character, then text
    /// that starts with neither a space nor `!` and does not end with a space, up to the next `!`.
    private func colored(at start: Int) -> Fragment? {
        var index = start + 1
        guard index < line.count else { return nil }
        let color: FormatColor
        switch line[index] {
        case "1": color = .red
        case "2": color = .green
        case "3": color = .blue
        case "4": color = .yellow
        case "5": color = .cyan
        case "6": color = .magenta
        case "r": color = .red
        case "g": color = .green
        case "b": color = .blue
        case "y": color = .yellow
        case "c": color = .cyan
        case "m": color = .magenta
        default: return nil
        }
        index += 1
        if line[index - 1].isASCIILetter, has(Array(color.rawValue.unicodeScalars.dropFirst()), at: index) {
            index += color.rawValue.unicodeScalars.count - 1
        }
        guard index < line.count, line[index].isHaskellSpace else { return nil }
        let contentStart = index + 1
        guard contentStart < line.count, line[contentStart] != " ", line[contentStart] != "!" else {
            return nil
        }
        let close = end(from: contentStart) { $0 == "!" }
        guard close < line.count, line[close - 1] != " " else { return nil }
        return ([FormattedText(text(contentStart..<close), .colored(color: color))], close + 1)
    }

    /// Whether `line` has `scalars` at `index`.
    func has(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        guard index + scalars.count <= line.count else { return false }
        return line[index..<(index + scalars.count)].elementsEqual(scalars)
    }
}
