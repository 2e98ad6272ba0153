import SimpleXCrypto
import SimpleXProtocol

/// A queue's private authorization key: Ed25519 (commands are signed) or X25519 (commands carry
/// an authenticator under a key shared with the session, cheaper for the relay to check).
public enum QueueAuthKey: Sendable {
    case ed25519(Ed25519.KeyPair)
    case x25519(X25519.KeyPair)

    /// A fresh random key of `algorithm`.
    public static func generate(_ algorithm: PublicKeyAlgorithm) -> QueueAuthKey {
        switch algorithm {
        case .ed25519: return .ed25519(Ed25519.generateKeyPair())
        case .x25519: return .x25519(X25519.generateKeyPair())
        }
    }

    /// The public half, as NEW, KEY and SKEY carry it.
    public var publicKey: AuthPublicKey {
        do {
            switch self {
            case .ed25519(let pair): return try AuthPublicKey(algorithm: .ed25519, raw: pair.publicKey)
            case .x25519(let pair): return try AuthPublicKey(algorithm: .x25519, raw: pair.publicKey)
            }
        } catch {
            // Both key pair types hold 32-byte public keys by construction.
            preconditionFailure("a generated key pair has a public key of the wrong size: \(error)")
        }
    }
}

/// What one session knows to authorize commands: its id and, per X25519 queue key, the cached
/// `QueueAuthenticatorKey` (a curve operation saved on every later command for that queue).
struct SessionAuthorizer {
    let session: TransportSession
    private var authenticatorKeys: [[UInt8]: QueueAuthenticatorKey] = [:]

    init(session: TransportSession) { self.session = session }

    /// X25519 keys whose authenticator key is cached (for tests).
    var cachedKeyCount: Int { authenticatorKeys.count }

    /// The encoded transmission of `command`, authorized with `key` (none for PING or an unsecured SEND).
    mutating func transmission(
        _ command: SMPCommand, correlationID: CorrelationID, entityID: EntityID, key: QueueAuthKey?
    ) throws -> [UInt8] {
        guard let key else {
            return try SMPTransmission.command(command, correlationID: correlationID, entityID: entityID)
                .encode()
        }
        let transmission = try SMPTransmission.command(
            command, correlationID: correlationID, entityID: entityID, sessionID: session.sessionID
        ) { signedBytes in
            switch key {
            case .ed25519(let pair):
                return try CommandAuthorization.sign(signedBytes, secretKey: pair.secretKey)
            case .x25519(let pair):
                let sharedKey = try authenticatorKey(for: pair)
                return try CommandAuthorization.authenticate(
                    signedBytes, correlationID: correlationID.bytes, key: sharedKey)
            }
        }
        return try transmission.encode()
    }

    private mutating func authenticatorKey(for pair: X25519.KeyPair) throws -> QueueAuthenticatorKey {
        if let cached = authenticatorKeys[pair.publicKey] { return cached }
        let key = try QueueAuthenticatorKey(queueAuthPrivateKey: pair.privateKey, session: session)
        authenticatorKeys[pair.publicKey] = key
        return key
    }
}
