import SimpleXCrypto
import Testing

@testable import SimpleXProtocol

@Suite struct CommandAuthorizationTests {
    /// `shortString(sessionID) ‖ corrId ‖ entityId ‖ command`, as a caller would build it.
    static func signedBytes(_ session: TransportSession, corrID: [UInt8], command: String) -> [UInt8] {
        [UInt8(session.sessionID.count)] + session.sessionID + [24] + corrID + [24] + Array(repeating: 7, count: 24)
            + Array(command.utf8)
    }

    @Test func ed25519SignatureAcceptsTheSignedBytesOnly() throws {
        let (server, _) = try TransportFixture.connect()
        let (otherSession, _) = try TransportFixture.connect()
        let queueKey = Ed25519.generateKeyPair()
        let corrID = Random.bytes(count: 24)
        let bytes = Self.signedBytes(server, corrID: corrID, command: "SUB")
        let signature = try CommandAuthorization.sign(bytes, secretKey: queueKey.secretKey)
        #expect(CommandAuthorization.verify(signature, signedBytes: bytes, publicKey: queueKey.publicKey))
        #expect(!CommandAuthorization.verify(signature, signedBytes: bytes + [0], publicKey: queueKey.publicKey))
        #expect(
            !CommandAuthorization.verify(
                signature, signedBytes: Self.signedBytes(server, corrID: corrID, command: "DEL"),
                publicKey: queueKey.publicKey))
        #expect(
            !CommandAuthorization.verify(
                signature, signedBytes: Self.signedBytes(otherSession, corrID: corrID, command: "SUB"),
                publicKey: queueKey.publicKey))
        #expect(
            !CommandAuthorization.verify(
                signature, signedBytes: bytes, publicKey: Ed25519.generateKeyPair().publicKey))
    }

    @Test func x25519AuthenticatorAcceptsTheRightBytesKeyAndCorrelationOnly() throws {
        let (server, client) = try TransportFixture.connect()
        let queue = X25519.generateKeyPair()
        let serverKey = try QueueAuthenticatorKey(session: server, queueAuthPublicKey: queue.publicKey)
        let clientKey = try QueueAuthenticatorKey(queueAuthPrivateKey: queue.privateKey, session: client)
        let corrID = Random.bytes(count: 24)
        let bytes = Self.signedBytes(client, corrID: corrID, command: "SEND T hello")

        let authenticator = try CommandAuthorization.authenticate(bytes, correlationID: corrID, key: clientKey)
        #expect(authenticator.count == 80)
        #expect(CommandAuthorization.verify(authenticator, signedBytes: bytes, correlationID: corrID, key: serverKey))

        // Changed bytes, correlation id, or a tampered authenticator.
        var changed = bytes
        changed[changed.count - 1] ^= 1
        #expect(!CommandAuthorization.verify(authenticator, signedBytes: changed, correlationID: corrID, key: serverKey))
        #expect(
            !CommandAuthorization.verify(
                authenticator, signedBytes: bytes, correlationID: Random.bytes(count: 24), key: serverKey))
        for index in [0, 20, 79] {
            var tampered = authenticator
            tampered[index] ^= 0x10
            #expect(!CommandAuthorization.verify(tampered, signedBytes: bytes, correlationID: corrID, key: serverKey))
        }
        #expect(
            !CommandAuthorization.verify(
                Array(authenticator.prefix(79)), signedBytes: bytes, correlationID: corrID, key: serverKey))

        // Another queue's key on the server.
        let otherQueue = X25519.generateKeyPair()
        let otherQueueKey = try QueueAuthenticatorKey(session: server, queueAuthPublicKey: otherQueue.publicKey)
        #expect(
            !CommandAuthorization.verify(authenticator, signedBytes: bytes, correlationID: corrID, key: otherQueueKey))

        // The same queue on another session: the authenticator is bound to this session's key.
        let (otherServer, _) = try TransportFixture.connect()
        let otherSessionKey = try QueueAuthenticatorKey(session: otherServer, queueAuthPublicKey: queue.publicKey)
        #expect(
            !CommandAuthorization.verify(authenticator, signedBytes: bytes, correlationID: corrID, key: otherSessionKey))
    }

    @Test func authenticatorNeedsA24ByteCorrelationIDAndTheServerSessionKey() throws {
        let (_, client) = try TransportFixture.connect()
        let queue = X25519.generateKeyPair()
        let key = try QueueAuthenticatorKey(queueAuthPrivateKey: queue.privateKey, session: client)
        #expect(throws: TransportError.malformed(.invalid("correlation id of 23 bytes"))) {
            try CommandAuthorization.authenticate([1, 2, 3], correlationID: Random.bytes(count: 23), key: key)
        }
        // Only the server holds the session private key.
        #expect(throws: TransportError.self) {
            try QueueAuthenticatorKey(session: client, queueAuthPublicKey: queue.publicKey)
        }
    }
}
