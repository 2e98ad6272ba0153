/// A group's preferences (SimpleX `GroupPreferences`, in `groupProfile.groupPreferences` and
/// `x.grp.prefs`): per feature `{"enable":"on|off","role"?,"ttl"?}`. Features absent from the
/// object take SimpleX's defaults; members this build does not model are kept and written back.
public struct GroupPreferences: Hashable, Sendable {
    /// A group feature, by its JSON key.
    public enum Feature: String, CaseIterable, Hashable, Sendable {
        case timedMessages, directMessages, fullDelete, reactions, voice, files, simplexLinks, reports,
            history, support

        /// The name SimpleX shows (`Files and media: off`).
        public var title: String {
            switch self {
            case .timedMessages: "Disappearing messages"
            case .directMessages: "Direct messages"
            case .fullDelete: "Full deletion"
            case .reactions: "Message reactions"
            case .voice: "Voice messages"
            case .files: "Files and media"
            case .simplexLinks: "SimpleX links"
            case .reports: "Member reports"
            case .history: "Recent history"
            case .support: "Chat with admins"
            }
        }

        /// SimpleX's `defaultGroupPrefs`: what a profile without the feature means.
        public var defaultOn: Bool {
            switch self {
            case .timedMessages, .directMessages, .fullDelete, .history: false
            case .reactions, .voice, .files, .simplexLinks, .reports, .support: true
            }
        }
    }

    /// One feature's setting: on or off, from which role (`role`), how long messages live (`ttl`).
    public struct Preference: Hashable, Sendable {
        public var enable: Bool
        public var role: GroupMemberRole?
        /// Seconds, for `timedMessages`.
        public var ttl: Int?
        public var otherFields: JSONObject

        public init(
            enable: Bool, role: GroupMemberRole? = nil, ttl: Int? = nil, otherFields: JSONObject = [:]
        ) {
            self.enable = enable
            self.role = role
            self.ttl = ttl
            self.otherFields = otherFields
        }

        static let modelledKeys: Set<String> = ["enable", "role", "ttl"]
    }

    public var preferences: [Feature: Preference]
    public var otherFields: JSONObject

    public init(_ preferences: [Feature: Preference] = [:], otherFields: JSONObject = [:]) {
        self.preferences = preferences
        self.otherFields = otherFields
    }

    /// What a group made here starts with (as SimpleX's CLI makes one): direct messages and
    /// history on beside the defaults.
    public static let newGroup = GroupPreferences([
        .directMessages: Preference(enable: true), .history: Preference(enable: true),
    ])

    /// Whether `feature` is on, taking the default when the group does not set it.
    public func isOn(_ feature: Feature) -> Bool { preferences[feature]?.enable ?? feature.defaultOn }

    /// Whether a member with `role` may use `feature`: it is on, and the role is at least the one set.
    public func allows(_ feature: Feature, role: GroupMemberRole) -> Bool {
        guard isOn(feature) else { return false }
        return preferences[feature]?.role.map { role >= $0 } ?? true
    }

    /// `Files and media: off`, `Disappearing messages: on (1 week)`, `Voice messages: on for admins`.
    public func text(_ feature: Feature) -> String {
        var text = "\(feature.title): \(isOn(feature) ? "on" : "off")"
        if isOn(feature), feature == .timedMessages, let ttl = preferences[feature]?.ttl {
            text += " (\(Self.ttlText(ttl)))"
        }
        if isOn(feature), let role = preferences[feature]?.role { text += " for \(role.rawValue)s" }
        return text
    }

    /// `30 sec`, `5 min`, `1 hour`, `2 days`, `1 week`, `3 months`: the largest unit that divides it.
    static func ttlText(_ seconds: Int) -> String {
        let units: [(Int, String)] = [
            (30 * 86_400, "month"), (7 * 86_400, "week"), (86_400, "day"), (3_600, "hour"),
        ]
        for (size, name) in units where seconds >= size && seconds % size == 0 {
            let count = seconds / size
            return "\(count) \(name)\(count == 1 ? "" : "s")"
        }
        if seconds >= 60 && seconds % 60 == 0 { return "\(seconds / 60) min" }
        return "\(seconds) sec"
    }
}

extension GroupPreferences: ChatJSONRepresentable {
    /// Reads a preferences object; an unknown feature is kept as it is.
    public init(json: JSON) throws(ChatProtocolError) { try self.init(json: json, path: "groupPreferences") }

    init(json: JSON, path: String) throws(ChatProtocolError) {
        let fields = try JSONFields(json, path: path)
        var preferences: [Feature: Preference] = [:]
        for feature in Feature.allCases {
            guard let value = fields.optionalValue(feature.rawValue) else { continue }
            let preference = try JSONFields(value, path: fields.fieldPath(feature.rawValue))
            let enable = try preference.string("enable")
            guard enable == "on" || enable == "off" else {
                throw .invalidValue(path: preference.fieldPath("enable"), reason: "not on or off: \(enable)")
            }
            preferences[feature] = Preference(
                enable: enable == "on", role: try preference.optionalDecode("role"),
                ttl: try preference.optionalInt("ttl"),
                otherFields: OtherFields.pick(preference.object, except: Preference.modelledKeys))
        }
        self.init(
            preferences,
            otherFields: OtherFields.pick(fields.object, except: Set(Feature.allCases.map(\.rawValue))))
    }

    /// The preferences object, keys sorted.
    public var json: JSON {
        let features: [(String, JSON?)] = Feature.allCases.compactMap { feature in
            preferences[feature].map { preference in
                let pairs: [(String, JSON?)] = [
                    ("enable", .string(preference.enable ? "on" : "off")), ("role", preference.role?.json),
                    ("ttl", preference.ttl.map { .number(JSONNumber($0)) }),
                ]
                return (
                    feature.rawValue,
                    .object(
                        .sorted(
                            pairs + OtherFields.pairs(preference.otherFields, except: Preference.modelledKeys)
                        ))
                )
            }
        }
        return .object(
            .sorted(features + OtherFields.pairs(otherFields, except: Set(Feature.allCases.map(\.rawValue)))))
    }
}

extension GroupProfile {
    /// The profile's preferences; a malformed object reads as the defaults.
    public var preferences: GroupPreferences {
        get { groupPreferences.flatMap { try? GroupPreferences(json: $0) } ?? GroupPreferences() }
        set { groupPreferences = newValue.json }
    }
}
