/// A member's role in a group (SimpleX `GroupMemberRole`), ordered from least to most power:
/// `relay` < `observer` < `commenter` < `author` < `member` < `moderator` < `admin` < `owner`.
public enum GroupMemberRole: String, CaseIterable, Comparable, Hashable, Sendable {
    case relay, observer, commenter, author, member, moderator, admin, owner

    /// `a member`, `an owner`: for messages.
    public var withArticle: String {
        (rawValue.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + rawValue
    }

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    public static func < (lhs: GroupMemberRole, rhs: GroupMemberRole) -> Bool { lhs.rank < rhs.rank }
}

extension GroupMemberRole: ChatJSONRepresentable {
    init(json: JSON, path: String) throws(ChatProtocolError) {
        let text = try JSONFields.string(json, path: path)
        guard let role = GroupMemberRole(rawValue: text) else {
            throw .invalidValue(path: path, reason: "unknown member role \(text)")
        }
        self = role
    }

    var json: JSON { .string(rawValue) }
}

/// A group link's id in its client data and in `x.grp.inv` (SimpleX `GroupLinkId`).
public struct GroupLinkID: Base64Bytes, ChatJSONRepresentable {
    public let bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }
}

/// A member named by id with a role (SimpleX `MemberIdRole`: `fromMember`, `invitedMember`).
public struct MemberIdRole: Hashable, Sendable, ChatJSONRepresentable {
    public var memberId: MemberID
    public var memberRole: GroupMemberRole

    public init(memberId: MemberID, memberRole: GroupMemberRole) {
        self.memberId = memberId
        self.memberRole = memberRole
    }

    init(json: JSON, path: String) throws(ChatProtocolError) {
        let fields = try JSONFields(json, path: path)
        self.init(memberId: try fields.decode("memberId"), memberRole: try fields.decode("memberRole"))
    }

    var json: JSON { .object(.sorted([("memberId", memberId.json), ("memberRole", memberRole.json)])) }
}

/// Members of an object this build does not model, kept so the object is written back whole.
struct OtherFields {
    static func pick(_ object: JSONObject, except modelled: Set<String>) -> JSONObject {
        JSONObject(object.members.filter { !modelled.contains($0.key) }.map { ($0.key, $0.value) })
    }

    static func pairs(_ object: JSONObject, except modelled: Set<String>) -> [(String, JSON?)] {
        object.members.filter { !modelled.contains($0.key) }.map { ($0.key, $0.value) }
    }
}
