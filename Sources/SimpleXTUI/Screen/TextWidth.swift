internal import CUtf8proc

/// One user-perceived character and the terminal cells it takes (1 or 2).
public struct Grapheme: Equatable, Sendable {
    public let text: String
    public let width: Int
}

/// Grapheme clusters and their widths from utf8proc's Unicode data.
///
/// Text from peers may carry control characters and escape sequences; they never reach the
/// terminal: C0 and C1 controls (but not the tab, which layouts expand) become U+FFFD, and
/// zero-width characters standing alone (a ZWJ or a combining mark at the start) attach to
/// nothing and are dropped, so every grapheme has a width of 1 or 2 and columns stay aligned.
public enum TextWidth {
    static let replacement = "\u{FFFD}"

    /// Cells `text` takes on one line.
    public static func width(_ text: String) -> Int {
        if let ascii = asciiWidth(text) { return ascii }
        var total = 0
        forEachGrapheme(text) { _, width in total += width }
        return total
    }

    /// The graphemes of `text`, sanitized and measured.
    public static func graphemes(_ text: String) -> [Grapheme] {
        var result: [Grapheme] = []
        forEachGrapheme(text) { result.append(Grapheme(text: $0, width: $1)) }
        return result
    }

    /// Calls `body` with each grapheme's (sanitized) text and width.
    public static func forEachGrapheme(_ text: String, _ body: (String, Int) -> Void) {
        if asciiWidth(text) != nil {
            for byte in text.utf8 { body(String(UnicodeScalar(byte)), 1) }
            return
        }
        var state: Int32 = 0
        var cluster: [Unicode.Scalar] = []
        var previous: Int32 = -1
        for scalar in text.unicodeScalars {
            let code = Int32(bitPattern: scalar.value)
            // Between two printable ASCII characters there is always a break (no rule joins
            // them), and nothing carries over: asked of utf8proc only where a rule could apply.
            if isPrintableASCII(previous), isPrintableASCII(code) {
                // (A prepended mark may sit before the previous character, as its cluster's first.)
                if cluster.count == 1 { emitASCII(cluster, body) } else { emit(cluster, body) }
                cluster.removeAll(keepingCapacity: true)
                state = 0
            } else if previous >= 0, utf8proc_grapheme_break_stateful(previous, code, &state) {
                emit(cluster, body)
                cluster.removeAll(keepingCapacity: true)
            }
            cluster.append(scalar)
            previous = code
        }
        if !cluster.isEmpty { emit(cluster, body) }
    }

    /// The width when `text` is printable ASCII only (the common case, measured without utf8proc).
    @inline(__always)
    static func asciiWidth(_ text: String) -> Int? {
        var count = 0
        for byte in text.utf8 {
            guard byte >= 0x20, byte < 0x7F else { return nil }
            count += 1
        }
        return count
    }

    @inline(__always)
    private static func isPrintableASCII(_ code: Int32) -> Bool { code >= 0x20 && code < 0x7F }

    /// A cluster of one printable ASCII character.
    @inline(__always)
    private static func emitASCII(_ cluster: [Unicode.Scalar], _ body: (String, Int) -> Void) {
        if let first = cluster.first { body(String(Character(first)), 1) }
    }

    private static func emit(_ cluster: [Unicode.Scalar], _ body: (String, Int) -> Void) {
        guard let first = cluster.first else { return }
        let value = first.value
        if value == 0x09 { return body("\t", 1) }
        if value < 0x20 || (0x7F..<0xA0).contains(value) || value == 0x2028 || value == 0x2029 {
            return body(replacement, 1)
        }
        let category = utf8proc_category(Int32(bitPattern: value))
        var width = Int(utf8proc_charwidth(Int32(bitPattern: value)))
        if width == 0 {
            // A cluster that starts with a mark or a format character has nothing to sit on.
            switch category {
            case UTF8PROC_CATEGORY_MN, UTF8PROC_CATEGORY_ME, UTF8PROC_CATEGORY_MC, UTF8PROC_CATEGORY_CF,
                UTF8PROC_CATEGORY_ZL, UTF8PROC_CATEGORY_ZP:
                return
            default:
                width = 1
            }
        }
        if cluster.count > 1 {
            // An emoji presentation selector (VS16) or a flag (two regional indicators) is drawn
            // two cells wide, as terminals with emoji fonts draw it.
            if cluster.contains(where: { $0.value == 0xFE0F }) { width = 2 }
            if (0x1F1E6...0x1F1FF).contains(value), cluster.count == 2 { width = 2 }
        }
        // One scalar (most clusters): a Character, without building a scalar view.
        let text = cluster.count == 1 ? String(Character(first)) : String(String.UnicodeScalarView(cluster))
        body(text, min(width, 2))
    }
}
