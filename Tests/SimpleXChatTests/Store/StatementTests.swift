import Foundation
import SimpleXChat
import TestSupport
import Testing

@Suite struct StatementTests {
    @Test func everyTypeRoundTripsWithItsStorageClass() throws {
        let dir = try TemporaryDirectory("store")
        let database = try Database(path: dir.appending("chat.db"))
        // No declared types: columns keep exactly what was bound.
        try database.execute("CREATE TABLE v (name, value)")
        let date = Date(timeIntervalSince1970: 1_795_000_000.123)
        let cases: [(String, (any DatabaseValueConvertible)?, String)] = [
            ("int", Int.max, "integer"),
            ("int64", Int64.min, "integer"),
            ("double", 3.25, "real"),
            ("text", "héllo 👋 a\u{0}b", "text"),
            ("emptyText", "", "text"),
            ("blob", [UInt8]([0, 1, 0, 255, 0]), "blob"),
            ("emptyBlob", [UInt8](), "blob"),
            ("data", Data([0, 0, 7]), "blob"),
            ("true", true, "integer"),
            ("false", false, "integer"),
            ("date", date, "integer"),
            ("null", nil, "null"),
            ("nilString", String?.none, "null"),
        ]
        let insert = try database.makeStatement("INSERT INTO v (name, value) VALUES (?, ?)")
        for (name, value, _) in cases { try insert.execute(arguments: [name, value]) }

        func row(_ name: String) throws -> Row {
            try #require(
                try database.fetchOne(
                    "SELECT value, typeof(value) AS type FROM v WHERE name = ?", arguments: [name]))
        }
        for (name, _, storageClass) in cases {
            #expect(try row(name)["type"] == storageClass, "\(name)")
        }
        #expect(try row("int")[0] == Int.max)
        #expect(try row("int64")[0] == Int64.min)
        #expect(try row("double")[0] == 3.25)
        #expect(try row("text")[0] == "héllo 👋 a\u{0}b")
        #expect(try row("emptyText")[0] == "")
        #expect(try row("blob")[0] == [UInt8]([0, 1, 0, 255, 0]))
        #expect(try row("emptyBlob")[0] == [UInt8]())
        #expect(try row("data")[0] == Data([0, 0, 7]))
        #expect(try row("true")[0] == true)
        #expect(try row("false")[0] == false)
        #expect(try row("date")[0] == Date(timeIntervalSince1970: 1_795_000_000.123))
        #expect(try row("date")[0] == Int64(1_795_000_000_123))
        #expect(try row("null").value(at: 0) == .null)
        #expect(try row("null")[0] == String?.none)
        #expect(try row("emptyText")[0] == String?.some(""))
    }

    @Test func decodingTheWrongTypeIsAMismatchErrorNamingTheColumn() throws {
        let dir = try TemporaryDirectory("store")
        let database = try Database(path: dir.appending("chat.db"))
        let row = try #require(try database.fetchOne("SELECT NULL AS image, 'x' AS name"))
        let null = try #require(throws: DatabaseError.self) { try row["image"] as String }
        #expect(null.resultCode == .mismatch)
        #expect(null.message == "column 0 (image): cannot read NULL as String")
        let text = try #require(throws: DatabaseError.self) { try row["NAME"] as Int }
        #expect(text.message == "column 1 (name): cannot read TEXT as Int")
        #expect(try row["NAME"] == "x")  // names are case-insensitive, as in SQL
        #expect(try #require(throws: DatabaseError.self) { try row[2] as Int }.resultCode == .range)
        #expect(try #require(throws: DatabaseError.self) { try row["missing"] as Int }.resultCode == .range)
    }

    @Test func bindsNamedParametersAndChecksThemAll() throws {
        let dir = try TemporaryDirectory("store")
        let database = try Database(path: dir.appending("chat.db"))
        let row = try #require(
            try database.fetchOne(
                "SELECT :a AS a, @b AS b, $c AS c", arguments: ["a": 1, "b": "two", "c": nil]))
        #expect(try row["a"] == 1)
        #expect(try row["b"] == "two")
        #expect(try row["c"] == Int?.none)

        let missing = try #require(throws: DatabaseError.self) {
            try database.fetchOne("SELECT :a, :b", arguments: ["a": 1])
        }
        #expect(missing.message == "missing argument :b")
        let extra = try #require(throws: DatabaseError.self) {
            try database.fetchOne("SELECT :a", arguments: ["a": 1, "typo": 2])
        }
        #expect(extra.resultCode == .range)

        // The prefix is optional in the argument names.
        #expect(try database.fetchOne("SELECT :a", arguments: [":a": 5])?[0] == 5)

        let statement = try database.makeStatement("SELECT :name")
        try statement.bind("by name", named: "name")
        #expect(try statement.step()?[0] == "by name")
    }

    @Test func positionalArgumentsMustMatchTheParameterCount() throws {
        let dir = try TemporaryDirectory("store")
        let database = try Database(path: dir.appending("chat.db"))
        let error = try #require(throws: DatabaseError.self) {
            try database.fetchOne("SELECT ?, ?", arguments: [1])
        }
        #expect(error.resultCode == .misuse)
        #expect(error.message == "expected 2 arguments, got 1")
    }

    @Test func aPreparedStatementRunsAgainWithNewArgumentsAndSteps() throws {
        let dir = try TemporaryDirectory("store")
        let database = try Database(path: dir.appending("chat.db"))
        try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, x TEXT)")
        let insert = try database.makeStatement("INSERT INTO t (x) VALUES (?)")
        for text in ["a", "b", "c"] {
            try insert.execute(arguments: [text])
            #expect(database.changes == 1)
        }
        #expect(database.lastInsertRowID == 3)

        let select = try database.makeStatement("SELECT id, x FROM t WHERE id >= ? ORDER BY id")
        #expect(select.columnNames == ["id", "x"])
        try select.bind([2])
        var seen: [String] = []
        while let row = try select.step() { seen.append(try row["x"]) }
        #expect(seen == ["b", "c"])
        #expect(try select.fetchAll(arguments: [1]).count == 3)
        #expect(
            try database.fetchAll("SELECT x FROM t ORDER BY id").map { try $0[0] as String } == [
                "a", "b", "c",
            ])
    }

    @Test func makeStatementRefusesSeveralStatements() throws {
        let dir = try TemporaryDirectory("store")
        let database = try Database(path: dir.appending("chat.db"))
        let error = try #require(throws: DatabaseError.self) {
            try database.makeStatement("SELECT 1; SELECT 2")
        }
        #expect(error.resultCode == .misuse)
        // A trailing comment or semicolon is not a second statement.
        #expect(try database.makeStatement("SELECT 1; -- done").fetchOne()?[0] == 1)
    }

    @Test func fetchesRecords() throws {
        struct Pair: FetchableRecord, Equatable {
            let id: Int64
            let name: String?
            init(id: Int64, name: String?) {
                self.id = id
                self.name = name
            }
            init(row: Row) throws {
                id = try row["id"]
                name = try row["name"]
            }
        }
        let dir = try TemporaryDirectory("store")
        let database = try Database(path: dir.appending("chat.db"))
        try database.execute("CREATE TABLE p (id INTEGER PRIMARY KEY, name TEXT)")
        try database.execute("INSERT INTO p (name) VALUES ('a'), (NULL)")
        #expect(
            try database.fetchAll(Pair.self, "SELECT id, name FROM p ORDER BY id")
                == [Pair(id: 1, name: "a"), Pair(id: 2, name: nil)])
        #expect(
            try database.fetchOne(Pair.self, "SELECT id, name FROM p WHERE id = ?", arguments: [3]) == nil)
    }

    @Test func rowsReadInPlaceDecodeAsCopiedRowsDoAndFailTheSameWay() throws {
        let dir = try TemporaryDirectory("store")
        let database = try Database(path: dir.appending("chat.db"))
        try database.execute("CREATE TABLE p (id INTEGER PRIMARY KEY, name TEXT, data BLOB)")
        try database.execute(
            "INSERT INTO p (name, data) VALUES ('héllo 👋', x'00ff'), (NULL, x''), ('', NULL)")
        let statement = try database.makeStatement("SELECT id, name, data FROM p WHERE id >= ? ORDER BY id")
        var read: [(Int64, String?, [UInt8]?)] = []
        try statement.forEachRowInPlace(arguments: [1]) { row in
            read.append(
                (
                    try row.decode(Int64.self, at: 0), try row.decode(String?.self, at: 1),
                    try row.decode([UInt8]?.self, at: 2)
                ))
        }
        #expect(read.map(\.0) == [1, 2, 3])
        #expect(read.map(\.1) == ["héllo 👋", nil, ""])
        #expect(read.map(\.2) == [[0, 255], [], nil])
        // The same rows as fetchAll copies them; the statement is reset and runs again.
        let copied = try statement.fetchAll(arguments: [2])
        #expect(try copied.map { try $0.decode(String?.self, at: 1) } == [nil, ""])

        var errors: [DatabaseError] = []
        try database.makeStatement("SELECT id, name FROM p WHERE name IS NULL").forEachRowInPlace { row in
            errors.append(try #require(throws: DatabaseError.self) { try row.decode(String.self, at: 1) })
            errors.append(try #require(throws: DatabaseError.self) { try row.decode(Int.self, at: 2) })
        }
        #expect(errors.map(\.resultCode) == [.mismatch, .range])
        #expect(errors.first?.message == "column 1 (name): cannot read NULL as String")

        // An error thrown by the body stops the loop and leaves the statement reusable.
        struct Stop: Error {}
        var seen = 0
        #expect(throws: Stop.self) {
            try statement.forEachRowInPlace(arguments: [1]) { _ in
                seen += 1
                throw Stop()
            }
        }
        #expect(seen == 1)
        #expect(try statement.fetchAll(arguments: [1]).count == 3)
    }
}
