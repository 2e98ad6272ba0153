internal import SimpleXCrypto

/// The server's side of the handshake: send `hello()`, then `receive` the client's reply.
///
/// Each connection gets a fresh X25519 session key and session id, signed by the long-term
/// identity, so the identity key never encrypts anything and a session's keys die with it.
public struct ServerHandshake: Sendable {
    public let identity: ServerIdentity
    public let versionRange: TransportVersionRange
    private let sessionKeyPair: X25519.KeyPair
    private let serverHello: ServerHello

    /// Makes the session key and id and signs them.
    public init(identity: ServerIdentity, versionRange: TransportVersionRange = .supported) {
        self.identity = identity
        self.versionRange = versionRange
        sessionKeyPair = X25519.generateKeyPair()
        let sessionID = Random.bytes(count: ServerHello.sessionIDCount)
        do {
            let signed = try ServerHello.signedBytes(sessionID: sessionID, sessionKey: sessionKeyPair.publicKey)
            serverHello = ServerHello(
                versionRange: versionRange, sessionID: sessionID, identityKey: identity.publicKey,
                sessionKey: sessionKeyPair.publicKey,
                signature: try Ed25519.sign(signed, secretKey: identity.keyPair.secretKey))
        } catch {
            preconditionFailure("signing a well-formed session key failed: \(error)")
        }
    }

    /// The hello to send first (the same value on every call).
    public func hello() -> ServerHello { serverHello }

    /// Checks the client's hello and starts the session; refuses a version outside our range and a
    /// key hash that is not our fingerprint (the client meant another server).
    public func receive(_ clientHello: ClientHello) throws(TransportError) -> TransportSession {
        guard versionRange.contains(clientHello.version) else {
            throw .incompatibleVersion(peer: TransportVersionRange(clientHello.version), supported: versionRange)
        }
        guard clientHello.keyHash == identity.fingerprint else { throw .identityMismatch }
        let secret: SecureBytes
        do {
            secret = try X25519.sharedSecret(privateKey: sessionKeyPair.privateKey, publicKey: clientHello.clientKey)
        } catch {
            throw .malformed(.invalid("client X25519 key (\(error))"))
        }
        return TransportSession(
            role: .server, sessionID: serverHello.sessionID, version: clientHello.version, sharedSecret: secret,
            serverSessionKey: sessionKeyPair.publicKey, serverSessionPrivateKey: sessionKeyPair.privateKey)
    }
}

/// The client's side of the handshake: `receive` the server's hello, send back the client hello.
public struct ClientHandshake: Sendable {
    /// The server fingerprint from the address (`smp://<keyHash>@host`).
    public let expectedKeyHash: [UInt8]
    public let versionRange: TransportVersionRange

    public init(expectedKeyHash: [UInt8], versionRange: TransportVersionRange = .supported) {
        self.expectedKeyHash = expectedKeyHash
        self.versionRange = versionRange
    }

    /// Checks the server's identity and signature, picks the highest common version, and returns
    /// the hello to send with the session it starts. An impersonator fails here: it either shows
    /// another identity key (`identityMismatch`) or cannot sign our server's session key
    /// (`badSignature`).
    public func receive(_ serverHello: ServerHello) throws(TransportError) -> (ClientHello, TransportSession) {
        guard ServerIdentity.fingerprint(ofIdentityKey: serverHello.identityKey) == expectedKeyHash else {
            throw .identityMismatch
        }
        let signed: [UInt8]
        do {
            signed = try ServerHello.signedBytes(sessionID: serverHello.sessionID, sessionKey: serverHello.sessionKey)
        } catch {
            throw .malformed(error)
        }
        guard Ed25519.isValidSignature(serverHello.signature, for: signed, publicKey: serverHello.identityKey)
        else { throw .badSignature }
        guard let version = versionRange.highestCommon(with: serverHello.versionRange) else {
            throw .incompatibleVersion(peer: serverHello.versionRange, supported: versionRange)
        }
        let clientKeyPair = X25519.generateKeyPair()
        let secret: SecureBytes
        do {
            secret = try X25519.sharedSecret(privateKey: clientKeyPair.privateKey, publicKey: serverHello.sessionKey)
        } catch {
            throw .malformed(.invalid("server X25519 session key (\(error))"))
        }
        let hello = ClientHello(version: version, keyHash: expectedKeyHash, clientKey: clientKeyPair.publicKey)
        let session = TransportSession(
            role: .client, sessionID: serverHello.sessionID, version: version, sharedSecret: secret,
            serverSessionKey: serverHello.sessionKey, serverSessionPrivateKey: nil)
        return (hello, session)
    }
}
