// The floor for a page query: the same SQL through the C API on its own connection, every
// column of every row read in place, nothing copied or built.
import CSQLite

final class RawSQLiteQuery {
    private var connection: OpaquePointer?
    private var statement: OpaquePointer?

    /// `cacheKiB`: the page cache, as the chat store sets it, so both read from the same memory.
    init(path: String, sql: String, cacheKiB: Int) throws {
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY, nil) == SQLITE_OK,
            sqlite3_exec(connection, "PRAGMA cache_size = -\(cacheKiB)", nil, nil, nil) == SQLITE_OK,
            sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK
        else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(connection)
            throw RelayBenchError("raw sqlite: \(message)")
        }
    }

    deinit {
        sqlite3_finalize(statement)
        sqlite3_close(connection)
    }

    /// Binds integers (`nil` binds NULL) to ?1, ?2, ..., steps through the rows, touching each
    /// column; returns the row count.
    @discardableResult
    func run(_ arguments: [Int64?]) -> Int {
        sqlite3_reset(statement)
        for (offset, value) in arguments.enumerated() {
            if let value {
                sqlite3_bind_int64(statement, Int32(offset + 1), value)
            } else {
                sqlite3_bind_null(statement, Int32(offset + 1))
            }
        }
        let columns = sqlite3_column_count(statement)
        var rows = 0
        var checksum = 0
        while sqlite3_step(statement) == SQLITE_ROW {
            for column in 0..<columns {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER:
                    checksum &+= Int(truncatingIfNeeded: sqlite3_column_int64(statement, column))
                case SQLITE_TEXT:
                    _ = sqlite3_column_text(statement, column)
                    checksum &+= Int(sqlite3_column_bytes(statement, column))
                case SQLITE_BLOB:
                    _ = sqlite3_column_blob(statement, column)
                    checksum &+= Int(sqlite3_column_bytes(statement, column))
                default: break
                }
            }
            rows += 1
        }
        blackHole = checksum
        return rows
    }

    private var blackHole = 0
}
