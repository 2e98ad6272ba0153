import Foundation
import SimpleXCrypto
import SimpleXSystem

/// The databases' passphrase: set, change, remove from the keychain, and asked at start when
/// it is not stored (issue 25 point 3; iOS: `DatabaseEncryptionView`, `APIStorageEncryption`).
///
/// Where the key lives:
/// - random key (the default, iOS `initialRandomDBPassphrase`): `databasePassword` in the keychain;
///   no parameters file.
/// - passphrase, stored: the key derived from it (Argon2id, `simplex_v1_db.kdf`) is kept as
///   `databasePassword`, so every process opens the databases without asking.
/// - passphrase, not stored (`storeDBPassphrase` off): only `simplex_v1_db.kdf`; the client asks at
///   every start, and the service and the share helper cannot open the databases.
///
/// A change rewrites every page of both databases under the new key, crash-safely, in two phases
/// (`change`): copies under the new key are made beside the databases (`<db>.rekeying`), then a
/// record `simplex_v1_db.rekey` is written: that write is the commit. Without the record, the copies
/// are leftovers and `recover` removes them (the old key still works); with it, `recover` finishes
/// the renames, the parameters file and the keychain (the new key works). No secret is in the record.
public enum DatabasePassphrase {
    /// The new key of a change: derived from a passphrase, or a new random one (SimpleX's
    /// "remove passphrase": our databases are never plain, so it means back to a random key).
    public enum NewKey: Sendable {
        case passphrase(SecureBytes)
        case random
    }

    /// The steps of a change, for tests that stop a process at one of them.
    public enum Step: String, Sendable, CaseIterable {
        case copiedChat, copiedAgent, committed, renamedChat, renamedAgent, replacedParameters, done
    }

    /// The clear Argon2id parameters of a passphrase-derived key.
    public static func parametersPath(groupDirectory: String) -> String { groupDirectory + "/simplex_v1_db.kdf" }
    /// The record of a committed change being finished.
    public static func recordPath(groupDirectory: String) -> String { groupDirectory + "/simplex_v1_db.rekey" }

    static func databasePaths(groupDirectory: String) -> [String] {
        [groupDirectory + "/simplex_v1_chat.db", AgentConfig.databasePath(groupDirectory: groupDirectory)]
    }

    static func copyPath(_ database: String) -> String { database + ".rekeying" }

    /// Whether the databases are sealed with a key derived from a passphrase (stored or not).
    public static func isSet(groupDirectory: String) -> Bool {
        access(parametersPath(groupDirectory: groupDirectory), F_OK) == 0
    }

    /// Whether the client must ask for the passphrase: one is set and its key is not in the keychain.
    public static func isRequired(groupDirectory: String, keychain: KeychainStore) throws(KeychainError) -> Bool {
        guard isSet(groupDirectory: groupDirectory) else { return false }
        return try keychain.get(.databasePassword) == nil
    }

    /// The databases' key from the passphrase the user typed; `.wrongPassphrase` changes nothing.
    public static func unlock(groupDirectory: String, keychain: KeychainStore, passphrase: SecureBytes)
        throws(PassphraseError) -> DatabaseKey
    {
        let parameters = parametersPath(groupDirectory: groupDirectory)
        guard isSet(groupDirectory: groupDirectory) else { throw .notSet }
        do {
            var key = try DatabaseKey.derive(passphrase: passphrase, parametersPath: parameters)
            key.upgradesPlainDatabases = try keychain.get(.databasesEncrypted) == nil
            return key
        } catch {
            if case .wrongPassphrase = error { throw .wrongPassphrase }
            throw .keychain(error)
        }
    }

    /// Rewrites both databases under `newKey` (`current` must open them), keeping its key in the
    /// keychain when `store` is true (a random key is always stored). Run it with the core stopped
    /// and core.lock held. `checkpoint` hears each step (tests stop the process there).
    public static func change(
        groupDirectory: String, keychain: KeychainStore, current: DatabaseKey, to newKey: NewKey, store: Bool,
        limits: PasswordHash.Limits = .moderate, checkpoint: (Step) -> Void = { _ in }
    ) throws(PassphraseError) {
        try recover(groupDirectory: groupDirectory, keychain: keychain)
        let databases = databasePaths(groupDirectory: groupDirectory)
        let parameters = parametersPath(groupDirectory: groupDirectory)
        let newParameters = parameters + ".new"
        for database in databases { try checkOpens(database, key: current) }
        var key: DatabaseKey
        let storeKey: Bool
        switch newKey {
        case .random:
            key = DatabaseKey.random()
            storeKey = true
        case .passphrase(let passphrase):
            guard passphrase.count > 0 else { throw .invalid("the new passphrase is empty") }
            unlink(newParameters)
            do {
                key = try DatabaseKey.derive(passphrase: passphrase, parametersPath: newParameters, limits: limits)
            } catch { throw .keychain(error) }
            storeKey = store
        }
        key.upgradesPlainDatabases = false
        do {
            for (database, step) in zip(databases, [Step.copiedChat, .copiedAgent]) {
                try copy(database, from: current, to: key)
                checkpoint(step)
            }
            if storeKey { try keychain.set(.databasePasswordPending, key.bytes) }
            let record = Record(parameters: newKey.isRandom ? .remove : .replace, storeKey: storeKey)
            try AtomicFile.write(record.bytes, to: recordPath(groupDirectory: groupDirectory))
        } catch {
            rollBack(groupDirectory: groupDirectory, keychain: keychain)
            if let error = error as? PassphraseError { throw error }
            throw .failed("\(error)")
        }
        checkpoint(.committed)
        try finish(groupDirectory: groupDirectory, keychain: keychain, checkpoint: checkpoint)
        checkpoint(.done)
    }

    /// Keeps the key of a passphrase in the keychain (`store`) or removes it, without rewriting
    /// anything; removing needs a passphrase to be set (a random key has nothing else to open it).
    public static func setStored(
        _ store: Bool, groupDirectory: String, keychain: KeychainStore, current: DatabaseKey
    ) throws(PassphraseError) {
        guard isSet(groupDirectory: groupDirectory) else {
            if store { return }
            throw .invalid("no passphrase is set, so the random key must stay in the keychain: set a passphrase first")
        }
        for database in databasePaths(groupDirectory: groupDirectory) { try checkOpens(database, key: current) }
        do {
            if store { try keychain.set(.databasePassword, current.bytes) } else { try keychain.remove(.databasePassword) }
        } catch { throw .keychain(error) }
    }

    /// Whether a change left something to finish or remove (a crash, or a change running now).
    public static func hasUnfinishedChange(groupDirectory: String) -> Bool {
        let leftovers = [recordPath(groupDirectory: groupDirectory), parametersPath(groupDirectory: groupDirectory) + ".new"]
            + databasePaths(groupDirectory: groupDirectory).map(copyPath)
        return leftovers.contains { access($0, F_OK) == 0 }
    }

    /// Finishes a committed change or removes what an interrupted one left; run at every start
    /// with core.lock held, before the key is loaded.
    public static func recover(groupDirectory: String, keychain: KeychainStore) throws(PassphraseError) {
        if (try? AtomicFile.read(recordPath(groupDirectory: groupDirectory))) ?? nil != nil {
            try finish(groupDirectory: groupDirectory, keychain: keychain, checkpoint: { _ in })
        } else {
            rollBack(groupDirectory: groupDirectory, keychain: keychain)
        }
    }

    // MARK: - The two phases

    private static func finish(groupDirectory: String, keychain: KeychainStore, checkpoint: (Step) -> Void)
        throws(PassphraseError)
    {
        let recordFile = recordPath(groupDirectory: groupDirectory)
        let bytes: [UInt8]
        do { bytes = try AtomicFile.read(recordFile) ?? [] } catch { throw .failed("\(error)") }
        guard let record = Record(bytes) else {
            throw .failed("\(recordFile) is damaged: it should say how to finish a passphrase change")
        }
        for (database, step) in zip(databasePaths(groupDirectory: groupDirectory), [Step.renamedChat, .renamedAgent]) {
            let copy = copyPath(database)
            if access(copy, F_OK) == 0 {
                // The old file's WAL and index are under the old key (its content is in the copy).
                for companion in ["-wal", "-shm", "-journal"] { unlink(database + companion) }
                guard rename(copy, database) == 0 else { throw .failed(fileError("cannot rename \(copy) to", database)) }
                try syncDirectory(groupDirectory)
            }
            checkpoint(step)
        }
        let parameters = parametersPath(groupDirectory: groupDirectory)
        switch record.parameters {
        case .replace:
            if access(parameters + ".new", F_OK) == 0 {
                guard rename(parameters + ".new", parameters) == 0 else {
                    throw .failed(fileError("cannot rename \(parameters).new to", parameters))
                }
            }
        case .remove:
            unlink(parameters + ".new")
            unlink(parameters)
        }
        try syncDirectory(groupDirectory)
        checkpoint(.replacedParameters)
        do {
            if record.storeKey {
                if let pending = try keychain.get(.databasePasswordPending) {
                    try keychain.set(.databasePassword, pending)
                    try keychain.remove(.databasePasswordPending)
                }
            } else {
                try keychain.remove(.databasePassword)
                try keychain.remove(.databasePasswordPending)
            }
        } catch { throw .keychain(error) }
        unlink(recordFile)
        try syncDirectory(groupDirectory)
    }

    /// Removes an uncommitted change's copies, new parameters and pending key; the old key works.
    private static func rollBack(groupDirectory: String, keychain: KeychainStore) {
        for database in databasePaths(groupDirectory: groupDirectory) {
            let copy = copyPath(database)
            for name in [copy, copy + "-wal", copy + "-shm", copy + "-journal"] { unlink(name) }
        }
        unlink(parametersPath(groupDirectory: groupDirectory) + ".new")
        try? keychain.remove(.databasePasswordPending)
    }

    private static func checkOpens(_ path: String, key: DatabaseKey) throws(PassphraseError) {
        guard DatabaseEncryption.isEncrypted(path: path) else { return }  // not made yet
        do {
            let database = try Database(path: path, key: key)
            defer { try? database.close() }
            _ = try database.fetchValue(Int.self, "SELECT count(*) FROM sqlite_master")
        } catch let error as DatabaseError
            where [.tampered, .notADatabase, .corrupt].contains(error.extendedResultCode)
                || [.notADatabase, .corrupt].contains(error.extendedResultCode.primary)
        {
            throw .wrongCurrentKey
        } catch {
            throw .failed("cannot open \(path): \(error)")
        }
    }

    /// `<path>.rekeying`: every page of `path` (read with `old`) written under `new`, synced, checked.
    private static func copy(_ path: String, from old: DatabaseKey, to new: DatabaseKey) throws {
        let copy = copyPath(path)
        for name in [copy, copy + "-wal", copy + "-shm", copy + "-journal"] { unlink(name) }
        guard DatabaseEncryption.isEncrypted(path: path) else { return }
        let descriptor = open(copy, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw PassphraseError.failed(fileError("cannot create", copy)) }
        _ = Foundation.close(descriptor)
        let cipher = try PageCipher(key: new)
        let source = try Database(path: path, key: old)
        do {
            try source.requestReservedBytes(PageCipher.reservedBytes)
            try source.execute("VACUUM INTO ?", arguments: [DatabaseEncryption.uri(copy, vfs: cipher.vfsName)])
            try source.close()
        } catch {
            try? source.close()
            throw error
        }
        try syncFile(copy)
        let check = try Database(path: copy, key: new)
        let result = try check.fetchValue(String.self, "PRAGMA quick_check")
        try check.close()
        for companion in ["-wal", "-shm"] { unlink(copy + companion) }
        guard result == "ok" else {
            throw PassphraseError.failed("the copy of \(path) under the new key does not check: \(result ?? "no result")")
        }
    }

    private static func syncFile(_ path: String) throws(PassphraseError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .failed(fileError("cannot open", path)) }
        defer { _ = Foundation.close(descriptor) }
        guard fsync(descriptor) == 0 else { throw .failed(fileError("cannot sync", path)) }
    }

    private static func syncDirectory(_ path: String) throws(PassphraseError) {
        let descriptor = open(path, O_DIRECTORY | O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .failed(fileError("cannot open", path)) }
        defer { _ = Foundation.close(descriptor) }
        guard fsync(descriptor) == 0 else { throw .failed(fileError("cannot sync", path)) }
    }

    private static func fileError(_ action: String, _ path: String) -> String {
        "\(action) \(path): \(String(cString: strerror(errno)))"
    }

    /// `simplex_v1_db.rekey`: "SXRK1 <replace|remove> <store|forget>\n" — no secret.
    struct Record: Equatable {
        enum Parameters: String { case replace, remove }
        var parameters: Parameters
        var storeKey: Bool

        init(parameters: Parameters, storeKey: Bool) {
            self.parameters = parameters
            self.storeKey = storeKey
        }

        init?(_ bytes: [UInt8]) {
            let words = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace)
            guard words.count == 3, words[0] == "SXRK1", let parameters = Parameters(rawValue: String(words[1])),
                ["store", "forget"].contains(words[2])
            else { return nil }
            self.parameters = parameters
            storeKey = words[2] == "store"
        }

        var bytes: [UInt8] { Array("SXRK1 \(parameters.rawValue) \(storeKey ? "store" : "forget")\n".utf8) }
    }
}

extension DatabasePassphrase.NewKey {
    var isRandom: Bool { if case .random = self { true } else { false } }
}

/// Why a passphrase could not be set, changed or used; in every case nothing was changed, except
/// `.failed` after the commit, which the next start finishes.
public enum PassphraseError: Error, Equatable, CustomStringConvertible {
    case wrongPassphrase
    case wrongCurrentKey
    case notSet
    case invalid(String)
    case keychain(KeychainError)
    case failed(String)

    public var description: String {
        switch self {
        case .wrongPassphrase: return "wrong database passphrase; nothing was changed"
        case .wrongCurrentKey: return "the current passphrase does not open the databases; nothing was changed"
        case .notSet: return "no database passphrase is set"
        case .invalid(let reason): return "\(reason); nothing was changed"
        case .keychain(let error): return "\(error)"
        case .failed(let reason): return "the passphrase change failed: \(reason)"
        }
    }
}

extension KeychainItem {
    /// The key of a passphrase change being committed (moved to `databasePassword` when it is done).
    public static let databasePasswordPending = KeychainItem(rawValue: "databasePasswordPending")
}
