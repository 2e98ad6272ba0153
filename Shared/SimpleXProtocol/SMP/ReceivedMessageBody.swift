/// What the recipient decrypts from a MSG: the server's timestamp, then a message or the quota marker.
///
/// Encodings (SimpleX `RcvMsgBody`):
/// - message: `Int64 timestamp ‖ flags ‖ ' ' ‖ body`
/// - quota marker: `"QUOTA " ‖ Int64 timestamp`. The server puts it in the queue when the queue
///   fills (SEND then gets `ERR QUOTA`); the recipient reaching it knows messages were refused and
///   that the sender may send again. A real timestamp never starts with `'Q'` (0x51 as the top
///   byte is a date billions of years away), so the two cannot be confused.
public struct ReceivedMessageBody: Equatable, Sendable {
    /// A message, or the marker that the queue was full.
    public enum Content: Equatable, Sendable {
        case message(flags: MessageFlags, body: [UInt8])
        case quota
    }

    /// Seconds since the Unix epoch when the server accepted the message.
    public var timestamp: Int64
    public var content: Content

    public init(timestamp: Int64, content: Content) {
        self.timestamp = timestamp
        self.content = content
    }

    /// The largest SEND body.
    public static let maxBodySize = 16_048

    static let quotaTag: StaticString = "QUOTA "

    /// The plaintext the server encrypts.
    public func encoded() throws(ProtocolError) -> [UInt8] {
        var writer = ByteWriter()
        switch content {
        case .message(let flags, let body):
            guard body.count <= Self.maxBodySize else {
                throw .tooLarge("message body of \(body.count) bytes (at most \(Self.maxBodySize))")
            }
            writer.appendInt64(timestamp)
            writer.appendFlags(flags)
            writer.append(UInt8(ascii: " "))
            writer.append(body)
        case .quota:
            writer.append(ascii: Self.quotaTag)
            writer.appendInt64(timestamp)
        }
        return writer.bytes
    }

    /// Reads the plaintext of a delivered message.
    public static func decode(_ bytes: [UInt8]) throws(ProtocolError) -> ReceivedMessageBody {
        var reader = ByteReader(bytes)
        if reader.peek(ascii: quotaTag) {
            try reader.expect(ascii: quotaTag, "quota marker")
            let timestamp = try reader.readInt64("timestamp")
            try reader.expectEnd("quota marker")
            return ReceivedMessageBody(timestamp: timestamp, content: .quota)
        }
        let timestamp = try reader.readInt64("timestamp")
        let flags = try reader.readFlags()
        try reader.expect(ascii: " ", "space before the message body")
        return ReceivedMessageBody(
            timestamp: timestamp, content: .message(flags: flags, body: reader.readTail()))
    }
}
