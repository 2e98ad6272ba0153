/// One D-Bus value with its type. Containers carry their element signatures, so an empty array
/// or dictionary still marshals with the right type.
public indirect enum DBusValue: Sendable, Equatable, Hashable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// `a<elementSignature>`; every element must have that signature.
    case array(elementSignature: String, [DBusValue])
    /// `a{<keySignature><valueSignature>}`; keys must be basic types.
    case dictionary(keySignature: String, valueSignature: String, [DBusDictionaryEntry])
    /// `(...)`; must not be empty.
    case structure([DBusValue])
    case variant(DBusValue)

    /// The D-Bus type signature of this value (one complete type).
    public var signature: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }
}

/// One entry of a D-Bus dictionary (`{kv}`).
public struct DBusDictionaryEntry: Sendable, Equatable, Hashable {
    public var key: DBusValue
    public var value: DBusValue

    public init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}

// MARK: - Building values

extension DBusValue {
    /// `as`
    public static func stringArray(_ strings: [String]) -> DBusValue {
        .array(elementSignature: "s", strings.map { .string($0) })
    }

    /// `ay`
    public static func byteArray(_ bytes: [UInt8]) -> DBusValue {
        .array(elementSignature: "y", bytes.map { .byte($0) })
    }

    /// `a{sv}`, the usual property / options map; entries sorted by key so marshalling is stable.
    public static func variantDictionary(_ entries: [String: DBusValue]) -> DBusValue {
        .dictionary(
            keySignature: "s", valueSignature: "v",
            entries.sorted { $0.key < $1.key }.map {
                DBusDictionaryEntry(key: .string($0.key), value: .variant($0.value))
            })
    }

    /// `a{ss}`, e.g. Secret Service attributes.
    public static func stringDictionary(_ entries: [String: String]) -> DBusValue {
        .dictionary(
            keySignature: "s", valueSignature: "s",
            entries.sorted { $0.key < $1.key }.map {
                DBusDictionaryEntry(key: .string($0.key), value: .string($0.value))
            })
    }
}

// MARK: - Reading values

extension DBusValue {
    public var byte: UInt8? { if case .byte(let v) = self { v } else { nil } }
    public var bool: Bool? { if case .bool(let v) = self { v } else { nil } }
    public var int16: Int16? { if case .int16(let v) = self { v } else { nil } }
    public var uint16: UInt16? { if case .uint16(let v) = self { v } else { nil } }
    public var int32: Int32? { if case .int32(let v) = self { v } else { nil } }
    public var uint32: UInt32? { if case .uint32(let v) = self { v } else { nil } }
    public var int64: Int64? { if case .int64(let v) = self { v } else { nil } }
    public var uint64: UInt64? { if case .uint64(let v) = self { v } else { nil } }
    public var double: Double? { if case .double(let v) = self { v } else { nil } }
    public var string: String? { if case .string(let v) = self { v } else { nil } }
    public var objectPath: String? { if case .objectPath(let v) = self { v } else { nil } }
    /// The contents of a variant.
    public var variant: DBusValue? { if case .variant(let v) = self { v } else { nil } }
    /// The fields of a structure.
    public var structure: [DBusValue]? { if case .structure(let v) = self { v } else { nil } }
    /// The elements of an array.
    public var array: [DBusValue]? { if case .array(_, let v) = self { v } else { nil } }
    /// The entries of a dictionary.
    public var dictionaryEntries: [DBusDictionaryEntry]? {
        if case .dictionary(_, _, let v) = self { v } else { nil }
    }

    /// The elements of an `as`.
    public var stringArray: [String]? {
        guard case .array("s", let elements) = self else { return nil }
        return elements.compactMap(\.string)
    }

    /// The elements of an `ay`.
    public var byteArray: [UInt8]? {
        guard case .array("y", let elements) = self else { return nil }
        return elements.compactMap(\.byte)
    }

    /// A dictionary with string keys (`a{s?}`) as a Swift dictionary; values stay wrapped
    /// (variants included). Nil when the keys are not strings.
    public var stringKeyedDictionary: [String: DBusValue]? {
        guard case .dictionary("s", _, let entries) = self else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            guard let key = entry.key.string else { return nil }
            result[key] = entry.value
        }
        return result
    }
}
