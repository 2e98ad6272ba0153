public import Foundation
internal import CSodium

/// Key derivation from a passphrase with Argon2id v1.3 (`crypto_pwhash`, `ALG_ARGON2ID13`).
public enum PasswordHash {
    /// Salt length in bytes.
    public static let saltCount = Int(crypto_pwhash_argon2id_SALTBYTES)
    /// Smallest key `deriveKey` produces.
    public static let minimumOutputByteCount = Int(crypto_pwhash_argon2id_BYTES_MIN)

    /// Argon2id cost: passes over memory and memory in bytes. Stored with a derived key, hence Codable.
    public struct Limits: Sendable, Equatable, Codable {
        /// Number of passes (libsodium's opslimit).
        public var opsLimit: UInt64
        /// Memory in bytes (libsodium's memlimit).
        public var memLimit: UInt64

        /// Limits with explicit costs.
        public init(opsLimit: UInt64, memLimit: UInt64) {
            self.opsLimit = opsLimit
            self.memLimit = memLimit
        }

        /// libsodium's interactive limits: 2 passes, 64 MiB.
        public static let interactive = Limits(
            opsLimit: UInt64(crypto_pwhash_argon2id_opslimit_interactive()),
            memLimit: UInt64(crypto_pwhash_argon2id_memlimit_interactive()))
        /// libsodium's moderate limits: 3 passes, 256 MiB.
        public static let moderate = Limits(
            opsLimit: UInt64(crypto_pwhash_argon2id_opslimit_moderate()),
            memLimit: UInt64(crypto_pwhash_argon2id_memlimit_moderate()))
        /// libsodium's sensitive limits: 4 passes, 1 GiB.
        public static let sensitive = Limits(
            opsLimit: UInt64(crypto_pwhash_argon2id_opslimit_sensitive()),
            memLimit: UInt64(crypto_pwhash_argon2id_memlimit_sensitive()))
        /// The smallest limits libsodium accepts (1 pass, 8 KiB): for tests only, offers no protection.
        public static let minimum = Limits(
            opsLimit: UInt64(crypto_pwhash_argon2id_opslimit_min()),
            memLimit: UInt64(crypto_pwhash_argon2id_memlimit_min()))
    }

    /// Derives `outputByteCount` bytes from `passphrase` and a 16-byte `salt`.
    public static func deriveKey(
        passphrase: some ContiguousBytes, salt: [UInt8], limits: Limits, outputByteCount: Int
    ) throws -> SecureBytes {
        try Sodium.initialize()
        guard salt.count == saltCount else {
            throw CryptoError.invalidParameters("Argon2id salt must be \(saltCount) bytes, got \(salt.count)")
        }
        guard outputByteCount >= minimumOutputByteCount else {
            throw CryptoError.invalidParameters(
                "Argon2id output must be at least \(minimumOutputByteCount) bytes, got \(outputByteCount)")
        }
        guard let memLimit = Int(exactly: limits.memLimit) else { throw CryptoError.passwordHashFailed }
        return try passphrase.withUnsafeBytes { password in
            try SecureBytes(count: outputByteCount) { out in
                let status = withNonNullInput(password) { passwordStart in
                    // crypto_pwhash takes the password as `const char *`.
                    passwordStart.withMemoryRebound(to: CChar.self, capacity: max(1, password.count)) {
                        crypto_pwhash(
                            out.bytes!, UInt64(outputByteCount), $0, UInt64(password.count),
                            salt, limits.opsLimit, memLimit, crypto_pwhash_ALG_ARGON2ID13)
                    }
                }
                // -1 with errno ENOMEM (allocation) or EINVAL (limits out of range).
                guard status == 0 else { throw CryptoError.passwordHashFailed }
            }
        }
    }
}
