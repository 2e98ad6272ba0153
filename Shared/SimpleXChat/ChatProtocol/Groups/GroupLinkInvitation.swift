/// The host's reply to a request through a group link (SimpleX `GroupLinkInvitation`,
/// `x.grp.link.inv`): the host, the joiner's id and role, the group's profile.
public struct GroupLinkInvitation: Hashable, Sendable, ChatJSONRepresentable {
    public var fromMember: MemberIdRole
    public var fromMemberName: String
    public var invitedMember: MemberIdRole
    public var groupProfile: GroupProfile
    /// The admission state (`accepted`, `pending`, `pending_review`), when the host sets one.
    public var accepted: String?
    public var business: JSON?
    public var groupSize: Int?

    public init(
        fromMember: MemberIdRole, fromMemberName: String, invitedMember: MemberIdRole,
        groupProfile: GroupProfile,
        accepted: String? = nil, business: JSON? = nil, groupSize: Int? = nil
    ) {
        self.fromMember = fromMember
        self.fromMemberName = fromMemberName
        self.invitedMember = invitedMember
        self.groupProfile = groupProfile
        self.accepted = accepted
        self.business = business
        self.groupSize = groupSize
    }

    init(json: JSON, path: String) throws(ChatProtocolError) {
        let fields = try JSONFields(json, path: path)
        self.init(
            fromMember: try fields.decode("fromMember"), fromMemberName: try fields.string("fromMemberName"),
            invitedMember: try fields.decode("invitedMember"),
            groupProfile: try fields.decode("groupProfile"),
            accepted: try fields.optionalString("accepted"), business: fields.optionalValue("business"),
            groupSize: try fields.optionalInt("groupSize"))
    }

    var json: JSON {
        .object(
            .sorted([
                ("fromMember", fromMember.json), ("fromMemberName", .string(fromMemberName)),
                ("invitedMember", invitedMember.json), ("groupProfile", groupProfile.json),
                ("accepted", accepted.map(JSON.string)), ("business", business),
                ("groupSize", groupSize.map { .number(JSONNumber($0)) }),
            ]))
    }
}

/// The host's refusal of a request through a group link (SimpleX `GroupLinkRejection`,
/// `x.grp.link.reject`), with the reason (`long_name`, `blocked_name`, ...).
public struct GroupLinkRejection: Hashable, Sendable, ChatJSONRepresentable {
    public var fromMember: MemberIdRole
    public var invitedMember: MemberIdRole
    public var groupProfile: GroupProfile
    public var rejectionReason: String

    public init(
        fromMember: MemberIdRole, invitedMember: MemberIdRole, groupProfile: GroupProfile,
        rejectionReason: String
    ) {
        self.fromMember = fromMember
        self.invitedMember = invitedMember
        self.groupProfile = groupProfile
        self.rejectionReason = rejectionReason
    }

    init(json: JSON, path: String) throws(ChatProtocolError) {
        let fields = try JSONFields(json, path: path)
        self.init(
            fromMember: try fields.decode("fromMember"), invitedMember: try fields.decode("invitedMember"),
            groupProfile: try fields.decode("groupProfile"),
            rejectionReason: try fields.string("rejectionReason"))
    }

    var json: JSON {
        .object(
            .sorted([
                ("fromMember", fromMember.json), ("invitedMember", invitedMember.json),
                ("groupProfile", groupProfile.json), ("rejectionReason", .string(rejectionReason)),
            ]))
    }
}

/// A message an admin forwards to members not yet connected to its sender (SimpleX
/// `x.grp.msg.forward`): the sender's id (and name), the message itself and when it was sent.
public struct GroupMsgForward: Hashable, Sendable {
    public var memberId: MemberID?
    public var memberName: String?
    public var msg: ChatMessage
    public var msgTs: ChatTimestamp

    public init(memberId: MemberID?, memberName: String? = nil, msg: ChatMessage, msgTs: ChatTimestamp) {
        self.memberId = memberId
        self.memberName = memberName
        self.msg = msg
        self.msgTs = msgTs
    }
}
