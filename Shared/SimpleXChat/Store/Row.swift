/// One result row, copied out of the statement so it stays valid after the next step.
///
/// Typed access throws a `DatabaseError` (`.mismatch`, `.range`) instead of trapping: the row
/// came from a file on disk that another version of the app may have written.
///
///     let id: Int64 = try row["user_id"]
///     let image: String? = try row["image"]
public struct Row: Sendable {
    /// Column names as the statement reports them.
    public let columnNames: [String]
    let values: [DatabaseValue]
    /// Lowercased name → first index: SQL names are case-insensitive, and on a join the first
    /// column of a repeated name wins, as in SQLite's own `SELECT *` naming.
    let columnIndexes: [String: Int]
    /// The statement the row came from, for error messages.
    let sql: String

    init(columnNames: [String], columnIndexes: [String: Int], values: [DatabaseValue], sql: String) {
        self.columnNames = columnNames
        self.columnIndexes = columnIndexes
        self.values = values
        self.sql = sql
    }

    public var count: Int { values.count }

    /// The raw value of column `index` (0-based).
    public func value(at index: Int) throws -> DatabaseValue {
        guard values.indices.contains(index) else {
            throw DatabaseError(
                .range, message: "column index \(index) out of range (\(values.count) columns)", sql: sql)
        }
        return values[index]
    }

    /// The raw value of the column called `name`.
    public func value(named name: String) throws -> DatabaseValue {
        try value(at: index(of: name))
    }

    /// The 0-based index of the column called `name`.
    public func index(of name: String) throws -> Int {
        guard let index = columnIndexes[name.lowercased()] else {
            throw DatabaseError(.range, message: "no column named \(name)", sql: sql)
        }
        return index
    }

    /// Column `index` decoded as `T`.
    public subscript<T: DatabaseValueConvertible>(_ index: Int) -> T {
        get throws { try decode(T.self, at: index) }
    }

    /// The column called `name` decoded as `T`.
    public subscript<T: DatabaseValueConvertible>(_ name: String) -> T {
        get throws { try decode(T.self, at: index(of: name)) }
    }

    /// Column `index` decoded as `type`.
    public func decode<T: DatabaseValueConvertible>(_ type: T.Type, at index: Int) throws -> T {
        let value = try value(at: index)
        guard let decoded = T.fromDatabaseValue(value) else {
            throw DatabaseError(
                .mismatch,
                message:
                    "column \(index) (\(columnNames[index])): cannot read \(value.storageClass) as \(T.self)",
                sql: sql)
        }
        return decoded
    }
}

/// A type read from a row of its table, as `init(row:)` (CONVENTIONS "Store: Records").
public protocol FetchableRecord {
    init(row: Row) throws
}

/// Typed access to the columns of a row by index: a copied `Row`, or a `StatementRow` read in
/// place. Code that decodes records takes either.
public protocol ColumnDecoding {
    /// Column `index` (0-based) decoded as `type`; a `DatabaseError` when it is out of range or
    /// of a storage class `type` does not accept.
    func decode<T: DatabaseValueConvertible>(_ type: T.Type, at index: Int) throws -> T
}

extension Row: ColumnDecoding {}
