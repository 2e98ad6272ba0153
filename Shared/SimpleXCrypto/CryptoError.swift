/// A failure in a libsodium-backed operation; every wrong size or failed check lands here, never in a crash.
public enum CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `sodium_init` failed, so no libsodium function can be used.
    case sodiumInitFailed
    /// A key had the wrong number of bytes.
    case invalidKeySize(expected: Int, actual: Int)
    /// A nonce had the wrong number of bytes.
    case invalidNonceSize(expected: Int, actual: Int)
    /// A signature had the wrong number of bytes.
    case invalidSignatureSize
    /// A signature did not verify for the message and public key.
    case invalidSignature
    /// Opening an AEAD, secretbox or box failed: wrong key, wrong nonce or tampered data.
    case authenticationFailed
    /// A public key was unusable, e.g. an X25519 low-order point giving an all-zero shared secret.
    case invalidPublicKey
    /// Argon2id failed: out of memory or limits outside what libsodium accepts.
    case passwordHashFailed
    /// A parameter other than a key, nonce or signature was out of range; the text says which.
    case invalidParameters(String)

    public var description: String {
        switch self {
        case .sodiumInitFailed:
            return "libsodium failed to initialize (sodium_init returned -1)"
        case .invalidKeySize(let expected, let actual):
            return "invalid key size: expected \(expected) bytes, got \(actual)"
        case .invalidNonceSize(let expected, let actual):
            return "invalid nonce size: expected \(expected) bytes, got \(actual)"
        case .invalidSignatureSize:
            return "invalid signature size"
        case .invalidSignature:
            return "signature verification failed"
        case .authenticationFailed:
            return "authentication failed: wrong key or nonce, or the data was tampered with"
        case .invalidPublicKey:
            return "invalid public key (low-order point or malformed key)"
        case .passwordHashFailed:
            return "password hashing failed: out of memory or invalid limits"
        case .invalidParameters(let detail):
            return "invalid parameters: \(detail)"
        }
    }
}

extension CryptoError {
    /// Throws `invalidKeySize` unless `actual == expected`.
    static func checkKey(_ actual: Int, expected: Int) throws(CryptoError) {
        guard actual == expected else { throw CryptoError.invalidKeySize(expected: expected, actual: actual) }
    }

    /// Throws `invalidNonceSize` unless `actual == expected`.
    static func checkNonce(_ actual: Int, expected: Int) throws(CryptoError) {
        guard actual == expected else {
            throw CryptoError.invalidNonceSize(expected: expected, actual: actual)
        }
    }
}
