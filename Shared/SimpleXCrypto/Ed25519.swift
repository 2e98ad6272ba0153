public import Foundation
internal import CSodium

/// Ed25519 signatures (`crypto_sign_ed25519`), detached.
public enum Ed25519 {
    /// Public key length in bytes.
    public static let publicKeyCount = Int(crypto_sign_ed25519_PUBLICKEYBYTES)
    /// Secret key length in bytes (seed followed by public key, libsodium's layout).
    public static let secretKeyCount = Int(crypto_sign_ed25519_SECRETKEYBYTES)
    /// Seed length in bytes.
    public static let seedCount = Int(crypto_sign_ed25519_SEEDBYTES)
    /// Signature length in bytes.
    public static let signatureCount = Int(crypto_sign_ed25519_BYTES)

    /// An Ed25519 key pair; the secret key stays in guarded memory.
    public struct KeyPair: Sendable {
        /// The 32-byte public key.
        public let publicKey: [UInt8]
        /// The 64-byte secret key.
        public let secretKey: SecureBytes

        /// Pairs a public key with its secret key, without checking that they match.
        public init(publicKey: [UInt8], secretKey: SecureBytes) {
            self.publicKey = publicKey
            self.secretKey = secretKey
        }
    }

    /// Generates a fresh random key pair.
    public static func generateKeyPair() -> KeyPair {
        do {
            return try keyPair(fromSeed: SecureBytes.random(count: seedCount))
        } catch {
            preconditionFailure("crypto_sign_seed_keypair failed on a 32-byte seed: \(error)")
        }
    }

    /// Derives the key pair for a 32-byte seed (RFC 8032's "private key").
    public static func keyPair(fromSeed seed: SecureBytes) throws -> KeyPair {
        try Sodium.initialize()
        try CryptoError.checkKey(seed.count, expected: seedCount)
        var publicKey = [UInt8](repeating: 0, count: publicKeyCount)
        var status: Int32 = 0
        let secretKey = SecureBytes(count: secretKeyCount) { secret in
            seed.withUnsafeBytes { seedBytes in
                status = crypto_sign_ed25519_seed_keypair(&publicKey, secret.bytes!, seedBytes.bytes!)
            }
        }
        guard status == 0 else { throw CryptoError.invalidParameters("seed gives no key pair") }
        return KeyPair(publicKey: publicKey, secretKey: secretKey)
    }

    /// Signs `message`, returning the 64-byte detached signature.
    public static func sign(_ message: some ContiguousBytes, secretKey: SecureBytes) throws -> [UInt8] {
        try Sodium.initialize()
        try CryptoError.checkKey(secretKey.count, expected: secretKeyCount)
        return message.withUnsafeBytes { messageBytes in
            secretKey.withUnsafeBytes { secret in
                [UInt8](unsafeUninitializedCapacity: signatureCount) { out, initialized in
                    // Cannot fail for a well-sized key: libsodium's signer always returns 0.
                    _ = crypto_sign_ed25519_detached(
                        out.baseAddress!, nil, messageBytes.bytes, UInt64(messageBytes.count), secret.bytes!)
                    initialized = signatureCount
                }
            }
        }
    }

    /// True when `signature` is a valid signature of `message` by `publicKey`; wrong sizes are simply invalid.
    public static func isValidSignature(
        _ signature: [UInt8], for message: some ContiguousBytes, publicKey: [UInt8]
    ) -> Bool {
        // The Bool form is for callers that only branch on validity; `verify` says why it failed.
        (try? verify(signature, for: message, publicKey: publicKey)) != nil
    }

    /// Like `isValidSignature`, but says why: `invalidSignatureSize`, `invalidKeySize` or `invalidSignature`.
    public static func verify(
        _ signature: [UInt8], for message: some ContiguousBytes, publicKey: [UInt8]
    ) throws {
        try Sodium.initialize()
        guard signature.count == signatureCount else { throw CryptoError.invalidSignatureSize }
        try CryptoError.checkKey(publicKey.count, expected: publicKeyCount)
        let status = message.withUnsafeBytes { messageBytes in
            crypto_sign_ed25519_verify_detached(
                signature, messageBytes.bytes, UInt64(messageBytes.count), publicKey)
        }
        guard status == 0 else { throw CryptoError.invalidSignature }
    }
}
