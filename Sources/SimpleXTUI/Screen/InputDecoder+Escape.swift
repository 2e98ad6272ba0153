/// Escape sequences: CSI (xterm keys with modifiers, kitty's `CSI u`, modifyOtherKeys' `CSI 27 ~`,
/// SGR mouse, focus, paste), SS3, Alt+key as an ESC prefix, and terminal reply strings (skipped).
extension InputDecoder {
    static func parseEscape(_ bytes: ArraySlice<UInt8>) -> Parsed {
        let start = bytes.startIndex
        guard start + 1 < bytes.endIndex else { return .incomplete }
        switch bytes[start + 1] {
        case UInt8(ascii: "["):
            return parseCSI(bytes)
        case UInt8(ascii: "O"):
            return parseSS3(bytes)
        case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"):
            // OSC, DCS and APC: replies to queries (colours, version, kitty graphics), never keys.
            return skipString(bytes)
        case 0x1B:
            // ESC ESC: the first is the Escape key; the second starts whatever follows.
            return .event(1, .key(.escape))
        default:
            // Alt+key: ESC then the key's own bytes.
            switch parse(bytes[(start + 1)...]) {
            case .incomplete:
                return .incomplete
            case .text(let length):
                let text = String(decoding: bytes[(start + 1)..<(start + 1 + length)], as: UTF8.self)
                return .event(1 + length, .key(.character(Character(text)), .alt))
            case .event(let length, .key(let key, let modifiers)?):
                return .event(1 + length, .key(key, modifiers.union(.alt)))
            case .event(let length, _):
                return .event(1 + length, nil)
            case .pasteStart:
                return .event(1, .key(.escape))
            }
        }
    }

    /// A string sequence ended by BEL or ST (`ESC \`), dropped whole.
    private static func skipString(_ bytes: ArraySlice<UInt8>) -> Parsed {
        let start = bytes.startIndex
        var index = start + 2
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x07 { return .event(index - start + 1, nil) }
            if byte == 0x1B {
                guard index + 1 < bytes.endIndex else { return .incomplete }
                // ST ends it; any other ESC means the string was cut short: drop it, keep the ESC.
                return bytes[index + 1] == UInt8(ascii: "\\")
                    ? .event(index - start + 2, nil) : .event(index - start, nil)
            }
            index += 1
            if index - start > maxStringLength { return .event(index - start, nil) }
        }
        return .incomplete
    }

    private static func parseSS3(_ bytes: ArraySlice<UInt8>) -> Parsed {
        let start = bytes.startIndex
        var index = start + 2
        while index < bytes.endIndex, (0x30...0x39).contains(bytes[index]) { index += 1 }
        guard index < bytes.endIndex else { return .incomplete }
        let final = bytes[index]
        guard (0x40...0x7E).contains(final) else {
            // Not SS3 after all: Alt+Shift+O, then whatever came next.
            return index == start + 2 ? .event(2, .key(.character("O"), .alt)) : .event(index - start, nil)
        }
        let digits = String(decoding: bytes[(start + 2)..<index], as: UTF8.self)
        let modifiers = KeyModifiers(xtermParameter: Int(digits) ?? 1)
        let length = index - start + 1
        let key: Key
        switch final {
        case UInt8(ascii: "M"): key = .enter
        case UInt8(ascii: "j")...UInt8(ascii: "y"):
            // The application keypad: * + , - . / and the digits.
            let keypad = Array("*+,-./0123456789")
            return .event(length, .text(String(keypad[Int(final - UInt8(ascii: "j"))])))
        default:
            guard let cursorKey = cursorOrFunctionKey(final) else { return .event(length, nil) }
            key = cursorKey
        }
        return .event(length, .key(key, modifiers))
    }

    /// Keys that xterm sends as `CSI 1 ; mod X` or `SS3 X`.
    private static func cursorOrFunctionKey(_ final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        case UInt8(ascii: "P"): .function(1)
        case UInt8(ascii: "Q"): .function(2)
        case UInt8(ascii: "R"): .function(3)
        case UInt8(ascii: "S"): .function(4)
        default: nil
        }
    }

    private static func parseCSI(_ bytes: ArraySlice<UInt8>) -> Parsed {
        let start = bytes.startIndex
        var index = start + 2
        var hasIntermediates = false
        while index < bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case 0x30...0x3F where !hasIntermediates:
                break
            case 0x20...0x2F:
                hasIntermediates = true
            case 0x40...0x7E:
                return interpretCSI(bytes, final: index, hasIntermediates: hasIntermediates)
            default:
                // Malformed: drop what came so far, decode this byte afresh.
                return .event(index - start, nil)
            }
            index += 1
            if index - start > maxSequenceLength { return .event(index - start, nil) }
        }
        return .incomplete
    }

    private static func interpretCSI(
        _ bytes: ArraySlice<UInt8>, final finalIndex: Int, hasIntermediates: Bool
    )
        -> Parsed
    {
        let start = bytes.startIndex
        let final = bytes[finalIndex]
        var length = finalIndex - start + 1
        var body = bytes[(start + 2)..<finalIndex]
        guard !hasIntermediates else { return .event(length, nil) }
        if final == UInt8(ascii: "M"), body.isEmpty {
            // X10 mouse (a terminal without SGR mouse): three raw bytes follow.
            guard finalIndex + 3 < bytes.endIndex else { return .incomplete }
            length += 3
            let code = Int(bytes[finalIndex + 1]) - 32
            let x = Int(bytes[finalIndex + 2]) - 32
            let y = Int(bytes[finalIndex + 3]) - 32
            guard code & 3 != 3, let mouse = MouseEvent(sgrCode: code, x: x, y: y, released: false) else {
                return .event(length, nil)
            }
            return .event(length, .mouse(mouse))
        }
        var marker: UInt8?
        if let first = body.first, (0x3C...0x3F).contains(first) {
            marker = first
            body = body.dropFirst()
        }
        let fields = String(decoding: body, as: UTF8.self).split(
            separator: ";", omittingEmptySubsequences: false
        )
        .map { $0.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) } }
        func number(_ field: Int, _ sub: Int = 0, default value: Int) -> Int {
            guard field < fields.count, sub < fields[field].count else { return value }
            return fields[field][sub] ?? value
        }
        let event: InputEvent?
        switch (marker, final) {
        case (nil, UInt8(ascii: "I")) where body.isEmpty:
            event = .focus(true)
        case (nil, UInt8(ascii: "O")) where body.isEmpty:
            event = .focus(false)
        case (nil, UInt8(ascii: "Z")):
            event = .key(.tab, KeyModifiers(xtermParameter: number(1, default: 1)).union(.shift))
        case (nil, UInt8(ascii: "~")):
            let code = number(0, default: 0)
            if code == 200 { return .pasteStart(length) }
            if code == 27 {
                // modifyOtherKeys: CSI 27 ; mod ; code ~
                event = codeKey(number(2, default: -1), KeyModifiers(xtermParameter: number(1, default: 1)))
            } else {
                event = tildeKey(code).map { .key($0, KeyModifiers(xtermParameter: number(1, default: 1))) }
            }
        case (nil, UInt8(ascii: "u")):
            // kitty: CSI code[:alternates] ; mod[:event] u; event 3 is a release (not requested).
            if number(1, 1, default: 1) == 3 {
                event = nil
            } else {
                event = codeKey(number(0, default: -1), KeyModifiers(xtermParameter: number(1, default: 1)))
            }
        case (UInt8(ascii: "<"), UInt8(ascii: "M")), (UInt8(ascii: "<"), UInt8(ascii: "m")):
            guard fields.count == 3, let code = fields[0].first ?? nil, let x = fields[1].first ?? nil,
                let y = fields[2].first ?? nil
            else { return .event(length, nil) }
            event = MouseEvent(sgrCode: code, x: x, y: y, released: final == UInt8(ascii: "m")).map(
                InputEvent.mouse)
        case (UInt8(ascii: "?"), UInt8(ascii: "c")):
            event = DeviceAttributes(reply: bytes[start...finalIndex]).map(InputEvent.deviceAttributes)
        case (nil, _) where fields.count < 2 || number(0, default: 1) == 1:
            // CSI 1 ; mod X; a first parameter other than 1 is a report (CSI row ; col R), not a key.
            event = cursorOrFunctionKey(final).map {
                .key($0, KeyModifiers(xtermParameter: number(1, default: 1)))
            }
        default:
            event = nil
        }
        return .event(length, event)
    }

    /// `CSI n ~` keys (vt220 style).
    private static func tildeKey(_ code: Int) -> Key? {
        switch code {
        case 1, 7: .home
        case 2: .insert
        case 3: .delete
        case 4, 8: .end
        case 5: .pageUp
        case 6: .pageDown
        case 11...15: .function(code - 10)
        case 17...21: .function(code - 11)
        case 23...26: .function(code - 12)
        case 28, 29: .function(code - 13)
        case 31...34: .function(code - 14)
        default: nil
        }
    }

    /// A key given by its Unicode code (kitty and modifyOtherKeys): the special keys by their
    /// control codes, a character with Ctrl/Alt as a key, with Shift alone as text.
    static func codeKey(_ code: Int, _ modifiers: KeyModifiers) -> InputEvent? {
        switch code {
        case 13, 57414: return .key(.enter, modifiers)  // 57414: kitty's keypad Enter
        case 9: return .key(.tab, modifiers)
        case 127, 8: return .key(.backspace, modifiers)
        case 27: return .key(.escape, modifiers)
        case 0..<0x20:
            guard case .key(let key, let own)? = controlKey(UInt8(code)) else { return nil }
            return .key(key, own.union(modifiers))
        default:
            // Controls, surrogates and kitty's private-use codes for other functional keys.
            guard code >= 0xA0 || (0x20..<0x7F).contains(code), !(0xE000..<0xF900).contains(code),
                let scalar = Unicode.Scalar(code)
            else { return nil }
            let character = Character(scalar)
            if modifiers.subtracting(.shift).isEmpty { return .text(String(character)) }
            return .key(.character(character), modifiers)
        }
    }
}
