extension JSON {
    /// Compact UTF-8 JSON, byte for byte as SimpleX's Haskell core (aeson) writes it: no
    /// whitespace, members in their stored order, numbers as their text, non-ASCII characters and
    /// `/` written as they are, and only `"`, `\`, and control characters escaped (`\n`, `\r`,
    /// `\t`, the rest as lower-case `\u00XX`).
    public func encoded() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(to: &output)
        return output
    }

    /// `encoded()` as text.
    public var compactText: String { String(decoding: encoded(), as: UTF8.self) }

    func write(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let number): output.append(contentsOf: number.text.utf8)
        case .string(let text): JSON.writeString(text, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object): object.write(to: &output)
        }
    }

    static func writeString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case 0x0A: output.append(contentsOf: #"\n"#.utf8)
            case 0x0D: output.append(contentsOf: #"\r"#.utf8)
            case 0x09: output.append(contentsOf: #"\t"#.utf8)
            case 0x00..<0x20:
                output.append(contentsOf: #"\u00"#.utf8)
                output.append(hexDigit(byte >> 4))
                output.append(hexDigit(byte & 0x0F))
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 0x30 + nibble : 0x61 + nibble - 10
    }
}

extension JSONObject {
    /// Compact UTF-8 JSON of this object (see `JSON.encoded()`).
    public func encoded() -> [UInt8] { JSON.object(self).encoded() }

    func write(to output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        for (position, member) in members.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            JSON.writeString(member.key, to: &output)
            output.append(UInt8(ascii: ":"))
            member.value.write(to: &output)
        }
        output.append(UInt8(ascii: "}"))
    }
}

extension JSON {
    /// The same value as a group-defaults `JSONValue` (member order and number text are lost;
    /// a number that is neither an `Int` nor a `Double` becomes null).
    public var jsonValue: JSONValue {
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .number(let number):
            if let value = Int(number.text) { return .int(value) }
            return number.doubleValue.map(JSONValue.double) ?? .null
        case .string(let value): return .string(value)
        case .array(let elements): return .array(elements.map(\.jsonValue))
        case .object(let object):
            var dictionary: [String: JSONValue] = [:]
            for member in object { dictionary[member.key] = member.value.jsonValue }
            return .object(dictionary)
        }
    }

    /// A group-defaults `JSONValue` as a chat-protocol value, objects in key order.
    public init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .int(let number): self = .number(JSONNumber(number))
        case .double(let number):
            self = JSONNumber(text: "\(number)").map(JSON.number) ?? .null
        case .string(let text): self = .string(text)
        case .array(let elements): self = .array(elements.map(JSON.init))
        case .object(let dictionary):
            self = .object(JSONObject.sorted(dictionary.map { ($0.key, JSON($0.value)) }))
        }
    }
}
