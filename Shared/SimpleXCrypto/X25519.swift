internal import CSodium

/// X25519 Diffie-Hellman (`crypto_scalarmult_curve25519`); the same keys work with `CryptoBox`.
public enum X25519 {
    /// Public key length in bytes.
    public static let publicKeyCount = Int(crypto_scalarmult_curve25519_BYTES)
    /// Private key (scalar) length in bytes.
    public static let privateKeyCount = Int(crypto_scalarmult_curve25519_SCALARBYTES)
    /// Shared secret length in bytes.
    public static let sharedSecretCount = Int(crypto_scalarmult_curve25519_BYTES)

    /// An X25519 key pair; the private key stays in guarded memory.
    public struct KeyPair: Sendable {
        /// The 32-byte public key.
        public let publicKey: [UInt8]
        /// The 32-byte private scalar.
        public let privateKey: SecureBytes

        /// Pairs a public key with its private key, without checking that they match.
        public init(publicKey: [UInt8], privateKey: SecureBytes) {
            self.publicKey = publicKey
            self.privateKey = privateKey
        }
    }

    /// Generates a fresh random key pair.
    public static func generateKeyPair() -> KeyPair {
        let privateKey = SecureBytes.random(count: privateKeyCount)
        do {
            return try keyPair(fromPrivateKey: privateKey)
        } catch {
            // A 32-byte scalar always has a public key: scalarmult_base clamps it, so this cannot fail.
            preconditionFailure("crypto_scalarmult_base failed on a random scalar: \(error)")
        }
    }

    /// Recomputes the public key for a 32-byte private key.
    public static func keyPair(fromPrivateKey privateKey: SecureBytes) throws -> KeyPair {
        try Sodium.initialize()
        try CryptoError.checkKey(privateKey.count, expected: privateKeyCount)
        var status: Int32 = 0
        let publicKey = [UInt8](unsafeUninitializedCapacity: publicKeyCount) { out, initialized in
            privateKey.withUnsafeBytes { scalar in
                status = crypto_scalarmult_curve25519_base(out.baseAddress!, scalar.bytes!)
            }
            initialized = publicKeyCount
        }
        guard status == 0 else { throw CryptoError.invalidParameters("private key gives no public key") }
        return KeyPair(publicKey: publicKey, privateKey: privateKey)
    }

    /// The raw shared secret between `privateKey` and `publicKey`; hash it (e.g. HKDF) before use as a key.
    ///
    /// Throws `invalidPublicKey` for low-order points, whose result would be all zeros.
    public static func sharedSecret(privateKey: SecureBytes, publicKey: [UInt8]) throws -> SecureBytes {
        try Sodium.initialize()
        try CryptoError.checkKey(privateKey.count, expected: privateKeyCount)
        try CryptoError.checkKey(publicKey.count, expected: publicKeyCount)
        var status: Int32 = 0
        let secret = SecureBytes(count: sharedSecretCount) { out in
            privateKey.withUnsafeBytes { scalar in
                publicKey.withUnsafeBytes { point in
                    // Returns -1 when the result is all zeros (a low-order public key).
                    status = crypto_scalarmult_curve25519(out.bytes!, scalar.bytes!, point.bytes!)
                }
            }
        }
        guard status == 0 else { throw CryptoError.invalidPublicKey }
        return secret
    }
}
