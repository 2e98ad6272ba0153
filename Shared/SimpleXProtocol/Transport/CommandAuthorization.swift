public import SimpleXCrypto

/// The precomputed crypto_box key between a session's X25519 key and a queue's X25519 auth key,
/// for the authenticator form of command authorization. Compute it once per (session, queue) and
/// cache it: it is the only curve operation the authenticator needs.
public struct QueueAuthenticatorKey: Sendable {
    let sharedKey: CryptoBox.SharedKey

    /// The server's key: its session private key with the queue's public auth key.
    public init(session: TransportSession, queueAuthPublicKey: [UInt8]) throws(TransportError) {
        guard let sessionPrivateKey = session.serverSessionPrivateKey else {
            // Only the server end holds the session private key.
            throw .malformed(.invalid("queue authenticator key from a client session"))
        }
        try self.init(privateKey: sessionPrivateKey, publicKey: queueAuthPublicKey)
    }

    /// The client's key: the queue's private auth key with the server's session public key.
    public init(queueAuthPrivateKey: SecureBytes, session: TransportSession) throws(TransportError) {
        try self.init(privateKey: queueAuthPrivateKey, publicKey: session.serverSessionKey)
    }

    /// The key for any X25519 pair (DH is symmetric: either end's private key with the other's public).
    public init(privateKey: SecureBytes, publicKey: [UInt8]) throws(TransportError) {
        do {
            sharedKey = try CryptoBox.SharedKey(publicKey: publicKey, privateKey: privateKey)
        } catch {
            throw .malformed(.invalid("X25519 auth key (\(error))"))
        }
    }
}

/// How a command proves it comes from the holder of a queue's key, over the session-bound bytes
/// `shortString(sessionID) ‖ corrId ‖ entityId ‖ command` (SimpleX's "authorized" bytes).
///
/// Two forms, as in SimpleX: an Ed25519 signature with the queue's Ed25519 key, or the cheaper
/// X25519 authenticator `crypto_box_afternm(SHA-512(signedBytes), nonce = corrId)` with the
/// cached `QueueAuthenticatorKey`. Checking an authenticator costs a SHA-512 of the bytes plus
/// one XSalsa20-Poly1305 over 64 bytes with a cached key, no curve arithmetic; checking an
/// Ed25519 signature costs a double scalar multiplication per message. The session key in the
/// DH binds the authenticator to this connection, as the session id binds the signature.
public enum CommandAuthorization {
    /// Length of an X25519 authenticator: poly1305 tag 16 + SHA-512 64.
    public static let authenticatorCount = CryptoBox.macCount + SHA512.byteCount
    /// Length of the correlation id used as the authenticator's nonce.
    public static let correlationIDCount = CryptoBox.nonceCount

    /// The 64-byte Ed25519 signature of `signedBytes` by a queue's 64-byte secret key.
    public static func sign(_ signedBytes: [UInt8], secretKey: SecureBytes) throws -> [UInt8] {
        try Ed25519.sign(signedBytes, secretKey: secretKey)
    }

    /// Whether `signature` is the queue key's Ed25519 signature of `signedBytes`.
    public static func verify(_ signature: [UInt8], signedBytes: [UInt8], publicKey: [UInt8]) -> Bool {
        Ed25519.isValidSignature(signature, for: signedBytes, publicKey: publicKey)
    }

    /// The 80-byte authenticator of `signedBytes` under a 24-byte correlation id.
    public static func authenticate(
        _ signedBytes: [UInt8], correlationID: [UInt8], key: QueueAuthenticatorKey
    ) throws(TransportError) -> [UInt8] {
        guard correlationID.count == correlationIDCount else {
            throw .malformed(.invalid("correlation id of \(correlationID.count) bytes"))
        }
        do {
            return try key.sharedKey.seal(SHA512.hash(signedBytes), nonce: correlationID)
        } catch {
            preconditionFailure("crypto_box of a 64-byte hash with a checked nonce failed: \(error)")
        }
    }

    /// Whether `authenticator` authenticates `signedBytes` under `correlationID` and `key`.
    public static func verify(
        _ authenticator: [UInt8], signedBytes: [UInt8], correlationID: [UInt8], key: QueueAuthenticatorKey
    ) -> Bool {
        guard authenticator.count == authenticatorCount, correlationID.count == correlationIDCount else {
            return false
        }
        // The poly1305 tag is checked in constant time inside crypto_box_open; once it passes, the
        // hash inside is authentic and compared with a hash of public bytes, in constant time anyway.
        guard let hash = try? key.sharedKey.open(authenticator, nonce: correlationID) else { return false }
        let expected = SHA512.hash(signedBytes)
        var difference: UInt8 = 0
        for i in 0..<SHA512.byteCount { difference |= hash[i] ^ expected[i] }
        return difference == 0
    }
}
