/// JSON with members in a fixed order, written as SimpleX's Haskell core writes it (aeson
/// `toEncoding`): compact, `type` first in tagged objects, then the fields in declaration order,
/// absent optionals left out, `/` and non-ASCII text unescaped.
///
/// Markdown types build their JSON here so `/_parse markdown` and chat items can carry byte-exact
/// SimpleX JSON: use `text`. `Encodable` writes the same members, but Foundation's `JSONEncoder`
/// does not keep member order (and escapes `/` unless told not to).
public indirect enum MarkdownJSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([MarkdownJSON])
    /// Members in the order they are written.
    case object([(key: String, value: MarkdownJSON)])

    public static func == (lhs: MarkdownJSON, rhs: MarkdownJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let l), .bool(let r)): return l == r
        case (.int(let l), .int(let r)): return l == r
        case (.double(let l), .double(let r)): return l == r
        case (.string(let l), .string(let r)): return l == r
        case (.array(let l), .array(let r)): return l == r
        case (.object(let l), .object(let r)):
            return l.count == r.count && zip(l, r).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// Compact JSON text.
    public var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .double(let value): out += value.isFinite ? String(value) : "null"
        case .string(let value): Self.writeString(value, to: &out)
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                element.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                Self.writeString(member.key, to: &out)
                out += ":"
                member.value.write(to: &out)
            }
            out += "}"
        }
    }

    /// aeson's string escaping: quote, backslash and the control characters only.
    private static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension MarkdownJSON {
    /// A `JSONValue` as aeson writes a `Value`: object keys sorted by their UTF-8 bytes.
    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let bool): self = .bool(bool)
        case .int(let int): self = .int(int)
        case .double(let double): self = .double(double)
        case .string(let string): self = .string(string)
        case .array(let elements): self = .array(elements.map(MarkdownJSON.init))
        case .object(let members):
            self = .object(
                members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                    .map { (key: $0.key, value: MarkdownJSON($0.value)) })
        }
    }
}

extension MarkdownJSON: Encodable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .object(let members):
            var container = encoder.container(keyedBy: Key.self)
            for member in members { try container.encode(member.value, forKey: Key(stringValue: member.key)) }
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .int(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .double(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }
}
