import Foundation
import SimpleXCrypto
import Testing
import TestSupport

@testable import SimpleXChat

/// The one-time upgrade of a plain database (`DatabaseEncryption`), and where the key comes from.
@Suite struct DatabaseEncryptionTests {
    /// A plain database in WAL mode with `rows` rows, some of them still in its WAL.
    func makePlainDatabase(_ path: String, rows: Int) throws {
        let database = try Database(path: path)
        try database.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, x TEXT NOT NULL)")
        try database.transaction {
            for n in 0..<rows {
                try database.execute(
                    "INSERT INTO t (n, x) VALUES (?, ?)",
                    arguments: [n, "plain-text-\(n) " + String(repeating: "p", count: 500)])
            }
        }
        try database.close()
    }

    func rowCount(_ database: Database) throws -> Int {
        try database.fetchValue(Int.self, "SELECT count(*) FROM t") ?? -1
    }

    func containsPlainText(_ path: String) throws -> Bool {
        try fileBytes(path).range(of: Data("plain-text-".utf8)) != nil
    }

    @Test func aPlainDatabaseIsEncryptedOnceAndKeepsEveryRow() throws {
        let dir = try TemporaryDirectory("upgrade")
        let path = dir.appending("chat.db")
        try makePlainDatabase(path, rows: 300)
        #expect(try containsPlainText(path))
        let key = DatabaseKey.random()
        #expect(try DatabaseEncryption.encryptIfPlain(path: path, key: key))
        #expect(try !containsPlainText(path))
        #expect(try permissions(of: path) == 0o600)
        #expect(!fileExists(DatabaseEncryption.pendingPath(for: path)))
        let database = try Database(path: path, key: key)
        #expect(try rowCount(database) == 300)
        try database.execute("INSERT INTO t (n, x) VALUES (1000, 'after')")
        try database.close()
        // Already encrypted: nothing to do, nothing changed.
        let before = try fileBytes(path)
        #expect(try !DatabaseEncryption.encryptIfPlain(path: path, key: key))
        #expect(try fileBytes(path) == before)
        #expect(try rowCount(try Database(path: path, key: key)) == 301)
    }

    @Test func aMissingDatabaseIsLeftForTheKeyedOpenToCreate() throws {
        let dir = try TemporaryDirectory("upgrade")
        let path = dir.appending("chat.db")
        #expect(try !DatabaseEncryption.encryptIfPlain(path: path, key: .random()))
        #expect(!fileExists(path))
    }

    /// The upgrade runs in a child process killed at a random moment; after each kill the
    /// database opens (plain, or encrypted if the rename happened) with every row, and the next
    /// start finishes the upgrade.
    @Test func killNineDuringTheUpgradeLeavesAUsableDatabaseThatTheNextStartEncrypts() async throws {
        let peer = try BuiltProducts.path("simplex-test-peer")
        var sawPlainAfterKill = false
        for round in 0..<4 {
            let dir = try TemporaryDirectory("upgrade-kill")
            let path = dir.appending("chat.db")
            try makePlainDatabase(path, rows: 20_000)  // ~12 MB: the copy takes a while
            let key = DatabaseKey.random()
            let hex = key.bytes.withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }
            let child = try ChildProcess(peer, ["encrypt-db", path])
            child.send(hex)
            _ = try await child.line { $0 == "started" }
            child.send("go")
            // The first round kills at once, before the copy can be done, even on a busy machine.
            if round > 0 { try await Task.sleep(for: .milliseconds(Int.random(in: 1...150))) }
            child.kill(SIGKILL)
            try await child.wait()

            switch DatabaseFileState.of(path) {
            case .plain:
                sawPlainAfterKill = true
                #expect(try rowCount(try Database(path: path)) == 20_000)
            case .encrypted:
                #expect(
                    child.allOutput.contains("done") || !fileExists(DatabaseEncryption.pendingPath(for: path))
                )
            default:
                Issue.record("after the kill \(path) is neither plain nor encrypted")
            }
            try DatabaseEncryption.encryptIfPlain(path: path, key: key)
            #expect(DatabaseFileState.of(path) == .encrypted)
            #expect(!fileExists(DatabaseEncryption.pendingPath(for: path)))
            let database = try Database(path: path, key: key)
            #expect(try rowCount(database) == 20_000)
            #expect(try database.fetchValue(String.self, "PRAGMA integrity_check") == "ok")
            try database.close()
            #expect(try !containsPlainText(path))
        }
        #expect(sawPlainAfterKill, "no kill landed before the rename")
    }

    @Test func theKeychainKeyIsMadeOnceAndSharedByEveryOpen() async throws {
        let dir = try TemporaryDirectory("dbkey")
        let keychain = try KeychainStore.open(
            path: dir.appending("keychain"), passphrase: SecureBytes(copying: Array("kc".utf8)),
            limits: .minimum)
        #expect(try keychain.get(.databasePassword) == nil)
        let first = try DatabaseKey.load(from: keychain)
        let second = try DatabaseKey.load(from: keychain)
        #expect(first.bytes == second.bytes)
        #expect(try keychain.get(.databasePassword)?.count == 32)
        let path = dir.appending("chat.db")
        let database = try Database(path: path, key: first)
        try database.execute("CREATE TABLE t (x)")
        try database.close()
        _ = try Database(path: path, key: second)
        #expect("\(first)" == "DatabaseKey(32 bytes)")  // never the bytes
    }

    @Test func oncePlainDatabasesWereEncryptedAPlainOneInTheirPlaceIsRefused() async throws {
        let dir = try TemporaryDirectory("dbkey")
        let keychain = try KeychainStore.open(
            path: dir.appending("keychain"), passphrase: SecureBytes(copying: Array("kc".utf8)),
            limits: .minimum)
        let path = dir.appending("simplex_v1_chat.db")
        try makePlainDatabase(path, rows: 10)
        // The first start after the update: the old plain database is encrypted, and that is kept.
        let first = try DatabaseKey.load(from: keychain)
        try ChatController.encryptDatabases(groupDirectory: dir.path, key: first)
        try DatabaseKey.recordDatabasesEncrypted(in: keychain)
        #expect(DatabaseFileState.of(path) == .encrypted)

        // Someone puts a plain database of their own in its place.
        try FileManager.default.removeItem(atPath: path)
        try makePlainDatabase(path, rows: 3)
        let planted = try fileBytes(path)
        let next = try DatabaseKey.load(from: keychain)
        let error = try #require(throws: ChatError.self) {
            try ChatController.encryptDatabases(groupDirectory: dir.path, key: next)
        }
        #expect("\(error)".contains("was replaced (tampering); nothing was changed"))
        #expect(try fileBytes(path) == planted)
        #expect(throws: DatabaseError.self) { try Database(path: path, key: next) }
    }

    @Test func aPassphraseKeyKeepsItsParametersBesideAndRefusesAWrongPassphrase() throws {
        let dir = try TemporaryDirectory("dbkey")
        let parameters = dir.appending("simplex_v1_db.kdf")
        let passphrase = SecureBytes(copying: Array("correct horse".utf8))
        let key = try DatabaseKey.derive(passphrase: passphrase, parametersPath: parameters, limits: .minimum)
        #expect(try permissions(of: parameters) == 0o600)
        let path = dir.appending("chat.db")
        let database = try Database(path: path, key: key)
        try database.execute("CREATE TABLE t (x)")
        try database.close()
        // The next start derives the same key from the stored salt and limits.
        let again = try DatabaseKey.derive(
            passphrase: SecureBytes(copying: Array("correct horse".utf8)), parametersPath: parameters)
        _ = try Database(path: path, key: again)
        let stored = try fileBytes(parameters)
        #expect(throws: KeychainError.wrongPassphrase(path: parameters)) {
            try DatabaseKey.derive(
                passphrase: SecureBytes(copying: Array("wrong".utf8)), parametersPath: parameters)
        }
        #expect(try fileBytes(parameters) == stored)
        #expect(stored.range(of: Data("correct horse".utf8)) == nil)
    }
}
