import SimpleXProtocol

/// A member as the host introduces it (SimpleX `MemberInfo`, in `x.grp.mem.new`, `.intro`, `.fwd`):
/// id, role, chat versions and profile. Newer fields (`memberKey`) are kept in `otherFields`.
public struct MemberInfo: Hashable, Sendable, ChatJSONRepresentable {
    public var memberId: MemberID
    public var memberRole: GroupMemberRole
    public var chatVRange: VersionRange?
    public var profile: Profile
    public var otherFields: JSONObject

    public init(
        memberId: MemberID, memberRole: GroupMemberRole, chatVRange: VersionRange? = nil, profile: Profile,
        otherFields: JSONObject = JSONObject()
    ) {
        self.memberId = memberId
        self.memberRole = memberRole
        self.chatVRange = chatVRange
        self.profile = profile
        self.otherFields = otherFields
    }

    static let modelledKeys: Set<String> = ["memberId", "memberRole", "v", "profile"]

    init(json: JSON, path: String) throws(ChatProtocolError) {
        let fields = try JSONFields(json, path: path)
        self.init(
            memberId: try fields.decode("memberId"), memberRole: try fields.decode("memberRole"),
            chatVRange: try fields.optionalDecode("v"), profile: try fields.decode("profile"),
            otherFields: OtherFields.pick(fields.object, except: Self.modelledKeys))
    }

    var json: JSON {
        let pairs: [(String, JSON?)] = [
            ("memberId", memberId.json), ("memberRole", memberRole.json), ("v", chatVRange?.json),
            ("profile", profile.json),
        ]
        return .object(.sorted(pairs + OtherFields.pairs(otherFields, except: Self.modelledKeys)))
    }
}

/// An invitation to a group sent to a contact (SimpleX `GroupInvitation`, `x.grp.inv`): who
/// invites, the invitee's id and role, the connection to join, the group's profile.
public struct GroupInvitation: Hashable, Sendable, ChatJSONRepresentable {
    public var fromMember: MemberIdRole
    public var invitedMember: MemberIdRole
    /// The invitation link of the group-member connection the invitee joins.
    public var connRequest: String
    public var groupProfile: GroupProfile
    public var groupLinkId: GroupLinkID?
    public var groupSize: Int?
    /// `business` chat data, kept as JSON.
    public var business: JSON?

    public init(
        fromMember: MemberIdRole, invitedMember: MemberIdRole, connRequest: String,
        groupProfile: GroupProfile,
        groupLinkId: GroupLinkID? = nil, groupSize: Int? = nil, business: JSON? = nil
    ) {
        self.fromMember = fromMember
        self.invitedMember = invitedMember
        self.connRequest = connRequest
        self.groupProfile = groupProfile
        self.groupLinkId = groupLinkId
        self.groupSize = groupSize
        self.business = business
    }

    init(json: JSON, path: String) throws(ChatProtocolError) {
        let fields = try JSONFields(json, path: path)
        self.init(
            fromMember: try fields.decode("fromMember"), invitedMember: try fields.decode("invitedMember"),
            connRequest: try fields.string("connRequest"), groupProfile: try fields.decode("groupProfile"),
            groupLinkId: try fields.optionalDecode("groupLinkId"),
            groupSize: try fields.optionalInt("groupSize"),
            business: fields.optionalValue("business"))
    }

    var json: JSON {
        .object(
            .sorted([
                ("fromMember", fromMember.json), ("invitedMember", invitedMember.json),
                ("connRequest", .string(connRequest)), ("groupProfile", groupProfile.json),
                ("groupLinkId", groupLinkId?.json), ("groupSize", groupSize.map { .number(JSONNumber($0)) }),
                ("business", business),
            ]))
    }
}

/// The invitations a new member makes for one existing member (SimpleX `IntroInvitation`, in
/// `x.grp.mem.inv` and `x.grp.mem.fwd`): the group-member connection and, optionally, a direct one.
public struct IntroInvitation: Hashable, Sendable, ChatJSONRepresentable {
    public var groupConnReq: String
    public var directConnReq: String?

    public init(groupConnReq: String, directConnReq: String? = nil) {
        self.groupConnReq = groupConnReq
        self.directConnReq = directConnReq
    }

    init(json: JSON, path: String) throws(ChatProtocolError) {
        let fields = try JSONFields(json, path: path)
        self.init(
            groupConnReq: try fields.string("groupConnReq"),
            directConnReq: try fields.optionalString("directConnReq"))
    }

    var json: JSON {
        .object(
            .sorted([
                ("groupConnReq", .string(groupConnReq)), ("directConnReq", directConnReq.map(JSON.string)),
            ]))
    }
}

/// A member's restrictions (SimpleX `MemberRestrictions`, `x.grp.mem.restrict`, `x.grp.mem.intro`).
public struct MemberRestrictions: Hashable, Sendable, ChatJSONRepresentable {
    /// `blocked` or `unrestricted`.
    public enum Restriction: String, Hashable, Sendable { case blocked, unrestricted }
    public var restriction: Restriction

    public init(restriction: Restriction) { self.restriction = restriction }

    init(json: JSON, path: String) throws(ChatProtocolError) {
        let fields = try JSONFields(json, path: path)
        let text = try fields.string("restriction")
        guard let restriction = Restriction(rawValue: text) else {
            throw .invalidValue(path: fields.fieldPath("restriction"), reason: "unknown restriction \(text)")
        }
        self.init(restriction: restriction)
    }

    var json: JSON { .object(.sorted([("restriction", .string(restriction.rawValue))])) }
}
