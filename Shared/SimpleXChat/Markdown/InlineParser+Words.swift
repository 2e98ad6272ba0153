extension InlineParser {
    /// `@name`, `@'name with spaces'`, `/command` and `/'command with args'` (Markdown.hs
    /// `prefixedStringP`). Unquoted, the name runs to the next space and its trailing punctuation
    /// is left out as plain text (`@alice!`); quoted, it is everything between the quotes. A name
    /// starts with a character above space other than `#`, `@` and `'`; a command's first word is
    /// letters, digits and `_`.
    func prefixedName(at start: Int, isCommand: Bool) -> Fragment? {
        let nameStart = start + 1
        guard nameStart < line.count else { return nil }
        let name: Range<Int>
        let shownEnd: Int
        let end: Int
        if line[nameStart] == "'" {
            let quotedStart = nameStart + 1
            guard quotedStart < line.count, Self.startsName(line[quotedStart]) else { return nil }
            let close = self.end(from: quotedStart) { $0 == "'" }
            guard close < line.count else { return nil }
            name = quotedStart..<close
            shownEnd = close + 1
            end = close + 1
        } else {
            guard Self.startsName(line[nameStart]) else { return nil }
            end = self.end(from: nameStart) { $0.isHaskellSpace }
            var nameEnd = end
            while nameEnd > nameStart && line[nameEnd - 1].isHaskellPunctuation { nameEnd -= 1 }
            name = nameStart..<nameEnd
            shownEnd = nameEnd
        }
        let nameText = text(name)
        if isCommand {
            let keyword = line[name].split(whereSeparator: \.isHaskellSpace).first
            guard let keyword,
                keyword.allSatisfy({ $0.isHaskellAlpha || $0.isASCIIDigit || $0 == "_" })
            else { return nil }
        }
        let format: Format = isCommand ? .command(commandStr: nameText) : .mention(memberName: nameText)
        var runs = [FormattedText(text(start..<shownEnd), format)]
        if shownEnd < end { runs.append(FormattedText(text(shownEnd..<end))) }
        return (runs, end)
    }

    /// Markdown.hs `refChar`: what may start a display name.
    private static func startsName(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0x20 && scalar != "#" && scalar != "@" && scalar != "'"
    }

    /// `[text](https://...)` (Markdown.hs `sowLinkP`). Refused, so it stays plain, when the text
    /// has punctuation other than `-` and `_` but is neither the address nor the address without
    /// `https://` (it could pass for another address), when the address is a full SimpleX link, or
    /// when it is not an http(s) address with a dotted host.
    func hyperLink(at start: Int) -> Fragment? {
        let textStart = start + 1
        let textEnd = nextBracket[textStart]
        guard textEnd > textStart, textEnd + 1 < line.count, line[textEnd + 1] == "(" else { return nil }
        let uriStart = textEnd + 2
        let uriEnd = nextParenthesis[uriStart]
        // An address with a space is neither a web address nor a SimpleX link.
        guard uriEnd > uriStart, uriEnd < line.count, nextSpace[uriStart] >= uriEnd else { return nil }
        let shown = line[textStart..<textEnd]
        let address = line[uriStart..<uriEnd]
        if nextLinkTextPunctuation[textStart] < textEnd {
            let https = Array("https://".unicodeScalars)
            let isAddress =
                shown.elementsEqual(address)
                || (address.starts(with: https) && shown.elementsEqual(address.dropFirst(https.count)))
            guard isAddress else { return nil }
        }
        let uri = String(scalars: address)
        guard SimplexLinkParser.parse(uri) == nil, WebURI.isValid(uri) else { return nil }
        let format = Format.hyperLink(showText: String(scalars: shown), linkUri: uri)
        return ([FormattedText(text(start..<(uriEnd + 1)), format)], uriEnd + 1)
    }

    /// A phone number (Markdown.hs `phoneP`): an optional `+` and country code, an optional area
    /// code in brackets, then digit groups, each after an optional space, `-` or `.`; 7 to 22
    /// characters in all. What follows the number is not checked.
    func phone(at start: Int) -> Fragment? {
        var index = start
        if line[index] == "+" {
            let digitsEnd = end(from: index + 1) { !$0.isASCIIDigit }
            if digitsEnd > index + 1 { index = digitsEnd }
        }
        var codeStart = index
        if codeStart < line.count, Self.isPhoneSeparator(line[codeStart]) { codeStart += 1 }
        if codeStart < line.count, line[codeStart] == "(" {
            let digitsEnd = end(from: codeStart + 1) { !$0.isASCIIDigit }
            if digitsEnd > codeStart + 1, digitsEnd < line.count, line[digitsEnd] == ")" {
                index = digitsEnd + 1
            }
        }
        // Past 22 characters it cannot be a phone; stopping keeps a long run of digit groups linear.
        while index - start <= 22 {
            var groupStart = index
            if groupStart < line.count, Self.isPhoneSeparator(line[groupStart]) { groupStart += 1 }
            let digitsEnd = end(from: groupStart) { !$0.isASCIIDigit }
            guard digitsEnd > groupStart else { break }
            index = digitsEnd
        }
        guard (7...22).contains(index - start) else { return nil }
        return ([FormattedText(text(start..<index), .phone)], index)
    }

    private static func isPhoneSeparator(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "-" || scalar == "."
    }

    /// A word up to the next space (Markdown.hs `wordP`/`wordMD`). Its trailing punctuation (but
    /// `/` and `)`) is set apart; what is left may be a web address (10 or more characters from
    /// `http://`, `https://` or `simplex:/`: a SimpleX link, else a valid http(s) address, else the
    /// whole word is plain), a domain such as `example.com`, or an email address.
    func word(at start: Int) -> Fragment {
        let end = self.end(from: start) { $0 == " " }
        var coreEnd = end
        while coreEnd > start && Self.isTrailingPunctuation(line[coreEnd - 1]) { coreEnd -= 1 }
        let core = text(start..<coreEnd)
        func formatted(_ format: Format) -> Fragment {
            var runs = [FormattedText(core, format)]
            if coreEnd < end { runs.append(FormattedText(text(coreEnd..<end))) }
            return (runs, end)
        }
        let plain: Fragment = ([FormattedText(text(start..<end))], end)
        let coreScalars = line[start..<coreEnd]
        if Self.looksLikeURI(coreScalars) {
            // SimpleX decodes the whole word, trailing punctuation included, as a link.
            if let link = SimplexLinkParser.parse(text(start..<end)) {
                return formatted(
                    .simplexLink(
                        showText: nil, linkType: link.linkType, simplexUri: link.simplexUri,
                        smpHosts: link.smpHosts)
                )
            }
            return WebURI.isValid(core) ? formatted(.uri) : plain
        }
        if Self.isDomain(coreScalars) { return formatted(.uri) }
        if EmailAddress.isValid(coreScalars) { return formatted(.email) }
        return plain
    }

    /// Markdown.hs `isPunctuation'`.
    private static func isTrailingPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "/" && scalar != ")" && scalar.isHaskellPunctuation
    }

    /// Markdown.hs `isUri`.
    private static func looksLikeURI(_ word: ArraySlice<Unicode.Scalar>) -> Bool {
        guard word.count >= 10 else { return false }
        return ["http://", "https://", "simplex:/"].contains { word.starts(with: $0.unicodeScalars) }
    }

    /// Markdown.hs `isDomain`: `name.tld` or `sub.name.tld`, the name 1-24 and the tld 2-8 ASCII
    /// letters, the sub 3-8 characters: likely domains, not every valid one.
    static func isDomain(_ word: ArraySlice<Unicode.Scalar>) -> Bool {
        let parts = word.split(separator: ".", omittingEmptySubsequences: false)
        func isNameAndTLD(_ name: ArraySlice<Unicode.Scalar>, _ tld: ArraySlice<Unicode.Scalar>) -> Bool {
            (1...24).contains(name.count) && (2...8).contains(tld.count)
                && name.allSatisfy(\.isASCIILetter) && tld.allSatisfy(\.isASCIILetter)
        }
        switch parts.count {
        case 2: return isNameAndTLD(parts[0], parts[1])
        case 3: return (3...8).contains(parts[0].count) && isNameAndTLD(parts[1], parts[2])
        default: return false
        }
    }
}
