/// A JSON value for the chat protocol: objects keep their members in order and numbers keep their
/// text, so a value read from the wire is written back byte for byte (in the compact form SimpleX's
/// Haskell core writes, see `JSON+Serialization.swift`).
///
/// `JSONValue` (group defaults) is Foundation-`Codable` and cannot keep key order or number text,
/// which the chat protocol needs for unknown events and content kept and sent on unchanged; the two
/// convert into each other with `JSON(_:)` and `JSONValue(_:)`.
public enum JSON: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSON])
    case object(JSONObject)

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, when this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number as a whole number, when this is a number with an integral value that fits `Int`.
    public var intValue: Int? {
        if case .number(let value) = self { return value.intValue }
        return nil
    }

    /// The object, when this is an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The member `key` of an object (the last one, when a key repeats); nil for other values.
    public subscript(key: String) -> JSON? {
        objectValue?[key]
    }

    /// What kind of value this is, for error messages.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

extension JSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }

    /// An object with the members in the order written.
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(JSONObject(elements))
    }
}

/// A JSON number, kept as its text so that it is written back exactly as it was read.
public struct JSONNumber: Hashable, Sendable, CustomStringConvertible {
    /// The number's text in JSON grammar (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`).
    public let text: String

    /// A whole number.
    public init(_ value: Int) { text = String(value) }

    /// A whole number.
    public init(_ value: Int64) { text = String(value) }

    /// A number from its JSON text; nil when the text is not a JSON number.
    public init?(text: String) {
        var parser = JSONParser(bytes: Array(text.utf8))
        guard let number = try? parser.parseNumberToken(), parser.isAtEnd else { return nil }
        self = number
    }

    init(validatedText: String) { text = validatedText }

    /// The value as a whole number, when it is integral and fits: `5`, `5.0` and `5e0` are 5, as
    /// Haskell's aeson reads an `Int`; `5.5` and `1e30` are nil.
    public var intValue: Int? {
        if let value = Int(text) { return value }
        guard let value = Double(text), value.isFinite, value.rounded() == value,
            abs(value) < 9_007_199_254_740_992  // 2^53: exactly representable, so exactly converted
        else { return nil }
        return Int(value)
    }

    /// The value as a floating-point number.
    public var doubleValue: Double? { Double(text) }

    public var description: String { text }
}
