/// Why bytes are not JSON: what was wrong and at which byte offset.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Hashable, Sendable {
        case unexpectedEnd
        case unexpectedByte(UInt8)
        case invalidNumber
        case invalidEscape
        case controlCharacterInString
        case invalidUTF8
        case trailingContent
        /// Nesting deeper than `JSONParser.maxDepth`: refused rather than risk the stack.
        case tooDeep
    }

    public let reason: Reason
    /// Offset of the offending byte in the input.
    public let offset: Int

    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String {
        switch reason {
        case .unexpectedEnd: return "JSON ends early at byte \(offset)"
        case .unexpectedByte(let byte): return "unexpected byte 0x\(String(byte, radix: 16)) at \(offset)"
        case .invalidNumber: return "invalid number at byte \(offset)"
        case .invalidEscape: return "invalid escape at byte \(offset)"
        case .controlCharacterInString: return "unescaped control character in string at byte \(offset)"
        case .invalidUTF8: return "invalid UTF-8 in string at byte \(offset)"
        case .trailingContent: return "content after the JSON value at byte \(offset)"
        case .tooDeep: return "JSON nested too deeply at byte \(offset)"
        }
    }
}

extension JSON {
    /// Parses one JSON value (RFC 8259; whitespace around it allowed, nothing else after it).
    public init(parsing bytes: some Collection<UInt8>) throws(JSONParseError) {
        var parser = JSONParser(bytes: Array(bytes))
        self = try parser.parseDocument()
    }

    /// Parses one JSON value from text.
    public init(parsing text: String) throws(JSONParseError) {
        try self.init(parsing: Array(text.utf8))
    }
}

/// A recursive-descent JSON parser over bytes, with a depth limit.
struct JSONParser {
    /// Deepest nesting of arrays and objects accepted. SimpleX messages nest a handful of levels;
    /// the limit keeps hostile input from exhausting the stack.
    static let maxDepth = 128

    let bytes: [UInt8]
    private(set) var index = 0
    private var depth = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index >= bytes.count }

    mutating func parseDocument() throws(JSONParseError) -> JSON {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard isAtEnd else { throw JSONParseError(.trailingContent, at: index) }
        return value
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func peek() throws(JSONParseError) -> UInt8 {
        guard index < bytes.count else { throw JSONParseError(.unexpectedEnd, at: index) }
        return bytes[index]
    }

    private mutating func expect(_ byte: UInt8) throws(JSONParseError) {
        let found = try peek()
        guard found == byte else { throw JSONParseError(.unexpectedByte(found), at: index) }
        index += 1
    }

    private mutating func parseValue() throws(JSONParseError) -> JSON {
        switch try peek() {
        case UInt8(ascii: "{"):
            try enterNested()
            defer { depth -= 1 }
            return .object(try parseObject())
        case UInt8(ascii: "["):
            try enterNested()
            defer { depth -= 1 }
            return .array(try parseArray())
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumberToken())
        case let byte: throw JSONParseError(.unexpectedByte(byte), at: index)
        }
    }

    private mutating func enterNested() throws(JSONParseError) {
        guard depth < Self.maxDepth else { throw JSONParseError(.tooDeep, at: index) }
        depth += 1
    }

    private mutating func parseLiteral(_ word: StaticString, _ value: JSON) throws(JSONParseError) -> JSON {
        let start = index
        for byte in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
            guard index < bytes.count else { throw JSONParseError(.unexpectedEnd, at: index) }
            guard bytes[index] == byte else { throw JSONParseError(.unexpectedByte(bytes[index]), at: start) }
            index += 1
        }
        return value
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONObject {
        try expect(UInt8(ascii: "{"))
        var members: [(String, JSON)] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            index += 1
            return JSONObject()
        }
        while true {
            skipWhitespace()
            guard try peek() == UInt8(ascii: "\"") else {
                throw JSONParseError(.unexpectedByte(bytes[index]), at: index)
            }
            let key = try parseString()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            members.append((key, try parseValue()))
            skipWhitespace()
            let separator = try peek()
            index += 1
            if separator == UInt8(ascii: "}") { return JSONObject(members) }
            guard separator == UInt8(ascii: ",") else {
                throw JSONParseError(.unexpectedByte(separator), at: index - 1)
            }
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> [JSON] {
        try expect(UInt8(ascii: "["))
        var elements: [JSON] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            index += 1
            return elements
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            let separator = try peek()
            index += 1
            if separator == UInt8(ascii: "]") { return elements }
            guard separator == UInt8(ascii: ",") else {
                throw JSONParseError(.unexpectedByte(separator), at: index - 1)
            }
        }
    }

    /// A number token, validated against the JSON grammar and kept as text.
    mutating func parseNumberToken() throws(JSONParseError) -> JSONNumber {
        let start = index
        func digits(_ parser: inout JSONParser) -> Int {
            let from = parser.index
            while parser.index < parser.bytes.count, (0x30...0x39).contains(parser.bytes[parser.index]) {
                parser.index += 1
            }
            return parser.index - from
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits(&self)
        guard integerDigits > 0, !(integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0")) else {
            throw JSONParseError(.invalidNumber, at: start)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw JSONParseError(.invalidNumber, at: start) }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits(&self) > 0 else { throw JSONParseError(.invalidNumber, at: start) }
        }
        return JSONNumber(validatedText: String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        let start = index
        try expect(UInt8(ascii: "\""))
        var utf8: [UInt8] = []
        while true {
            let byte = try peek()
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw JSONParseError(.invalidUTF8, at: start)
                }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                try parseEscape(into: &utf8)
            case 0x00..<0x20:
                throw JSONParseError(.controlCharacterInString, at: index)
            default:
                utf8.append(byte)
                index += 1
            }
        }
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONParseError) {
        let escapeStart = index - 1
        let byte = try peek()
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try parseHex4(escapeStart))
            if (0xD800..<0xDC00).contains(scalar), bytes.count - index >= 6,
                bytes[index] == UInt8(ascii: "\\"),
                bytes[index + 1] == UInt8(ascii: "u")
            {
                let save = index
                index += 2
                let low = UInt32(try parseHex4(escapeStart))
                if (0xDC00..<0xE000).contains(low) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    index = save  // the next escape stands on its own
                }
            }
            // A lone surrogate becomes U+FFFD, as Haskell's text does when it decodes one.
            let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
            utf8.append(contentsOf: Array(String(character).utf8))
        default:
            throw JSONParseError(.invalidEscape, at: escapeStart)
        }
    }

    private mutating func parseHex4(_ escapeStart: Int) throws(JSONParseError) -> UInt16 {
        guard bytes.count - index >= 4 else { throw JSONParseError(.unexpectedEnd, at: bytes.count) }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw JSONParseError(.invalidEscape, at: escapeStart)
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }
}
