/// The params of `x.msg.new` (SimpleX `MsgContainer`): the content and what goes with it. `quote`,
/// `parent` and `forward` are independent and may come together.
public struct MsgContainer: Hashable, Sendable {
    public var content: MsgContent
    /// Mentioned members by the display name used in the text (group messages).
    public var mentions: [String: MemberID]
    public var file: FileInvitation?
    /// Seconds until the message disappears (timed messages).
    public var ttl: Int?
    /// A live message, updated as it is typed; kept as sent (`false` stays `false`).
    public var live: Bool?
    /// Group message scope (`{"type":"member","memberId":...}`), kept as JSON.
    public var scope: JSON?
    /// Sent as the channel rather than as a member.
    public var asGroup: Bool?
    /// The message replied to.
    public var quote: QuotedMsg?
    /// The channel post this is a comment on.
    public var parent: MsgRef?
    /// The message was forwarded from another chat (written as `"forward":true`; read from `true`
    /// or from an object, as older clients sent).
    public var forward: Bool

    public init(
        content: MsgContent, mentions: [String: MemberID] = [:], file: FileInvitation? = nil, ttl: Int? = nil,
        live: Bool? = nil, scope: JSON? = nil, asGroup: Bool? = nil, quote: QuotedMsg? = nil,
        parent: MsgRef? = nil,
        forward: Bool = false
    ) {
        self.content = content
        self.mentions = mentions
        self.file = file
        self.ttl = ttl
        self.live = live
        self.scope = scope
        self.asGroup = asGroup
        self.quote = quote
        self.parent = parent
        self.forward = forward
    }
}

/// A reference to an earlier message (SimpleX `MsgRef`), in quotes and comments.
public struct MsgRef: Hashable, Sendable {
    /// The referenced message's shared id (absent for some old messages).
    public var msgId: SharedMsgID?
    public var sentAt: ChatTimestamp
    /// Whether the author of the *referencing* message sent the referenced one.
    public var sent: Bool
    /// The referenced message's author in a group.
    public var memberId: MemberID?

    public init(msgId: SharedMsgID?, sentAt: ChatTimestamp, sent: Bool, memberId: MemberID? = nil) {
        self.msgId = msgId
        self.sentAt = sentAt
        self.sent = sent
        self.memberId = memberId
    }
}

/// A quoted message: the reference and the quoted content as the replier saw it.
public struct QuotedMsg: Hashable, Sendable {
    public var msgRef: MsgRef
    public var content: MsgContent

    public init(msgRef: MsgRef, content: MsgContent) {
        self.msgRef = msgRef
        self.content = content
    }
}

extension MsgContainer {
    init(params fields: JSONFields) throws(ChatProtocolError) {
        var forward = false
        switch fields.object["forward"] {
        case nil, .null?, .bool(false)?: forward = false
        case .bool(true)?, .object?: forward = true
        case let other?:
            throw .wrongType(
                path: fields.fieldPath("forward"), expected: "boolean or object", found: other.kindName)
        }
        self.init(
            content: try fields.decode("content"), mentions: try MsgContainer.mentions(fields),
            file: try fields.optionalDecode("file"),
            ttl: try fields.optionalInt("ttl"), live: try fields.optionalBool("live"),
            scope: fields.optionalValue("scope"),
            asGroup: try fields.optionalBool("asGroup"), quote: try fields.optionalDecode("quote"),
            parent: try fields.optionalDecode("parent"), forward: forward)
    }

    var params: JSONObject {
        .sorted([
            ("content", content.json), ("mentions", MsgContainer.mentionsJSON(mentions)),
            ("file", file?.json),
            ("ttl", ttl.map { .number(JSONNumber($0)) }), ("live", live.map(JSON.bool)), ("scope", scope),
            ("asGroup", asGroup.map(JSON.bool)), ("quote", quote?.json), ("parent", parent?.json),
            ("forward", forward ? .bool(true) : nil),
        ])
    }

    /// `mentions`: an object from display name to `{"memberId": ...}`; absent reads as none.
    static func mentions(_ fields: JSONFields) throws(ChatProtocolError) -> [String: MemberID] {
        guard let value = fields.optionalValue("mentions") else { return [:] }
        let object = try JSONFields(value, path: fields.fieldPath("mentions"))
        var mentions: [String: MemberID] = [:]
        for member in object.object {
            let mention = try JSONFields(member.value, path: object.fieldPath(member.key))
            mentions[member.key] = try mention.decode("memberId")
        }
        return mentions
    }

    /// Written only when there are mentions, as SimpleX does.
    static func mentionsJSON(_ mentions: [String: MemberID]) -> JSON? {
        guard !mentions.isEmpty else { return nil }
        return .object(.sorted(mentions.map { ($0.key, .object(["memberId": $0.value.json])) }))
    }
}

extension MsgRef: ChatJSONRepresentable {
    init(json: JSON, path: String) throws(ChatProtocolError) {
        let fields = try JSONFields(json, path: path)
        self.init(
            msgId: try fields.optionalDecode("msgId"), sentAt: try fields.decode("sentAt"),
            sent: try fields.bool("sent"),
            memberId: try fields.optionalDecode("memberId"))
    }

    var json: JSON {
        .object(
            .sorted([
                ("msgId", msgId?.json), ("sentAt", sentAt.json), ("sent", .bool(sent)),
                ("memberId", memberId?.json),
            ]))
    }
}

extension QuotedMsg: ChatJSONRepresentable {
    init(json: JSON, path: String) throws(ChatProtocolError) {
        let fields = try JSONFields(json, path: path)
        self.init(msgRef: try fields.decode("msgRef"), content: try fields.decode("content"))
    }

    var json: JSON { .object(.sorted([("msgRef", msgRef.json), ("content", content.json)])) }
}
