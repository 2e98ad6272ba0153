/// Haskell's `Data.Char` predicates, which Markdown.hs uses: the parser works on Unicode scalars,
/// as `Data.Text` does on code points, so lengths and classes match SimpleX's.
extension Unicode.Scalar {
    /// `isSpace`: space, tab, newline, vertical tab, form feed, carriage return, no-break space,
    /// and the other space separators (Zs).
    var isHaskellSpace: Bool {
        let value = self.value
        if value <= 0x377 { return value == 32 || (value >= 9 && value <= 13) || value == 0xA0 }
        return properties.generalCategory == .spaceSeparator
    }

    /// `isPunctuation`: the Unicode punctuation categories (Pc, Pd, Ps, Pe, Pi, Pf, Po).
    var isHaskellPunctuation: Bool {
        switch properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return true
        default:
            return false
        }
    }

    /// `isAlpha`: the letter categories (Lu, Ll, Lt, Lm, Lo).
    var isHaskellAlpha: Bool {
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
            return true
        default:
            return false
        }
    }

    /// `isDigit`: ASCII 0-9 only.
    var isASCIIDigit: Bool { value >= 0x30 && value <= 0x39 }

    /// An ASCII letter.
    var isASCIILetter: Bool { (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A) }
}

extension String {
    /// A string of these scalars. Encoded into UTF-8 bytes first: appending scalars one by one
    /// to a scalar view was most of the markdown parser's time (a string for every word).
    init(scalars: some Sequence<Unicode.Scalar>) {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(scalars.underestimatedCount)
        for scalar in scalars {
            if scalar.isASCII {
                utf8.append(UInt8(truncatingIfNeeded: scalar.value))
            } else {
                UTF8.encode(scalar) { utf8.append($0) }
            }
        }
        self = String(decoding: utf8, as: UTF8.self)
    }
}
