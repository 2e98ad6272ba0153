import Foundation

/// One named step of a database's schema history (CONVENTIONS "Store").
///
/// Lists of migrations are append-only: a shipped migration is never edited or removed, because
/// databases in the field record it by name as applied and will not run it again.
public struct Migration: Sendable {
    /// Unique and sortable by date, e.g. `20261129_initial`.
    public let name: String
    let apply: @Sendable (Database) throws -> Void

    public init(_ name: String, apply: @escaping @Sendable (Database) throws -> Void) {
        self.name = name
        self.apply = apply
    }

    /// A migration that runs an SQL script.
    public init(_ name: String, sql: String) {
        self.init(name) { try $0.execute(sql) }
    }
}

/// Why a database could not be brought up to the schema this code knows.
public enum MigrationError: Error, CustomStringConvertible {
    /// The database has migrations this code does not know: a newer app wrote it.
    case databaseNewerThanApp(unknownMigrations: [String])
    /// A migration failed; its transaction was rolled back, so it is not applied at all.
    case failed(migration: String, underlying: any Error)
    /// The list given to `migrate` names one migration twice (a programming error).
    case duplicateName(String)

    public var description: String {
        switch self {
        case .databaseNewerThanApp(let names):
            let list = names.joined(separator: ", ")
            return "the database was created by a newer version of SimpleX Chat "
                + "(unknown migration\(names.count == 1 ? "" : "s") \(list)); update the app"
        case .failed(let migration, let underlying):
            return "migration \(migration) failed: \(underlying)"
        case .duplicateName(let name):
            return "migration \(name) appears twice in the migrations list"
        }
    }
}

extension Database {
    /// The names of the migrations applied to this database, oldest first.
    public func appliedMigrations() throws -> [String] {
        // Only reads: a database newer than the code must be refused without being written to.
        let table = try fetchOne(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'migrations'")
        guard table != nil else { return [] }
        return try fetchAll("SELECT name FROM migrations ORDER BY rowid").map { try $0["name"] }
    }

    /// Applies the migrations of `migrations` that this database lacks, in list order, each in
    /// its own transaction together with its row in the `migrations` table.
    ///
    /// Refuses (unchanged) a database with a migration not in the list. When everything is
    /// applied it only reads. Migrations run with foreign keys off, so that rebuilding a table
    /// does not cascade deletes into its children; `PRAGMA foreign_key_check` must pass before
    /// each one commits. Call it outside a transaction.
    public func migrate(_ migrations: [Migration]) throws {
        guard !isInTransaction else {
            throw DatabaseError(.misuse, message: "migrate must run outside a transaction")
        }
        var names: Set<String> = []
        for migration in migrations where !names.insert(migration.name).inserted {
            throw MigrationError.duplicateName(migration.name)
        }
        let applied = try appliedMigrations()
        try refuseUnknown(applied, known: names)
        let pending = migrations.filter { !applied.contains($0.name) }
        guard !pending.isEmpty else { return }

        // foreign_keys cannot change inside a transaction, so it is switched around the loop.
        try execute("PRAGMA foreign_keys = OFF")
        var failure: (any Error)?
        do {
            for migration in pending { try apply(migration, known: names) }
        } catch {
            failure = error
        }
        try execute("PRAGMA foreign_keys = ON")
        if let failure { throw failure }
    }

    private func apply(_ migration: Migration, known: Set<String>) throws {
        try transaction {
            try execute(
                "CREATE TABLE IF NOT EXISTS migrations (name TEXT NOT NULL PRIMARY KEY, ts INTEGER NOT NULL)")
            // Another process may have migrated while this one waited for the write lock.
            let applied = try fetchAll("SELECT name FROM migrations").map { try $0["name"] as String }
            try refuseUnknown(applied, known: known)
            guard !applied.contains(migration.name) else { return }
            do {
                try migration.apply(self)
                let violations = try fetchAll("PRAGMA foreign_key_check")
                if let first = violations.first {
                    let table: String = try first["table"]
                    throw DatabaseError(
                        .constraintForeignKey,
                        message: "\(violations.count) foreign key violations, first in table \(table)",
                        sql: "PRAGMA foreign_key_check")
                }
            } catch {
                throw MigrationError.failed(migration: migration.name, underlying: error)
            }
            try execute(
                "INSERT INTO migrations (name, ts) VALUES (?, ?)", arguments: [migration.name, Date()])
        }
    }

    private func refuseUnknown(_ applied: [String], known: Set<String>) throws {
        let unknown = applied.filter { !known.contains($0) }
        guard unknown.isEmpty else { throw MigrationError.databaseNewerThanApp(unknownMigrations: unknown) }
    }
}
