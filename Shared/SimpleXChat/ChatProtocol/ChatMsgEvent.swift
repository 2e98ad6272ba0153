/// What a chat message does (SimpleX `ChatMsgEvent`), named on the wire by `"event"`.
///
/// Direct-chat and group events (every `x.grp.*`, see `GroupEvent`) are modelled; calls, channel
/// subscribers (`x.call.*`, `x.member`) and any event this build does not know
/// are `.unknown` with their params, kept and written back unchanged. `.fileChunk` is the one binary event: an inline file chunk, which travels as bytes,
/// not JSON.
public enum ChatMsgEvent: Hashable, Sendable {
    /// `x.msg.new`: a new message.
    case msgNew(MsgContainer)
    /// `x.msg.file.descr`: a further part of an XFTP file description for message `msgId`.
    case msgFileDescr(msgId: SharedMsgID, fileDescr: FileDescr)
    /// `x.msg.update`: an edit of message `msgId` (also each update of a live message).
    case msgUpdate(MsgUpdate)
    /// `x.msg.del`: deletion of message `msgId` (a group member's, when `memberId` is set).
    case msgDel(msgId: SharedMsgID, memberId: MemberID?, scope: JSON?)
    /// `x.msg.deleted`: the sender deleted the message this one replaces.
    case msgDeleted
    /// `x.msg.react`: a reaction added to (`add`) or removed from message `msgId`.
    case msgReact(msgId: SharedMsgID, memberId: MemberID?, scope: JSON?, reaction: MsgReaction, add: Bool)
    /// `x.file`: a file offered on its own (legacy).
    case file(FileInvitation)
    /// `x.file.acpt`: accept a file offered with a connection (sent on that connection).
    case fileAcpt(fileName: String)
    /// `x.file.acpt.inv`: accept file message `msgId`, giving a connection for it or, without
    /// one, asking for it inline.
    case fileAcptInv(msgId: SharedMsgID, fileConnReq: String?, fileName: String)
    /// `x.file.cancel`: the sender cancelled file message `msgId`.
    case fileCancel(msgId: SharedMsgID)
    /// `x.info`: the sender's profile (on connecting and on every change).
    case info(Profile)
    /// `x.contact`: a contact request through an address.
    case contact(ContactRequest)
    /// `x.direct.del`: the contact deleted the chat.
    case directDel
    /// `x.info.probe`: a probe, to find out whether two contacts are one person.
    case infoProbe(Probe)
    /// `x.info.probe.check`: a probe's hash, sent to other contacts.
    case infoProbeCheck(ProbeHash)
    /// `x.info.probe.ok`: the probe matched.
    case infoProbeOk(Probe)
    /// `x.ok`: an empty acknowledgement.
    case ok
    /// An inline file chunk for file message `msgId` (binary, `F` tag; see `InlineFileChunk`).
    case fileChunk(msgId: SharedMsgID, chunk: FileChunk)
    /// A group event (`x.grp.*`).
    case group(GroupEvent)
    /// Any other event, with its params as they came.
    case unknown(event: String, params: JSONObject)

    /// The `"event"` name (`"F"` for a binary file chunk).
    public var name: String {
        switch self {
        case .msgNew: return "x.msg.new"
        case .msgFileDescr: return "x.msg.file.descr"
        case .msgUpdate: return "x.msg.update"
        case .msgDel: return "x.msg.del"
        case .msgDeleted: return "x.msg.deleted"
        case .msgReact: return "x.msg.react"
        case .file: return "x.file"
        case .fileAcpt: return "x.file.acpt"
        case .fileAcptInv: return "x.file.acpt.inv"
        case .fileCancel: return "x.file.cancel"
        case .info: return "x.info"
        case .contact: return "x.contact"
        case .directDel: return "x.direct.del"
        case .infoProbe: return "x.info.probe"
        case .infoProbeCheck: return "x.info.probe.check"
        case .infoProbeOk: return "x.info.probe.ok"
        case .ok: return "x.ok"
        case .fileChunk: return "F"
        case .group(let event): return event.name
        case .unknown(let event, _): return event
        }
    }

    /// Events SimpleX defines that this build keeps as `.unknown` (calls, channel relays and
    /// channel subscribers, which this build does not implement).
    public static let simplexEventsKeptRaw: Set<String> = [
        "x.member", "x.call.inv", "x.call.offer",
        "x.call.answer", "x.call.extra", "x.call.end",
    ]
}

/// The params of `x.msg.update` (SimpleX `XMsgUpdate`).
public struct MsgUpdate: Hashable, Sendable {
    public var msgId: SharedMsgID
    public var content: MsgContent
    public var mentions: [String: MemberID]
    public var ttl: Int?
    public var live: Bool?
    /// Group message scope, kept as JSON.
    public var scope: JSON?
    public var asGroup: Bool?
    /// Per-message preferences (`{"commentsDisabled":true}` on channel posts), kept as JSON.
    public var prefs: JSON?

    public init(
        msgId: SharedMsgID, content: MsgContent, mentions: [String: MemberID] = [:], ttl: Int? = nil,
        live: Bool? = nil, scope: JSON? = nil, asGroup: Bool? = nil, prefs: JSON? = nil
    ) {
        self.msgId = msgId
        self.content = content
        self.mentions = mentions
        self.ttl = ttl
        self.live = live
        self.scope = scope
        self.asGroup = asGroup
        self.prefs = prefs
    }
}

/// The params of `x.contact` (SimpleX `XContact`): the requester's profile, the id that makes a
/// repeated request recognisable, and optionally the address's welcome message id and a first
/// message sent with the request.
public struct ContactRequest: Hashable, Sendable {
    public var profile: Profile
    public var contactReqId: XContactID?
    public var welcomeMsgId: SharedMsgID?
    public var requestMsg: RequestMessage?

    /// A message sent with a contact request (`msgId` and `content` in the params; SimpleX reads
    /// it only when both are there).
    public struct RequestMessage: Hashable, Sendable {
        public var msgId: SharedMsgID
        public var content: MsgContent

        public init(msgId: SharedMsgID, content: MsgContent) {
            self.msgId = msgId
            self.content = content
        }
    }

    public init(
        profile: Profile, contactReqId: XContactID? = nil, welcomeMsgId: SharedMsgID? = nil,
        requestMsg: RequestMessage? = nil
    ) {
        self.profile = profile
        self.contactReqId = contactReqId
        self.welcomeMsgId = welcomeMsgId
        self.requestMsg = requestMsg
    }
}
