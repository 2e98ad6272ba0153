import SimpleXCrypto
import Testing

@testable import SimpleXProtocol

@Suite struct HandshakeTests {
    @Test func handshakeThenHundredsOfBlocksBothWaysStayInStep() throws {
        var (server, client) = try TransportFixture.connect()
        #expect(server.sessionID == client.sessionID)
        #expect(server.sessionID.count == 32)
        #expect(server.version == 1 && client.version == 1)
        var block = [UInt8](repeating: 0, count: TransportSession.blockSize)
        var opened = [UInt8](repeating: 0, count: TransportSession.paddedBlockSize)
        for i in 0..<300 {
            let down = TransportFixture.padded(i)
            #expect(try client.openBlock(server.sealBlock(down)) == down)
            let up = TransportFixture.padded(-i)
            // The buffer-reusing variants interoperate with the allocating ones.
            try up.withUnsafeBytes { input in
                try block.withUnsafeMutableBytes { try client.sealBlock(input, into: $0) }
            }
            try block.withUnsafeBytes { input in
                try opened.withUnsafeMutableBytes { try server.openBlock(input, into: $0) }
            }
            #expect(opened == up)
        }
    }

    @Test func identicalPlaintextsEncryptDifferentlyAndNeverInTheClear() throws {
        var (server, client) = try TransportFixture.connect()
        let plain = TransportFixture.padded(1)
        var seen = Set<[UInt8]>()
        for _ in 0..<200 {
            let sealed = try server.sealBlock(plain)
            #expect(sealed.count == TransportSession.blockSize)
            #expect(sealed[16...].elementsEqual(plain) == false)
            seen.insert(sealed)
            #expect(try client.openBlock(sealed) == plain)
        }
        #expect(seen.count == 200)
        // The two directions use different chains: the client's first block differs from the server's.
        var (server2, client2) = try TransportFixture.connect()
        let zeros = [UInt8](repeating: 0, count: TransportSession.paddedBlockSize)
        #expect(try server2.sealBlock(zeros) != client2.sealBlock(zeros))
    }

    @Test func clientPicksTheHighestCommonVersion() throws {
        let (server, client) = try TransportFixture.connect(
            serverVersions: #require(TransportVersionRange(min: 2, max: 4)),
            clientVersions: #require(TransportVersionRange(min: 1, max: 5)))
        #expect(client.version == 4)
        #expect(server.version == 4)
    }

    @Test func clientRefusesAnotherIdentity() throws {
        let expected = ServerIdentity.generate()
        let impostor = ServerHandshake(identity: .generate())
        let client = ClientHandshake(expectedKeyHash: expected.fingerprint)
        #expect(throws: TransportError.identityMismatch) { try client.receive(impostor.hello()) }
    }

    @Test func clientRefusesAHelloSignedByAnotherIdentity() throws {
        let genuine = ServerIdentity.generate()
        // An impersonator shows the genuine identity key but can only sign with its own.
        var hello = ServerHandshake(identity: .generate()).hello()
        hello.identityKey = genuine.publicKey
        let client = ClientHandshake(expectedKeyHash: genuine.fingerprint)
        #expect(throws: TransportError.badSignature) { try client.receive(hello) }
    }

    @Test func clientRefusesATamperedSignatureOrSubstitutedSessionKey() throws {
        let identity = ServerIdentity.generate()
        let hello = ServerHandshake(identity: identity).hello()
        let client = ClientHandshake(expectedKeyHash: identity.fingerprint)
        #expect(throws: Never.self) { try client.receive(hello) }

        var badSignature = hello
        badSignature.signature[10] ^= 0x01
        #expect(throws: TransportError.badSignature) { try client.receive(badSignature) }

        var substitutedKey = hello
        substitutedKey.sessionKey = X25519.generateKeyPair().publicKey
        #expect(throws: TransportError.badSignature) { try client.receive(substitutedKey) }

        var otherSession = hello
        otherSession.sessionID = Random.bytes(count: 32)
        #expect(throws: TransportError.badSignature) { try client.receive(otherSession) }
    }

    @Test func clientRefusesAnIncompatibleVersion() throws {
        let identity = ServerIdentity.generate()
        let range = try #require(TransportVersionRange(min: 2, max: 3))
        let hello = ServerHandshake(identity: identity, versionRange: range).hello()
        let client = ClientHandshake(expectedKeyHash: identity.fingerprint)
        #expect(throws: TransportError.incompatibleVersion(peer: range, supported: .supported)) {
            try client.receive(hello)
        }
    }

    @Test func serverRefusesAWrongKeyHashOrVersion() throws {
        let identity = ServerIdentity.generate()
        let server = ServerHandshake(identity: identity)
        let (hello, _) = try ClientHandshake(expectedKeyHash: identity.fingerprint).receive(server.hello())
        #expect(throws: Never.self) { try server.receive(hello) }

        var wrongHash = hello
        wrongHash.keyHash = ServerIdentity.generate().fingerprint
        #expect(throws: TransportError.identityMismatch) { try server.receive(wrongHash) }

        var wrongVersion = hello
        wrongVersion.version = 2
        #expect(throws: TransportError.incompatibleVersion(peer: TransportVersionRange(2), supported: .supported)) {
            try server.receive(wrongVersion)
        }
    }

    @Test func serverRefusesALowOrderClientKey() throws {
        let identity = ServerIdentity.generate()
        let server = ServerHandshake(identity: identity)
        let hello = ClientHello(
            version: 1, keyHash: identity.fingerprint, clientKey: [UInt8](repeating: 0, count: 32))
        #expect(throws: TransportError.self) { try server.receive(hello) }
    }

    @Test func identityRestoresFromItsSeedWithTheSameFingerprint() throws {
        let identity = ServerIdentity.generate()
        let restored = try ServerIdentity(seed: identity.seed)
        #expect(restored.publicKey == identity.publicKey)
        #expect(restored.fingerprint == identity.fingerprint)
        // The fingerprint is SHA-256 of the SPKI DER, as SimpleX hashes its key.
        let spki = TransportFixture.bytes(hex: "302a300506032b6570032100") + identity.publicKey
        #expect(identity.fingerprint == SHA256.hash(spki))
        #expect(ServerIdentity.generate().fingerprint != identity.fingerprint)
    }

    @Test func errorsDescribeThemselvesOnOneLine() {
        let errors: [TransportError] = [
            .identityMismatch, .badSignature, .incompatibleVersion(peer: TransportVersionRange(2), supported: .supported),
            .malformed(.truncated("key hash")), .blockAuthentication, .blockSize(expected: 16_384, actual: 3),
        ]
        for error in errors {
            #expect(!error.description.isEmpty)
            #expect(!error.description.contains("\n"))
        }
        #expect(
            TransportError.incompatibleVersion(peer: TransportVersionRange(min: 2, max: 3)!, supported: .supported)
                .description == "incompatible transport version: peer offers 2-3, we support 1")
    }
}
