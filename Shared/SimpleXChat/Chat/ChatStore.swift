import Foundation

/// The chat database's records for the chat core: users, contacts, connections, items.
///
/// Not thread-safe: owned by `ChatController`, which runs every query.
final class ChatStore {
    let database: Database
    var now: () -> Date
    /// The key the file's pages are sealed with (nil: plain), for the history connection too.
    private let key: DatabaseKey?

    init(path: String, key: DatabaseKey? = nil, now: @escaping () -> Date = Date.init) throws(ChatError) {
        self.key = key
        do {
            database = try ChatSchema.openChatDatabase(path: path, key: key)
            // The chat list and open chats read the newest page of every chat, spread over a large
            // file; 32 MiB of cache (SQLite's default is 2) keeps those pages after the first read.
            try database.execute("PRAGMA cache_size = -\(Self.cacheKiB)")
            try database.execute(ChatSchema.searchTerms)
        } catch {
            throw .store("cannot open \(path): \(error)")
        }
        self.now = now
    }

    /// The page cache, in KiB (a limit: memory is taken only as pages are read).
    static let cacheKiB = 32_768

    func close() {
        try? purgeSearchIndex()
        if let history {
            history.statements.removeAll()
            try? history.database.close()
            self.history = nil
        }
        statements.removeAll()
        try? database.close()
    }

    private lazy var statements = StatementCache(database)

    /// A second, read-only connection for the pages of scrolling (`before` / `after` a shown
    /// item), with a cache of its own of `historyCacheKiB`: scrolling back through a long
    /// chat reads each page once, and in the main connection those pages filled its 32 MiB
    /// cache, so the client grew by 37 MB over 10,000 pages scrolled back. The chat list and
    /// the newest pages keep the main cache. Opened at the first such page; WAL lets it read
    /// what the main connection committed.
    private var history: (database: Database, statements: StatementCache)?
    private var historyUnavailable = false
    static let historyCacheKiB = 1_024

    /// The statements for a scrolling page: the history connection's, or the main ones when
    /// it cannot be opened or the main connection is in a transaction (whose writes only it sees).
    func scrollingStatements() -> StatementCache {
        if database.isInTransaction || historyUnavailable { return statements }
        if let history { return history.statements }
        do {
            let connection = try Database(path: database.path, key: key)
            try connection.execute("PRAGMA query_only = ON")
            try connection.execute("PRAGMA cache_size = -\(Self.historyCacheKiB)")
            let opened = (database: connection, statements: StatementCache(connection))
            history = opened
            return opened.statements
        } catch {
            historyUnavailable = true
            return statements
        }
    }

    /// Drops the words of deleted and edited messages from the search index for good: FTS5's
    /// delete only marks them, and their bytes stay in older segments until a merge. 'optimize'
    /// rewrites the index (about 1 s for a million items, milliseconds for most users), so it runs
    /// when the core stops, and only when something was removed since the last time. Returns
    /// whether it ran.
    @discardableResult
    func purgeSearchIndex() throws(ChatError) -> Bool {
        guard let row = try row("SELECT pending FROM chat_item_search_purge"),
            try value(row, "pending") as Int64 > 0
        else { return false }
        try transaction { () throws(ChatError) in
            try run("INSERT INTO chat_item_search (chat_item_search) VALUES ('optimize')")
            try run("UPDATE chat_item_search_purge SET pending = 0")
        }
        return true
    }

    func run(_ sql: String, _ arguments: StatementArguments = []) throws(ChatError) {
        do { try statements.prepared(sql).execute(arguments: arguments) } catch { throw .store("\(error)") }
    }

    func rows(_ sql: String, _ arguments: StatementArguments = []) throws(ChatError) -> [Row] {
        do { return try statements.prepared(sql).fetchAll(arguments: arguments) } catch {
            throw .store("\(error)")
        }
    }

    /// Calls `body` with each row of `sql`, read in place (`Statement.forEachRowInPlace`): for
    /// the lists and pages that decode many rows into records.
    func forEachRow(
        _ sql: String, _ arguments: StatementArguments = [], scrolling: Bool = false,
        _ body: (StatementRow) throws(ChatError) -> Void
    ) throws(ChatError) {
        do {
            let cache = scrolling ? scrollingStatements() : statements
            try cache.prepared(sql).forEachRowInPlace(arguments: arguments) { row in try body(row) }
        } catch let error as ChatError {
            throw error
        } catch {
            throw .store("\(error)")
        }
    }

    func row(_ sql: String, _ arguments: StatementArguments = []) throws(ChatError) -> Row? {
        do { return try statements.prepared(sql).fetchOne(arguments: arguments) } catch {
            throw .store("\(error)")
        }
    }

    func value<T: DatabaseValueConvertible>(_ row: Row, _ name: String) throws(ChatError) -> T {
        do { return try row[name] } catch { throw .store("\(error)") }
    }

    /// Runs `body` in one transaction, or inside the one already open (`Database.transaction`).
    func transaction<T>(_ body: () throws(ChatError) -> T) throws(ChatError) -> T {
        do {
            return try database.transaction { () throws -> T in try body() }
        } catch let error as ChatError {
            throw error
        } catch {
            throw .store("\(error)")
        }
    }

    /// A transaction the caller ends with `commit` or `rollback` (`ChatController`'s runs of
    /// members' messages, whose handling is async but never suspends while it is open).
    func begin() throws(ChatError) {
        do { try database.execute("BEGIN IMMEDIATE") } catch { throw .store("\(error)") }
    }

    func commit() throws(ChatError) {
        do { try database.execute("COMMIT") } catch {
            database.rollbackAfterFailure()
            throw .store("\(error)")
        }
    }

    func rollback() { database.rollbackAfterFailure() }

    var lastID: Int64 { database.lastInsertRowID }

    // MARK: - JSON columns

    static func json(_ content: MsgContent) -> String { content.json.compactText }

    static func content(_ text: String) -> MsgContent {
        guard let json = try? JSON(parsing: Array(text.utf8)), let content = try? MsgContent(json: json)
        else {
            return .unknown(type: "invalid", text: text, json: JSONObject())
        }
        return content
    }

    static func profile(_ text: String) -> Profile? {
        guard let json = try? JSON(parsing: Array(text.utf8)) else { return nil }
        return try? Profile(json: json)
    }
}
