import SimpleXCrypto
import SimpleXSystem

/// The keychain-like encrypted store (iOS: the Keychain shared by the app and its extensions):
/// named secrets in one file, `keychain` in the group directory, sealed with
/// XChaCha20-Poly1305 under a master key from the Secret Service, the key file fallback, or a
/// passphrase.
///
/// Every operation reads the file afresh, so a change made by another process is seen at once;
/// changes are read-modify-write under `flock` on `keychain.lock` and replace the file
/// atomically. Any failure leaves the stored items as they were.
public final class KeychainStore: Sendable {
    public let path: String
    /// Where the master key comes from.
    public let source: KeychainKeySource
    /// A sentence for the user about where the key is, e.g. that the key file fallback is used.
    public let notice: String
    private let keys: KeychainKeys
    private let salt: [UInt8]
    private let limits: PasswordHash.Limits?

    private init(
        path: String, source: KeychainKeySource, notice: String, keys: KeychainKeys, salt: [UInt8],
        limits: PasswordHash.Limits?
    ) {
        self.path = path
        self.source = source
        self.notice = notice
        self.keys = keys
        self.salt = salt
        self.limits = limits
    }

    /// The key source recorded in the keychain at `path`, or nil when there is no keychain yet.
    public static func recordedSource(at path: String) throws(KeychainError) -> KeychainKeySource? {
        guard let bytes = try readFile(path) else { return nil }
        return try KeychainFile(parsing: bytes, path: path).source
    }

    /// Opens (or creates) the keychain at `path` with a master key kept by `provider`.
    public static func open(
        path: String, masterKey provider: some MasterKeyProvider, notice: String? = nil
    ) async throws(KeychainError) -> KeychainStore {
        let notice = notice ?? "the keychain's master key is kept in \(provider.location)"
        if let bytes = try readFile(path) {
            let file = try KeychainFile(parsing: bytes, path: path)
            guard file.source == provider.source else {
                throw file.source == .passphrase
                    ? .passphraseRequired(path: path)
                    : .sourceMismatch(path: path, recorded: file.source, offered: provider.source)
            }
            guard let masterKey = try await provider.existingKey() else {
                throw .masterKeyMissing(path: path, source: provider.location)
            }
            let keys = try KeychainKeys(masterKey: masterKey)
            guard keys.matches(file.keyCheck) else { throw .wrongMasterKey(path: path, source: provider.location) }
            _ = try file.open(keys: keys, path: path)
            return KeychainStore(path: path, source: file.source, notice: notice, keys: keys, salt: [], limits: nil)
        }
        let masterKey: SecureBytes
        if let existing = try await provider.existingKey() {
            masterKey = existing
        } else {
            masterKey = try await provider.createKey()
        }
        let store = KeychainStore(
            path: path, source: provider.source, notice: notice, keys: try KeychainKeys(masterKey: masterKey),
            salt: [], limits: nil)
        try store.createIfMissing()
        return store
    }

    /// Opens the keychain at `path` with a passphrase, creating it (with `limits`) when missing.
    public static func open(
        path: String, passphrase: SecureBytes, limits: PasswordHash.Limits = .moderate
    ) throws(KeychainError) -> KeychainStore {
        let notice = "the keychain is locked by a passphrase; no key is stored on disk"
        if let bytes = try readFile(path) {
            let file = try KeychainFile(parsing: bytes, path: path)
            guard file.source == .passphrase, let fileLimits = file.limits else {
                throw .sourceMismatch(path: path, recorded: file.source, offered: .passphrase)
            }
            let keys = try KeychainKeys(masterKey: try derive(passphrase, salt: file.salt, limits: fileLimits))
            guard keys.matches(file.keyCheck) else { throw .wrongPassphrase(path: path) }
            _ = try file.open(keys: keys, path: path)
            return KeychainStore(
                path: path, source: .passphrase, notice: notice, keys: keys, salt: file.salt, limits: fileLimits)
        }
        let salt = Random.bytes(count: PasswordHash.saltCount)
        let keys = try KeychainKeys(masterKey: try derive(passphrase, salt: salt, limits: limits))
        let store = KeychainStore(path: path, source: .passphrase, notice: notice, keys: keys, salt: salt, limits: limits)
        try store.createIfMissing()
        return store
    }

    /// The secret stored as `item`, or nil.
    public func get(_ item: KeychainItem) throws(KeychainError) -> SecureBytes? {
        try readFile().value(named: item.rawValue, keys: keys, path: path)
    }

    /// Stores `value` as `item`, replacing any previous value.
    public func set(_ item: KeychainItem, _ value: SecureBytes) throws(KeychainError) {
        try modify { $0.values[item.rawValue] = value }
    }

    /// Stores `value` as `item` unless a value is stored already (atomically, under the lock, so
    /// processes starting together agree on one); returns the value stored now.
    public func setIfAbsent(_ item: KeychainItem, _ value: SecureBytes) throws(KeychainError) -> SecureBytes {
        var stored = value
        try modify { items in
            if let existing = items.values[item.rawValue] {
                stored = existing
            } else {
                items.values[item.rawValue] = value
            }
        }
        return stored
    }

    /// Removes `item` (nothing happens when it is not stored).
    public func remove(_ item: KeychainItem) throws(KeychainError) {
        try modify { $0.values[item.rawValue] = nil }
    }

    /// The names of the stored items (names are not secret).
    public func itemNames() throws(KeychainError) -> [String] {
        try readItems().values.keys.sorted()
    }

    // MARK: - File

    private var lockPath: String { "\(path).lock" }

    private func readItems() throws(KeychainError) -> KeychainItems {
        try readFile().open(keys: keys, path: path)
    }

    /// The current file, checked to be the keychain this store was opened on.
    private func readFile() throws(KeychainError) -> KeychainFile {
        guard let bytes = try Self.readFile(path) else {
            throw .corrupted(path: path, reason: "the keychain file was removed")
        }
        let file = try KeychainFile(parsing: bytes, path: path)
        guard file.source == source, file.keyCheck == keys.check else {
            throw .corrupted(path: path, reason: "the keychain was replaced by another one")
        }
        return file
    }

    private func modify(_ change: (inout KeychainItems) -> Void) throws(KeychainError) {
        let lock: FileLock
        do { lock = try FileLock(path: lockPath) } catch { throw .system(error) }
        defer { lock.unlock() }
        var items = try readItems()
        change(&items)
        try write(items)
    }

    private func createIfMissing() throws(KeychainError) {
        let lock: FileLock
        do { lock = try FileLock(path: lockPath) } catch { throw .system(error) }
        defer { lock.unlock() }
        // Another process may have created it while we derived the key.
        if try Self.readFile(path) != nil {
            _ = try readItems()
            return
        }
        try write(KeychainItems())
    }

    private func write(_ items: KeychainItems) throws(KeychainError) {
        var file = KeychainFile(source: source, salt: salt, limits: limits, keys: keys)
        try file.seal(items, keys: keys)
        do { try AtomicFile.write(file.bytes, to: path, mode: 0o600) } catch { throw .system(error) }
    }

    private static func readFile(_ path: String) throws(KeychainError) -> [UInt8]? {
        do { return try AtomicFile.read(path) } catch { throw .system(error) }
    }

    private static func derive(
        _ passphrase: SecureBytes, salt: [UInt8], limits: PasswordHash.Limits
    ) throws(KeychainError) -> SecureBytes {
        do {
            return try PasswordHash.deriveKey(
                passphrase: passphrase, salt: salt, limits: limits, outputByteCount: masterKeyCount)
        } catch {
            throw .crypto(error as? CryptoError ?? .passwordHashFailed)
        }
    }
}
