import Foundation
import SimpleXCrypto
import Testing
import TestSupport

@testable import SimpleXChat

/// Databases opened with a key (`Database(path:key:)`, the VFS in Shared/CSQLiteCrypt): real
/// files, read back raw to check that nothing is in the clear and that changes are caught.
@Suite struct EncryptedDatabaseTests {
    static let pageSize = 4096
    static let marker = "secret-marker-"

    /// A database with `rows` rows of marker text over several pages, closed (so checkpointed).
    func makeDatabase(_ path: String, key: DatabaseKey, rows: Int = 60) throws {
        let database = try Database(path: path, key: key)
        try database.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, x TEXT NOT NULL)")
        try database.transaction {
            for n in 0..<rows {
                try database.execute(
                    "INSERT INTO t (n, x) VALUES (?, ?)",
                    arguments: [n, Self.marker + "\(n) " + String(repeating: "m", count: 300)])
            }
        }
        try database.close()
    }

    func texts(_ database: Database) throws -> [String] {
        try database.fetchAll("SELECT x FROM t ORDER BY n").map { try $0.decode(String.self, at: 0) }
    }

    /// The files SQLite keeps beside `path`, and `path` itself, that exist now.
    func files(of path: String) -> [String] {
        [path, path + "-wal", path + "-shm", path + "-journal"].filter {
            FileManager.default.fileExists(atPath: $0)
        }
    }

    func contains(_ path: String, _ text: String) throws -> Bool {
        try fileBytes(path).range(of: Data(text.utf8)) != nil
    }

    func expectTampering(_ body: () throws -> Void) {
        #expect {
            try body()
        } throws: { error in
            guard let error = error as? DatabaseError else { return false }
            return error.extendedResultCode == .tampered && error.description.contains("tampering")
        }
    }

    func replacePage(_ path: String, _ number: Int, with bytes: Data) throws {
        var data = try fileBytes(path)
        data.replaceSubrange((number - 1) * Self.pageSize..<number * Self.pageSize, with: bytes)
        try data.write(to: URL(fileURLWithPath: path))
    }

    func page(_ path: String, _ number: Int) throws -> Data {
        try fileBytes(path).subdata(in: (number - 1) * Self.pageSize..<number * Self.pageSize)
    }

    @Test func nothingOfTheTextIsInAnyFileWhileOpenOrAfterClose() throws {
        let dir = try TemporaryDirectory("crypt")
        let path = dir.appending("chat.db")
        let key = DatabaseKey.random()
        let database = try Database(path: path, key: key)
        #expect(database.isEncrypted)
        try database.execute("PRAGMA wal_autocheckpoint = 0")  // keep every page in the WAL
        try database.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, x TEXT NOT NULL)")
        for n in 0..<40 {
            try database.execute(
                "INSERT INTO t (n, x) VALUES (?, ?)",
                arguments: [n, Self.marker + "\(n) " + String(repeating: "m", count: 300)])
        }
        #expect(try fileSize(path + "-wal") > 40 * 300)
        for file in files(of: path) {
            #expect(try !contains(file, Self.marker), "\(file)")
            #expect(try !contains(file, "CREATE TABLE"), "\(file)")
        }
        try database.close()
        for file in files(of: path) { #expect(try !contains(file, Self.marker), "\(file)") }

        let reopened = try Database(path: path, key: key)
        let read = try texts(reopened)
        #expect(read.count == 40)
        #expect(read.last?.hasPrefix(Self.marker + "39 ") == true)
        #expect(try permissions(of: path) == 0o600)
    }

    @Test func rollbackJournalPagesAreSealedAndRollBack() throws {
        let dir = try TemporaryDirectory("crypt")
        let path = dir.appending("chat.db")
        let key = DatabaseKey.random()
        try makeDatabase(path, key: key)
        let database = try Database(path: path, key: key)
        try database.execute("PRAGMA journal_mode = DELETE")
        try database.execute("BEGIN IMMEDIATE")
        try database.execute("UPDATE t SET x = 'overwritten'")
        // The journal holds the original pages, with their marker text, until the transaction ends.
        let journal = path + "-journal"
        #expect(try fileSize(journal) > 4 * Self.pageSize)
        #expect(try !contains(journal, Self.marker))
        try database.execute("ROLLBACK")
        let read = try texts(database)
        #expect(read.count == 60 && read.allSatisfy { $0.hasPrefix(Self.marker) })
    }

    @Test func aWrongKeyFailsClearlyAndChangesNothing() throws {
        let dir = try TemporaryDirectory("crypt")
        let path = dir.appending("chat.db")
        try makeDatabase(path, key: .random())
        let before = try fileBytes(path)
        expectTampering { _ = try Database(path: path, key: .random()) }
        #expect(try fileBytes(path) == before)
        #expect(!fileExists(path + "-wal"))
    }

    @Test func aFlippedByteInAPageIsTampering() throws {
        let dir = try TemporaryDirectory("crypt")
        let path = dir.appending("chat.db")
        let key = DatabaseKey.random()
        try makeDatabase(path, key: key)
        var third = try page(path, 3)
        third[200] ^= 0x01
        try replacePage(path, 3, with: third)
        let database = try Database(path: path, key: key)  // reads page 1 only
        expectTampering { _ = try texts(database) }
    }

    @Test func aFlippedByteInTheHeaderIsTampering() throws {
        let dir = try TemporaryDirectory("crypt")
        let path = dir.appending("chat.db")
        let key = DatabaseKey.random()
        try makeDatabase(path, key: key)
        var first = try page(path, 1)
        first[60] ^= 0x01  // the user version, in the clear but authenticated
        try replacePage(path, 1, with: first)
        expectTampering { _ = try texts(try Database(path: path, key: key)) }
    }

    @Test func swappedPagesAreDetected() throws {
        let dir = try TemporaryDirectory("crypt")
        let path = dir.appending("chat.db")
        let key = DatabaseKey.random()
        try makeDatabase(path, key: key)
        let (second, third) = (try page(path, 2), try page(path, 3))
        try replacePage(path, 2, with: third)
        try replacePage(path, 3, with: second)
        expectTampering { _ = try texts(try Database(path: path, key: key)) }
    }

    @Test func aPageFromAnotherDatabaseUnderTheSameKeyIsDetected() throws {
        let dir = try TemporaryDirectory("crypt")
        let key = DatabaseKey.random()
        let (chat, agent) = (dir.appending("chat.db"), dir.appending("agent.db"))
        try makeDatabase(chat, key: key)
        try makeDatabase(agent, key: key)
        try replacePage(chat, 3, with: try page(agent, 3))
        expectTampering { _ = try texts(try Database(path: chat, key: key)) }
        // The other way round, page 1 (which carries the file's identifier) moved over.
        try replacePage(agent, 1, with: try page(chat, 1))
        expectTampering { _ = try texts(try Database(path: agent, key: key)) }
    }

    @Test func aChangedWALFrameIsTampering() throws {
        let dir = try TemporaryDirectory("crypt")
        let path = dir.appending("chat.db")
        let key = DatabaseKey.random()
        try makeDatabase(path, key: key)
        let writer = try Database(path: path, key: key)
        try writer.execute("PRAGMA wal_autocheckpoint = 0")
        try writer.execute("UPDATE t SET x = x || ' updated'")
        // One byte changed in every frame's page, while the writer keeps the WAL index in place.
        let wal = path + "-wal"
        var bytes = try fileBytes(wal)
        let frame = 24 + Self.pageSize
        #expect((bytes.count - 32) / frame >= 3)
        for start in stride(from: 32 + 24, to: bytes.count - Self.pageSize + 1, by: frame) {
            bytes[start + 500] ^= 0x80
        }
        try bytes.write(to: URL(fileURLWithPath: wal))
        let reader = try Database(path: path, key: key)
        expectTampering { _ = try texts(reader) }
    }

    @Test func aPlainDatabaseIsRefusedWithAKeyAndAnEncryptedOneWithout() throws {
        let dir = try TemporaryDirectory("crypt")
        let plain = dir.appending("plain.db")
        let database = try Database(path: plain)
        try database.execute("CREATE TABLE t (x)")
        try database.close()
        let plainBefore = try fileBytes(plain)
        let refused = try #require(throws: DatabaseError.self) { try Database(path: plain, key: .random()) }
        #expect(refused.resultCode == .notADatabase && refused.message.contains("not encrypted"))
        #expect(try fileBytes(plain) == plainBefore)

        let sealed = dir.appending("sealed.db")
        try makeDatabase(sealed, key: .random())
        let sealedBefore = try fileBytes(sealed)
        let noKey = try #require(throws: DatabaseError.self) { try Database(path: sealed) }
        #expect(noKey.resultCode == .notADatabase && noKey.message.contains("only with its key"))
        #expect(try fileBytes(sealed) == sealedBefore)
    }

    @Test func theClearHeaderHoldsOnlyFormatNumbersAndTheFileIdentifier() throws {
        let dir = try TemporaryDirectory("crypt")
        let path = dir.appending("chat.db")
        try makeDatabase(path, key: .random())
        let header = try page(path, 1)
        #expect(header.prefix(16) == Data("SQLite format 3\u{0}".utf8))
        #expect(header[20] == 40)  // the reserve: nonce and tag
        #expect(header.subdata(in: 72..<76) == Data("SXC1".utf8))
        // Past the header the page is ciphertext: the schema's SQL is not there.
        #expect(header.range(of: Data("CREATE".utf8)) == nil)
    }

    @Test func killNineDuringWritesLosesNoCommittedRow() async throws {
        let dir = try TemporaryDirectory("crypt-kill")
        let path = dir.appending("chat.db")
        let key = DatabaseKey.random()
        let hex = key.bytes.withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }
        let peer = try BuiltProducts.path("simplex-test-peer")
        var committed = 0
        for _ in 0..<3 {
            let child = try ChildProcess(peer, ["encrypted-db", path])
            child.send(hex)
            _ = try await child.line { $0 == "ready" }
            for _ in 0..<Int.random(in: 50...300) { _ = try await child.line { $0.hasPrefix("committed ") } }
            try await Task.sleep(for: .microseconds(Int.random(in: 0...5000)))
            child.kill(SIGKILL)
            #expect(try await child.wait() == 128 + SIGKILL)
            for line in child.allOutput where line.hasPrefix("committed ") {
                committed = max(committed, Int(line.dropFirst("committed ".count)) ?? 0)
            }
            let database = try Database(path: path, key: key)
            let rows = try database.fetchAll("SELECT n, body FROM rows ORDER BY n")
            let numbers = try rows.map { try $0.decode(Int.self, at: 0) }
            // Every printed row, in order, and at most one committed but not yet printed.
            #expect(numbers.count >= committed && numbers.count <= committed + 1)
            #expect(numbers == Array(1...numbers.count))
            #expect(try rows.allSatisfy { try $0.decode(String.self, at: 1).hasPrefix("row ") })
            #expect(try database.fetchValue(String.self, "PRAGMA integrity_check") == "ok")
            try database.close()
            committed = numbers.count
            for file in files(of: path) { #expect(try !contains(file, "row 1 "), "\(file)") }
        }
        #expect(committed >= 150)
    }
}

private func fileSize(_ path: String) throws -> Int {
    try (FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
}
