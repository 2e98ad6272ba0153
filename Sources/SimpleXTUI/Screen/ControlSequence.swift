/// The escape sequences the renderer and the terminal session write, appended to a byte buffer.
enum ControlSequence {
    static let escape: UInt8 = 0x1B

    /// `ESC [` followed by `body`.
    static func csi(_ body: String, into out: inout [UInt8]) {
        out.append(escape)
        out.append(UInt8(ascii: "["))
        out.append(contentsOf: body.utf8)
    }

    static func csi(_ body: String) -> [UInt8] {
        var out: [UInt8] = []
        csi(body, into: &out)
        return out
    }

    /// Cursor position (CUP), from a 0-based row and column.
    static func moveCursor(row: Int, column: Int, into out: inout [UInt8]) {
        out.append(escape)
        out.append(UInt8(ascii: "["))
        appendDecimal(row + 1, into: &out)
        out.append(UInt8(ascii: ";"))
        appendDecimal(column + 1, into: &out)
        out.append(UInt8(ascii: "H"))
    }

    static let beginSynchronizedUpdate = csi("?2026h")
    static let endSynchronizedUpdate = csi("?2026l")
    static let showCursor = csi("?25h")
    static let hideCursor = csi("?25l")
    static let resetStyle = csi("0m")
    static let clearScreen = csi("H") + csi("2J")

    /// OSC 8 opening a hyperlink to `target`, or closing one when `target` is nil.
    ///
    /// Links come from peers' messages: bytes outside printable ASCII are percent-encoded (as the
    /// OSC 8 spec asks), so a link can never end the sequence early or smuggle controls in.
    static func hyperlink(_ target: String?, into out: inout [UInt8]) {
        out.append(escape)
        out.append(contentsOf: "]8;;".utf8)
        if let target {
            for byte in target.utf8 {
                if byte > 0x20, byte < 0x7F {
                    out.append(byte)
                } else {
                    out.append(UInt8(ascii: "%"))
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0x0F)])
                }
            }
        }
        out.append(escape)
        out.append(UInt8(ascii: "\\"))
    }

    /// SGR setting exactly `style`'s colours (after lowering) and attributes, from a reset.
    static func selectGraphicRendition(_ style: Style, colors: ColorCapability, into out: inout [UInt8]) {
        out.append(escape)
        out.append(UInt8(ascii: "["))
        out.append(UInt8(ascii: "0"))
        let attributes = style.attributes
        let codes: [(Attributes, UInt8)] = [
            (.bold, 1), (.dim, 2), (.italic, 3), (.underline, 4), (.reverse, 7), (.strikethrough, 9),
        ]
        for (attribute, code) in codes where attributes.contains(attribute) {
            out.append(UInt8(ascii: ";"))
            appendDecimal(Int(code), into: &out)
        }
        appendColor(colors.lower(style.foreground), background: false, into: &out)
        appendColor(colors.lower(style.background), background: true, into: &out)
        out.append(UInt8(ascii: "m"))
    }

    private static func appendColor(_ color: Color, background: Bool, into out: inout [UInt8]) {
        switch color {
        case .default:
            return
        case .palette(let index) where index < 8:
            out.append(UInt8(ascii: ";"))
            appendDecimal((background ? 40 : 30) + Int(index), into: &out)
        case .palette(let index) where index < 16:
            out.append(UInt8(ascii: ";"))
            appendDecimal((background ? 100 : 90) + Int(index) - 8, into: &out)
        case .palette(let index):
            out.append(contentsOf: background ? ";48;5;".utf8 : ";38;5;".utf8)
            appendDecimal(Int(index), into: &out)
        case .rgb(let r, let g, let b):
            out.append(contentsOf: background ? ";48;2;".utf8 : ";38;2;".utf8)
            appendDecimal(Int(r), into: &out)
            out.append(UInt8(ascii: ";"))
            appendDecimal(Int(g), into: &out)
            out.append(UInt8(ascii: ";"))
            appendDecimal(Int(b), into: &out)
        }
    }

    static func appendDecimal(_ value: Int, into out: inout [UInt8]) {
        if value < 10 {
            out.append(UInt8(ascii: "0") + UInt8(max(0, value)))
            return
        }
        var digits: [UInt8] = []
        var rest = value
        while rest > 0 {
            digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        }
        out.append(contentsOf: digits.reversed())
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
