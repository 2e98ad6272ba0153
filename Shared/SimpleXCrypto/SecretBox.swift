public import Foundation
internal import CSodium

/// Symmetric authenticated encryption, XSalsa20-Poly1305 (`crypto_secretbox_easy`); box = MAC | ciphertext.
public enum SecretBox {
    /// Key length in bytes.
    public static let keyCount = Int(crypto_secretbox_KEYBYTES)
    /// Nonce length in bytes.
    public static let nonceCount = Int(crypto_secretbox_NONCEBYTES)
    /// Authentication tag length in bytes; a box is this much longer than its message.
    public static let macCount = Int(crypto_secretbox_MACBYTES)

    /// Encrypts and authenticates `message`, returning `macCount + message.count` bytes.
    public static func seal(_ message: some ContiguousBytes, nonce: [UInt8], key: SecureBytes) throws
        -> [UInt8]
    {
        try check(nonce: nonce, key: key)
        return try message.withUnsafeBytes { input in
            try [UInt8](unsafeUninitializedCapacity: input.count + macCount) { out, initialized in
                try sealUnchecked(input, nonce: nonce, key: key, into: UnsafeMutableRawBufferPointer(out))
                initialized = input.count + macCount
            }
        }
    }

    /// Allocation-free `seal` into `output` (at least `macCount + message.count` bytes); returns the bytes written.
    @discardableResult
    public static func seal(
        _ message: some ContiguousBytes, nonce: [UInt8], key: SecureBytes,
        into output: UnsafeMutableRawBufferPointer
    ) throws -> Int {
        try check(nonce: nonce, key: key)
        return try message.withUnsafeBytes { input in
            guard output.count >= input.count + macCount else {
                throw CryptoError.invalidParameters(
                    "secretbox output needs \(input.count + macCount) bytes, got \(output.count)")
            }
            try sealUnchecked(input, nonce: nonce, key: key, into: output)
            return input.count + macCount
        }
    }

    /// Verifies and decrypts `box`; throws `authenticationFailed` for a wrong key or nonce or tampered data.
    public static func open(_ box: some ContiguousBytes, nonce: [UInt8], key: SecureBytes) throws -> [UInt8] {
        try check(nonce: nonce, key: key)
        return try box.withUnsafeBytes { input in
            // A box shorter than its tag cannot be authentic.
            guard input.count >= macCount else { throw CryptoError.authenticationFailed }
            let count = input.count - macCount
            return try [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
                try openUnchecked(input, nonce: nonce, key: key, into: UnsafeMutableRawBufferPointer(out))
                initialized = count
            }
        }
    }

    /// Allocation-free `open` into `output` (at least `box.count - macCount` bytes); returns the bytes written.
    @discardableResult
    public static func open(
        _ box: some ContiguousBytes, nonce: [UInt8], key: SecureBytes,
        into output: UnsafeMutableRawBufferPointer
    ) throws -> Int {
        try check(nonce: nonce, key: key)
        return try box.withUnsafeBytes { input in
            guard input.count >= macCount else { throw CryptoError.authenticationFailed }
            guard output.count >= input.count - macCount else {
                throw CryptoError.invalidParameters(
                    "secretbox output needs \(input.count - macCount) bytes, got \(output.count)")
            }
            try openUnchecked(input, nonce: nonce, key: key, into: output)
            return input.count - macCount
        }
    }

    private static func check(nonce: [UInt8], key: SecureBytes) throws {
        try Sodium.initialize()
        try CryptoError.checkKey(key.count, expected: keyCount)
        try CryptoError.checkNonce(nonce.count, expected: nonceCount)
    }

    private static func sealUnchecked(
        _ input: UnsafeRawBufferPointer, nonce: [UInt8], key: SecureBytes,
        into output: UnsafeMutableRawBufferPointer
    ) throws {
        let status = key.withUnsafeBytes { keyBytes in
            crypto_secretbox_easy(output.bytes!, input.bytes, UInt64(input.count), nonce, keyBytes.bytes!)
        }
        guard status == 0 else { throw CryptoError.invalidParameters("message too long for secretbox") }
    }

    private static func openUnchecked(
        _ input: UnsafeRawBufferPointer, nonce: [UInt8], key: SecureBytes,
        into output: UnsafeMutableRawBufferPointer
    ) throws {
        let status = key.withUnsafeBytes { keyBytes in
            withNonNullOutput(output) { out in
                crypto_secretbox_open_easy(out, input.bytes!, UInt64(input.count), nonce, keyBytes.bytes!)
            }
        }
        guard status == 0 else { throw CryptoError.authenticationFailed }
    }
}
