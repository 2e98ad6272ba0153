import SimpleXCrypto
import SimpleXProtocol
import Testing

@testable import SimpleXChat

/// The routing rules for what the relay sends, without a connection.
@Suite struct SMPClientRoutingTests {
    let queue = EntityID.random()
    let waiting = CorrelationID.random()

    private func route(_ response: SMPResponse, _ correlationID: CorrelationID) throws -> ResponseRouting {
        let transmission = try SMPTransmission.response(
            response, correlationID: correlationID, entityID: queue)
        return ResponseRouting.route(transmission) { $0 == waiting }
    }

    @Test func aWaitedReplyResumesItsCommandAndERRBecomesAServerError() throws {
        #expect(try route(.ok, waiting) == .reply(waiting, .success(.ok)))
        #expect(
            try route(.msg(messageID: [1], encryptedBody: [2]), waiting)
                == .reply(waiting, .success(.msg(messageID: [1], encryptedBody: [2]))))
        #expect(try route(.err(.quota), waiting) == .reply(waiting, .failure(.server(.quota))))
    }

    @Test func eventsWithoutCorrelationIDGoToTheAgent() throws {
        #expect(
            try route(.msg(messageID: [1], encryptedBody: [2]), .empty)
                == .event(.message(recipientID: queue, messageID: [1], encryptedBody: [2])))
        #expect(try route(.end, .empty) == .event(.end(recipientID: queue)))
        #expect(try route(.deld, .empty) == .event(.deleted(recipientID: queue)))
        #expect(
            try route(.err(.block), .empty) == .event(.unexpected(entityID: queue, response: .err(.block))))
    }

    @Test func lateRepliesAreDroppedExceptAMessageThatStillNeedsItsACK() throws {
        let abandoned = CorrelationID.random()
        #expect(try route(.ok, abandoned) == .drop)
        #expect(try route(.err(.auth), abandoned) == .drop)
        #expect(
            try route(.msg(messageID: [3], encryptedBody: [4]), abandoned)
                == .event(.message(recipientID: queue, messageID: [3], encryptedBody: [4])))
    }

    @Test func anUnreadableReplyFailsItsCommandAndAnUnreadableEventIsDropped() {
        let garbage = { (correlationID: CorrelationID) in
            SMPTransmission(
                authorization: [], correlationID: correlationID, entityID: queue, command: Array("WHAT".utf8))
        }
        guard
            case .reply(waiting, .failure(.protocolViolation)) = ResponseRouting.route(
                garbage(waiting), isWaiting: { $0 == waiting })
        else {
            Issue.record("an unreadable reply did not fail its command")
            return
        }
        #expect(ResponseRouting.route(garbage(.empty)) { _ in false } == .drop)
    }
}

/// Decrypting what the relay delivers.
@Suite struct SMPClientDecryptionTests {
    @Test func aDeliveredMessageDecryptsWithTheQueuesKeys() throws {
        let server = X25519.generateKeyPair()
        let recipient = X25519.generateKeyPair()
        let serverKey = try CryptoBox.SharedKey(publicKey: recipient.publicKey, privateKey: server.privateKey)
        let body = ReceivedMessageBody(
            timestamp: 1_700_000_000, content: .message(flags: .noFlags, body: [1, 2, 3]))
        let messageID = MessageEncryption.newMessageID()
        let sealed = try MessageEncryption.seal(body, messageID: messageID, sharedKey: serverKey)

        let key = try SMPClient.messageKey(
            serverDHKey: server.publicKey, recipientDHPrivateKey: recipient.privateKey)
        #expect(try SMPClient.decryptMessage(sealed, messageID: messageID, sharedKey: key) == body)
        #expect(throws: CryptoError.authenticationFailed) {
            try SMPClient.decryptMessage(sealed, messageID: MessageEncryption.newMessageID(), sharedKey: key)
        }
    }
}
