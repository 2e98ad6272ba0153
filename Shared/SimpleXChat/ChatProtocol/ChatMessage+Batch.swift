/// One agent message's worth of chat messages, from `ChatMessage.batch(_:maxLength:)`.
public enum ChatMessageBatch: Hashable, Sendable {
    /// A body to send and the positions of the messages in it: one message as it is, several as a
    /// JSON array (`[m1,m2,...]`, no spaces).
    case body([UInt8], messages: [Int])
    /// The message at this position is longer than the limit on its own and cannot be sent.
    case tooLarge(message: Int, size: Int)
}

extension ChatMessage {
    /// Groups encoded messages into as few bodies as fit `maxLength` each, keeping their order,
    /// as SimpleX's `batchMessages` does in JSON mode: a lone message is sent as it is, several as a
    /// JSON array, and a message longer than the limit alone is reported in its place. For JSON
    /// messages only: an inline file chunk is binary and always goes alone.
    public static func batch(_ encoded: [[UInt8]], maxLength: Int = ChatMessage.maxEncodedLength)
        -> [ChatMessageBatch]
    {
        var batches: [ChatMessageBatch] = []
        var pending: [Int] = []
        var pendingBytes = 0

        func flush() {
            guard !pending.isEmpty else { return }
            batches.append(.body(joined(pending.map { encoded[$0] }), messages: pending))
            pending = []
            pendingBytes = 0
        }

        for (position, body) in encoded.enumerated() {
            guard body.count <= maxLength else {
                flush()
                batches.append(.tooLarge(message: position, size: body.count))
                continue
            }
            if batchLength(bytes: pendingBytes + body.count, count: pending.count + 1) > maxLength { flush() }
            pending.append(position)
            pendingBytes += body.count
        }
        flush()
        return batches
    }

    /// The length of a batch of `count` messages totalling `bytes`: a lone message has no brackets,
    /// several have two brackets and a comma between each two.
    static func batchLength(bytes: Int, count: Int) -> Int {
        count <= 1 ? bytes : bytes + count + 1
    }

    static func joined(_ bodies: [[UInt8]]) -> [UInt8] {
        guard bodies.count > 1 else { return bodies.first ?? [] }
        var output: [UInt8] = [UInt8(ascii: "[")]
        for (position, body) in bodies.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: body)
        }
        output.append(UInt8(ascii: "]"))
        return output
    }
}
