import SimpleXCrypto
import Testing

@testable import SimpleXProtocol

@Suite struct MessageEncryptionTests {
    typealias V = SMPTestValues

    /// The server's per-queue key and the recipient's key agree on one shared key from both ends.
    func keys() throws -> (server: CryptoBox.SharedKey, recipient: CryptoBox.SharedKey) {
        let server = X25519.generateKeyPair(), recipient = X25519.generateKeyPair()
        return (
            try CryptoBox.SharedKey(publicKey: recipient.publicKey, privateKey: server.privateKey),
            try CryptoBox.SharedKey(publicKey: server.publicKey, privateKey: recipient.privateKey)
        )
    }

    @Test func plaintextEncodingsOfMessageAndQuotaMarker() throws {
        let message = ReceivedMessageBody(
            timestamp: 0x0102, content: .message(flags: MessageFlags(notification: true), body: V.ascii("hi"))
        )
        #expect(try message.encoded() == [0, 0, 0, 0, 0, 0, 1, 2] + V.ascii("T hi"))
        let quota = ReceivedMessageBody(timestamp: 5, content: .quota)
        #expect(try quota.encoded() == V.ascii("QUOTA ") + [0, 0, 0, 0, 0, 0, 0, 5])
        #expect(try ReceivedMessageBody.decode(message.encoded()) == message)
        #expect(try ReceivedMessageBody.decode(quota.encoded()) == quota)
        #expect(throws: ProtocolError.self) {
            try ReceivedMessageBody.decode(V.ascii("QUOTA ") + [0, 0, 0, 0, 0, 0, 0, 5, 1])
        }
        #expect(throws: ProtocolError.self) {
            try ReceivedMessageBody.decode([0, 0, 0, 0, 0, 0, 1, 2] + V.ascii("Thi"))
        }
    }

    @Test func sealOpenRoundTripWithFixedSize() throws {
        let (server, recipient) = try keys()
        let id = MessageEncryption.newMessageID()
        #expect(id.count == 24)
        let small = ReceivedMessageBody(
            timestamp: 1_700_000_000, content: .message(flags: .noFlags, body: V.ascii("hello")))
        let largest = ReceivedMessageBody(
            timestamp: 1_700_000_000,
            content: .message(
                flags: .noFlags, body: [UInt8](repeating: 0x41, count: ReceivedMessageBody.maxBodySize)))
        let quota = ReceivedMessageBody(timestamp: 1_700_000_001, content: .quota)
        for body in [small, largest, quota] {
            let sealed = try MessageEncryption.seal(body, messageID: id, sharedKey: server)
            #expect(sealed.count == MessageEncryption.encryptedSize)
            #expect(try MessageEncryption.open(sealed, messageID: id, sharedKey: recipient) == body)
        }
        #expect(MessageEncryption.encryptedSize == 16_082)
        let tooLarge = ReceivedMessageBody(
            timestamp: 0,
            content: .message(
                flags: .noFlags, body: [UInt8](repeating: 0, count: ReceivedMessageBody.maxBodySize + 1)))
        #expect(throws: ProtocolError.self) {
            try MessageEncryption.seal(tooLarge, messageID: id, sharedKey: server)
        }
    }

    @Test func largestMSGTransmissionFitsOneBlock() throws {
        let (server, _) = try keys()
        let id = MessageEncryption.newMessageID()
        let body = ReceivedMessageBody(
            timestamp: 1,
            content: .message(
                flags: .noFlags, body: [UInt8](repeating: 1, count: ReceivedMessageBody.maxBodySize)))
        let msg = SMPResponse.msg(
            messageID: id, encryptedBody: try MessageEncryption.seal(body, messageID: id, sharedKey: server))
        let transmission = try SMPTransmission.response(msg, correlationID: .random(), entityID: .random())
            .encode()
        #expect(transmission.count == 16_163)
        #expect(TransportBlock.fits(transmission))
        // And the largest signed SEND of the largest body fits too.
        let send = SMPTransmission(
            authorization: [UInt8](repeating: 0, count: 80), correlationID: .random(), entityID: .random(),
            command: try SMPCommand.send(
                flags: .noFlags, body: [UInt8](repeating: 1, count: ReceivedMessageBody.maxBodySize)
            ).encoded())
        #expect(TransportBlock.fits(try send.encode()))
    }

    @Test func tamperedBodyWrongNonceAndWrongKeyFailAuthentication() throws {
        let (server, recipient) = try keys()
        let id = MessageEncryption.newMessageID()
        let sealed = try MessageEncryption.seal(
            ReceivedMessageBody(timestamp: 1, content: .message(flags: .noFlags, body: V.ascii("x"))),
            messageID: id, sharedKey: server)
        var tampered = sealed
        tampered[100] ^= 1
        #expect(throws: CryptoError.authenticationFailed) {
            try MessageEncryption.open(tampered, messageID: id, sharedKey: recipient)
        }
        var otherID = id
        otherID[0] ^= 1
        #expect(throws: CryptoError.authenticationFailed) {
            try MessageEncryption.open(sealed, messageID: otherID, sharedKey: recipient)
        }
        let (_, stranger) = try keys()
        #expect(throws: CryptoError.authenticationFailed) {
            try MessageEncryption.open(sealed, messageID: id, sharedKey: stranger)
        }
        #expect(throws: CryptoError.self) {
            try MessageEncryption.open(sealed, messageID: [1, 2], sharedKey: recipient)
        }
    }
}
