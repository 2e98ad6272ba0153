/// Decodes terminal input bytes into `InputEvent`s; a pure state machine, fed by the session.
///
/// Bytes arrive in arbitrary pieces: an escape sequence or a UTF-8 character split across reads
/// stays pending until the rest comes. A lone ESC is ambiguous (the Escape key, or the start of a
/// sequence still on its way): it stays pending too, and the caller calls `flushPending()` when no
/// more bytes came for a short while (~25 ms), which turns it into the Escape key. Sequences we
/// do not know are dropped whole; their bytes never show up as text.
public struct InputDecoder: Sendable {
    /// Bytes not yet decoded: an incomplete sequence or character.
    private var pending: [UInt8] = []
    /// The text of a bracketed paste being received, while one is.
    private var paste: [UInt8]?

    /// The longest sequence we wait for; longer ones are garbage and are dropped.
    static let maxSequenceLength = 256
    /// The longest terminal reply string (OSC, DCS, APC) we wait for.
    static let maxStringLength = 1 << 16
    private static let pasteEnd: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]  // ESC [ 2 0 1 ~

    public init() {}

    /// Whether bytes wait for more input or for `flushPending()`: the caller arms its timer. An open
    /// paste is not pending (the timer has nothing to do for it).
    public var hasPending: Bool { !pending.isEmpty }

    /// Decodes `bytes`, keeping an incomplete tail pending.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [InputEvent] {
        pending.append(contentsOf: bytes)
        var events: [InputEvent] = []
        decode(into: &events)
        return events
    }

    /// Decodes what is pending as if no more bytes will follow: a lone ESC is the Escape key, ESC
    /// and one byte is Alt+that key, and a truncated sequence or character is dropped. A paste
    /// still open stays open (its end may be slow to come on a loaded link).
    public mutating func flushPending() -> [InputEvent] {
        guard paste == nil, !pending.isEmpty else { return [] }
        var events: [InputEvent] = []
        if pending == [0x1B] {
            events.append(.key(.escape))
        } else if pending.count == 2, pending[0] == 0x1B, let key = Self.asciiKey(pending[1]) {
            // "ESC [" or "ESC O" that nothing completed: Alt+[ / Alt+O.
            events.append(.key(key, .alt))
        }
        pending.removeAll()
        return events
    }

    private mutating func decode(into events: inout [InputEvent]) {
        var text: [UInt8] = []
        func flushText() {
            guard !text.isEmpty else { return }
            events.append(.text(String(decoding: text, as: UTF8.self)))
            text.removeAll()
        }
        var index = 0
        while true {
            if paste != nil {
                flushText()
                pending.removeFirst(index)
                index = 0
                guard let content = takePaste() else { return }
                events.append(.paste(content))
                continue
            }
            guard index < pending.count else { break }
            switch Self.parse(pending[index...]) {
            case .incomplete:
                flushText()
                pending.removeFirst(index)
                return
            case .text(let length):
                text.append(contentsOf: pending[index..<index + length])
                index += length
            case .event(let length, let event):
                // Dropped bytes do not split the text around them.
                if let event {
                    flushText()
                    events.append(event)
                }
                index += length
            case .pasteStart(let length):
                flushText()
                index += length
                paste = []
            }
        }
        flushText()
        pending.removeAll(keepingCapacity: true)
    }

    /// Moves pending bytes into the paste; when its end marker is there, returns the text and
    /// leaves what follows the marker pending.
    private mutating func takePaste() -> String? {
        guard var content = paste else { return nil }
        let searchFrom = max(0, content.count - (Self.pasteEnd.count - 1))
        content.append(contentsOf: pending)
        pending.removeAll()
        guard let end = Self.find(Self.pasteEnd, in: content, from: searchFrom) else {
            paste = content
            return nil
        }
        pending = Array(content[(end + Self.pasteEnd.count)...])
        paste = nil
        return Self.pastedText(content[..<end])
    }

    /// Terminals send a pasted newline as CR (the Enter key's byte): CR and CRLF become LF.
    static func pastedText(_ bytes: ArraySlice<UInt8>) -> String {
        var normalized: [UInt8] = []
        normalized.reserveCapacity(bytes.count)
        var previousCR = false
        for byte in bytes {
            if byte == 0x0D {
                normalized.append(0x0A)
            } else if !(byte == 0x0A && previousCR) {
                normalized.append(byte)
            }
            previousCR = byte == 0x0D
        }
        return String(decoding: normalized, as: UTF8.self)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var i = start
        while i + needle.count <= haystack.count {
            if haystack[i] == needle[0], haystack[i..<i + needle.count].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// What the bytes at the start of a slice are.
    enum Parsed: Equatable {
        /// More bytes are needed to tell.
        case incomplete
        /// A printable character of this many UTF-8 bytes.
        case text(Int)
        /// This many bytes make an event, or nothing (an unknown or malformed sequence, dropped).
        case event(Int, InputEvent?)
        /// The start of a bracketed paste, this many bytes long.
        case pasteStart(Int)
    }

    static func parse(_ bytes: ArraySlice<UInt8>) -> Parsed {
        let start = bytes.startIndex
        let byte = bytes[start]
        switch byte {
        case 0x1B:
            return parseEscape(bytes)
        case 0x20..<0x7F:
            return .text(1)
        case 0x80...:
            return parseUTF8(bytes)
        default:
            return .event(1, controlKey(byte))
        }
    }

    /// The key a C0 control byte or DEL stands for (Ctrl+letter for most).
    static func controlKey(_ byte: UInt8) -> InputEvent? {
        switch byte {
        case 0x0D: return .key(.enter)
        case 0x09: return .key(.tab)
        // DEL is what Backspace sends; some terminals send BS (Ctrl+H) for it instead.
        case 0x7F, 0x08: return .key(.backspace)
        case 0x1B: return .key(.escape)
        case 0x00: return .key(.character(" "), .control)
        case 0x01...0x1A: return .key(.character(Character(UnicodeScalar(byte + 0x60))), .control)
        case 0x1C...0x1F: return .key(.character(Character(UnicodeScalar(byte + 0x40))), .control)
        default: return nil
        }
    }

    /// A printable ASCII byte or control byte as a key (for Alt+key and kitty's key codes).
    static func asciiKey(_ byte: UInt8) -> Key? {
        if byte >= 0x20, byte < 0x7F { return .character(Character(UnicodeScalar(byte))) }
        if case .key(let key, _)? = controlKey(byte) { return key }
        return nil
    }

    private static func parseUTF8(_ bytes: ArraySlice<UInt8>) -> Parsed {
        let start = bytes.startIndex
        let lead = bytes[start]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return .event(1, nil)  // a stray continuation byte or an invalid lead
        }
        for offset in 1..<length {
            guard start + offset < bytes.endIndex else { return .incomplete }
            let next = bytes[start + offset]
            guard next & 0xC0 == 0x80 else { return .event(offset, nil) }
        }
        var decoder = UTF8()
        var iterator = bytes[start..<start + length].makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return .event(length, nil) }
        // C1 controls (U+0080–U+009F) are not text.
        if scalar.value < 0xA0 { return .event(length, nil) }
        return .text(length)
    }
}
