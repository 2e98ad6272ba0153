/// Prepared statements by their SQL, for a store that runs the same few dozen statements for
/// every message (the agent's and the chat's): each is prepared once and reset after use.
///
/// Not thread-safe: confined with the store that owns it. Held apart from `Database` because
/// statements retain their database; `removeAll` before closing it.
final class StatementCache {
    private let database: Database
    private var statements: [String: Statement] = [:]

    init(_ database: Database) {
        self.database = database
    }

    /// The prepared statement for `sql`, prepared now the first time.
    func prepared(_ sql: String) throws -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try database.makeStatement(sql)
        statements[sql] = statement
        return statement
    }

    /// Finalizes every statement, so the database can close.
    func removeAll() { statements = [:] }
}
