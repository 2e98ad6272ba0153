public import Foundation
internal import CSodium

/// AEAD with XChaCha20-Poly1305-IETF (`crypto_aead_xchacha20poly1305_ietf`); ciphertext = encrypted text | tag.
public enum XChaCha20Poly1305 {
    /// Key length in bytes.
    public static let keyCount = Int(crypto_aead_xchacha20poly1305_ietf_KEYBYTES)
    /// Nonce length in bytes; 24 bytes, so random nonces are safe.
    public static let nonceCount = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    /// Authentication tag length in bytes.
    public static let tagCount = Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)

    /// A fresh random 24-byte nonce.
    public static func randomNonce() -> [UInt8] {
        Random.bytes(count: nonceCount)
    }

    /// Encrypts `plaintext` and authenticates it with `associatedData`, returning `plaintext.count + tagCount` bytes.
    public static func seal(
        _ plaintext: some ContiguousBytes, key: SecureBytes, nonce: [UInt8],
        associatedData: some ContiguousBytes
    ) throws -> [UInt8] {
        try check(key: key, nonce: nonce)
        return try plaintext.withUnsafeBytes { input in
            try associatedData.withUnsafeBytes { ad in
                try [UInt8](unsafeUninitializedCapacity: input.count + tagCount) { out, initialized in
                    var written: UInt64 = 0
                    let status = key.withUnsafeBytes { keyBytes in
                        crypto_aead_xchacha20poly1305_ietf_encrypt(
                            out.baseAddress!, &written, input.bytes, UInt64(input.count), ad.bytes,
                            UInt64(ad.count),
                            nil, nonce, keyBytes.bytes!)
                    }
                    guard status == 0 else {
                        throw CryptoError.invalidParameters("message too long for AEAD")
                    }
                    initialized = Int(written)
                }
            }
        }
    }

    /// Verifies and decrypts straight into guarded memory; throws `authenticationFailed` if anything was altered.
    public static func open(
        _ ciphertext: some ContiguousBytes, key: SecureBytes, nonce: [UInt8],
        associatedData: some ContiguousBytes
    ) throws -> SecureBytes {
        try check(key: key, nonce: nonce)
        return try ciphertext.withUnsafeBytes { input in
            guard input.count >= tagCount else { throw CryptoError.authenticationFailed }
            return try associatedData.withUnsafeBytes { ad in
                // SecureBytes' initializer wipes and frees the buffer if this throws, so a failed open
                // leaves no partial plaintext behind (libsodium also zeroes it on failure).
                try SecureBytes(count: input.count - tagCount) { out in
                    let status = key.withUnsafeBytes { keyBytes in
                        withNonNullOutput(out) { output in
                            crypto_aead_xchacha20poly1305_ietf_decrypt(
                                output, nil, nil, input.bytes!, UInt64(input.count), ad.bytes,
                                UInt64(ad.count),
                                nonce, keyBytes.bytes!)
                        }
                    }
                    guard status == 0 else { throw CryptoError.authenticationFailed }
                }
            }
        }
    }

    private static func check(key: SecureBytes, nonce: [UInt8]) throws {
        try Sodium.initialize()
        try CryptoError.checkKey(key.count, expected: keyCount)
        try CryptoError.checkNonce(nonce.count, expected: nonceCount)
    }
}
