/// What a user typed into search, split into the words the item index (`chat_item_search`,
/// FTS5 with `unicode61`) can look up and the words it cannot, which are matched as literal
/// substrings of the text (LIKE) among the items the index found — or, when no word is indexed,
/// by reading the chat as before.
///
/// Every word is required. Indexed words match whole words, case- and diacritics-insensitively;
/// the last one also matches as a prefix while it is being typed (`hel` finds `hello`; a
/// trailing space ends the word). Nothing the user types reaches FTS5's query syntax unquoted,
/// so quotes, `*`, `-`, `AND`, `OR`, `NEAR` or `col:` are just text.
struct ChatSearchQuery: Equatable, Sendable {
    /// Words of letters and digits only, lower-cased by the index, not by this type.
    var indexedWords: [String] = []
    /// Whether the last indexed word also matches as a prefix.
    var lastWordIsPrefix = false
    /// Words the tokenizer would split or drop (punctuation, symbols, emoji) or cannot find
    /// inside a run of text (CJK, Thai and other scripts written without spaces).
    var literalWords: [String] = []

    init(_ text: String) {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        for word in words {
            if word.unicodeScalars.allSatisfy(Self.isIndexable) {
                indexedWords.append(word)
            } else {
                literalWords.append(word)
            }
        }
        lastWordIsPrefix =
            words.last.map { indexedWords.last == $0 } == true && text.last?.isWhitespace == false
    }

    /// Whether the index can narrow the search (some word is indexed).
    var usesIndex: Bool { !indexedWords.isEmpty }

    /// The FTS5 expression for the items of `chat` (`ChatSchema.chatItemSearch`'s token, `u1` or
    /// `c42`) holding every indexed word; nil when no word is indexed.
    func match(chat: String) -> String? {
        guard usesIndex else { return nil }
        let phrases = indexedWords.enumerated().map { index, word in
            Self.quoted(word) + (lastWordIsPrefix && index == indexedWords.count - 1 ? "*" : "")
        }
        return "chat : \(Self.quoted(chat)) AND item_text : (\(phrases.joined(separator: " ")))"
    }

    /// The LIKE patterns of the literal words: `%word%`, wildcards escaped with `\`.
    var likePatterns: [String] { literalWords.map(Self.likePattern) }

    /// An FTS5 string: in double quotes, a quote doubled. Inside it, FTS5 syntax is plain text.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `%text%` with LIKE's wildcards and the escape character taken literally.
    static func likePattern(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "\\" || character == "%" || character == "_" { escaped.append("\\") }
            escaped.append(character)
        }
        return "%" + escaped + "%"
    }

    /// A scalar `unicode61` keeps inside a token (its default categories `L* N* Co`, and the
    /// combining marks `remove_diacritics` folds away), outside the scripts it cannot segment.
    static func isIndexable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber, .privateUse, .nonspacingMark, .spacingMark,
            .enclosingMark:
            return !isUnsegmented(scalar)
        default:
            return false
        }
    }

    /// Scripts written without spaces between words: `unicode61` indexes a whole run as one
    /// token, so a word inside it cannot be looked up.
    static func isUnsegmented(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0E00...0x0EFF,  // Thai, Lao
            0x1000...0x109F,  // Myanmar
            0x1780...0x17FF,  // Khmer
            0x3040...0x31FF,  // Hiragana, Katakana, Bopomofo, Katakana extensions
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,  // CJK ideographs
            0xFF66...0xFF9F,  // halfwidth Katakana
            0x20000...0x3FFFF:  // CJK ideograph extensions
            return true
        default:
            return false
        }
    }
}
