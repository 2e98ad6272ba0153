import Foundation
import SimpleXChat
import SimpleXCrypto

/// Issue 2's figures for the shared state: GroupDefaults reads and writes, keychain gets.
func foundationBenchmarkLines() async throws -> [String] {
    let base = FileManager.default.temporaryDirectory.path + "/simplex-bench-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: base) }
    let container = try GroupContainer(path: "\(base)/group")
    var lines: [String] = []

    let defaults = GroupDefaults(container: container)
    try defaults.update {
        $0[.appState] = .active
        $0[.ntfPreviewMode] = .contact
    }
    var sink = 0
    let reads = operationsPerSecond(batch: 1000) {
        if defaults[.appState] == .active { sink += 1 }
    }
    lines.append("GroupDefaults read (unchanged file, one key): \(grouped(reads)) reads/s")
    let parsedReads = operationsPerSecond(batch: 100) {
        // A new instance has no parsed copy: this is a read after another process changed the file.
        if GroupDefaults(container: container)[.appState] == .active { sink += 1 }
    }
    lines.append("GroupDefaults read (changed file, parsed): \(grouped(parsedReads)) reads/s")
    var n = 0
    let writes = try operationsPerSecond(batch: 10) {
        n += 1
        try defaults.set(.ntfBadgeCount, n)
    }
    lines.append("GroupDefaults write (flock, temp file, fsync, rename): \(grouped(writes)) writes/s")

    let keyFile = KeyFileMasterKey(path: "\(base)/config/simplex/keychain.key")
    let keychain = try await KeychainStore.open(path: container.keychainPath, masterKey: keyFile)
    try keychain.set(.databasePassword, SecureBytes.random(count: 32))
    try keychain.set(.appPassword, SecureBytes(copying: Array("123456".utf8)))
    try keychain.set(.selfDestructPassword, SecureBytes(copying: Array("654321".utf8)))
    let gets = try operationsPerSecond(batch: 100) {
        if try keychain.get(.databasePassword)?.count == 32 { sink += 1 }
    }
    lines.append("keychain get (read file, XChaCha20-Poly1305 open, 3 items): \(grouped(gets)) gets/s")
    if sink == 42 { print("") }  // keeps the loops from being optimised away
    return lines
}
