/// A chat feature that the user's and the contact's preferences decide together (SimpleX
/// `ChatFeature`; the `preferences` of a profile name them by these raw values).
public enum ChatFeature: String, CaseIterable, Sendable {
    case timedMessages, fullDelete, reactions, voice, calls

    /// The feature's name in events (SimpleX `chatFeatureNameText`).
    public var name: String {
        switch self {
        case .timedMessages: "Disappearing messages"
        case .fullDelete: "Full deletion"
        case .reactions: "Message reactions"
        case .voice: "Voice messages"
        case .calls: "Audio/video calls"
        }
    }

    /// The feature's word in `/set <word> ...` (SimpleX's CLI).
    public var commandWord: String {
        switch self {
        case .timedMessages: "disappear"
        case .fullDelete: "delete"
        case .reactions: "reactions"
        case .voice: "voice"
        case .calls: "calls"
        }
    }

    /// SimpleX `defaultChatPrefs`: what a profile without this preference allows.
    var defaultPreference: FeaturePreference {
        FeaturePreference(allow: self == .fullDelete ? .no : .yes)
    }

    /// Whether one side may have the feature while the other has not (`always` against `no`):
    /// every feature but disappearing messages (SimpleX `contactUserPreferences`).
    var asymmetric: Bool { self != .timedMessages }
}

/// What one side allows (SimpleX `FeatureAllowed`).
public enum FeatureAllowed: String, Sendable {
    /// Allowed whatever the other side allows.
    case always
    /// Allowed when the other side allows it too.
    case yes
    case no
}

/// One side's preference for a feature; `ttl` only for disappearing messages, in seconds.
public struct FeaturePreference: Equatable, Sendable {
    public var allow: FeatureAllowed
    public var ttl: Int?

    public init(allow: FeatureAllowed, ttl: Int? = nil) {
        self.allow = allow
        self.ttl = ttl
    }

    /// `{"allow":"yes","ttl":86400}`, as a profile's `preferences` carry it.
    var json: JSON {
        .object(.sorted([("allow", .string(allow.rawValue)), ("ttl", ttl.map { .number(JSONNumber($0)) })]))
    }

    /// SimpleX `preferenceText`: `yes`, `no`, `always (1 day)`.
    public func text(_ feature: ChatFeature) -> String {
        guard feature == .timedMessages, allow != .no, let ttl else { return allow.rawValue }
        return "\(allow.rawValue) (\(ChatItemEvent.timedTTLText(ttl)))"
    }

    /// SimpleX `preferenceState`: the allowance and, when allowed, its parameter.
    var state: PreferenceState { PreferenceState(allow: allow, param: allow == .no ? nil : ttl) }
}

/// A preference as an item tells of it: what is allowed and with which parameter.
struct PreferenceState: Equatable {
    let allow: FeatureAllowed
    let param: Int?
}

/// Whether a feature is on for the user and for the contact (SimpleX `PrefEnabled`).
public struct PrefEnabled: Equatable, Sendable {
    public var forUser: Bool
    public var forContact: Bool

    public init(forUser: Bool, forContact: Bool) {
        self.forUser = forUser
        self.forContact = forContact
    }

    /// SimpleX `prefEnabled`: `always` on one side and `no` on the other gives the feature to
    /// the `no` side's peer alone, when the feature can be one-sided; any other `no` turns it off.
    static func merged(_ feature: ChatFeature, user: FeatureAllowed, contact: FeatureAllowed) -> PrefEnabled {
        switch (user, contact) {
        case (.always, .no): PrefEnabled(forUser: false, forContact: feature.asymmetric)
        case (.no, .always): PrefEnabled(forUser: feature.asymmetric, forContact: false)
        case (_, .no), (.no, _): PrefEnabled(forUser: false, forContact: false)
        default: PrefEnabled(forUser: true, forContact: true)
        }
    }
}

/// The preferences a profile carries (`{"voice":{"allow":"no"},...}`), each absent one at
/// SimpleX's default; members this build does not know are ignored.
public struct ChatPreferences: Equatable, Sendable {
    public private(set) var preferences: [ChatFeature: FeaturePreference] = [:]

    public init(_ preferences: [ChatFeature: FeaturePreference] = [:]) {
        self.preferences = preferences
    }

    /// Reads a profile's `preferences` (nil or not an object: all defaults).
    public init(json: JSON?) {
        guard let object = json?.objectValue else { return }
        for feature in ChatFeature.allCases {
            guard let member = object[feature.rawValue]?.objectValue,
                let allow = member["allow"]?.stringValue.flatMap(FeatureAllowed.init(rawValue:))
            else { continue }
            preferences[feature] = FeaturePreference(allow: allow, ttl: member["ttl"]?.intValue)
        }
    }

    public func preference(_ feature: ChatFeature) -> FeaturePreference {
        preferences[feature] ?? feature.defaultPreference
    }

    /// The feature's state between `user` and `contact`: on for whom, and the user's parameter
    /// when it is on for the user.
    public static func featureState(_ feature: ChatFeature, user: ChatPreferences, contact: ChatPreferences)
        -> (enabled: PrefEnabled, param: Int?)
    {
        let state = state(feature, user: user, contact: contact)
        return (state.enabled, state.param)
    }

    /// The feature's state between `user` and `contact` (SimpleX `featureState`): whether it is on
    /// for each, and the user's parameter when it is on for the user.
    static func state(_ feature: ChatFeature, user: ChatPreferences, contact: ChatPreferences) -> FeatureState
    {
        let own = user.preference(feature)
        let enabled = PrefEnabled.merged(feature, user: own.allow, contact: contact.preference(feature).allow)
        return FeatureState(enabled: enabled, param: enabled.forUser ? own.ttl : nil)
    }
}

/// A feature between two sides: on for whom, with which parameter.
struct FeatureState: Equatable {
    let enabled: PrefEnabled
    let param: Int?
}

extension ChatItemEvent {
    /// The items a change of the contact's preferences makes in the user's chat with them (SimpleX
    /// `createRcvFeatureItems`): for each feature whose state changed, its new state; else, when
    /// only the contact's own preference changed, what they now offer or cancelled.
    static func contactChanged(user: ChatPreferences, from old: ChatPreferences, to new: ChatPreferences)
        -> [ChatItemEvent]
    {
        ChatFeature.allCases.compactMap { feature in
            let state = ChatPreferences.state(feature, user: user, contact: new)
            if ChatPreferences.state(feature, user: user, contact: old) != state {
                return .rcvChatFeature(feature, state.enabled, param: state.param)
            }
            let offer = new.preference(feature).state
            guard old.preference(feature).state != offer else { return nil }
            return .rcvChatPreference(feature, offer.allow, param: offer.param)
        }
    }

    /// The items a change of the user's own preferences makes in a chat with `contact` (SimpleX
    /// `createSndFeatureItems`): each feature whose state changed, in its new state; else, when
    /// only the user's preference changed, what the user now offers or cancelled.
    static func userChanged(contact: ChatPreferences, from old: ChatPreferences, to new: ChatPreferences)
        -> [ChatItemEvent]
    {
        ChatFeature.allCases.compactMap { feature in
            let state = ChatPreferences.state(feature, user: new, contact: contact)
            if ChatPreferences.state(feature, user: old, contact: contact) != state {
                return .sndChatFeature(feature, state.enabled, param: state.param)
            }
            let offer = new.preference(feature).state
            guard old.preference(feature).state != offer else { return nil }
            return .sndChatPreference(feature, offer.allow, param: offer.param)
        }
    }
}

extension ChatPreferences {
    /// The `preferences` JSON of these preferences (only those set).
    public var json: JSON {
        .object(
            .sorted(ChatFeature.allCases.map { feature in (feature.rawValue, preferences[feature]?.json) }))
    }

    /// A copy with `feature` set to `preference`.
    public func setting(_ feature: ChatFeature, _ preference: FeaturePreference) -> ChatPreferences {
        var copy = self
        copy.preferences[feature] = preference
        return copy
    }
}
