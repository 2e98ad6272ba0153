import SimpleXProtocol

/// One chat-protocol message, the body of an agent message (SimpleX `ChatMessage`):
/// `{"v":"1000","msgId":"<base64url>","event":"x.msg.new","params":{...}}`, compact, with `v`,
/// `msgId`, `event`, `params` in that order and every object inside `params` in key order, as
/// SimpleX's core writes it. What this build keeps as raw JSON (preferences, scopes, chat links,
/// unknown content, reactions and events) is written as it came, so a message from SimpleX is
/// written back byte for byte. An inline file chunk (`.fileChunk`) is the binary exception.
public struct ChatMessage: Hashable, Sendable {
    /// The sender's chat-protocol versions; nil when the message had no `"v"` (SimpleX then
    /// assumes `ChatVersions.unspecified`).
    public var chatVRange: VersionRange?
    /// The message's shared id: set on messages that can be quoted, edited, deleted or reacted to
    /// (`x.msg.new`, `x.file`), often absent on others.
    public var msgId: SharedMsgID?
    public var event: ChatMsgEvent

    /// The longest encoded JSON message SimpleX sends (its `maxEncodedMsgLength`: the 15,780-byte
    /// chunk less room for group forwarding and block encryption).
    public static let maxEncodedLength = 15_602

    /// A message; by default with this build's version range.
    public init(
        chatVRange: VersionRange? = ChatVersions.supported, msgId: SharedMsgID? = nil, event: ChatMsgEvent
    ) {
        self.chatVRange = chatVRange
        self.msgId = msgId
        self.event = event
    }

    /// The version range to use for the sender: `"v"`, or SimpleX's assumption without one.
    public var effectiveVRange: VersionRange { chatVRange ?? ChatVersions.unspecified }

    /// The message's JSON object (for `.fileChunk`, the event is `"F"` with empty params; such a
    /// message is only ever sent as bytes, see `encoded(maxLength:)`).
    public var json: JSON {
        var members: [(String, JSON)] = []
        if let chatVRange { members.append(("v", chatVRange.json)) }
        if let msgId { members.append(("msgId", msgId.json)) }
        members.append(("event", .string(event.name)))
        members.append(("params", .object(event.params)))
        return .object(JSONObject(members))
    }

    /// The message body: compact JSON, or the binary form of an inline file chunk.
    /// - Throws: `.tooLarge` when the JSON is longer than `maxLength` (SimpleX's `ECMLarge`).
    public func encoded(maxLength: Int = ChatMessage.maxEncodedLength) throws(ChatProtocolError) -> [UInt8] {
        if case .fileChunk(let fileMsgId, let chunk) = event {
            return try InlineFileChunk(msgId: fileMsgId, chunk: chunk).encoded()
        }
        let body = json.encoded()
        guard body.count <= maxLength else { throw .tooLarge(size: body.count, limit: maxLength) }
        return body
    }

    /// Reads one message: a JSON object, or an inline file chunk (`F`). A batch is an error here;
    /// use `decodeBody(_:)` for any body.
    public init(decoding body: [UInt8]) throws(ChatProtocolError) {
        guard let first = body.first else { throw .emptyBody }
        switch first {
        case UInt8(ascii: "{"):
            let json: JSON
            do {
                json = try JSON(parsing: body)
            } catch {
                throw .malformedJSON(error)
            }
            try self.init(json: json, path: "")
        case UInt8(ascii: "F"):
            let inline = try InlineFileChunk(decoding: body)
            self.init(
                chatVRange: nil, msgId: nil, event: .fileChunk(msgId: inline.msgId, chunk: inline.chunk))
        default:
            throw .unsupportedFormat(ChatMessage.formatName(first))
        }
    }

    /// Reads a message from its JSON object.
    public init(json: JSON) throws(ChatProtocolError) {
        try self.init(json: json, path: "")
    }

    init(json: JSON, path: String) throws(ChatProtocolError) {
        let fields = try JSONFields(json, path: path)
        let event = try fields.string("event")
        guard let paramsValue = fields.optionalValue("params") else {
            throw .missingField(fields.fieldPath("params"))
        }
        let params = try JSONFields(paramsValue, path: fields.fieldPath("params"))
        self.init(
            chatVRange: try fields.optionalDecode("v"), msgId: try fields.optionalDecode("msgId"),
            event: try ChatMsgEvent(event: event, params: params.object, path: params.path))
    }

    /// Reads an agent message body: one message, a JSON array of them (a batch), or an inline file
    /// chunk. Each message stands alone: a bad one is an error in its place, the others still read.
    /// A body that is not JSON at all, or of a format this build does not read, is one error.
    public static func decodeBody(_ body: [UInt8]) -> [Result<ChatMessage, ChatProtocolError>] {
        guard let first = body.first else { return [.failure(.emptyBody)] }
        guard first == UInt8(ascii: "[") else {
            return [Result { () throws(ChatProtocolError) in try ChatMessage(decoding: body) }]
        }
        let elements: [JSON]
        do {
            let json = try JSON(parsing: body)
            guard case .array(let array) = json else {
                return [.failure(.wrongType(path: "batch", expected: "array", found: json.kindName))]
            }
            elements = array
        } catch {
            return [.failure(.malformedJSON(error))]
        }
        return elements.enumerated().map { position, element in
            Result { () throws(ChatProtocolError) in try ChatMessage(json: element, path: "[\(position)]") }
        }
    }

    static func formatName(_ first: UInt8) -> String {
        switch first {
        case UInt8(ascii: "X"): return "zstd-compressed batch (X)"
        case UInt8(ascii: "="): return "binary batch (=)"
        case UInt8(ascii: "/"): return "signed message (/)"
        case UInt8(ascii: ">"): return "forwarded message (>)"
        case UInt8(ascii: "["): return "batch ([) where one message was expected"
        default: return "body starting with 0x\(String(first, radix: 16))"
        }
    }
}
