import Foundation
import SimpleXChat
import SimpleXCrypto

/// `simplex-test-peer encrypted-db <path>`: writes to an encrypted database until it is killed.
/// Reads the key as hex from its first stdin line (never from the command line), opens the
/// database with it, prints `ready`, then forever: inserts row n in its own transaction and
/// prints `committed n` after the commit returned, so a test that kills it with SIGKILL can check
/// that every printed row survived.
func runEncryptedDatabasePeer(_ arguments: [String]) async throws -> Int32 {
    guard arguments.count == 1, let key = try readKey() else {
        FileHandle.standardError.write(
            Data("usage: simplex-test-peer encrypted-db <path>, the key in hex on stdin\n".utf8))
        return 64
    }
    let database = try Database(path: arguments[0], key: key)
    try database.execute("CREATE TABLE IF NOT EXISTS rows (n INTEGER PRIMARY KEY, body TEXT NOT NULL)")
    var n = try database.fetchValue(Int.self, "SELECT coalesce(max(n), 0) FROM rows") ?? 0
    let out = FileHandle.standardOutput
    out.write(Data("ready\n".utf8))
    while true {
        n += 1
        // Bodies of varied size, so rows spill over pages and the WAL checkpoints now and then.
        let body = "row \(n) " + String(repeating: "x", count: 100 + (n * 37) % 3000)
        try database.transaction {
            try database.execute("INSERT INTO rows (n, body) VALUES (?, ?)", arguments: [n, body])
        }
        out.write(Data("committed \(n)\n".utf8))
    }
}

/// `simplex-test-peer encrypt-db <path>`: the one-time upgrade of a plain database, to be killed
/// part way. Reads the key as hex from stdin, prints `started`, waits for a `go` line (so the test
/// times its kill from there, not from when it read `started`), encrypts, prints `done`.
func runEncryptDatabasePeer(_ arguments: [String]) async throws -> Int32 {
    guard arguments.count == 1, let key = try readKey() else {
        FileHandle.standardError.write(
            Data("usage: simplex-test-peer encrypt-db <path>, the key in hex on stdin\n".utf8))
        return 64
    }
    FileHandle.standardOutput.write(Data("started\n".utf8))
    guard readLine() == "go" else { return 64 }
    try DatabaseEncryption.encryptIfPlain(path: arguments[0], key: key)
    FileHandle.standardOutput.write(Data("done\n".utf8))
    return 0
}

/// The database key from stdin's first line, in hex (a test key: product code never reads one so).
private func readKey() throws -> DatabaseKey? {
    guard let line = readLine(), line.count == 2 * DatabaseKey.count else { return nil }
    var bytes: [UInt8] = []
    var index = line.startIndex
    while index < line.endIndex {
        let next = line.index(index, offsetBy: 2)
        guard let byte = UInt8(line[index..<next], radix: 16) else { return nil }
        bytes.append(byte)
        index = next
    }
    return try DatabaseKey(SecureBytes(copying: bytes))
}

/// `simplex-test-peer rekey-db <group dir> <step>`: a database passphrase change, stopped at
/// `step` (`DatabasePassphrase.Step`) to be killed there. Reads the test keychain's passphrase and
/// then the new database passphrase from stdin (never the command line); the current key is the
/// keychain's. At the step it prints `at <step>` and waits forever; with step `none`, it prints `done`.
func runRekeyDatabasePeer(_ arguments: [String]) async throws -> Int32 {
    guard arguments.count == 2, let keychainPassphrase = readLine(), let passphrase = readLine() else {
        FileHandle.standardError.write(
            Data("usage: simplex-test-peer rekey-db <dir> <step>, passphrases on stdin\n".utf8))
        return 64
    }
    let directory = arguments[0]
    let stop = DatabasePassphrase.Step(rawValue: arguments[1])
    let keychain = try KeychainStore.open(
        path: directory + "/keychain", passphrase: SecureBytes(copying: Array(keychainPassphrase.utf8)),
        limits: .minimum)
    let current = try DatabaseKey.load(from: keychain)
    try DatabasePassphrase.change(
        groupDirectory: directory, keychain: keychain, current: current,
        to: passphrase.isEmpty ? .random : .passphrase(SecureBytes(copying: Array(passphrase.utf8))), store: false,
        limits: .minimum
    ) { step in
        guard step == stop else { return }
        FileHandle.standardOutput.write(Data("at \(step.rawValue)\n".utf8))
        while true { sleep(60) }
    }
    FileHandle.standardOutput.write(Data("done\n".utf8))
    return 0
}
