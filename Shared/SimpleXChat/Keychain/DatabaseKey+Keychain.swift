import SimpleXCrypto
import SimpleXSystem

extension DatabaseKey {
    /// The databases' key kept in the keychain as `databasePassword`: 32 random bytes made on the
    /// first run (iOS: `initialRandomDBPassphrase`), the same for every process of the group.
    public static func load(from keychain: KeychainStore) throws(KeychainError) -> DatabaseKey {
        var key = try loadKey(from: keychain)
        key.upgradesPlainDatabases = try keychain.get(.databasesEncrypted) == nil
        return key
    }

    /// Records that the group's databases are encrypted (after `ChatController.encryptDatabases`):
    /// keys loaded from then on refuse a plain database instead of encrypting it.
    public static func recordDatabasesEncrypted(in keychain: KeychainStore) throws(KeychainError) {
        guard try keychain.get(.databasesEncrypted) == nil else { return }  // no rewrite each start
        _ = try keychain.setIfAbsent(.databasesEncrypted, SecureBytes(copying: [UInt8(1)]))
    }

    private static func loadKey(from keychain: KeychainStore) throws(KeychainError) -> DatabaseKey {
        if let stored = try keychain.get(.databasePassword) {
            guard let key = try? DatabaseKey(stored) else {
                throw .corrupted(
                    path: keychain.path,
                    reason: "its databasePassword has \(stored.count) bytes, not \(Self.count)")
            }
            return key
        }
        // A passphrase not kept here (storeDBPassphrase off): a random key would open nothing.
        let groupDirectory = String(keychain.path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/"))
        if DatabasePassphrase.isSet(groupDirectory: groupDirectory) {
            throw .databasePassphraseRequired(path: keychain.path)
        }
        // Processes starting together on a new group agree on the first key stored.
        let stored = try keychain.setIfAbsent(.databasePassword, DatabaseKey.random().bytes)
        guard let key = try? DatabaseKey(stored) else {
            throw .corrupted(
                path: keychain.path, reason: "its databasePassword has \(stored.count) bytes, not \(count)")
        }
        return key
    }

    /// The databases' key derived from a passphrase the user types (Argon2id), when none is kept
    /// in the keychain. The salt and limits are kept in the clear beside the databases
    /// (`DatabaseKeyParameters`, made with `limits` on first use), with a check value that tells a
    /// wrong passphrase (`.wrongPassphrase`, nothing changed) from a damaged database.
    public static func derive(
        passphrase: SecureBytes, parametersPath: String, limits: PasswordHash.Limits = .moderate
    ) throws(KeychainError) -> DatabaseKey {
        if let bytes = try readParameters(parametersPath) {
            let parameters = try DatabaseKeyParameters(parsing: bytes, path: parametersPath)
            let key = try deriveKey(passphrase, salt: parameters.salt, limits: parameters.limits)
            guard sodiumEqual(parameters.check, DatabaseKeyParameters.check(key)) else {
                throw .wrongPassphrase(path: parametersPath)
            }
            return key
        }
        let salt = Random.bytes(count: PasswordHash.saltCount)
        let key = try deriveKey(passphrase, salt: salt, limits: limits)
        let parameters = DatabaseKeyParameters(
            salt: salt, limits: limits, check: DatabaseKeyParameters.check(key))
        do { try AtomicFile.write(parameters.bytes, to: parametersPath, mode: 0o600) } catch {
            throw .system(error)
        }
        return key
    }

    private static func readParameters(_ path: String) throws(KeychainError) -> [UInt8]? {
        do { return try AtomicFile.read(path) } catch { throw .system(error) }
    }

    private static func deriveKey(
        _ passphrase: SecureBytes, salt: [UInt8], limits: PasswordHash.Limits
    ) throws(KeychainError) -> DatabaseKey {
        do {
            let bytes = try PasswordHash.deriveKey(
                passphrase: passphrase, salt: salt, limits: limits, outputByteCount: count)
            return try DatabaseKey(bytes)
        } catch {
            throw .crypto(error as? CryptoError ?? .passwordHashFailed)
        }
    }

    private static func sodiumEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        SecureBytes(copying: a) == SecureBytes(copying: b)  // constant time (sodium_memcmp)
    }
}

/// The clear parameters of a passphrase-derived database key, in `simplex_v1_db.kdf`:
///
///     magic "SXDK" | version 1 | salt (16) | opsLimit (u64 LE) | memLimit (u64 LE) | check (32)
///
/// The check is HMAC-SHA256 of a fixed label under the derived key: it reveals nothing of the
/// key, and tells a wrong passphrase apart before any database is touched.
struct DatabaseKeyParameters {
    static let magic: [UInt8] = Array("SXDK".utf8)
    static let checkLabel: [UInt8] = Array("simplex database key check".utf8)

    var salt: [UInt8]
    var limits: PasswordHash.Limits
    var check: [UInt8]

    init(salt: [UInt8], limits: PasswordHash.Limits, check: [UInt8]) {
        self.salt = salt
        self.limits = limits
        self.check = check
    }

    init(parsing bytes: [UInt8], path: String) throws(KeychainError) {
        let saltCount = PasswordHash.saltCount
        guard bytes.count == 5 + saltCount + 16 + 32, Array(bytes[0..<4]) == Self.magic, bytes[4] == 1 else {
            throw .corrupted(path: path, reason: "not a database key parameters file")
        }
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * $1) } }
        salt = Array(bytes[5..<5 + saltCount])
        limits = PasswordHash.Limits(opsLimit: u64(5 + saltCount), memLimit: u64(13 + saltCount))
        check = Array(bytes[(21 + saltCount)...])
    }

    var bytes: [UInt8] {
        func u64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        return Self.magic + [1] + salt + u64(limits.opsLimit) + u64(limits.memLimit) + check
    }

    static func check(_ key: DatabaseKey) -> [UInt8] {
        key.bytes.withUnsafeBytes { HMACSHA256.authenticate(checkLabel, key: $0) }
    }
}
