extension GroupEvent {
    /// Reads group event `event` from its params; nil when `event` is not a group event.
    init?(event: String, params p: JSONFields) throws(ChatProtocolError) {
        switch event {
        case "x.grp.inv": self = .inv(try p.decode("groupInvitation"))
        case "x.grp.acpt": self = .acpt(memberId: try p.decode("memberId"))
        case "x.grp.link.inv": self = .linkInv(try p.decode("groupLinkInvitation"))
        case "x.grp.link.reject": self = .linkReject(try p.decode("groupLinkRejection"))
        case "x.grp.link.mem": self = .linkMem(try p.decode("profile"))
        case "x.grp.link.acpt":
            self = .linkAcpt(
                acceptance: try p.string("acceptance"), role: try p.decode("role"),
                memberId: try p.decode("memberId"))
        case "x.grp.mem.new": self = .memNew(try p.decode("memberInfo"), scope: p.optionalValue("scope"))
        case "x.grp.mem.intro":
            self = .memIntro(
                try p.decode("memberInfo"), restrictions: try p.optionalDecode("memberRestrictions"))
        case "x.grp.mem.inv":
            self = .memInv(memberId: try p.decode("memberId"), intro: try p.decode("memberIntro"))
        case "x.grp.mem.fwd": self = .memFwd(try p.decode("memberInfo"), intro: try p.decode("memberIntro"))
        case "x.grp.mem.info":
            self = .memInfo(memberId: try p.decode("memberId"), profile: try p.decode("profile"))
        case "x.grp.mem.role": self = .memRole(memberId: try p.decode("memberId"), role: try p.decode("role"))
        case "x.grp.mem.restrict":
            self = .memRestrict(
                memberId: try p.decode("memberId"), restrictions: try p.decode("memberRestrictions"))
        case "x.grp.mem.con": self = .memCon(memberId: try p.decode("memberId"))
        case "x.grp.mem.con.all": self = .memConAll(memberId: try p.decode("memberId"))
        case "x.grp.mem.del":
            // SimpleX reads a missing or malformed `messages` as false.
            self = .memDel(
                memberId: try p.decode("memberId"), messages: p.optionalValue("messages")?.boolValue ?? false)
        case "x.grp.leave": self = .leave
        case "x.grp.del": self = .del
        case "x.grp.info": self = .info(try p.decode("groupProfile"))
        case "x.grp.prefs": self = .prefs(try p.decode("groupPreferences"))
        case "x.grp.direct.inv":
            self = .directInv(
                connReq: try p.string("connReq"), content: try p.optionalDecode("content"),
                scope: p.optionalValue("scope"))
        case "x.grp.msg.forward":
            let msg = try ChatMessage(json: try p.value("msg"), path: p.fieldPath("msg"))
            if case .group(.msgForward) = msg.event {
                throw .invalidValue(
                    path: p.fieldPath("msg"), reason: "a forwarded message cannot forward another")
            }
            self = .msgForward(
                GroupMsgForward(
                    memberId: try p.optionalDecode("memberId"),
                    memberName: try p.optionalString("memberName"),
                    msg: msg, msgTs: try p.decode("msgTs")))
        case "x.grp.relay.inv": self = .relayInv(try p.decode("groupRelayInvitation"))
        case "x.grp.relay.acpt": self = .relayAcpt(relayLink: try p.string("relayLink"))
        case "x.grp.relay.test":
            self = .relayTest(
                challenge: try p.string("challenge"), signature: try p.optionalString("signature"))
        default: return nil
        }
    }

    /// The params object, keys sorted, absent optionals left out. A forwarded message is a value
    /// inside the params, so its keys are sorted as well (as aeson writes a nested object).
    var params: JSONObject {
        switch self {
        case .inv(let invitation): return .sorted([("groupInvitation", invitation.json)])
        case .acpt(let memberId), .memCon(let memberId), .memConAll(let memberId):
            return .sorted([("memberId", memberId.json)])
        case .linkInv(let invitation): return .sorted([("groupLinkInvitation", invitation.json)])
        case .linkReject(let rejection): return .sorted([("groupLinkRejection", rejection.json)])
        case .linkMem(let profile): return .sorted([("profile", profile.json)])
        case .linkAcpt(let acceptance, let role, let memberId):
            return .sorted([
                ("acceptance", .string(acceptance)), ("role", role.json), ("memberId", memberId.json),
            ])
        case .memNew(let info, let scope): return .sorted([("memberInfo", info.json), ("scope", scope)])
        case .memIntro(let info, let restrictions):
            return .sorted([("memberInfo", info.json), ("memberRestrictions", restrictions?.json)])
        case .memInv(let memberId, let intro):
            return .sorted([("memberId", memberId.json), ("memberIntro", intro.json)])
        case .memFwd(let info, let intro):
            return .sorted([("memberInfo", info.json), ("memberIntro", intro.json)])
        case .memInfo(let memberId, let profile):
            return .sorted([("memberId", memberId.json), ("profile", profile.json)])
        case .memRole(let memberId, let role):
            return .sorted([("memberId", memberId.json), ("role", role.json)])
        case .memRestrict(let memberId, let restrictions):
            return .sorted([("memberId", memberId.json), ("memberRestrictions", restrictions.json)])
        case .memDel(let memberId, let messages):
            return .sorted([("memberId", memberId.json), ("messages", messages ? .bool(true) : nil)])
        case .leave, .del: return JSONObject()
        case .info(let profile): return .sorted([("groupProfile", profile.json)])
        case .prefs(let preferences): return .sorted([("groupPreferences", preferences.json)])
        case .directInv(let connReq, let content, let scope):
            return .sorted([("connReq", .string(connReq)), ("content", content?.json), ("scope", scope)])
        case .msgForward(let forward):
            return .sorted([
                ("memberId", forward.memberId?.json), ("memberName", forward.memberName.map(JSON.string)),
                ("msg", forward.msg.json.sortedRecursively()), ("msgTs", forward.msgTs.json),
            ])
        case .relayInv(let invitation): return .sorted([("groupRelayInvitation", invitation.json)])
        case .relayAcpt(let link): return .sorted([("relayLink", .string(link))])
        case .relayTest(let challenge, let signature):
            return .sorted([("challenge", .string(challenge)), ("signature", signature.map(JSON.string))])
        }
    }
}
