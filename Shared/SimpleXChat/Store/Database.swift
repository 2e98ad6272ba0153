import Foundation
internal import CSQLite

/// One SQLite connection to a database file.
///
/// Not Sendable: the connection is opened with `SQLITE_OPEN_NOMUTEX`, so it must stay confined to
/// one actor or thread. Several processes (the client, the background service, the share helper)
/// may open the same file, each with its own `Database`; `busyTimeout` makes them wait for
/// each other's writes instead of failing with `SQLITE_BUSY`.
public final class Database {
    /// The database file.
    public let path: String
    private var handle: OpaquePointer?
    /// The encrypting VFS the connection reads and writes through, when opened with a key.
    /// Declared after `handle`, and released after deinit has closed it.
    private let cipher: PageCipher?

    /// Whether the file's pages are sealed with a key (`init(path:key:)`).
    public var isEncrypted: Bool { cipher != nil }

    /// Opens (creating if needed) the database at `path` with mode 0600, in WAL mode, with foreign
    /// keys enforced. A file that is not a database fails here with `.notADatabase`, unchanged.
    ///
    /// With a `key`, every page of the file, its WAL and its journal is sealed with it (PageCipher):
    /// a plain database is refused (it must be encrypted first), and so is an encrypted one opened
    /// without a key; a page that does not open with the key fails with `.tampered`.
    public init(path: String, key: DatabaseKey? = nil, busyTimeout: Duration = .seconds(5)) throws {
        self.path = path
        switch (DatabaseFileState.of(path), key) {
        case (.plain, _?):
            throw DatabaseError(
                .notADatabase,
                message: "\(path) is not encrypted; it must be encrypted before it opens with a key")
        case (.encrypted, nil):
            throw DatabaseError(.notADatabase, message: "\(path) is encrypted; it opens only with its key")
        default: break
        }
        cipher = try key.map { key throws(DatabaseError) in try PageCipher(key: key) }
        try Self.makePrivate(path)
        var connection: OpaquePointer?
        // No SQLITE_OPEN_CREATE: makePrivate created the file, and SQLite must never create it
        // with the default 0644 if it disappears in between.
        let code = sqlite3_open_v2(
            path, &connection, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, cipher?.vfsName)
        guard code == SQLITE_OK, let connection else {
            let error = DatabaseError.lastError(on: connection, code: code, sql: nil)
            // sqlite3_open_v2 can hand back a handle even when it fails; it still must be closed.
            sqlite3_close_v2(connection)
            throw error
        }
        handle = connection
        do {
            try configure(connection, busyTimeout: busyTimeout)
        } catch {
            handle = nil
            sqlite3_close_v2(connection)
            throw error
        }
    }

    deinit {
        // Statements retain their Database, so none is left here and close_v2 cannot defer.
        if let handle { sqlite3_close_v2(handle) }
    }

    /// Closes the connection; further use throws `.misuse`. Closing twice is allowed.
    ///
    /// Throws `.busy` while a `Statement` of this database is still alive.
    public func close() throws {
        guard let handle else { return }
        let code = sqlite3_close(handle)
        guard code == SQLITE_OK else { throw DatabaseError.lastError(on: handle, code: code, sql: nil) }
        self.handle = nil
    }

    private func configure(_ connection: OpaquePointer, busyTimeout: Duration) throws {
        sqlite3_extended_result_codes(connection, 1)
        if cipher != nil {
            // Room for the nonce and tag in every page of a new file (an existing one keeps its own).
            try requestReservedBytes(PageCipher.reservedBytes)
            // Sorts, temp tables and statement journals stay in memory, never in a temp file.
            try execute("PRAGMA temp_store = MEMORY")
        }
        // Before the first pragma: switching to WAL takes a lock another process may hold.
        let milliseconds = (busyTimeout / .milliseconds(1)).rounded()
        sqlite3_busy_timeout(
            connection, milliseconds < Double(Int32.max) ? Int32(max(0, milliseconds)) : .max)

        // WAL lets the background service read while the client writes. The first statement
        // also reads the header, so a non-database file fails here, before anything is written.
        let journalMode = try fetchValue(String.self, "PRAGMA journal_mode = WAL")
        guard journalMode?.lowercased() == "wal" else {
            throw DatabaseError(
                .error, message: "cannot enable WAL mode (journal_mode is \(journalMode ?? "unknown"))",
                sql: "PRAGMA journal_mode = WAL")
        }
        try execute("PRAGMA foreign_keys = ON")
        guard try fetchValue(Bool.self, "PRAGMA foreign_keys") == true else {
            throw DatabaseError(.error, message: "foreign keys are not supported", sql: "PRAGMA foreign_keys")
        }
        // FULL, not NORMAL: with NORMAL a power loss can drop the last commits, and a received
        // message is acknowledged to the relay right after it is stored; the relay then deletes
        // it, so a dropped commit would be a message lost for good.
        try execute("PRAGMA synchronous = FULL")
        // Deleted messages are overwritten with zeros instead of lingering in free pages.
        try execute("PRAGMA secure_delete = ON")
    }

    /// Creates `path` with mode 0600, or tightens an existing database's mode to owner-only,
    /// before SQLite opens it: SQLite gives the -wal and -shm files the mode of the main file.
    private static func makePrivate(_ path: String) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw fileError("cannot open", path) }
        defer { _ = Foundation.close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw fileError("cannot stat", path) }
        if status.st_mode & 0o077 != 0 {
            guard fchmod(descriptor, status.st_mode & 0o700) == 0 else {
                throw fileError("cannot chmod", path)
            }
        }
        // Left behind by a crash, they would be reused with whatever mode they have.
        for companion in [path + "-wal", path + "-shm", path + "-journal"] {
            guard stat(companion, &status) == 0 else { continue }
            if status.st_mode & 0o077 != 0 {
                guard chmod(companion, status.st_mode & 0o700) == 0 else {
                    throw fileError("cannot chmod", companion)
                }
            }
        }
    }

    private static func fileError(_ action: String, _ path: String) -> DatabaseError {
        DatabaseError(.cantOpen, message: "\(action) \(path): \(String(cString: strerror(errno)))")
    }

    func requireHandle() throws -> OpaquePointer {
        guard let handle else { throw DatabaseError(.misuse, message: "the database is closed") }
        return handle
    }

    // MARK: Statements

    /// Prepares one statement for repeated use.
    public func makeStatement(_ sql: String) throws -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// Runs `sql`. Without arguments it may be a script of several statements (migrations);
    /// with arguments it must be one statement.
    public func execute(_ sql: String, arguments: StatementArguments = []) throws {
        guard arguments.isEmpty else { return try makeStatement(sql).execute(arguments: arguments) }
        let connection = try requireHandle()
        try sql.withCString { start in
            var next: UnsafePointer<CChar>? = start
            while let current = next, current.pointee != 0 {
                var statement: OpaquePointer?
                let code = sqlite3_prepare_v2(connection, current, -1, &statement, &next)
                guard code == SQLITE_OK else {
                    throw DatabaseError.lastError(on: connection, code: code, sql: String(cString: current))
                }
                guard let statement else { return }  // only comments or whitespace were left
                defer { sqlite3_finalize(statement) }
                let statementSQL = String(cString: sqlite3_sql(statement))
                // Running it would bind NULL to every parameter: a forgotten argument, not intent.
                let parameters = sqlite3_bind_parameter_count(statement)
                guard parameters == 0 else {
                    throw DatabaseError(
                        .misuse,
                        message: "statement has \(parameters) parameters but no arguments were given",
                        sql: statementSQL)
                }
                var stepCode: Int32
                repeat { stepCode = sqlite3_step(statement) } while stepCode == SQLITE_ROW
                guard stepCode == SQLITE_DONE else {
                    throw DatabaseError.lastError(on: connection, code: stepCode, sql: statementSQL)
                }
            }
        }
    }

    /// Whether `sql` holds a statement (not only whitespace and comments).
    static func containsStatement(_ sql: String, on connection: OpaquePointer) -> Bool {
        guard sql.contains(where: { !$0.isWhitespace }) else { return false }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        // Unparseable text is not a comment either.
        return code != SQLITE_OK || statement != nil
    }

    /// All rows of `sql`.
    public func fetchAll(_ sql: String, arguments: StatementArguments = []) throws -> [Row] {
        try makeStatement(sql).fetchAll(arguments: arguments)
    }

    /// The first row of `sql`, if any.
    public func fetchOne(_ sql: String, arguments: StatementArguments = []) throws -> Row? {
        try makeStatement(sql).fetchOne(arguments: arguments)
    }

    /// All rows of `sql` as records.
    public func fetchAll<Record: FetchableRecord>(
        _ type: Record.Type, _ sql: String, arguments: StatementArguments = []
    ) throws -> [Record] {
        try fetchAll(sql, arguments: arguments).map { try Record(row: $0) }
    }

    /// The first row of `sql` as a record, if any.
    public func fetchOne<Record: FetchableRecord>(
        _ type: Record.Type, _ sql: String, arguments: StatementArguments = []
    ) throws -> Record? {
        try fetchOne(sql, arguments: arguments).map { try Record(row: $0) }
    }

    /// The first column of the first row of `sql`, or nil when there is no row.
    public func fetchValue<Value: DatabaseValueConvertible>(
        _ type: Value.Type, _ sql: String, arguments: StatementArguments = []
    ) throws -> Value? {
        try fetchOne(sql, arguments: arguments).map { try $0.decode(Value.self, at: 0) }
    }

    /// The rowid of the last successful INSERT on this connection (0 when closed).
    public var lastInsertRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }

    /// Rows changed by the last INSERT, UPDATE or DELETE on this connection (0 when closed).
    public var changes: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }

    /// Whether a transaction is open on this connection.
    public var isInTransaction: Bool { handle.map { sqlite3_get_autocommit($0) == 0 } ?? false }

    // MARK: Transactions

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// IMMEDIATE takes the write lock up front. A deferred transaction that reads and then writes
    /// cannot wait for another process's writer (SQLite returns `SQLITE_BUSY` at once, without the
    /// busy timeout, to avoid a deadlock); taking the lock first makes it wait instead.
    ///
    /// Inside a transaction already open on this connection, `body` joins it: the outermost one
    /// commits or rolls back everything.
    public func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        if isInTransaction { return try body() }
        try execute("BEGIN IMMEDIATE")
        let result: Result
        do {
            result = try body()
            try execute("COMMIT")
        } catch {
            rollbackAfterFailure()
            throw error
        }
        return result
    }

    /// Runs `body` in a savepoint of the transaction open on this connection: its writes are
    /// undone when it throws, the transaction's other writes stay.
    public func savepoint<Result>(_ body: () throws -> Result) throws -> Result {
        try execute("SAVEPOINT inner")
        do {
            let result = try body()
            try execute("RELEASE inner")
            return result
        } catch {
            if let handle, sqlite3_get_autocommit(handle) == 0 {
                sqlite3_exec(handle, "ROLLBACK TO inner; RELEASE inner", nil, nil, nil)
            }
            throw error
        }
    }

    /// Rolls back the open transaction, if the failure that ends it has not already.
    func rollbackAfterFailure() {
        // Some errors (SQLITE_FULL, SQLITE_IOERR) already rolled the transaction back.
        guard let handle, sqlite3_get_autocommit(handle) == 0 else { return }
        // The caller is about to see the error that caused the rollback. ROLLBACK itself only
        // fails when the connection is unusable, which its next statement reports.
        sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
    }
}

/// A connection opened with `SQLITE_OPEN_NOMUTEX` must not be shared between threads; this
/// makes a conformance added by mistake a compile error instead of a data race.
@available(*, unavailable)
extension Database: Sendable {}
