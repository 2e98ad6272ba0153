/// Message text as a notification shows it (iOS `hideSecrets`): the text of the message's markdown
/// fragments, with secret fragments (`#text#`) as `...`.
///
/// iOS joins the `FormattedText` list the core parsed (simplex-chat `src/Simplex/Chat/Markdown.hs`),
/// so a secret becomes `...` and the delimiters of bold, italic, strike-through, code and coloured text
/// disappear: `*hi* #pin 1234#` shows as `hi ...`. This is a small stand-in for that parser, to be
/// replaced by the shared markdown parser once it exists. It splits each line into fragments as
/// Markdown.hs does, because where one fragment ends decides where a secret may start:
/// - a run of spaces;
/// - `#`: extra `#`s, then everything to the next `#`, then the closing `#`s; a secret when a closing
///   `#` exists and the text is not empty and neither starts nor ends with a space, else the whole run
///   stays as typed (`# not secret#`, `#unclosed`);
/// - `*` `_` `~` `` ` ``: everything to the next same delimiter, formatted on the same condition; with
///   no closing delimiter the rest of the line stays as typed (so `*a #b#` shows no secret);
/// - `!1 text!` (colour 1-6 or a colour name), a phone number starting with `+` or a digit;
/// - otherwise a word: everything to the next space, `#`s inside it included (`a#b#` is no secret).
///
/// Not handled (the shared parser will): `@mention`, `/command` and `[text](link)` fragments, which
/// Markdown.hs lets span spaces, and email detection, which only decides whether a text counts as
/// formatted (and so whether iOS drops a final line break, as `T.lines` does).
public enum NotificationText {
    /// The text with secrets as `...` and markdown delimiters removed; unchanged when it has no markdown.
    public static func hidingSecrets(_ text: String) -> String {
        var scanner = Scanner()
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }  // T.lines drops the final line break
        for (index, line) in lines.enumerated() {
            if index > 0 { scanner.output.append("\n") }
            scanner.scan(Array(line))
        }
        return scanner.formatted ? String(scanner.output) : text
    }

    /// Splits lines into Markdown.hs fragments and writes what each shows.
    struct Scanner {
        var output = String.UnicodeScalarView()
        /// Some fragment had a format; otherwise iOS has no formatted text and shows the text as it is.
        var formatted = false

        mutating func scan(_ line: [Unicode.Scalar]) {
            var index = 0
            while index < line.count {
                let end: Int
                switch line[index] {
                case " ":
                    end = line[index...].firstIndex { $0 != " " } ?? line.count
                    output.append(contentsOf: line[index..<end])
                case "#":
                    end = secret(line, at: index)
                case "*", "_", "~", "`":
                    end = delimited(line, at: index)
                case "!":
                    end = colored(line, at: index) ?? word(line, at: index)
                case let c where c == "+" || isDigit(c):
                    end = phone(line, at: index) ?? word(line, at: index)
                default:
                    end = word(line, at: index)
                }
                index = end
            }
        }

        /// `#` then `#`s, text to the next `#`, closing `#`s (Markdown.hs `secretP`).
        mutating func secret(_ line: [Unicode.Scalar], at start: Int) -> Int {
            var index = start + 1
            while index < line.count, line[index] == "#" { index += 1 }
            let textStart = index
            while index < line.count, line[index] != "#" { index += 1 }
            let textEnd = index
            while index < line.count, line[index] == "#" { index += 1 }
            let text = line[textStart..<textEnd]
            if index == textEnd || text.isEmpty || text.first == " " || text.last == " " {
                output.append(contentsOf: line[start..<index])
            } else {
                output.append(contentsOf: "...".unicodeScalars)
                formatted = true
            }
            return index
        }

        /// A delimiter, text to the next same delimiter, the delimiter (Markdown.hs `formattedP`).
        mutating func delimited(_ line: [Unicode.Scalar], at start: Int) -> Int {
            let delimiter = line[start]
            guard let close = line[(start + 1)...].firstIndex(of: delimiter) else {
                output.append(contentsOf: line[start...])
                return line.count
            }
            let text = line[(start + 1)..<close]
            if text.isEmpty || text.first == " " || text.last == " " {
                output.append(contentsOf: line[start...close])
            } else {
                output.append(contentsOf: text)
                formatted = true
            }
            return close + 1
        }

        /// `!<colour> text!` (Markdown.hs `coloredP`), or nil when it is not one.
        mutating func colored(_ line: [Unicode.Scalar], at start: Int) -> Int? {
            var index = start + 1
            guard index < line.count else { return nil }
            let names: [Unicode.Scalar: String] = [
                "r": "ed", "g": "reen", "b": "lue", "y": "ellow", "c": "yan", "m": "agenta",
            ]
            if let rest = names[line[index]] {
                index += 1
                let restScalars = Array(rest.unicodeScalars)
                if line.count - index >= restScalars.count,
                    Array(line[index..<(index + restScalars.count)]) == restScalars
                {
                    index += restScalars.count
                }
            } else if ("1"..."6").contains(line[index]) {
                index += 1
            } else {
                return nil
            }
            guard index < line.count, isSpace(line[index]) else { return nil }
            index += 1
            let textStart = index
            while index < line.count, line[index] != " ", line[index] != "!" { index += 1 }
            guard index > textStart else { return nil }
            while index < line.count, line[index] != "!" { index += 1 }
            guard index < line.count, line[index - 1] != " " else { return nil }
            output.append(contentsOf: line[textStart..<index])
            formatted = true
            return index + 1
        }

        /// `+country`, `(code)`, digit groups with ` `, `-` or `.` between, 7 to 22 characters in all
        /// (Markdown.hs `phoneP`), or nil when it is not one.
        mutating func phone(_ line: [Unicode.Scalar], at start: Int) -> Int? {
            func digits(from index: Int) -> Int {
                var end = index
                while end < line.count, isDigit(line[end]) { end += 1 }
                return end
            }
            func separator(at index: Int) -> Int {
                index < line.count && (line[index] == " " || line[index] == "-" || line[index] == ".")
                    ? index + 1 : index
            }
            var index = start
            if line[index] == "+", digits(from: index + 1) > index + 1 { index = digits(from: index + 1) }
            let open = separator(at: index)
            if open < line.count, line[open] == "(" {
                let close = digits(from: open + 1)
                if close > open + 1, close < line.count, line[close] == ")" { index = close + 1 }
            }
            while true {
                let groupStart = separator(at: index)
                let groupEnd = digits(from: groupStart)
                guard groupEnd > groupStart else { break }
                index = groupEnd
            }
            guard (7...22).contains(index - start) else { return nil }
            output.append(contentsOf: line[start..<index])
            formatted = true
            return index
        }

        /// Everything to the next space (Markdown.hs `wordP`); a link counts as formatted.
        mutating func word(_ line: [Unicode.Scalar], at start: Int) -> Int {
            let end = line[start...].firstIndex(of: " ") ?? line.count
            let word = String(String.UnicodeScalarView(line[start..<end]))
            if word.unicodeScalars.count >= 10,
                ["http://", "https://", "simplex:/"].contains(where: { word.hasPrefix($0) })
            {
                formatted = true
            }
            output.append(contentsOf: line[start..<end])
            return end
        }

        /// Haskell `isDigit`: ASCII digits only.
        func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }

        /// Haskell `isSpace`: ASCII and Latin-1 white space, and Unicode space separators.
        func isSpace(_ c: Unicode.Scalar) -> Bool {
            c == " " || (0x09...0x0D).contains(c.value) || c.value == 0xA0
                || (c.value > 0xFF && c.properties.generalCategory == .spaceSeparator)
        }
    }
}
