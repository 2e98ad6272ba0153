import Foundation
import SimpleXCrypto
import Testing
import TestSupport

@testable import SimpleXChat

/// Setting, changing and removing the databases' passphrase (`DatabasePassphrase`), crash-safely.
@Suite struct DatabasePassphraseTests {
    let keychainPassphrase = "kc"

    func openKeychain(_ dir: TemporaryDirectory) throws -> KeychainStore {
        try KeychainStore.open(
            path: dir.appending("keychain"), passphrase: SecureBytes(copying: Array(keychainPassphrase.utf8)),
            limits: .minimum)
    }

    func secure(_ text: String) -> SecureBytes { SecureBytes(copying: Array(text.utf8)) }

    /// Both databases, encrypted with the keychain's random key, with `rows` rows each.
    func makeDatabases(_ dir: TemporaryDirectory, keychain: KeychainStore, rows: Int) throws -> DatabaseKey {
        let key = try DatabaseKey.load(from: keychain)
        for path in DatabasePassphrase.databasePaths(groupDirectory: dir.path) {
            let database = try Database(path: path, key: key)
            try database.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, x TEXT NOT NULL)")
            try database.transaction {
                for n in 0..<rows {
                    try database.execute(
                        "INSERT INTO t (n, x) VALUES (?, ?)", arguments: [n, "row-\(n) " + String(repeating: "p", count: 400)])
                }
            }
            try database.close()
        }
        return key
    }

    /// The rows of both databases opened with `key` (throws when it does not open them).
    func rowCounts(_ dir: TemporaryDirectory, key: DatabaseKey) throws -> [Int] {
        try DatabasePassphrase.databasePaths(groupDirectory: dir.path).map { path in
            let database = try Database(path: path, key: key)
            defer { try? database.close() }
            #expect(try database.fetchValue(String.self, "PRAGMA integrity_check") == "ok")
            return try database.fetchValue(Int.self, "SELECT count(*) FROM t") ?? -1
        }
    }

    func opens(_ dir: TemporaryDirectory, key: DatabaseKey) -> Bool { (try? rowCounts(dir, key: key)) != nil }

    @Test func aChangedPassphraseOpensTheDatabasesAndTheOldKeyNoLonger() throws {
        let dir = try TemporaryDirectory("passphrase")
        let keychain = try openKeychain(dir)
        let old = try makeDatabases(dir, keychain: keychain, rows: 50)
        try DatabasePassphrase.change(
            groupDirectory: dir.path, keychain: keychain, current: old, to: .passphrase(secure("correct horse")),
            store: false, limits: .minimum)
        #expect(try DatabasePassphrase.isRequired(groupDirectory: dir.path, keychain: keychain))
        #expect(try keychain.get(.databasePassword) == nil)
        // The key is no longer loadable without the passphrase, and no random key is made instead.
        #expect(throws: KeychainError.databasePassphraseRequired(path: keychain.path)) {
            try DatabaseKey.load(from: keychain)
        }
        #expect(!opens(dir, key: old))
        #expect(throws: PassphraseError.wrongPassphrase) {
            try DatabasePassphrase.unlock(groupDirectory: dir.path, keychain: keychain, passphrase: secure("wrong"))
        }
        let new = try DatabasePassphrase.unlock(
            groupDirectory: dir.path, keychain: keychain, passphrase: secure("correct horse"))
        #expect(try rowCounts(dir, key: new) == [50, 50])
        #expect(try keychain.itemNames().contains("databasePasswordPending") == false)
        #expect(!fileExists(DatabasePassphrase.recordPath(groupDirectory: dir.path)))

        // Changed again (the current key is the passphrase's), stored this time.
        #expect(throws: PassphraseError.wrongCurrentKey) {
            try DatabasePassphrase.change(
                groupDirectory: dir.path, keychain: keychain, current: old, to: .passphrase(secure("x")),
                store: true, limits: .minimum)
        }
        #expect(try rowCounts(dir, key: new) == [50, 50])  // the refused change changed nothing
        try DatabasePassphrase.change(
            groupDirectory: dir.path, keychain: keychain, current: new, to: .passphrase(secure("battery staple")),
            store: true, limits: .minimum)
        #expect(!opens(dir, key: new))
        let stored = try DatabaseKey.load(from: keychain)
        #expect(try rowCounts(dir, key: stored) == [50, 50])
        #expect(throws: PassphraseError.wrongPassphrase) {
            try DatabasePassphrase.unlock(groupDirectory: dir.path, keychain: keychain, passphrase: secure("correct horse"))
        }

        // "Remove passphrase": back to a random key in the keychain, no parameters file.
        try DatabasePassphrase.change(
            groupDirectory: dir.path, keychain: keychain, current: stored, to: .random, store: true)
        #expect(!DatabasePassphrase.isSet(groupDirectory: dir.path))
        let random = try DatabaseKey.load(from: keychain)
        #expect(random.bytes != stored.bytes)
        #expect(try rowCounts(dir, key: random) == [50, 50])
    }

    @Test func theKeyOfAPassphraseIsRemovedFromTheKeychainAndStoredAgain() throws {
        let dir = try TemporaryDirectory("passphrase")
        let keychain = try openKeychain(dir)
        let old = try makeDatabases(dir, keychain: keychain, rows: 5)
        // A random key has nothing else to open the databases with.
        #expect(throws: PassphraseError.self) {
            try DatabasePassphrase.setStored(false, groupDirectory: dir.path, keychain: keychain, current: old)
        }
        #expect(try keychain.get(.databasePassword) != nil)
        try DatabasePassphrase.change(
            groupDirectory: dir.path, keychain: keychain, current: old, to: .passphrase(secure("pw")), store: true,
            limits: .minimum)
        let key = try DatabaseKey.load(from: keychain)
        try DatabasePassphrase.setStored(false, groupDirectory: dir.path, keychain: keychain, current: key)
        #expect(try DatabasePassphrase.isRequired(groupDirectory: dir.path, keychain: keychain))
        let typed = try DatabasePassphrase.unlock(groupDirectory: dir.path, keychain: keychain, passphrase: secure("pw"))
        try DatabasePassphrase.setStored(true, groupDirectory: dir.path, keychain: keychain, current: typed)
        #expect(try rowCounts(dir, key: try DatabaseKey.load(from: keychain)) == [5, 5])
    }

    /// A change in a child process killed with SIGKILL at each of its steps: before the commit the
    /// old key opens every row, after it the new passphrase does; the next start (`recover`)
    /// leaves exactly one of them working and nothing behind.
    @Test(arguments: DatabasePassphrase.Step.allCases)
    func killNineAtAnyStepOfAChangeLeavesTheOldOrTheNewKeyWithEveryRow(step: DatabasePassphrase.Step) async throws {
        let peer = try BuiltProducts.path("simplex-test-peer")
        let dir = try TemporaryDirectory("rekey-kill")
        let keychain = try openKeychain(dir)
        let old = try makeDatabases(dir, keychain: keychain, rows: 2_000)
        let child = try ChildProcess(peer, ["rekey-db", dir.path, step.rawValue])
        child.send(keychainPassphrase)
        child.send("new secret")
        _ = try await child.line { $0 == "at \(step.rawValue)" }
        child.kill(SIGKILL)
        _ = try await child.wait()
        #expect(!child.allOutput.joined().contains("new secret"))

        let committed = ![.copiedChat, .copiedAgent].contains(step)
        if !committed { #expect(try rowCounts(dir, key: old) == [2_000, 2_000]) }
        try DatabasePassphrase.recover(groupDirectory: dir.path, keychain: keychain)
        #expect(!fileExists(DatabasePassphrase.recordPath(groupDirectory: dir.path)))
        for path in DatabasePassphrase.databasePaths(groupDirectory: dir.path) {
            #expect(!fileExists(DatabasePassphrase.copyPath(path)))
        }
        #expect(try keychain.itemNames().contains("databasePasswordPending") == false)
        if committed {
            #expect(!opens(dir, key: old))
            #expect(try DatabasePassphrase.isRequired(groupDirectory: dir.path, keychain: keychain))
            let new = try DatabasePassphrase.unlock(
                groupDirectory: dir.path, keychain: keychain, passphrase: secure("new secret"))
            #expect(try rowCounts(dir, key: new) == [2_000, 2_000])
        } else {
            #expect(!DatabasePassphrase.isSet(groupDirectory: dir.path))
            #expect(try DatabaseKey.load(from: keychain).bytes == old.bytes)
            #expect(try rowCounts(dir, key: old) == [2_000, 2_000])
        }
    }
}
