import SimpleXCrypto
import Testing

@testable import SimpleXProtocol

@Suite struct HelloCodingTests {
    @Test func serverHelloRoundTripsInOneBlockWithTheDocumentedLayout() throws {
        let identity = ServerIdentity.generate()
        let hello = ServerHandshake(identity: identity).hello()
        let block = try hello.encode()
        #expect(block.count == 16_384)
        #expect(try ServerHello.decode(block) == hello)
        // Padding length 2 + versions 4 + session id 33 + identity SPKI 45 + session SPKI 45 + signature 65.
        #expect(Array(block[0..<2]) == [0, 192])
        #expect(Array(block[2..<6]) == [0, 1, 0, 1])
        #expect(block[6] == 32)
        #expect(Array(block[7..<39]) == hello.sessionID)
        #expect(Array(block[39..<52]) == [44] + TransportFixture.bytes(hex: "302a300506032b6570032100"))
        #expect(Array(block[52..<84]) == identity.publicKey)
        #expect(Array(block[84..<97]) == [44] + TransportFixture.bytes(hex: "302a300506032b656e032100"))
        #expect(block[129] == 64)
        #expect(Array(block[130..<194]) == hello.signature)
        #expect(block[194...].allSatisfy { $0 == UInt8(ascii: "#") })
    }

    @Test func clientHelloRoundTripsInOneBlockWithTheDocumentedLayout() throws {
        let hello = ClientHello(
            version: 1, keyHash: Random.bytes(count: 32), clientKey: X25519.generateKeyPair().publicKey)
        let block = try hello.encode()
        #expect(block.count == 16_384)
        #expect(try ClientHello.decode(block) == hello)
        // Padding length 2 + version 2 + key hash 33 + client SPKI 45.
        #expect(Array(block[0..<4]) == [0, 80, 0, 1])
        #expect(block[4] == 32)
        #expect(Array(block[5..<37]) == hello.keyHash)
        #expect(Array(block[37..<50]) == [44] + TransportFixture.bytes(hex: "302a300506032b656e032100"))
        #expect(block[82...].allSatisfy { $0 == UInt8(ascii: "#") })
    }

    @Test func wrongSizedBlocksAreRefused() throws {
        let block = try ServerHandshake(identity: .generate()).hello().encode()
        #expect(throws: ProtocolError.invalid("server hello block of 16383 bytes, expected 16384")) {
            try ServerHello.decode(Array(block.dropLast()))
        }
        #expect(throws: ProtocolError.invalid("client hello block of 16385 bytes, expected 16384")) {
            try ClientHello.decode(block + [0])
        }
        #expect(throws: ProtocolError.invalid("server hello block of 0 bytes, expected 16384")) {
            try ServerHello.decode([])
        }
    }

    @Test func garbageIsRefusedWithATypedError() throws {
        #expect(throws: ProtocolError.invalid("padded length 65535 beyond the data")) {
            try ServerHello.decode([UInt8](repeating: 0xff, count: 16_384))
        }
        // A client hello is not a server hello: its content ends early.
        let clientBlock = try ClientHello(
            version: 1, keyHash: Random.bytes(count: 32), clientKey: X25519.generateKeyPair().publicKey
        ).encode()
        #expect(throws: ProtocolError.self) { try ServerHello.decode(clientBlock) }
        for _ in 0..<20 {
            let random = Random.bytes(count: 16_384)
            #expect(throws: ProtocolError.self) { try ServerHello.decode(random) }
            #expect(throws: ProtocolError.self) { try ClientHello.decode(random) }
        }
    }

    @Test func wrongKeyTypesAreRefused() throws {
        let ed = Ed25519.generateKeyPair().publicKey
        let x = X25519.generateKeyPair().publicKey
        // An X25519 key where the Ed25519 identity belongs.
        var writer = ByteWriter()
        writer.appendWord16(1)
        writer.appendWord16(1)
        try writer.appendShortString(Random.bytes(count: 32))
        try writer.appendPublicKey(x, .x25519)
        try writer.appendPublicKey(x, .x25519)
        try writer.appendShortString(Random.bytes(count: 64))
        #expect(throws: ProtocolError.invalid("Ed25519 public key (an unsupported key type or a malformed key)")) {
            try ServerHello.decode(Padding.pad(writer.bytes, to: 16_384))
        }
        // An Ed25519 key where the client's X25519 key belongs.
        var client = ByteWriter()
        client.appendWord16(1)
        try client.appendShortString(Random.bytes(count: 32))
        try client.appendPublicKey(ed, .ed25519)
        #expect(throws: ProtocolError.invalid("X25519 public key (an unsupported key type or a malformed key)")) {
            try ClientHello.decode(Padding.pad(client.bytes, to: 16_384))
        }
    }

    @Test func wrongFieldLengthsAreRefused() throws {
        let hello = ServerHandshake(identity: .generate()).hello()
        var shortSession = hello
        shortSession.sessionID = Array(hello.sessionID.prefix(16))
        #expect(throws: ProtocolError.invalid("session id of 16 bytes")) {
            try ServerHello.decode(shortSession.encode())
        }
        var shortSignature = hello
        shortSignature.signature = Array(hello.signature.prefix(63))
        #expect(throws: ProtocolError.invalid("session key signature of 63 bytes")) {
            try ServerHello.decode(shortSignature.encode())
        }
        var inverted = ByteWriter()
        inverted.appendWord16(3)
        inverted.appendWord16(1)
        #expect(throws: ProtocolError.invalid("server hello version range 3-1")) {
            try ServerHello.decode(Padding.pad(inverted.bytes, to: 16_384))
        }
        let clientHello = ClientHello(
            version: 1, keyHash: Random.bytes(count: 31), clientKey: X25519.generateKeyPair().publicKey)
        #expect(throws: ProtocolError.invalid("key hash of 31 bytes")) {
            try ClientHello.decode(clientHello.encode())
        }
    }

    /// SimpleX's forward compatibility: a later version may append fields to either hello, and a
    /// reader of this version takes the fields it knows and ignores the rest.
    @Test func bytesAfterTheKnownFieldsAreIgnored() throws {
        let keyHash = Random.bytes(count: 32)
        let clientKey = X25519.generateKeyPair().publicKey
        var extended = ByteWriter()
        extended.appendWord16(1)
        try extended.appendShortString(keyHash)
        try extended.appendPublicKey(clientKey, .x25519)
        try extended.appendShortString(Array("a later field".utf8))
        extended.append(0)
        #expect(
            try ClientHello.decode(Padding.pad(extended.bytes, to: 16_384))
                == ClientHello(version: 1, keyHash: keyHash, clientKey: clientKey))

        let hello = ServerHandshake(identity: .generate()).hello()
        let known = try Padding.unpad(hello.encode())
        #expect(try ServerHello.decode(Padding.pad(known + [7, 7, 7], to: 16_384)) == hello)
    }
}
