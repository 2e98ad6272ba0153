import Foundation
import SimpleXChat
import TestSupport
import Testing

@Suite struct MigrationTests {
    struct Broken: Error {}

    let first = Migration("20260101_a", sql: "CREATE TABLE a (x); INSERT INTO a VALUES (1);")
    let second = Migration("20260102_b", sql: "CREATE TABLE b (y)")

    @Test func appliesEachMigrationOnceAndRecordsIt() throws {
        let dir = try TemporaryDirectory("store")
        let database = try Database(path: dir.appending("chat.db"))
        try database.migrate([first])
        #expect(try database.appliedMigrations() == ["20260101_a"])
        try database.migrate([first, second])
        #expect(try database.appliedMigrations() == ["20260101_a", "20260102_b"])
        // Running the list again applies nothing: a second INSERT INTO a would show here.
        try database.migrate([first, second])
        #expect(try database.count("a") == 1)

        let rows = try database.fetchAll("SELECT name, ts FROM migrations ORDER BY name")
        #expect(try rows.map { try $0["name"] as String } == ["20260101_a", "20260102_b"])
        for row in rows { #expect(try row["ts"] as Int64 > 1_700_000_000_000) }
    }

    @Test func reopeningAnUpToDateDatabaseChangesNothing() throws {
        let dir = try TemporaryDirectory("store")
        let path = dir.appending("chat.db")
        try ChatSchema.openChatDatabase(path: path).close()
        let before = try fileBytes(path)
        let database = try ChatSchema.openChatDatabase(path: path)
        #expect(try database.appliedMigrations() == ChatSchema.migrations.map(\.name))
        try database.close()
        #expect(try fileBytes(path) == before)
    }

    @Test func refusesADatabaseWithAnUnknownMigrationAndLeavesItUnchanged() throws {
        let dir = try TemporaryDirectory("store")
        let path = dir.appending("chat.db")
        // What a newer app would leave behind.
        let newer = ChatSchema.migrations + [Migration("20270101_x", sql: "CREATE TABLE future (z)")]
        try Database(path: path).migrate(newer)
        let before = try fileBytes(path)

        let error = try #require(throws: MigrationError.self) { try ChatSchema.openChatDatabase(path: path) }
        #expect(
            error.description
                == "the database was created by a newer version of SimpleX Chat "
                + "(unknown migration 20270101_x); update the app")
        guard case .databaseNewerThanApp(let unknown) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(unknown == ["20270101_x"])
        #expect(try fileBytes(path) == before)
        #expect(!fileExists(path + "-wal"))
    }

    @Test func aFailingMigrationLeavesNothingOfItselfApplied() throws {
        let dir = try TemporaryDirectory("store")
        let path = dir.appending("chat.db")
        let database = try Database(path: path)
        let failing = Migration("20260103_fails") { database in
            try database.execute("CREATE TABLE c (z)")
            try database.execute("INSERT INTO a VALUES (2)")
            throw Broken()
        }
        let error = try #require(throws: MigrationError.self) {
            try database.migrate([first, failing, second])
        }
        guard case .failed(let name, let underlying) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(name == "20260103_fails")
        #expect(underlying is Broken)
        // Earlier migrations committed on their own; the failing one and later ones did not run.
        #expect(try database.appliedMigrations() == ["20260101_a"])
        #expect(try database.count("a") == 1)
        let tables = try database.fetchAll(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        #expect(try tables.map { try $0["name"] as String } == ["a", "migrations"])
        #expect(try database.fetchValue(Int.self, "PRAGMA foreign_keys") == 1)
    }

    @Test func aMigrationThatBreaksForeignKeysIsRolledBack() throws {
        let dir = try TemporaryDirectory("store")
        let database = try Database(path: dir.appending("chat.db"))
        let schema = Migration(
            "20260101_schema",
            sql: """
                CREATE TABLE parent (id INTEGER PRIMARY KEY);
                CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent);
                """)
        // Foreign keys are off while migrating, so only the check before commit catches this.
        let orphan = Migration("20260102_orphan", sql: "INSERT INTO child (parent_id) VALUES (99)")
        let error = try #require(throws: MigrationError.self) { try database.migrate([schema, orphan]) }
        guard case .failed("20260102_orphan", let underlying) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect((underlying as? DatabaseError)?.extendedResultCode == .constraintForeignKey)
        #expect(try database.appliedMigrations() == ["20260101_schema"])
        #expect(try database.count("child") == 0)
    }

    @Test func aListNamingAMigrationTwiceIsRefusedBeforeAnythingRuns() throws {
        let dir = try TemporaryDirectory("store")
        let database = try Database(path: dir.appending("chat.db"))
        let error = try #require(throws: MigrationError.self) {
            try database.migrate([first, second, first])
        }
        #expect(error.description == "migration 20260101_a appears twice in the migrations list")
        #expect(try database.appliedMigrations() == [])
    }

    @Test func migrateRefusesToRunInsideATransaction() throws {
        let dir = try TemporaryDirectory("store")
        let database = try Database(path: dir.appending("chat.db"))
        try database.execute("BEGIN")
        let error = try #require(throws: DatabaseError.self) { try database.migrate([first]) }
        #expect(error.resultCode == .misuse)
    }
}
