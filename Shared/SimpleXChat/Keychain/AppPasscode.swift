import Foundation
import SimpleXCrypto

/// SimpleX Lock's passcodes (iOS `appPassword` and `selfDestructPassword`), each kept in the
/// keychain as an Argon2id verifier — never the passcode itself: a version byte, the limits
/// (passes and memory, little-endian), the 16-byte salt and the 32-byte hash. Whoever reads the
/// keychain learns only what a brute-force search of Argon2id would tell them.
public enum AppPasscode {
    /// The shortest passcode accepted (iOS: 4 digits).
    public static let minimumLength = 4
    /// The longest (iOS: 16 digits; a terminal can type more).
    public static let maximumLength = 64

    /// What a passcode typed at the lock screen opens.
    public enum Verdict: Equatable, Sendable {
        /// The app passcode: the client unlocks.
        case unlock
        /// The self-destruct passcode: everything is erased.
        case selfDestruct
        case wrong
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case length(Int)
        /// The app and self-destruct passcodes must differ (else one would never be reached).
        case sameAsOther
        case notSet
        case keychain(KeychainError)
        case hash
        /// The current passcode, asked before SimpleX Lock goes off, was not typed right.
        case wrongPasscode
        /// GroupDefaults could not be written.
        case settings(String)

        public var description: String {
            switch self {
            case .length(let count):
                return "a passcode has \(AppPasscode.minimumLength) to \(AppPasscode.maximumLength) characters, not \(count)"
            case .sameAsOther: return "the self-destruct passcode must differ from the app passcode"
            case .notSet: return "set the app passcode (SimpleX Lock) first"
            case .keychain(let error): return "\(error)"
            case .hash: return "the passcode could not be hashed (out of memory?)"
            case .wrongPasscode: return "wrong passcode: SimpleX Lock stays on"
            case .settings(let reason): return "the settings could not be saved: \(reason)"
            }
        }
    }

    private static let version: UInt8 = 1
    private static let hashCount = 32

    /// Stores `passcode` as `item` (`.appPassword` or `.selfDestructPassword`), replacing the one
    /// there. The self-destruct passcode needs an app passcode and must differ from it; a new app
    /// passcode must differ from the self-destruct one.
    public static func set(
        _ passcode: String, as item: KeychainItem, in keychain: KeychainStore,
        limits: PasswordHash.Limits = .interactive
    ) throws(Failure) {
        let count = passcode.count
        guard (minimumLength...maximumLength).contains(count) else { throw .length(count) }
        let other: KeychainItem = item == .appPassword ? .selfDestructPassword : .appPassword
        if item == .selfDestructPassword, try !isSet(.appPassword, in: keychain) { throw .notSet }
        if try matches(passcode, item: other, in: keychain) { throw .sameAsOther }
        let salt = SecureBytes.random(count: PasswordHash.saltCount).withUnsafeBytes { Array($0) }
        let hash = try derive(passcode, salt: salt, limits: limits)
        var record: [UInt8] = [version]
        withUnsafeBytes(of: limits.opsLimit.littleEndian) { record += $0 }
        withUnsafeBytes(of: limits.memLimit.littleEndian) { record += $0 }
        record += salt
        hash.withUnsafeBytes { record += $0 }
        defer { record.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) } }
        do { try keychain.set(item, SecureBytes(copying: record)) } catch { throw .keychain(error) }
    }

    /// Whether a passcode is stored as `item`.
    public static func isSet(_ item: KeychainItem, in keychain: KeychainStore) throws(Failure) -> Bool {
        do { return try keychain.get(item) != nil } catch { throw .keychain(error) }
    }

    /// Removes `item` (turning SimpleX Lock off removes both: a self-destruct passcode without a
    /// lock screen to type it at means nothing).
    public static func remove(_ item: KeychainItem, in keychain: KeychainStore) throws(Failure) {
        do {
            try keychain.remove(item)
            if item == .appPassword { try keychain.remove(.selfDestructPassword) }
        } catch { throw .keychain(error) }
    }

    /// What `passcode` opens. The self-destruct passcode counts only while `selfDestructEnabled`
    /// (GroupDefaults `selfDestruct`).
    public static func check(
        _ passcode: String, in keychain: KeychainStore, selfDestructEnabled: Bool
    ) throws(Failure) -> Verdict {
        if try matches(passcode, item: .appPassword, in: keychain) { return .unlock }
        if selfDestructEnabled, try matches(passcode, item: .selfDestructPassword, in: keychain) { return .selfDestruct }
        return .wrong
    }

    /// Whether `passcode` is the one stored as `item` (false when none is, or the record is not one of ours).
    static func matches(_ passcode: String, item: KeychainItem, in keychain: KeychainStore) throws(Failure) -> Bool {
        let stored: SecureBytes?
        do { stored = try keychain.get(item) } catch { throw .keychain(error) }
        guard let stored else { return false }
        let header = 1 + 8 + 8
        let record = stored.withUnsafeBytes { Array($0) }
        guard record.count == header + PasswordHash.saltCount + hashCount, record[0] == version else { return false }
        let ops = record[1..<9].withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        let memory = record[9..<17].withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        let salt = Array(record[header..<header + PasswordHash.saltCount])
        let expected = SecureBytes(copying: Array(record[(header + PasswordHash.saltCount)...]))
        let typed = try derive(passcode, salt: salt, limits: PasswordHash.Limits(opsLimit: ops, memLimit: memory))
        return typed == expected
    }

    private static func derive(_ passcode: String, salt: [UInt8], limits: PasswordHash.Limits) throws(Failure) -> SecureBytes {
        do {
            return try PasswordHash.deriveKey(
                passphrase: SecureBytes(copying: Array(passcode.utf8)), salt: salt, limits: limits, outputByteCount: hashCount)
        } catch { throw .hash }
    }
}
