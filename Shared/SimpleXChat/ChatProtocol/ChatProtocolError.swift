/// Why a chat message could not be read or written. Paths name the field from the message root,
/// e.g. `params.quote.msgRef.sentAt`; batch elements add `[n]`.
public enum ChatProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The message body was empty.
    case emptyBody
    /// The body is a form this build does not read: zstd-compressed (`X`), a binary batch (`=`),
    /// signed (`/`), forwarded (`>`), or anything not starting with `{`, `[` or `F`.
    case unsupportedFormat(String)
    /// The body is not JSON.
    case malformedJSON(JSONParseError)
    /// A required field is absent (or null).
    case missingField(String)
    /// A field holds the wrong kind of JSON value.
    case wrongType(path: String, expected: String, found: String)
    /// A field has the right kind but an unusable value (bad base64, bad timestamp, ...).
    case invalidValue(path: String, reason: String)
    /// An encoded message or chunk is over its limit.
    case tooLarge(size: Int, limit: Int)
    /// A binary file chunk is malformed.
    case invalidFileChunk(String)

    public var description: String {
        switch self {
        case .emptyBody: return "empty message body"
        case .unsupportedFormat(let what): return "unsupported message format: \(what)"
        case .malformedJSON(let error): return "malformed JSON: \(error)"
        case .missingField(let path): return "missing field \(path)"
        case .wrongType(let path, let expected, let found):
            return "\(path): expected \(expected), found \(found)"
        case .invalidValue(let path, let reason): return "\(path): \(reason)"
        case .tooLarge(let size, let limit): return "too large: \(size) bytes, limit \(limit)"
        case .invalidFileChunk(let reason): return "invalid file chunk: \(reason)"
        }
    }
}

/// A value with a chat-protocol JSON form. Decoding errors name the field by its path.
protocol ChatJSONRepresentable {
    init(json: JSON, path: String) throws(ChatProtocolError)
    var json: JSON { get }
}

/// Reads the fields of one JSON object, naming each in errors by its path. Optional fields that
/// are absent or null read as nil (aeson's `.:?`); required ones must be present and not null.
struct JSONFields {
    let object: JSONObject
    let path: String

    init(_ json: JSON, path: String) throws(ChatProtocolError) {
        guard case .object(let object) = json else {
            throw .wrongType(path: path.isEmpty ? "message" : path, expected: "object", found: json.kindName)
        }
        self.object = object
        self.path = path
    }

    init(object: JSONObject, path: String) {
        self.object = object
        self.path = path
    }

    func fieldPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The raw value, nil when absent or null.
    func optionalValue(_ key: String) -> JSON? {
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    func value(_ key: String) throws(ChatProtocolError) -> JSON {
        guard let value = optionalValue(key) else { throw .missingField(fieldPath(key)) }
        return value
    }

    func string(_ key: String) throws(ChatProtocolError) -> String {
        try Self.string(value(key), path: fieldPath(key))
    }

    func optionalString(_ key: String) throws(ChatProtocolError) -> String? {
        guard let value = optionalValue(key) else { return nil }
        return try Self.string(value, path: fieldPath(key))
    }

    func int(_ key: String) throws(ChatProtocolError) -> Int {
        try Self.int(value(key), path: fieldPath(key))
    }

    func optionalInt(_ key: String) throws(ChatProtocolError) -> Int? {
        guard let value = optionalValue(key) else { return nil }
        return try Self.int(value, path: fieldPath(key))
    }

    func bool(_ key: String) throws(ChatProtocolError) -> Bool {
        try Self.bool(value(key), path: fieldPath(key))
    }

    func optionalBool(_ key: String) throws(ChatProtocolError) -> Bool? {
        guard let value = optionalValue(key) else { return nil }
        return try Self.bool(value, path: fieldPath(key))
    }

    func decode<T: ChatJSONRepresentable>(_ key: String, as type: T.Type = T.self) throws(ChatProtocolError)
        -> T
    {
        try T(json: value(key), path: fieldPath(key))
    }

    func optionalDecode<T: ChatJSONRepresentable>(_ key: String, as type: T.Type = T.self)
        throws(ChatProtocolError) -> T?
    {
        guard let value = optionalValue(key) else { return nil }
        return try T(json: value, path: fieldPath(key))
    }

    static func string(_ value: JSON, path: String) throws(ChatProtocolError) -> String {
        guard case .string(let text) = value else {
            throw .wrongType(path: path, expected: "string", found: value.kindName)
        }
        return text
    }

    static func int(_ value: JSON, path: String) throws(ChatProtocolError) -> Int {
        guard case .number(let number) = value else {
            throw .wrongType(path: path, expected: "number", found: value.kindName)
        }
        guard let int = number.intValue else {
            throw .invalidValue(path: path, reason: "not a whole number: \(number)")
        }
        return int
    }

    static func bool(_ value: JSON, path: String) throws(ChatProtocolError) -> Bool {
        guard case .bool(let flag) = value else {
            throw .wrongType(path: path, expected: "boolean", found: value.kindName)
        }
        return flag
    }
}
