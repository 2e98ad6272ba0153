import SimpleXCrypto

/// What the double ratchet carries between agents (simplexmq `AgentMessage`); the hash chain
/// of a connection is over these encodings.
public enum AgentMessage: Hashable, Sendable {
    /// `'I'`: the inviter's connection info (chat profile), in its confirmation.
    case connInfo([UInt8])
    /// `'D'`: the joiner's reply queues and connection info, in its confirmation ("duplex").
    case connInfoReply(queues: [SMPQueueInfo], connInfo: [UInt8])
    /// `'R'`: information with a ratchet re-sync.
    case ratchetInfo([UInt8])
    /// `'M'`: a message with its id and the previous message's hash.
    case message(APrivHeader, AMessage)

    /// The bytes the ratchet encrypts.
    public func encoded() throws(ProtocolError) -> [UInt8] {
        var writer = ByteWriter(capacity: 128)
        switch self {
        case .connInfo(let info):
            writer.append(UInt8(ascii: "I"))
            writer.append(info)
        case .connInfoReply(let queues, let info):
            writer.append(UInt8(ascii: "D"))
            try writer.appendNonEmpty(queues, "reply queues") { (w, q) throws(ProtocolError) in
                try q.encode(to: &w)
            }
            writer.append(info)
        case .ratchetInfo(let info):
            writer.append(UInt8(ascii: "R"))
            writer.append(info)
        case .message(let header, let message):
            writer.append(UInt8(ascii: "M"))
            try header.encode(to: &writer)
            try message.encode(to: &writer)
        }
        return writer.bytes
    }

    /// Reads a decrypted agent message; an unknown kind is `ProtocolError.unknownTag`.
    public static func decode(_ bytes: [UInt8]) throws(ProtocolError) -> AgentMessage {
        var reader = ByteReader(bytes)
        let message: AgentMessage
        switch try reader.readByte("agent message tag") {
        case UInt8(ascii: "I"): message = .connInfo(reader.readTail())
        case UInt8(ascii: "D"):
            let queues = try reader.readNonEmpty("reply queues") { (r) throws(ProtocolError) in
                try SMPQueueInfo.decode(&r)
            }
            message = .connInfoReply(queues: queues, connInfo: reader.readTail())
        case UInt8(ascii: "R"): message = .ratchetInfo(reader.readTail())
        case UInt8(ascii: "M"):
            let header = try APrivHeader.decode(&reader)
            message = .message(header, try AMessage.decode(&reader))
        case let other: throw .unknownTag("agent message tag \(reader.describeTag([other]))")
        }
        try reader.expectEnd("agent message")
        return message
    }

    /// The hash the next message's `prevMsgHash` and a receipt's `msgHash` carry: SHA-256 of the
    /// encoded message, exactly the bytes sent (so compute it from them, not from a re-encoding).
    public static func hash(ofEncoded bytes: [UInt8]) -> [UInt8] { SHA256.hash(bytes) }

    /// SHA-256 of this message's encoding.
    public func hash() throws(ProtocolError) -> [UInt8] { Self.hash(ofEncoded: try encoded()) }
}

/// The private header of an agent message: the sender's sequential id and the hash of the
/// previous message it sent, which together let the recipient detect skipped, repeated and
/// altered messages.
public struct APrivHeader: Hashable, Sendable {
    /// The sender's id for this message, one more than the previous.
    public var sndMsgID: Int64
    /// SHA-256 of the previous encoded `AgentMessage` (empty for the first).
    public var prevMsgHash: [UInt8]

    public init(sndMsgID: Int64, prevMsgHash: [UInt8]) {
        self.sndMsgID = sndMsgID
        self.prevMsgHash = prevMsgHash
    }

    /// Int64 id, then the hash as a short string.
    public func encode(to writer: inout ByteWriter) throws(ProtocolError) {
        writer.appendInt64(sndMsgID)
        try writer.appendShortString(prevMsgHash)
    }

    /// Reads the binary encoding from the reader.
    public static func decode(_ reader: inout ByteReader) throws(ProtocolError) -> APrivHeader {
        APrivHeader(
            sndMsgID: try reader.readInt64("sender message id"),
            prevMsgHash: try reader.readShortString("previous message hash"))
    }
}
