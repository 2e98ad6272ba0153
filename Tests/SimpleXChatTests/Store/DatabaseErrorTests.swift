import Foundation
import SimpleXChat
import TestSupport
import Testing

@Suite struct DatabaseErrorTests {
    @Test func aConstraintViolationCarriesCodesMessageAndSQLButNoArgumentValues() throws {
        let dir = try TemporaryDirectory("store")
        let database = try Database(path: dir.appending("chat.db"))
        try database.execute(
            "CREATE TABLE users (user_id INTEGER PRIMARY KEY, local_display_name TEXT UNIQUE)")
        let sql = "INSERT INTO users (local_display_name) VALUES (?)"
        try database.execute(sql, arguments: ["secret-name-7f3a"])

        let error = try #require(throws: DatabaseError.self) {
            try database.execute(sql, arguments: ["secret-name-7f3a"])
        }
        #expect(error.resultCode == .constraint)
        #expect(error.extendedResultCode == .constraintUnique)
        #expect(error.message == "UNIQUE constraint failed: users.local_display_name")
        #expect(error.sql == sql)
        #expect(error.argumentCount == 1)
        #expect(
            error.description
                == #"SQLite error 19 (UNIQUE constraint failed: users.local_display_name) in "INSERT INTO users (local_display_name) VALUES (?)", extended code 2067, 1 argument"#
        )
        #expect(!error.description.contains("secret-name-7f3a"))
        #expect(!String(reflecting: error).contains("secret-name-7f3a"))
    }

    @Test func notNullAndForeignKeyViolationsHaveTheirExtendedCodes() throws {
        let dir = try TemporaryDirectory("store")
        let database = try Database(path: dir.appending("chat.db"))
        try database.execute(
            """
            CREATE TABLE parent (id INTEGER PRIMARY KEY);
            CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent);
            """)
        let notNull = try #require(throws: DatabaseError.self) {
            try database.execute("INSERT INTO child (parent_id) VALUES (?)", arguments: [nil])
        }
        #expect(notNull.extendedResultCode == .constraintNotNull)
        let foreignKey = try #require(throws: DatabaseError.self) {
            try database.execute("INSERT INTO child (parent_id) VALUES (?)", arguments: [42])
        }
        #expect(foreignKey.extendedResultCode == .constraintForeignKey)
    }

    @Test func aSyntaxErrorInAScriptNamesTheSQLOnOneLine() throws {
        let dir = try TemporaryDirectory("store")
        let database = try Database(path: dir.appending("chat.db"))
        let error = try #require(throws: DatabaseError.self) {
            try database.execute(
                """
                CREATE TABLE a (x);
                CREATE TABLEE b (y);
                """)
        }
        #expect(error.resultCode == .error)
        #expect(error.message.contains("syntax error"))
        #expect(error.sql?.contains("CREATE TABLEE b") == true)
        #expect(!error.description.contains("\n"))
        #expect(error.description.contains(#"in "CREATE TABLEE b (y);""#))
    }

    @Test func aStatementWithParametersButNoArgumentsIsRefused() throws {
        let dir = try TemporaryDirectory("store")
        let database = try Database(path: dir.appending("chat.db"))
        try database.execute("CREATE TABLE t (x NOT NULL)")
        let error = try #require(throws: DatabaseError.self) {
            try database.execute("INSERT INTO t VALUES (?)")
        }
        #expect(error.resultCode == .misuse)
        #expect(try database.count("t") == 0)
    }
}
