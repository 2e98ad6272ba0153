internal import CSQLite

/// One prepared SQL statement. Owns its `sqlite3_stmt` and finalizes it on deinit.
///
/// A statement keeps its `Database` alive, so the connection is never closed under it.
public final class Statement {
    /// The SQL of this one statement.
    public let sql: String
    let database: Database
    let handle: OpaquePointer
    /// How many arguments are bound, for error messages.
    private var argumentCount = 0
    /// Lowercased column name → first index, computed once and shared by every row.
    private let columnIndexes: [String: Int]
    public let columnNames: [String]

    /// Prepares exactly one statement; SQL that holds several is a `.misuse` error (use
    /// `Database.execute` for scripts).
    init(database: Database, sql: String) throws {
        let connection = try database.requireHandle()
        var statement: OpaquePointer?
        var trailing = ""
        let code = sql.withCString { cSQL -> Int32 in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(connection, cSQL, -1, &statement, &tail)
            if let tail { trailing = String(cString: tail) }
            return code
        }
        guard code == SQLITE_OK, let statement else {
            // prepare leaves no statement on failure; an all-comment SQL gives OK and no statement.
            sqlite3_finalize(statement)
            if code == SQLITE_OK {
                throw DatabaseError(.misuse, message: "no statement in SQL", sql: sql)
            }
            throw DatabaseError.lastError(on: connection, code: code, sql: sql)
        }
        if Database.containsStatement(trailing, on: connection) {
            sqlite3_finalize(statement)
            throw DatabaseError(
                .misuse, message: "several statements in SQL; use Database.execute for scripts", sql: sql)
        }
        self.sql = sql
        self.database = database
        self.handle = statement
        let columnCount = Int(sqlite3_column_count(statement))
        var names: [String] = []
        var indexes: [String: Int] = [:]
        for index in 0..<columnCount {
            let name = sqlite3_column_name(statement, Int32(index)).map { String(cString: $0) } ?? ""
            names.append(name)
            if indexes[name.lowercased()] == nil { indexes[name.lowercased()] = index }
        }
        columnNames = names
        columnIndexes = indexes
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// The number of parameters (`?`, `:name`) in the SQL.
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// Resets the statement and binds `arguments`, which must fill every parameter exactly.
    public func bind(_ arguments: StatementArguments) throws {
        reset()
        sqlite3_clear_bindings(handle)
        argumentCount = arguments.count
        let count = parameterCount
        if arguments.named.isEmpty {
            guard arguments.positional.count == count else {
                throw error(.misuse, "expected \(count) arguments, got \(arguments.positional.count)")
            }
            for (offset, value) in arguments.positional.enumerated() {
                try bind(value, at: offset + 1)
            }
            return
        }
        guard arguments.positional.isEmpty else {
            throw error(.misuse, "mixing positional and named arguments")
        }
        var used = 0
        for index in 1..<(count + 1) {
            guard let cName = sqlite3_bind_parameter_name(handle, Int32(index)) else {
                throw error(.misuse, "parameter \(index) is positional but arguments are named")
            }
            let name = String(String(cString: cName).dropFirst())
            guard let value = arguments.named[name] else {
                throw error(.range, "missing argument :\(name)")
            }
            try bind(value, at: index)
            used += 1
        }
        // A name that matches no parameter is a typo; binding NULL silently would hide it.
        guard used == arguments.named.count else {
            throw error(.range, "\(arguments.named.count - used) named arguments match no parameter")
        }
    }

    /// Binds `value` to parameter `index` (1-based, as in SQLite).
    public func bind(_ value: (any DatabaseValueConvertible)?, at index: Int) throws {
        let value = value?.databaseValue ?? .null
        let position = Int32(index)
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, position)
        case .integer(let int):
            code = sqlite3_bind_int64(handle, position, int)
        case .real(let double):
            code = sqlite3_bind_double(handle, position, double)
        case .text(var text):
            code = text.withUTF8 { buffer in
                // A nil pointer would bind NULL; an empty string must stay '' (not NULL).
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    return sqlite3_bind_text(handle, position, "", 0, CSQLite_transient())
                }
                return sqlite3_bind_text64(
                    handle, position, base, UInt64(buffer.count), CSQLite_transient(), UInt8(SQLITE_UTF8))
            }
        case .blob(let bytes):
            code = bytes.withUnsafeBytes { buffer in
                // Same trap as text: a nil pointer binds NULL, so an empty blob is a zeroblob.
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    return sqlite3_bind_zeroblob(handle, position, 0)
                }
                return sqlite3_bind_blob64(handle, position, base, UInt64(buffer.count), CSQLite_transient())
            }
        }
        guard code == SQLITE_OK else { throw lastError(code) }
    }

    /// Binds `value` to the parameter `:name` (also `@name`, `$name`).
    public func bind(_ value: (any DatabaseValueConvertible)?, named name: String) throws {
        for prefix in [":", "@", "$"] {
            let index = sqlite3_bind_parameter_index(handle, prefix + name)
            if index > 0 { return try bind(value, at: Int(index)) }
        }
        throw error(.range, "no parameter named :\(name)")
    }

    /// Runs one step: the next row, or nil when the statement is done.
    public func step() throws -> Row? {
        guard try advance() else { return nil }
        return Row(columnNames: columnNames, columnIndexes: columnIndexes, values: currentValues(), sql: sql)
    }

    /// Steps to the next row: true when there is one, false when the statement is done.
    private func advance() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        default:
            let failure = lastError(code)
            // Leave the statement reusable; reset repeats the step's error code, already reported.
            sqlite3_reset(handle)
            throw failure
        }
    }

    /// Makes the statement runnable again from the start, keeping its bindings.
    ///
    /// Not throwing: `sqlite3_reset` only repeats the error of the last step, which `step` threw.
    public func reset() {
        sqlite3_reset(handle)
    }

    /// Binds `arguments` and steps to completion, ignoring rows.
    public func execute(arguments: StatementArguments = []) throws {
        try bind(arguments)
        defer { reset() }
        while try step() != nil {}
    }

    /// Binds `arguments` and calls `body` with each row.
    public func forEachRow(arguments: StatementArguments = [], _ body: (Row) throws -> Void) throws {
        try bind(arguments)
        defer { reset() }
        while let row = try step() { try body(row) }
    }

    /// Binds `arguments` and calls `body` with each row read in place: nothing is copied but the
    /// columns `body` decodes. The `StatementRow` is valid only during that call.
    public func forEachRowInPlace(arguments: StatementArguments = [], _ body: (StatementRow) throws -> Void)
        throws
    {
        try bind(arguments)
        defer { reset() }
        while try advance() { try body(StatementRow(statement: self)) }
    }

    /// Binds `arguments` and returns every row.
    public func fetchAll(arguments: StatementArguments = []) throws -> [Row] {
        var rows: [Row] = []
        try forEachRow(arguments: arguments) { rows.append($0) }
        return rows
    }

    /// Binds `arguments` and returns the first row, if any.
    public func fetchOne(arguments: StatementArguments = []) throws -> Row? {
        try bind(arguments)
        defer { reset() }
        return try step()
    }

    private func currentValues() -> [DatabaseValue] {
        (0..<Int32(columnNames.count)).map(currentValue(at:))
    }

    /// Column `column` of the current row.
    fileprivate func currentValue(at column: Int32) -> DatabaseValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            // Ask for the pointer before the length, as SQLite documents; the length keeps
            // embedded NUL characters.
            let pointer = sqlite3_column_text(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let pointer else { return .text("") }
            return .text(
                String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let pointer = sqlite3_column_blob(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            // A zero-length blob comes back as a nil pointer: still a blob, not NULL.
            guard let pointer, count > 0 else { return .blob([]) }
            return .blob([UInt8](UnsafeRawBufferPointer(start: pointer, count: count)))
        default:
            return .null
        }
    }

    private func lastError(_ code: Int32) -> DatabaseError {
        DatabaseError.lastError(
            on: sqlite3_db_handle(handle), code: code, sql: sql, argumentCount: argumentCount)
    }

    private func error(_ code: ResultCode, _ message: String) -> DatabaseError {
        DatabaseError(code, message: message, sql: sql, argumentCount: argumentCount)
    }
}

/// Confined with its `Database`.
@available(*, unavailable)
extension Statement: Sendable {}

/// The current row of a statement, read in place by `Statement.forEachRowInPlace`: each decode
/// reads that one column from SQLite. Valid only inside the `forEachRowInPlace` body that
/// received it; keep a `Row` (`Statement.step`) to hold a row longer.
public struct StatementRow: ColumnDecoding {
    let statement: Statement

    public var count: Int { statement.columnNames.count }

    public func decode<T: DatabaseValueConvertible>(_ type: T.Type, at index: Int) throws -> T {
        guard index >= 0, index < count else {
            throw DatabaseError(
                .range, message: "column index \(index) out of range (\(count) columns)", sql: statement.sql)
        }
        let value = statement.currentValue(at: Int32(index))
        guard let decoded = T.fromDatabaseValue(value) else {
            throw DatabaseError(
                .mismatch,
                message:
                    "column \(index) (\(statement.columnNames[index])): cannot read \(value.storageClass) as \(T.self)",
                sql: statement.sql)
        }
        return decoded
    }
}

@available(*, unavailable)
extension StatementRow: Sendable {}
