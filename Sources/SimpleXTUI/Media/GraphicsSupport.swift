/// A terminal graphics protocol that draws an image's own pixels.
public enum GraphicsProtocol: Hashable, Sendable {
    case kitty
    case sixel
    case iterm2
}

/// The characters an image in symbols mode is drawn with.
public enum SymbolSet: Hashable, Sendable {
    /// Block, border and space characters (a UTF-8 locale).
    case unicode
    /// ASCII only, for a locale that is not UTF-8.
    case ascii

    /// From the locale variables (LC_ALL, then LC_CTYPE, then LANG): `.unicode` when it is UTF-8.
    public static func detect(environment: [String: String]) -> SymbolSet {
        let locale =
            ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let lowered = locale.lowercased()
        return lowered.contains("utf-8") || lowered.contains("utf8") ? .unicode : .ascii
    }
}

/// How an image is drawn: in text cells, or with a graphics protocol.
public enum ImageRendering: Hashable, Sendable {
    case symbols(SymbolSet)
    case graphics(GraphicsProtocol)
}

/// The best way the terminal shows images, from its environment and, once the terminal layer has
/// asked, its primary device attributes (DA1).
public enum GraphicsSupport {
    /// kitty (TERM=xterm-kitty or xterm-ghostty, KITTY_WINDOW_ID), iTerm2 (TERM_PROGRAM iTerm.app or
    /// WezTerm), sixel (TERM naming foot, mlterm or sixel, or a DA1 reply listing 4), else symbols
    /// in the locale's character set. Inside tmux or screen, symbols: they do not pass graphics on.
    public static func detect(environment: [String: String], deviceAttributes: DeviceAttributes? = nil)
        -> ImageRendering
    {
        let symbols = ImageRendering.symbols(SymbolSet.detect(environment: environment))
        let term = environment["TERM"] ?? ""
        if environment["TMUX"] != nil || term.hasPrefix("screen") || term.hasPrefix("tmux") { return symbols }
        if term == "xterm-kitty" || term == "xterm-ghostty" || environment["KITTY_WINDOW_ID"] != nil {
            return .graphics(.kitty)
        }
        if let program = environment["TERM_PROGRAM"], program == "iTerm.app" || program == "WezTerm" {
            return .graphics(.iterm2)
        }
        if ["foot", "mlterm", "sixel"].contains(where: term.contains) || deviceAttributes?.hasSixel == true {
            return .graphics(.sixel)
        }
        return symbols
    }
}

/// `SIMPLEX_GRAPHICS` set to something other than a mode.
public struct GraphicsOverrideError: Error, Equatable, CustomStringConvertible {
    public let value: String
    public var description: String {
        "SIMPLEX_GRAPHICS=\(value) is not one of kitty, sixel, iterm, symbols: "
            + "images are drawn as the terminal allows"
    }
}

extension GraphicsSupport {
    /// The mode `SIMPLEX_GRAPHICS` forces (kitty, sixel, iterm or iterm2, symbols), for a
    /// terminal detection gets wrong and for tests; nil when it is unset or empty.
    public static func forced(environment: [String: String]) throws(GraphicsOverrideError) -> ImageRendering?
    {
        guard let value = environment["SIMPLEX_GRAPHICS"], !value.isEmpty else { return nil }
        switch value.lowercased() {
        case "kitty": return .graphics(.kitty)
        case "sixel": return .graphics(.sixel)
        case "iterm", "iterm2": return .graphics(.iterm2)
        case "symbols": return .symbols(SymbolSet.detect(environment: environment))
        default: throw GraphicsOverrideError(value: value)
        }
    }
}

/// A terminal's reply to the primary device attributes query (`CSI c`): `CSI ? 62 ; 4 ; 22 c`,
/// its conformance level and the features it lists.
public struct DeviceAttributes: Equatable, Sendable {
    /// 1 (VT100), 6 (VT102), 62–65 (VT220–VT525).
    public let level: Int
    public let features: [Int]

    /// Parses a reply that starts with the 7-bit (`ESC [`) or 8-bit (0x9B) CSI; nil when the
    /// bytes are not one.
    public init?(reply: some Collection<UInt8>) {
        var bytes = Array(reply)[...]
        if bytes.first == 0x9B {
            bytes = bytes.dropFirst()
        } else if bytes.starts(with: [0x1B, UInt8(ascii: "[")]) {
            bytes = bytes.dropFirst(2)
        } else {
            return nil
        }
        guard bytes.popFirst() == UInt8(ascii: "?"), bytes.popLast() == UInt8(ascii: "c") else { return nil }
        var numbers: [Int] = []
        for field in bytes.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
            guard !field.isEmpty, field.count <= 6, field.allSatisfy({ (0x30...0x39).contains($0) }) else {
                return nil
            }
            numbers.append(field.reduce(0) { $0 * 10 + Int($1 - 0x30) })
        }
        guard let level = numbers.first else { return nil }
        self.level = level
        features = Array(numbers.dropFirst())
    }

    /// Whether the terminal draws sixels: feature 4 of a VT220-or-later reply (for a VT100 the
    /// parameters are options with other meanings).
    public var hasSixel: Bool { level >= 62 && features.contains(4) }
}
