import Foundation

/// A value as SQLite stores it: one of its five storage classes.
public enum DatabaseValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public var isNull: Bool { self == .null }

    /// The storage class name, for error messages (never the value itself).
    var storageClass: String {
        switch self {
        case .null: "NULL"
        case .integer: "INTEGER"
        case .real: "REAL"
        case .text: "TEXT"
        case .blob: "BLOB"
        }
    }
}

/// A Swift type that binds to a statement parameter and decodes from a column.
///
/// Decoding is strict (a TEXT column does not silently become an Int): a type mismatch is
/// a schema or query bug that should surface as an error, not as a default value.
public protocol DatabaseValueConvertible {
    var databaseValue: DatabaseValue { get }
    /// The value, or nil when `value` has a storage class this type does not accept.
    static func fromDatabaseValue(_ value: DatabaseValue) -> Self?
}

extension DatabaseValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> DatabaseValue? { value }
}

/// NULL decodes as `nil`; a non-optional type refuses NULL.
extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Wrapped?? {
        if case .null = value { return .some(nil) }
        return Wrapped.fromDatabaseValue(value).map { .some($0) }
    }
}

extension Int64: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int64? {
        if case .integer(let int) = value { return int }
        return nil
    }
}

extension Int: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int? {
        if case .integer(let int) = value { return Int(exactly: int) }
        return nil
    }
}

extension Double: DatabaseValueConvertible {
    /// SQLite stores NaN as NULL, so a NaN does not round-trip.
    public var databaseValue: DatabaseValue { .real(self) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Double? {
        switch value {
        case .real(let double): double
        // An integral REAL can come back as INTEGER from a column without REAL affinity.
        case .integer(let int): Double(int)
        default: nil
        }
    }
}

extension Bool: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Bool? {
        if case .integer(let int) = value { return int != 0 }
        return nil
    }
}

extension String: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(self) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> String? {
        if case .text(let text) = value { return text }
        return nil
    }
}

extension Array: DatabaseValueConvertible where Element == UInt8 {
    public var databaseValue: DatabaseValue { .blob(self) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> [UInt8]? {
        if case .blob(let bytes) = value { return bytes }
        return nil
    }
}

extension Data: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .blob([UInt8](self)) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Data? {
        if case .blob(let bytes) = value { return Data(bytes) }
        return nil
    }
}

/// Dates are INTEGER milliseconds since the Unix epoch: exact, compact, and ordered numerically in
/// indexes, which `item_ts` paging relies on. Sub-millisecond precision is rounded away.
extension Date: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        .integer(Int64((timeIntervalSince1970 * 1000).rounded()))
    }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Date? {
        if case .integer(let milliseconds) = value {
            return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        }
        return nil
    }
}

/// The values bound to a statement: positional (`[1, "alice", nil]`) or named
/// (`["name": "alice"]`, matching `:name`, `@name` or `$name` in the SQL).
public struct StatementArguments: ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, Sendable {
    var positional: [DatabaseValue]
    var named: [String: DatabaseValue]

    public init(_ values: [(any DatabaseValueConvertible)?]) {
        positional = values.map { $0?.databaseValue ?? .null }
        named = [:]
    }

    /// Names may be given with or without their prefix: `"name"` and `":name"` are the same.
    public init(named values: [String: (any DatabaseValueConvertible)?]) {
        positional = []
        named = [:]
        for (name, value) in values {
            let bare = name.first.map { ":@$".contains($0) } == true ? String(name.dropFirst()) : name
            named[bare] = value?.databaseValue ?? .null
        }
    }

    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        self.init(elements)
    }

    public init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        var values: [String: (any DatabaseValueConvertible)?] = [:]
        for (name, value) in elements { values.updateValue(value, forKey: name) }
        self.init(named: values)
    }

    /// How many values there are; errors report this, never the values.
    public var count: Int { positional.count + named.count }
    public var isEmpty: Bool { count == 0 }
}
