/// A reply or event from the relay to a client (SimpleX SMP `BrokerMsg`).
public enum SMPResponse: Equatable, Sendable {
    /// The new queue's ids, the server's per-queue X25519 key (raw) and the queue's mode.
    case ids(recipientID: EntityID, senderID: EntityID, serverDHKey: [UInt8], queueMode: SMPQueueMode)
    /// A message, encrypted by the server to the recipient (see `MessageEncryption`).
    case msg(messageID: [UInt8], encryptedBody: [UInt8])
    /// Success.
    case ok
    /// Another connection subscribed to this queue; this one no longer receives from it.
    case end
    /// The queue was deleted.
    case deld
    /// The reply to PING.
    case pong
    /// A failure.
    case err(SMPErrorType)

    /// Appends the response in SimpleX's binary encoding.
    public func encode(to writer: inout ByteWriter) throws(ProtocolError) {
        switch self {
        case .ids(let recipientID, let senderID, let serverDHKey, let queueMode):
            writer.append(ascii: "IDS ")
            try writer.appendEntityID(recipientID)
            try writer.appendEntityID(senderID)
            try writer.appendPublicKey(serverDHKey, .x25519)
            writer.append(queueMode.byte)
        case .msg(let messageID, let encryptedBody):
            writer.append(ascii: "MSG ")
            try writer.appendShortString(messageID)
            writer.append(encryptedBody)
        case .ok: writer.append(ascii: "OK")
        case .end: writer.append(ascii: "END")
        case .deld: writer.append(ascii: "DELD")
        case .pong: writer.append(ascii: "PONG")
        case .err(let error):
            writer.append(ascii: "ERR ")
            writer.append(Array(error.description.utf8))
        }
    }

    /// The encoded response.
    public func encoded() throws(ProtocolError) -> [UInt8] {
        var writer = ByteWriter()
        try encode(to: &writer)
        return writer.bytes
    }

    /// Reads a whole response; trailing bytes are invalid, an unknown error text is kept.
    public static func decode(_ reader: inout ByteReader) throws(ProtocolError) -> SMPResponse {
        let tag = try reader.readTag()
        let response: SMPResponse
        switch tag {
        case "IDS":
            response = .ids(
                recipientID: try reader.readEntityID("recipient id"),
                senderID: try reader.readEntityID("sender id"),
                serverDHKey: try reader.readPublicKey(.x25519),
                queueMode: try reader.readQueueMode())
        case "MSG":
            response = .msg(
                messageID: try reader.readShortString("message id"), encryptedBody: reader.readTail())
        case "OK": response = .ok
        case "END": response = .end
        case "DELD": response = .deld
        case "PONG": response = .pong
        case "ERR":
            let text = reader.readTail()
            guard !text.isEmpty else { throw .truncated("error type") }
            response = .err(SMPErrorType(text: text))
        default: throw .invalid("response: unknown tag \(tag.debugDescription)")
        }
        try reader.expectEnd("\(tag) response")
        return response
    }

    /// Reads a response from all of `bytes`.
    public static func decode(_ bytes: [UInt8]) throws(ProtocolError) -> SMPResponse {
        var reader = ByteReader(bytes)
        return try decode(&reader)
    }
}
