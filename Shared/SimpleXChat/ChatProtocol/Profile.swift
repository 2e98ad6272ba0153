/// The profile a user shows a contact (SimpleX `Profile`, in `x.info`, `x.contact` and group
/// events). Preferences stay JSON (timed messages, full delete, reactions, voice, files, calls,
/// bot commands) until the chat core models them; fields this build does not know (`peerType` and
/// whatever a newer client adds) are kept in `otherFields` and written back.
public struct Profile: Hashable, Sendable {
    public var displayName: String
    public var fullName: String
    /// A short description, at most 160 characters in SimpleX's apps.
    public var shortDescr: String?
    /// A data-URI image.
    public var image: String?
    /// The contact's address link as text.
    public var contactLink: String?
    public var preferences: JSON?
    /// Members of the profile object this build does not model, kept in their order.
    public var otherFields: JSONObject

    public init(
        displayName: String, fullName: String, shortDescr: String? = nil, image: String? = nil,
        contactLink: String? = nil, preferences: JSON? = nil, otherFields: JSONObject = JSONObject()
    ) {
        self.displayName = displayName
        self.fullName = fullName
        self.shortDescr = shortDescr
        self.image = image
        self.contactLink = contactLink
        self.preferences = preferences
        self.otherFields = otherFields
    }

    static let modelledKeys: Set<String> = [
        "displayName", "fullName", "shortDescr", "image", "contactLink", "preferences",
    ]
}

extension Profile: ChatJSONRepresentable {
    /// Reads a profile object; `displayName` and `fullName` are required.
    public init(json: JSON) throws(ChatProtocolError) {
        try self.init(json: json, path: "profile")
    }

    init(json: JSON, path: String) throws(ChatProtocolError) {
        let fields = try JSONFields(json, path: path)
        self.init(
            displayName: try fields.string("displayName"), fullName: try fields.string("fullName"),
            shortDescr: try fields.optionalString("shortDescr"), image: try fields.optionalString("image"),
            contactLink: try fields.optionalString("contactLink"),
            preferences: fields.optionalValue("preferences"),
            otherFields: JSONObject(
                fields.object.members.filter { !Profile.modelledKeys.contains($0.key) }.map {
                    ($0.key, $0.value)
                }))
    }

    /// The profile object, keys in SimpleX's (sorted) order, absent optionals left out.
    public var json: JSON {
        var pairs: [(String, JSON?)] = [
            ("displayName", .string(displayName)), ("fullName", .string(fullName)),
            ("shortDescr", shortDescr.map(JSON.string)), ("image", image.map(JSON.string)),
            ("contactLink", contactLink.map(JSON.string)), ("preferences", preferences),
        ]
        pairs += otherFields.members.filter { !Profile.modelledKeys.contains($0.key) }.map {
            ($0.key, $0.value)
        }
        return .object(.sorted(pairs))
    }
}

extension Profile {
    /// Why `name` cannot be the user's display name, if it cannot: the line mode names chats by
    /// one word, and `@`, `#` and `/` at the start of a line are commands (both clients check it).
    public static func displayNameProblem(_ name: String) -> String? {
        if name.isEmpty { return "a display name is needed" }
        if name.contains(where: \.isWhitespace) { return "a display name is one word, without spaces" }
        if let first = name.first, "@#/".contains(first) { return "a display name cannot start with \(first)" }
        return nil
    }
}
