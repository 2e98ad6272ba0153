import SimpleXCrypto
import SimpleXProtocol

/// What NEW returns: the new queue's ids and the server's per-queue DH key.
public struct SMPQueueIDs: Equatable, Sendable {
    /// The id the recipient uses (SUB, ACK, KEY, GET, OFF, DEL).
    public let recipientID: EntityID
    /// The id the sender uses (SEND, SKEY); it goes into the queue URI.
    public let senderID: EntityID
    /// The server's X25519 key for this queue; with the recipient's DH key it decrypts deliveries.
    public let serverDHKey: [UInt8]
    /// Messaging or contact address.
    public let queueMode: SMPQueueMode
}

extension SMPClient {
    /// Creates a queue (NEW → IDS) owned by `recipientKey`, delivering to `recipientDHKey` (raw X25519).
    public func createQueue(
        recipientKey: QueueAuthKey, recipientDHKey: [UInt8], subscriptionMode: SubscriptionMode = .subscribe,
        queueMode: SMPQueueMode = .messaging
    ) async throws(SMPClientError) -> SMPQueueIDs {
        let command = SMPCommand.new(
            recipientAuthKey: recipientKey.publicKey, recipientDHKey: recipientDHKey,
            subscriptionMode: subscriptionMode, queueMode: queueMode)
        let response = try await send(command, key: recipientKey)
        guard case .ids(let recipientID, let senderID, let serverDHKey, let mode) = response else {
            throw .unexpectedResponse(response)
        }
        return SMPQueueIDs(
            recipientID: recipientID, senderID: senderID, serverDHKey: serverDHKey, queueMode: mode)
    }

    /// Subscribes this connection to the queue; returns the first waiting message, if any.
    public func subscribe(recipientID: EntityID, key: QueueAuthKey) async throws(SMPClientError)
        -> SMPDeliveredMessage?
    {
        try messageOrNothing(await send(.sub, entityID: recipientID, key: key))
    }

    /// Acknowledges a delivered message; returns the next one, if any.
    public func ack(recipientID: EntityID, key: QueueAuthKey, messageID: [UInt8])
        async throws(SMPClientError) -> SMPDeliveredMessage?
    {
        try messageOrNothing(await send(.ack(messageID: messageID), entityID: recipientID, key: key))
    }

    /// Fetches one message without subscribing; nil when the queue is empty.
    public func get(recipientID: EntityID, key: QueueAuthKey) async throws(SMPClientError)
        -> SMPDeliveredMessage?
    {
        try messageOrNothing(await send(.get, entityID: recipientID, key: key))
    }

    /// Secures the queue with the sender's key (KEY, recipient side).
    public func secure(recipientID: EntityID, key: QueueAuthKey, senderKey: AuthPublicKey)
        async throws(SMPClientError)
    {
        try expectOK(await send(.key(senderKey: senderKey), entityID: recipientID, key: key))
    }

    /// Secures the queue with the sender's own key (SKEY, sender side, signed by that key).
    public func secureBySender(senderID: EntityID, senderKey: QueueAuthKey) async throws(SMPClientError) {
        try expectOK(await send(.skey(senderKey: senderKey.publicKey), entityID: senderID, key: senderKey))
    }

    /// Puts a message into the queue; `key` is nil until the queue is secured.
    public func sendMessage(
        senderID: EntityID, key: QueueAuthKey?, flags: MessageFlags = .noFlags, body: [UInt8]
    ) async throws(SMPClientError) {
        try expectOK(await send(.send(flags: flags, body: body), entityID: senderID, key: key))
    }

    /// Stops delivery into the queue (OFF); senders then get AUTH.
    public func suspend(recipientID: EntityID, key: QueueAuthKey) async throws(SMPClientError) {
        try expectOK(await send(.off, entityID: recipientID, key: key))
    }

    /// Deletes the queue and its messages (DEL).
    public func delete(recipientID: EntityID, key: QueueAuthKey) async throws(SMPClientError) {
        try expectOK(await send(.del, entityID: recipientID, key: key))
    }

    /// Sends PING and waits for PONG.
    public func ping() async throws(SMPClientError) {
        let response = try await send(.ping, key: nil)
        guard response == .pong else { throw .unexpectedResponse(response) }
    }

    /// The key that decrypts a queue's deliveries: the server's DH key from IDS with the recipient's DH private key.
    public static func messageKey(serverDHKey: [UInt8], recipientDHPrivateKey: SecureBytes) throws
        -> CryptoBox.SharedKey
    {
        try CryptoBox.SharedKey(publicKey: serverDHKey, privateKey: recipientDHPrivateKey)
    }

    /// Decrypts a delivered message (`MessageEncryption.open`): the timestamp, then the body or the quota marker.
    public static func decryptMessage(
        _ encryptedBody: [UInt8], messageID: [UInt8], sharedKey: CryptoBox.SharedKey
    ) throws -> ReceivedMessageBody {
        try MessageEncryption.open(encryptedBody, messageID: messageID, sharedKey: sharedKey)
    }

    private func messageOrNothing(_ response: SMPResponse) throws(SMPClientError) -> SMPDeliveredMessage? {
        switch response {
        case .ok: return nil
        case .msg(let messageID, let body):
            return SMPDeliveredMessage(messageID: messageID, encryptedBody: body)
        default: throw .unexpectedResponse(response)
        }
    }

    private func expectOK(_ response: SMPResponse) throws(SMPClientError) {
        guard response == .ok else { throw .unexpectedResponse(response) }
    }
}
