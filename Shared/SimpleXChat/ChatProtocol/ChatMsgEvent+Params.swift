extension ChatMsgEvent {
    /// Reads event `event` from its params. A known event whose params lack a required field, or
    /// hold one of the wrong kind, is an error (SimpleX drops such a message); any other event name
    /// is `.unknown` with the params as they came.
    public init(event: String, params: JSONObject) throws(ChatProtocolError) {
        try self.init(event: event, params: params, path: "params")
    }

    init(event: String, params: JSONObject, path: String) throws(ChatProtocolError) {
        let p = JSONFields(object: params, path: path)
        switch event {
        case "x.msg.new": self = .msgNew(try MsgContainer(params: p))
        case "x.msg.file.descr":
            self = .msgFileDescr(msgId: try p.decode("msgId"), fileDescr: try p.decode("fileDescr"))
        case "x.msg.update":
            self = .msgUpdate(
                MsgUpdate(
                    msgId: try p.decode("msgId"), content: try p.decode("content"),
                    mentions: try MsgContainer.mentions(p),
                    ttl: try p.optionalInt("ttl"), live: try p.optionalBool("live"),
                    scope: p.optionalValue("scope"),
                    asGroup: try p.optionalBool("asGroup"), prefs: p.optionalValue("prefs")))
        case "x.msg.del":
            self = .msgDel(
                msgId: try p.decode("msgId"), memberId: try p.optionalDecode("memberId"),
                scope: p.optionalValue("scope"))
        case "x.msg.deleted": self = .msgDeleted
        case "x.msg.react":
            self = .msgReact(
                msgId: try p.decode("msgId"), memberId: try p.optionalDecode("memberId"),
                scope: p.optionalValue("scope"),
                reaction: try p.decode("reaction"), add: try p.bool("add"))
        case "x.file": self = .file(try p.decode("file"))
        case "x.file.acpt": self = .fileAcpt(fileName: try p.string("fileName"))
        case "x.file.acpt.inv":
            self = .fileAcptInv(
                msgId: try p.decode("msgId"), fileConnReq: try p.optionalString("fileConnReq"),
                fileName: try p.string("fileName"))
        case "x.file.cancel": self = .fileCancel(msgId: try p.decode("msgId"))
        case "x.info": self = .info(try p.decode("profile"))
        case "x.contact":
            let requestId: SharedMsgID? = try p.optionalDecode("msgId")
            let requestContent: MsgContent? = try p.optionalDecode("content")
            var requestMsg: ContactRequest.RequestMessage?
            if let requestId, let requestContent {
                requestMsg = ContactRequest.RequestMessage(msgId: requestId, content: requestContent)
            }
            self = .contact(
                ContactRequest(
                    profile: try p.decode("profile"), contactReqId: try p.optionalDecode("contactReqId"),
                    welcomeMsgId: try p.optionalDecode("welcomeMsgId"), requestMsg: requestMsg))
        case "x.direct.del": self = .directDel
        case "x.info.probe": self = .infoProbe(try p.decode("probe"))
        case "x.info.probe.check": self = .infoProbeCheck(try p.decode("probeHash"))
        case "x.info.probe.ok": self = .infoProbeOk(try p.decode("probe"))
        case "x.ok": self = .ok
        default:
            if let group = try GroupEvent(event: event, params: p) {
                self = .group(group)
            } else {
                self = .unknown(event: event, params: params)
            }
        }
    }

    /// The params object: keys in SimpleX's (sorted) order, absent optionals left out; an unknown
    /// event's params as they came. A binary file chunk has none (empty).
    public var params: JSONObject {
        switch self {
        case .msgNew(let container): return container.params
        case .msgFileDescr(let msgId, let fileDescr):
            return .sorted([("msgId", msgId.json), ("fileDescr", fileDescr.json)])
        case .msgUpdate(let update):
            return .sorted([
                ("msgId", update.msgId.json), ("content", update.content.json),
                ("mentions", MsgContainer.mentionsJSON(update.mentions)),
                ("ttl", update.ttl.map { .number(JSONNumber($0)) }),
                ("live", update.live.map(JSON.bool)), ("scope", update.scope),
                ("asGroup", update.asGroup.map(JSON.bool)),
                ("prefs", update.prefs),
            ])
        case .msgDel(let msgId, let memberId, let scope):
            return .sorted([("msgId", msgId.json), ("memberId", memberId?.json), ("scope", scope)])
        case .msgReact(let msgId, let memberId, let scope, let reaction, let add):
            return .sorted([
                ("msgId", msgId.json), ("memberId", memberId?.json), ("scope", scope),
                ("reaction", reaction.json),
                ("add", .bool(add)),
            ])
        case .file(let invitation): return .sorted([("file", invitation.json)])
        case .fileAcpt(let fileName): return .sorted([("fileName", .string(fileName))])
        case .fileAcptInv(let msgId, let fileConnReq, let fileName):
            return .sorted([
                ("msgId", msgId.json), ("fileConnReq", fileConnReq.map(JSON.string)),
                ("fileName", .string(fileName)),
            ])
        case .fileCancel(let msgId): return .sorted([("msgId", msgId.json)])
        case .info(let profile): return .sorted([("profile", profile.json)])
        case .contact(let request):
            return .sorted([
                ("profile", request.profile.json), ("contactReqId", request.contactReqId?.json),
                ("welcomeMsgId", request.welcomeMsgId?.json), ("msgId", request.requestMsg?.msgId.json),
                ("content", request.requestMsg?.content.json),
            ])
        case .infoProbe(let probe), .infoProbeOk(let probe): return .sorted([("probe", probe.json)])
        case .infoProbeCheck(let hash): return .sorted([("probeHash", hash.json)])
        case .msgDeleted, .directDel, .ok, .fileChunk: return JSONObject()
        case .group(let event): return event.params
        case .unknown(_, let params): return params
        }
    }
}
