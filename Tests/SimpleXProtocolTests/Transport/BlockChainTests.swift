import SimpleXCrypto
import Testing

@testable import SimpleXProtocol

@Suite struct BlockChainTests {
    @Test func tamperedBlockFails() throws {
        var (server, client) = try TransportFixture.connect()
        var block = try server.sealBlock(TransportFixture.padded(0))
        block[5000] ^= 0x80
        #expect(throws: TransportError.blockAuthentication) { try client.openBlock(block) }
    }

    @Test func tamperedTagFails() throws {
        var (server, client) = try TransportFixture.connect()
        var block = try server.sealBlock(TransportFixture.padded(0))
        block[0] ^= 0x01
        #expect(throws: TransportError.blockAuthentication) { try client.openBlock(block) }
    }

    @Test func truncatedOrOversizedBlockFails() throws {
        var (server, client) = try TransportFixture.connect()
        let block = try server.sealBlock(TransportFixture.padded(0))
        #expect(throws: TransportError.blockSize(expected: 16_384, actual: 16_383)) {
            try client.openBlock(Array(block.dropLast()))
        }
        #expect(throws: TransportError.blockSize(expected: 16_384, actual: 16_385)) {
            try client.openBlock(block + [0])
        }
        #expect(throws: TransportError.blockSize(expected: 16_368, actual: 16_384)) {
            try server.sealBlock([UInt8](repeating: 0, count: 16_384))
        }
    }

    @Test func replayedBlockFails() throws {
        var (server, client) = try TransportFixture.connect()
        let block = try server.sealBlock(TransportFixture.padded(0))
        #expect(try client.openBlock(block) == TransportFixture.padded(0))
        #expect(throws: TransportError.blockAuthentication) { try client.openBlock(block) }
    }

    @Test func reorderedBlocksFail() throws {
        var (server, client) = try TransportFixture.connect()
        let first = try server.sealBlock(TransportFixture.padded(0))
        let second = try server.sealBlock(TransportFixture.padded(1))
        #expect(throws: TransportError.blockAuthentication) { try client.openBlock(second) }
        // The failure advanced the receiving chain: the connection cannot recover and must be dropped.
        #expect(throws: TransportError.blockAuthentication) { try client.openBlock(first) }
    }

    @Test func droppedBlockMakesTheNextFail() throws {
        var (server, client) = try TransportFixture.connect()
        _ = try server.sealBlock(TransportFixture.padded(0))
        let second = try server.sealBlock(TransportFixture.padded(1))
        #expect(throws: TransportError.blockAuthentication) { try client.openBlock(second) }
    }

    @Test func blockFromAnotherSessionOrDirectionFails() throws {
        var (server, client) = try TransportFixture.connect()
        var (otherServer, _) = try TransportFixture.connect()
        #expect(throws: TransportError.blockAuthentication) {
            try client.openBlock(otherServer.sealBlock(TransportFixture.padded(0)))
        }
        // A block reflected back to its sender does not open either: the directions use separate chains.
        var (server2, _) = try TransportFixture.connect()
        let reflected = try server2.sealBlock(TransportFixture.padded(0))
        #expect(throws: TransportError.blockAuthentication) { try server2.openBlock(reflected) }
        _ = server
    }

    /// Chain keys computed independently with Python's standard library (hmac + hashlib SHA-512,
    /// RFC 5869 written out by hand) for DH secret = 01 02 ... 20 and session id = 40 41 ... 5f:
    /// ck1 ‖ ck2 = HKDF(salt = session id, ikm = secret, "SimpleXSbChainInit", 64); then per block
    /// HKDF(salt = "", ikm = ck, "SimpleXSbChain", 88) = ck' ‖ key ‖ nonce. The blocks are then
    /// checked against SimpleXCrypto's plain secretbox under those keys and nonces.
    @Test func chainMatchesAnIndependentDerivation() throws {
        let secret = SecureBytes(copying: (1...32).map { UInt8($0) })
        let sessionID = (0x40..<0x60).map { UInt8($0) }
        let vectors: [(key: String, nonce: String)] = [
            // first chain, blocks 0 and 1 (server → client)
            (
                "60ce8ff51c3640edffd0d4f2b024450cdf1d5750b394ce0790a093dda855e64a",
                "795b78a0ec54c83fdc17cf98a73158710207e24cfad446f7"
            ),
            (
                "915d7db5a9e81845e805f58cfefcf5afa7df0843377c705ad0964d6d5eab0daf",
                "25643f31e3b73fea894715fcc3e80ef5fd077b1d843ddea9"
            ),
            // second chain, blocks 0 and 1 (client → server)
            (
                "add6e4bcf19479da82e697b1cdfe9513c1e5e9593730c353dbfd30b1b6dd091b",
                "c78644520e9057ab1b1a40da149ee0dbe1df48b3306aaf04"
            ),
            (
                "6ef201ff719890b67bfb795ce8bcc562a61ec569d14b06c3712c3b8429edb3fc",
                "df3f063d13b13f59f38ae5652325507750c524bfb8cedde5"
            ),
        ]
        func expected(_ index: Int, _ plain: [UInt8]) throws -> [UInt8] {
            try SecretBox.seal(
                plain, nonce: TransportFixture.bytes(hex: vectors[index].nonce),
                key: SecureBytes(copying: TransportFixture.bytes(hex: vectors[index].key)))
        }
        let serverKey = X25519.generateKeyPair().publicKey
        var server = TransportSession(
            role: .server, sessionID: sessionID, version: 1, sharedSecret: secret, serverSessionKey: serverKey,
            serverSessionPrivateKey: nil)
        var client = TransportSession(
            role: .client, sessionID: sessionID, version: 1, sharedSecret: secret, serverSessionKey: serverKey,
            serverSessionPrivateKey: nil)
        let a = TransportFixture.padded(1)
        let b = TransportFixture.padded(2)
        #expect(try server.sealBlock(a) == expected(0, a))
        #expect(try server.sealBlock(b) == expected(1, b))
        #expect(try client.sealBlock(a) == expected(2, a))
        #expect(try client.sealBlock(b) == expected(3, b))

        // The 128-byte expand shortcut agrees with SimpleXCrypto's plain 88-byte HKDF too.
        var chain = BlockChain.pair(sessionID: sessionID, sharedSecret: secret).first
        let (key, nonce) = chain.next()
        let initKeys = try HKDFSHA512.deriveKey(
            inputKeyMaterial: secret, salt: sessionID, info: Array("SimpleXSbChainInit".utf8), outputByteCount: 64)
        let ck1 = initKeys.withUnsafeBytes { Array($0[0..<32]) }
        let step = try HKDFSHA512.deriveKey(
            inputKeyMaterial: ck1, salt: [UInt8](), info: Array("SimpleXSbChain".utf8), outputByteCount: 88)
        #expect(key == SecureBytes(copying: step.withUnsafeBytes { Array($0[32..<64]) }))
        #expect(nonce == step.withUnsafeBytes { Array($0[64..<88]) })
    }

    /// The chain's state is one guarded buffer rewritten in place: copies of a session must still
    /// behave as values (copy-on-write), or two copies would advance one chain between them.
    @Test func copiedSessionsAdvanceIndependently() throws {
        var (server, client) = try TransportFixture.connect()
        var serverCopy = server
        let first = try server.sealBlock(TransportFixture.padded(0))
        #expect(try serverCopy.sealBlock(TransportFixture.padded(0)) == first)
        let second = try server.sealBlock(TransportFixture.padded(1))
        #expect(try serverCopy.sealBlock(TransportFixture.padded(1)) == second)
        var clientCopy = client
        #expect(try client.openBlock(first) == TransportFixture.padded(0))
        #expect(try client.openBlock(second) == TransportFixture.padded(1))
        // The copy was not advanced by the original's reads.
        #expect(try clientCopy.openBlock(first) == TransportFixture.padded(0))
    }

    /// The in-place step gives the same keys and nonces as the allocating HKDF, step after step.
    @Test func inPlaceStepsMatchTheAllocatingDerivation() throws {
        let secret = SecureBytes.random(count: 32)
        let sessionID = Random.bytes(count: 32)
        var chain = BlockChain.pair(sessionID: sessionID, sharedSecret: secret).second
        let initKeys = try HKDFSHA512.deriveKey(
            inputKeyMaterial: secret, salt: sessionID, info: Array("SimpleXSbChainInit".utf8), outputByteCount: 64)
        var chainKey = initKeys.withUnsafeBytes { Array($0[32..<64]) }
        for _ in 0..<5 {
            let step = try HKDFSHA512.deriveKey(
                inputKeyMaterial: chainKey, salt: [UInt8](), info: Array("SimpleXSbChain".utf8), outputByteCount: 88)
            let bytes = step.withUnsafeBytes { Array($0) }
            let (key, nonce) = chain.next { key, nonce in (Array(key), Array(nonce)) }
            #expect(key == Array(bytes[32..<64]))
            #expect(nonce == Array(bytes[64..<88]))
            chainKey = Array(bytes[0..<32])
        }
    }
}
