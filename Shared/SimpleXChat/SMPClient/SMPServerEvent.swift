import SimpleXProtocol

/// Something the relay or the connection did that no command asked for.
public enum SMPServerEvent: Equatable, Sendable {
    /// A message delivered to a subscribed queue; decrypt with `SMPClient.decryptMessage`, then ACK.
    case message(recipientID: EntityID, messageID: [UInt8], encryptedBody: [UInt8])
    /// Another connection subscribed to this queue, so this one no longer receives from it.
    case end(recipientID: EntityID)
    /// The queue was deleted.
    case deleted(recipientID: EntityID)
    /// An event this client does not expect (e.g. an `ERR` without a command), kept to be shown.
    case unexpected(entityID: EntityID, response: SMPResponse)
    /// The connection dropped; commands in flight failed with `.disconnected`, reconnection started.
    case disconnected(reason: SMPClientError)
    /// A new connection is up after a drop: subscriptions are gone, so resubscribe.
    case reconnected
}

/// A message as SUB, ACK or GET return it.
public struct SMPDeliveredMessage: Equatable, Sendable {
    /// The server's random id of the message (also the decryption nonce); ACK names it.
    public let messageID: [UInt8]
    /// The body encrypted by the server to the queue's DH key.
    public let encryptedBody: [UInt8]

    /// Wraps the two parts of a MSG.
    public init(messageID: [UInt8], encryptedBody: [UInt8]) {
        self.messageID = messageID
        self.encryptedBody = encryptedBody
    }
}

/// One command for `SMPClient.sendBatch`.
public struct SMPRequest: Sendable {
    public var command: SMPCommand
    /// The queue (recipient or sender id), or `.empty` for NEW and PING.
    public var entityID: EntityID
    /// The queue key that authorizes the command; nil for PING and SEND to an unsecured queue.
    public var key: QueueAuthKey?

    /// A command for `entityID` authorized with `key`.
    public init(_ command: SMPCommand, entityID: EntityID = .empty, key: QueueAuthKey? = nil) {
        self.command = command
        self.entityID = entityID
        self.key = key
    }
}
