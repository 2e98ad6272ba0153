/// A group's profile (SimpleX `GroupProfile`): what `x.grp.inv`, `x.grp.link.inv` and `x.grp.info`
/// carry. `groupPreferences` stays JSON (`{"voice":{"enable":"on"},...}`) like a contact's
/// preferences; fields this build does not model (`memberAdmission`, `publicGroup`, newer ones)
/// are kept in `otherFields` and written back.
public struct GroupProfile: Hashable, Sendable {
    public var displayName: String
    public var fullName: String
    public var shortDescr: String?
    /// The welcome message, sent to each new member.
    public var description: String?
    /// A data-URI image.
    public var image: String?
    public var groupPreferences: JSON?
    public var otherFields: JSONObject

    public init(
        displayName: String, fullName: String = "", shortDescr: String? = nil, description: String? = nil,
        image: String? = nil, groupPreferences: JSON? = nil, otherFields: JSONObject = JSONObject()
    ) {
        self.displayName = displayName
        self.fullName = fullName
        self.shortDescr = shortDescr
        self.description = description
        self.image = image
        self.groupPreferences = groupPreferences
        self.otherFields = otherFields
    }

    static let modelledKeys: Set<String> = [
        "displayName", "fullName", "shortDescr", "description", "image", "groupPreferences",
    ]

    /// Whether this profile marks a channel (`publicGroup`), which a p2p group must not have.
    public var isPublicGroup: Bool { otherFields["publicGroup"].map { $0 != .null } ?? false }
}

extension GroupProfile: ChatJSONRepresentable {
    /// Reads a group profile object; `displayName` and `fullName` are required.
    public init(json: JSON) throws(ChatProtocolError) {
        try self.init(json: json, path: "groupProfile")
    }

    init(json: JSON, path: String) throws(ChatProtocolError) {
        let fields = try JSONFields(json, path: path)
        self.init(
            displayName: try fields.string("displayName"), fullName: try fields.string("fullName"),
            shortDescr: try fields.optionalString("shortDescr"),
            description: try fields.optionalString("description"), image: try fields.optionalString("image"),
            groupPreferences: fields.optionalValue("groupPreferences"),
            otherFields: OtherFields.pick(fields.object, except: Self.modelledKeys))
    }

    /// The profile object, keys sorted, absent optionals left out.
    public var json: JSON {
        let pairs: [(String, JSON?)] = [
            ("displayName", .string(displayName)), ("fullName", .string(fullName)),
            ("shortDescr", shortDescr.map(JSON.string)), ("description", description.map(JSON.string)),
            ("image", image.map(JSON.string)), ("groupPreferences", groupPreferences),
        ]
        return .object(.sorted(pairs + OtherFields.pairs(otherFields, except: Self.modelledKeys)))
    }
}
