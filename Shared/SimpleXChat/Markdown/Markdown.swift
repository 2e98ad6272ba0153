/// SimpleX markdown: pure functions from message text to formatted runs (Markdown.hs) and, our
/// extension, to blocks (`parseBlocks`).
///
/// Inline markdown follows Markdown.hs exactly: each line is parsed on its own, formats do not
/// nest, and malformed markdown stays as typed. See `InlineParser` for the rules.
public enum Markdown {
    /// The runs of `text`, line breaks included as plain text, adjacent runs of one format merged
    /// (Markdown.hs `parseMaybeMarkdownList` without the nil): plain text is one plain run, and an
    /// empty text no runs. A final line break is dropped, as Haskell's `lines` drops it.
    ///
    /// A text of one line whose first character after spaces is `/` is one `command` run (for
    /// bots), e.g. `/help me` is the command `help me`.
    public static func parse(_ text: String) -> [FormattedText] {
        let lines = splitLines(text)
        if lines.count == 1, let command = wholeLineCommand(lines[0]) { return [command] }
        return parse(lines: lines)
    }

    /// The runs of `text` when any is formatted, else nil: the `formattedText` of a chat item and
    /// of `/_parse markdown` (Markdown.hs `parseMaybeMarkdownList`).
    public static func formattedText(_ text: String) -> [FormattedText]? {
        let runs = parse(text)
        return runs.contains { $0.format != nil } ? runs : nil
    }

    /// The response of `/_parse markdown <text>`.
    public static func parsedMarkdown(_ text: String) -> ParsedMarkdown {
        ParsedMarkdown(formattedText: formattedText(text))
    }

    /// `text` with each secret run replaced by `...`, for notification previews (iOS
    /// `hideSecrets`). Text without formatting is returned unchanged.
    public static func hidingSecrets(_ text: String) -> String {
        guard let runs = formattedText(text) else { return text }
        return runs.map { $0.format == .secret ? "..." : $0.text }.joined()
    }

    /// The text the runs were parsed from (Markdown.hs `markdownText`), up to a final line break.
    public static func markdownText(_ runs: [FormattedText]) -> String {
        runs.map(\.markdownText).joined()
    }

    /// The runs of these lines, joined by plain line breaks, with no whole-line command.
    static func parse(lines: [[Unicode.Scalar]]) -> [FormattedText] {
        var builder = RunBuilder()
        for (index, line) in lines.enumerated() {
            if index > 0 { builder.append("\n") }
            builder.append(contentsOf: InlineParser.parse(line: line))
        }
        return builder.runs
    }

    /// The lines of `text` as Haskell's `Data.Text.lines` splits them: at each `\n`, with no empty
    /// line after a final `\n`.
    static func splitLines(_ text: String) -> [[Unicode.Scalar]] {
        var lines: [[Unicode.Scalar]] = []
        var current: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                lines.append(current)
                current = []
            } else {
                current.append(scalar)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// Markdown.hs: a single line whose first character after spaces is `/`, followed by at least
    /// one character, is a command of everything after the `/`, and the run is the whole line.
    private static func wholeLineCommand(_ line: [Unicode.Scalar]) -> FormattedText? {
        guard let first = line.firstIndex(where: { $0 != " " }), line[first] == "/", first + 1 < line.count
        else {
            return nil
        }
        return FormattedText(
            String(scalars: line), .command(commandStr: String(scalars: line[(first + 1)...])))
    }
}
