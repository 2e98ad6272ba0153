/// The messages agents exchange once a connection is set up (simplexmq `AMessage`), each after an
/// `APrivHeader` inside `AgentMessage.message`.
public enum AMessage: Hashable, Sendable {
    /// `H`: the first message on a secured queue (the older, non-fast handshake).
    case hello
    /// `M`: a chat message body for the application.
    case message(body: [UInt8])
    /// `V`: delivery receipts for messages received (one or more).
    case receipts([AMessageReceipt])
    /// `QC`: the queue was full and has been drained: the sender may continue sending to it.
    case queueContinue(SenderQueueAddress)
    /// `QA`: queue rotation, recipient → sender: send to these new queues (each replacing one).
    case queueAdd([QueueAddition])
    /// `QK`: queue rotation, sender → recipient: the keys to secure the new queues with.
    case queueKey([QueueKey])
    /// `QU`: queue rotation, recipient → sender: the new queues are secured, use them.
    case queueUse([QueueUse])
    /// `QT`: queue rotation, sender → recipient: a test message through the new queues.
    case queueTest([SenderQueueAddress])
    /// `E`: ratchet re-sync is done; the id of the last message decrypted before it.
    case ratchetReady(lastDecryptedMessageID: Int64)

    /// Appends the tag and fields.
    public func encode(to writer: inout ByteWriter) throws(ProtocolError) {
        switch self {
        case .hello:
            writer.append(ascii: "H")
        case .message(let body):
            writer.append(ascii: "M")
            writer.append(body)
        case .receipts(let receipts):
            writer.append(ascii: "V")
            try writer.appendNonEmpty(receipts, "receipts") { (w, r) throws(ProtocolError) in
                try r.encode(to: &w)
            }
        case .queueContinue(let address):
            writer.append(ascii: "QC")
            try address.encode(to: &writer)
        case .queueAdd(let additions):
            writer.append(ascii: "QA")
            try writer.appendNonEmpty(additions, "added queues") { (w, a) throws(ProtocolError) in
                try a.queue.encode(to: &w)
                try w.appendOptional(a.replacedQueue) { (w, q) throws(ProtocolError) in try q.encode(to: &w) }
            }
        case .queueKey(let keys):
            writer.append(ascii: "QK")
            try writer.appendNonEmpty(keys, "queue keys") { (w, k) throws(ProtocolError) in
                try k.queue.encode(to: &w)
                try w.appendAuthKey(k.senderKey)
            }
        case .queueUse(let uses):
            writer.append(ascii: "QU")
            try writer.appendNonEmpty(uses, "queues to use") { (w, u) throws(ProtocolError) in
                try u.address.encode(to: &w)
                w.appendBool(u.primary)
            }
        case .queueTest(let addresses):
            writer.append(ascii: "QT")
            try writer.appendNonEmpty(addresses, "tested queues") { (w, a) throws(ProtocolError) in
                try a.encode(to: &w)
            }
        case .ratchetReady(let id):
            writer.append(ascii: "E")
            writer.appendInt64(id)
        }
    }

    /// Reads a tag and its fields; an unknown tag is `ProtocolError.unknownTag`.
    public static func decode(_ reader: inout ByteReader) throws(ProtocolError) -> AMessage {
        let tag = try reader.readByte("message tag")
        switch tag {
        case UInt8(ascii: "H"): return .hello
        case UInt8(ascii: "M"): return .message(body: reader.readTail())
        case UInt8(ascii: "V"):
            return .receipts(
                try reader.readNonEmpty("receipts") { (r) throws(ProtocolError) in
                    try AMessageReceipt.decode(&r)
                })
        case UInt8(ascii: "E"):
            return .ratchetReady(lastDecryptedMessageID: try reader.readInt64("message id"))
        case UInt8(ascii: "Q"): break
        default: throw .unknownTag("message tag \(reader.describeTag([tag]))")
        }
        let queueTag = try reader.readByte("queue message tag")
        switch queueTag {
        case UInt8(ascii: "C"): return .queueContinue(try .decode(&reader))
        case UInt8(ascii: "A"):
            return .queueAdd(
                try reader.readNonEmpty("added queues") { (r) throws(ProtocolError) in
                    QueueAddition(
                        queue: try SMPQueueURI.decode(&r),
                        replacedQueue: try r.readOptional("replaced queue") { (r) throws(ProtocolError) in
                            try SenderQueueAddress.decode(&r)
                        })
                })
        case UInt8(ascii: "K"):
            return .queueKey(
                try reader.readNonEmpty("queue keys") { (r) throws(ProtocolError) in
                    QueueKey(queue: try SMPQueueInfo.decode(&r), senderKey: try r.readAuthKey())
                })
        case UInt8(ascii: "U"):
            return .queueUse(
                try reader.readNonEmpty("queues to use") { (r) throws(ProtocolError) in
                    QueueUse(address: try SenderQueueAddress.decode(&r), primary: try r.readBool("primary"))
                })
        case UInt8(ascii: "T"):
            return .queueTest(
                try reader.readNonEmpty("tested queues") { (r) throws(ProtocolError) in
                    try SenderQueueAddress.decode(&r)
                })
        default: throw .unknownTag("message tag \(reader.describeTag([tag, queueTag]))")
        }
    }
}

/// A delivery receipt (SimpleX `AMessageReceipt`): which message (the sender's id for it), the
/// hash the recipient computed (the sender compares it with its own), and application data.
public struct AMessageReceipt: Hashable, Sendable {
    /// The sender's `sndMsgID` of the received message.
    public var agentMsgID: Int64
    /// SHA-256 of the received `AgentMessage`.
    public var msgHash: [UInt8]
    /// Application data (SimpleX chat puts nothing or a small JSON here).
    public var receiptInfo: [UInt8]

    public init(agentMsgID: Int64, msgHash: [UInt8], receiptInfo: [UInt8]) {
        self.agentMsgID = agentMsgID
        self.msgHash = msgHash
        self.receiptInfo = receiptInfo
    }

    /// Int64 id, hash as a short string, info as a `Large`.
    public func encode(to writer: inout ByteWriter) throws(ProtocolError) {
        writer.appendInt64(agentMsgID)
        try writer.appendShortString(msgHash)
        try writer.appendLarge(receiptInfo)
    }

    /// Reads the binary encoding from the reader.
    public static func decode(_ reader: inout ByteReader) throws(ProtocolError) -> AMessageReceipt {
        AMessageReceipt(
            agentMsgID: try reader.readInt64("receipt message id"),
            msgHash: try reader.readShortString("receipt message hash"),
            receiptInfo: try reader.readLarge("receipt info"))
    }
}

/// One queue in QADD: the new queue, and the queue it replaces (nil when it is an addition).
public struct QueueAddition: Hashable, Sendable {
    public var queue: SMPQueueURI
    public var replacedQueue: SenderQueueAddress?

    public init(queue: SMPQueueURI, replacedQueue: SenderQueueAddress?) {
        self.queue = queue
        self.replacedQueue = replacedQueue
    }
}

/// One queue in QKEY: the queue at the agreed version, and the sender's key to secure it with.
public struct QueueKey: Hashable, Sendable {
    public var queue: SMPQueueInfo
    public var senderKey: AuthPublicKey

    public init(queue: SMPQueueInfo, senderKey: AuthPublicKey) {
        self.queue = queue
        self.senderKey = senderKey
    }
}

/// One queue in QUSE: the queue, and whether it becomes the primary one to send to.
public struct QueueUse: Hashable, Sendable {
    public var address: SenderQueueAddress
    public var primary: Bool

    public init(address: SenderQueueAddress, primary: Bool) {
        self.address = address
        self.primary = primary
    }
}
