/// A group event (SimpleX's `x.grp.*` `ChatMsgEvent`s), each with its params typed.
public enum GroupEvent: Hashable, Sendable {
    /// `x.grp.inv`: an admin invites a contact, over their direct connection.
    case inv(GroupInvitation)
    /// `x.grp.acpt`: the invitee joins the invitation's connection (its connection info).
    case acpt(memberId: MemberID)
    /// `x.grp.link.inv`: the host's answer to a request through the group link.
    case linkInv(GroupLinkInvitation)
    /// `x.grp.link.reject`: the host refuses a request through the group link.
    case linkReject(GroupLinkRejection)
    /// `x.grp.link.mem`: the host's profile, sent to a member who joined by link.
    case linkMem(Profile)
    /// `x.grp.link.acpt`: the admission decision for a member under review.
    case linkAcpt(acceptance: String, role: GroupMemberRole, memberId: MemberID)
    /// `x.grp.mem.new`: the host announces a new member to the current members.
    case memNew(MemberInfo, scope: JSON?)
    /// `x.grp.mem.intro`: the host introduces a current member to the new one.
    case memIntro(MemberInfo, restrictions: MemberRestrictions?)
    /// `x.grp.mem.inv`: the new member's invitations for member `memberId`, sent to the host.
    case memInv(memberId: MemberID, intro: IntroInvitation)
    /// `x.grp.mem.fwd`: the host forwards the new member's invitations to an existing member.
    case memFwd(MemberInfo, intro: IntroInvitation)
    /// `x.grp.mem.info`: the member's id and profile, connection info between introduced members.
    case memInfo(memberId: MemberID, profile: Profile)
    /// `x.grp.mem.role`: member `memberId` now has `role`.
    case memRole(memberId: MemberID, role: GroupMemberRole)
    /// `x.grp.mem.restrict`: member `memberId` is blocked or unblocked for all.
    case memRestrict(memberId: MemberID, restrictions: MemberRestrictions)
    /// `x.grp.mem.con`: the sender is now connected to member `memberId`; stop forwarding.
    case memCon(memberId: MemberID)
    /// `x.grp.mem.con.all`: declared by SimpleX, not acted on.
    case memConAll(memberId: MemberID)
    /// `x.grp.mem.del`: member `memberId` is removed (with their messages when `messages`).
    case memDel(memberId: MemberID, messages: Bool)
    /// `x.grp.leave`: the sender left the group.
    case leave
    /// `x.grp.del`: the owner deleted the group.
    case del
    /// `x.grp.info`: the group's new profile.
    case info(GroupProfile)
    /// `x.grp.prefs`: the group's new preferences.
    case prefs(GroupPreferences)
    /// `x.grp.direct.inv`: an invitation to a direct chat, from member to member.
    case directInv(connReq: String, content: MsgContent?, scope: JSON?)
    /// `x.grp.msg.forward`: a message from another member, forwarded by an admin.
    indirect case msgForward(GroupMsgForward)
    /// `x.grp.relay.inv`: a channel owner invites a chat relay (channels are not run here).
    case relayInv(GroupRelayInvitation)
    /// `x.grp.relay.acpt`: the relay accepts, with its link.
    case relayAcpt(relayLink: String)
    /// `x.grp.relay.test`: a relay's challenge, signed in the answer.
    case relayTest(challenge: String, signature: String?)

    /// The `"event"` name.
    public var name: String {
        switch self {
        case .inv: return "x.grp.inv"
        case .acpt: return "x.grp.acpt"
        case .linkInv: return "x.grp.link.inv"
        case .linkReject: return "x.grp.link.reject"
        case .linkMem: return "x.grp.link.mem"
        case .linkAcpt: return "x.grp.link.acpt"
        case .memNew: return "x.grp.mem.new"
        case .memIntro: return "x.grp.mem.intro"
        case .memInv: return "x.grp.mem.inv"
        case .memFwd: return "x.grp.mem.fwd"
        case .memInfo: return "x.grp.mem.info"
        case .memRole: return "x.grp.mem.role"
        case .memRestrict: return "x.grp.mem.restrict"
        case .memCon: return "x.grp.mem.con"
        case .memConAll: return "x.grp.mem.con.all"
        case .memDel: return "x.grp.mem.del"
        case .leave: return "x.grp.leave"
        case .del: return "x.grp.del"
        case .info: return "x.grp.info"
        case .prefs: return "x.grp.prefs"
        case .directInv: return "x.grp.direct.inv"
        case .msgForward: return "x.grp.msg.forward"
        case .relayInv: return "x.grp.relay.inv"
        case .relayAcpt: return "x.grp.relay.acpt"
        case .relayTest: return "x.grp.relay.test"
        }
    }

    /// The names of the group events this build models.
    public static let names: Set<String> = [
        "x.grp.inv", "x.grp.acpt", "x.grp.link.inv", "x.grp.link.reject", "x.grp.link.mem", "x.grp.link.acpt",
        "x.grp.mem.new", "x.grp.mem.intro", "x.grp.mem.inv", "x.grp.mem.fwd", "x.grp.mem.info",
        "x.grp.mem.role",
        "x.grp.mem.restrict", "x.grp.mem.con", "x.grp.mem.con.all", "x.grp.mem.del", "x.grp.leave",
        "x.grp.del",
        "x.grp.info", "x.grp.prefs", "x.grp.direct.inv", "x.grp.msg.forward",
        "x.grp.relay.inv", "x.grp.relay.acpt", "x.grp.relay.test",
    ]
}
