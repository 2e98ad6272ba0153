/// An owner's invitation to a chat relay to serve a channel (SimpleX `GroupRelayInvitation`,
/// `x.grp.relay.inv`): who invites, the relay's member id, the channel's link. Channels are not
/// run by this client; the event is read and written back whole so it is never kept raw.
public struct GroupRelayInvitation: Hashable, Sendable, ChatJSONRepresentable {
    public var fromMember: MemberIdRole
    public var fromMemberProfile: Profile
    public var relayMemberId: MemberID
    public var groupLink: String
    public var otherFields: JSONObject

    public init(
        fromMember: MemberIdRole, fromMemberProfile: Profile, relayMemberId: MemberID, groupLink: String,
        otherFields: JSONObject = JSONObject()
    ) {
        self.fromMember = fromMember
        self.fromMemberProfile = fromMemberProfile
        self.relayMemberId = relayMemberId
        self.groupLink = groupLink
        self.otherFields = otherFields
    }

    static let modelledKeys: Set<String> = ["fromMember", "fromMemberProfile", "relayMemberId", "groupLink"]

    init(json: JSON, path: String) throws(ChatProtocolError) {
        let fields = try JSONFields(json, path: path)
        self.init(
            fromMember: try fields.decode("fromMember"),
            fromMemberProfile: try fields.decode("fromMemberProfile"),
            relayMemberId: try fields.decode("relayMemberId"), groupLink: try fields.string("groupLink"),
            otherFields: OtherFields.pick(fields.object, except: Self.modelledKeys))
    }

    var json: JSON {
        let pairs: [(String, JSON?)] = [
            ("fromMember", fromMember.json), ("fromMemberProfile", fromMemberProfile.json),
            ("relayMemberId", relayMemberId.json), ("groupLink", .string(groupLink)),
        ]
        return .object(.sorted(pairs + OtherFields.pairs(otherFields, except: Self.modelledKeys)))
    }
}
