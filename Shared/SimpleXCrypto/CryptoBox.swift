public import Foundation
internal import CSodium

/// Public-key authenticated encryption, Curve25519-XSalsa20-Poly1305 (`crypto_box_easy`), with X25519 keys.
public enum CryptoBox {
    /// Public key length in bytes.
    public static let publicKeyCount = Int(crypto_box_PUBLICKEYBYTES)
    /// Private key length in bytes.
    public static let privateKeyCount = Int(crypto_box_SECRETKEYBYTES)
    /// Nonce length in bytes.
    public static let nonceCount = Int(crypto_box_NONCEBYTES)
    /// Authentication tag length in bytes; a box is this much longer than its message.
    public static let macCount = Int(crypto_box_MACBYTES)

    /// A precomputed key for one (public key, private key) pair (`crypto_box_beforenm`), to cache per peer.
    public struct SharedKey: Sendable {
        /// The 32-byte precomputed key.
        let key: SecureBytes

        /// Precomputes the key; throws `invalidPublicKey` for a low-order public key.
        public init(publicKey: [UInt8], privateKey: SecureBytes) throws {
            try Sodium.initialize()
            try CryptoError.checkKey(publicKey.count, expected: publicKeyCount)
            try CryptoError.checkKey(privateKey.count, expected: privateKeyCount)
            var status: Int32 = 0
            key = SecureBytes(count: Int(crypto_box_BEFORENMBYTES)) { out in
                privateKey.withUnsafeBytes { secret in
                    status = crypto_box_beforenm(out.bytes!, publicKey, secret.bytes!)
                }
            }
            guard status == 0 else { throw CryptoError.invalidPublicKey }
        }

        /// A key precomputed earlier and kept (the relay stores each queue's): exactly 32 bytes.
        public init(precomputed: some ContiguousBytes) throws {
            try Sodium.initialize()
            let copy = SecureBytes(copying: precomputed)
            try CryptoError.checkKey(copy.count, expected: Int(crypto_box_BEFORENMBYTES))
            key = copy
        }

        /// The 32 precomputed bytes, for keeping the key; a secret.
        public var precomputed: SecureBytes { key }

        /// Encrypts `message` for the peer, returning `macCount + message.count` bytes.
        public func seal(_ message: some ContiguousBytes, nonce: [UInt8]) throws -> [UInt8] {
            try CryptoError.checkNonce(nonce.count, expected: nonceCount)
            return try message.withUnsafeBytes { input in
                try [UInt8](unsafeUninitializedCapacity: input.count + macCount) { out, initialized in
                    let status = key.withUnsafeBytes { keyBytes in
                        crypto_box_easy_afternm(
                            out.baseAddress!, input.bytes, UInt64(input.count), nonce, keyBytes.bytes!)
                    }
                    guard status == 0 else {
                        throw CryptoError.invalidParameters("message too long for crypto_box")
                    }
                    initialized = input.count + macCount
                }
            }
        }

        /// Verifies and decrypts a box from the peer; throws `authenticationFailed` if it does not verify.
        public func open(_ box: some ContiguousBytes, nonce: [UInt8]) throws -> [UInt8] {
            try CryptoError.checkNonce(nonce.count, expected: nonceCount)
            return try box.withUnsafeBytes { input in
                guard input.count >= macCount else { throw CryptoError.authenticationFailed }
                let count = input.count - macCount
                return try [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
                    let status = key.withUnsafeBytes { keyBytes in
                        withNonNullOutput(UnsafeMutableRawBufferPointer(out)) { output in
                            crypto_box_open_easy_afternm(
                                output, input.bytes!, UInt64(input.count), nonce, keyBytes.bytes!)
                        }
                    }
                    guard status == 0 else { throw CryptoError.authenticationFailed }
                    initialized = count
                }
            }
        }
    }

    /// Encrypts `message` from the sender's private key to the recipient's public key.
    public static func seal(
        _ message: some ContiguousBytes, nonce: [UInt8], recipientPublicKey: [UInt8],
        senderPrivateKey: SecureBytes
    ) throws -> [UInt8] {
        try CryptoError.checkNonce(nonce.count, expected: nonceCount)
        return try SharedKey(publicKey: recipientPublicKey, privateKey: senderPrivateKey).seal(
            message, nonce: nonce)
    }

    /// Verifies and decrypts a box from the sender's public key with the recipient's private key.
    public static func open(
        _ box: some ContiguousBytes, nonce: [UInt8], senderPublicKey: [UInt8],
        recipientPrivateKey: SecureBytes
    ) throws -> [UInt8] {
        try CryptoError.checkNonce(nonce.count, expected: nonceCount)
        return try SharedKey(publicKey: senderPublicKey, privateKey: recipientPrivateKey).open(
            box, nonce: nonce)
    }
}
