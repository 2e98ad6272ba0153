internal import CQRencode
import Foundation

/// A QR code of a link (a SimpleX invitation or address), drawn in the terminal with half blocks:
/// one text row holds two module rows, inside the 4-module quiet zone scanners need.
public struct QRCode: Equatable, Sendable {
    /// The error correction the code was made with.
    public enum ErrorCorrection: Equatable, Sendable {
        /// Recovers 7% of the code: the smaller code, for long links.
        case low
        /// Recovers 15% of the code: the default.
        case medium
    }

    /// How modules become cells.
    public enum Appearance: Equatable, Sendable {
        /// Black modules on white, in explicit colours: scans whatever the terminal's theme.
        case colors
        /// No colours (NO_COLOR), for a terminal that draws light text on a dark background: the
        /// glyphs' ink draws the light modules and the quiet zone, the background the dark ones.
        case lightInk
        /// No colours, for a terminal that draws dark text on a light background.
        case darkInk
    }

    /// Modules around the code that scanners need to find it.
    public static let quietZone = 4

    public let text: String
    public let errorCorrection: ErrorCorrection
    /// Modules on a side, without the quiet zone.
    public let size: Int
    /// Row by row, whether a module is dark.
    private let modules: [Bool]

    /// Encodes `text` at error correction M, or at L when the M code would be wider than
    /// `maxWidth` cells (long links on a narrow terminal) or M cannot hold it.
    public init(_ text: String, maxWidth: Int = .max) throws(MediaError) {
        let medium: QRCode
        do {
            medium = try Self.encode(text, level: .medium)
        } catch let error where error.reason == .tooLongForQRCode(bytes: text.utf8.count) {
            self = try Self.encode(text, level: .low)
            return
        }
        if medium.width > maxWidth {
            let low = try Self.encode(text, level: .low)
            self = low.size < medium.size ? low : medium
        } else {
            self = medium
        }
    }

    private init(text: String, errorCorrection: ErrorCorrection, size: Int, modules: [Bool]) {
        self.text = text
        self.errorCorrection = errorCorrection
        self.size = size
        self.modules = modules
    }

    /// Cells a drawn line takes: the code and its quiet zone.
    public var width: Int { size + 2 * Self.quietZone }

    /// Whether the module at column `x`, row `y` is dark; the quiet zone (negative or past the
    /// code) is light.
    public func isDark(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }

    /// The code as lines of `width` cells, two module rows to a line.
    public func lines(_ appearance: Appearance = .colors) -> [StyledLine] {
        let zone = Self.quietZone
        let style: Style
        switch appearance {
        case .colors: style = Style(foreground: .rgb(0, 0, 0), background: .rgb(255, 255, 255))
        case .lightInk, .darkInk: style = .plain
        }
        // With colours and dark ink the glyphs draw dark modules; with light ink, light ones.
        let inkIsDark = appearance != .lightInk
        var lines: [StyledLine] = []
        var y = -zone
        while y < size + zone {
            var row = ""
            for x in -zone..<(size + zone) {
                let top = isDark(x: x, y: y) == inkIsDark
                let bottom = y + 1 < size + zone ? isDark(x: x, y: y + 1) == inkIsDark : !inkIsDark
                switch (top, bottom) {
                case (true, true): row += "█"
                case (true, false): row += "▀"
                case (false, true): row += "▄"
                case (false, false): row += " "
                }
            }
            lines.append(StyledLine(row, style))
            y += 2
        }
        return lines
    }

    private static func encode(_ text: String, level: ErrorCorrection) throws(MediaError) -> QRCode {
        guard !text.utf8.contains(0) else { throw MediaError(subject: "link", reason: .notEncodable) }
        // Version 0: the smallest that holds the text; 8-bit mode (links are mixed case) with
        // libqrencode's own split into numeric and alphanumeric runs where they are shorter.
        guard
            let code = QRcode_encodeString(text, 0, level == .low ? QR_ECLEVEL_L : QR_ECLEVEL_M, QR_MODE_8, 1)
        else {
            if errno == ERANGE {
                throw MediaError(subject: "link", reason: .tooLongForQRCode(bytes: text.utf8.count))
            }
            throw MediaError(subject: "link", reason: .libraryFailure("QRcode_encodeString (errno \(errno))"))
        }
        defer { QRcode_free(code) }
        let size = Int(code.pointee.width)
        // Bit 0 of each byte is the module's colour; the other bits say what part it is.
        let data = UnsafeBufferPointer(start: code.pointee.data, count: size * size)
        return QRCode(text: text, errorCorrection: level, size: size, modules: data.map { $0 & 1 == 1 })
    }
}
