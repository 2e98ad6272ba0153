/// An item the core makes itself rather than one a contact sent: a gap or a bad id in the
/// contact's messages, messages that did not decrypt, the connection's encryption, a change of
/// features (SimpleX's `CIContent` cases besides message content). It is stored as content of its
/// own type (`rcvIntegrityError`, ...) with its SimpleX text, so the chat list, search, `/tail` and
/// the TUI see it as any other item.
public enum ChatItemEvent: Equatable, Sendable {
    case rcvIntegrityError(MsgErrorType)
    /// `count` messages that did not decrypt, one after another.
    case rcvDecryptionError(MsgDecryptError, count: Int)
    /// The connection is made and end-to-end encrypted (SimpleX `rcvDirectE2EEInfo`).
    case rcvDirectE2EEInfo
    case rcvChatFeature(ChatFeature, PrefEnabled, param: Int?)
    case sndChatFeature(ChatFeature, PrefEnabled, param: Int?)
    /// What the contact offers (or cancelled) when the feature's state stays as it was.
    case rcvChatPreference(ChatFeature, FeatureAllowed, param: Int?)
    case sndChatPreference(ChatFeature, FeatureAllowed, param: Int?)

    /// The content type it is stored as (SimpleX's JSON tag).
    public var type: String {
        switch self {
        case .rcvIntegrityError: "rcvIntegrityError"
        case .rcvDecryptionError: "rcvDecryptionError"
        case .rcvDirectE2EEInfo: "rcvDirectE2EEInfo"
        case .rcvChatFeature: "rcvChatFeature"
        case .sndChatFeature: "sndChatFeature"
        case .rcvChatPreference: "rcvChatPreference"
        case .sndChatPreference: "sndChatPreference"
        }
    }

    public var direction: ChatItemDirection {
        switch self {
        case .sndChatFeature, .sndChatPreference: .sent
        default: .received
        }
    }

    public var isIntegrityError: Bool {
        if case .rcvIntegrityError = self { true } else { false }
    }

    /// Whether the item is unread when made (SimpleX `ciRequiresAttention`): errors are, feature
    /// and encryption notes are not.
    var requiresAttention: Bool {
        switch self {
        case .rcvIntegrityError, .rcvDecryptionError: true
        default: false
        }
    }

    /// The text SimpleX shows for it (`ciContentToText`).
    public var text: String {
        switch self {
        case .rcvIntegrityError(let error): error.text
        case .rcvDecryptionError(let error, let count): error.text(count: count)
        case .rcvDirectE2EEInfo:
            "This conversation is protected by end-to-end encryption with perfect forward secrecy, repudiation and break-in recovery."
        case .rcvChatFeature(let feature, let enabled, let param),
            .sndChatFeature(let feature, let enabled, let param):
            Self.featureStateText(feature, enabled, param: param)
        case .rcvChatPreference(let feature, let allowed, let param):
            Self.preferenceStateText(feature, allowed, param: param)
        case .sndChatPreference(let feature, let allowed, let param):
            "you " + Self.preferenceStateText(feature, allowed, param: param)
        }
    }

    /// The content the item is stored as.
    public var content: MsgContent {
        var members: [(String, JSON?)] = [("type", .string(type)), ("text", .string(text))]
        members += fields
        return .unknown(type: type, text: text, json: .sorted(members))
    }

    /// SimpleX's API form (`{"type":"rcvIntegrityError","msgError":{...}}`).
    public var apiJSON: JSON {
        .object(.sorted([("type", .string(type))] + fields))
    }

    /// Reads back an item's stored content; nil for a message's content.
    public init?(content: MsgContent) {
        guard case .unknown(let type, _, let json) = content else { return nil }
        switch type {
        case "rcvIntegrityError":
            guard let error = json["msgError"].flatMap(MsgErrorType.init(json:)) else { return nil }
            self = .rcvIntegrityError(error)
        case "rcvDecryptionError":
            guard let error = json["msgDecryptError"]?.stringValue.flatMap(MsgDecryptError.init(rawValue:)),
                let count = json["msgCount"]?.intValue
            else { return nil }
            self = .rcvDecryptionError(error, count: count)
        case "rcvDirectE2EEInfo":
            self = .rcvDirectE2EEInfo
        case "rcvChatFeature", "sndChatFeature":
            guard let feature = Self.feature(json), let enabled = json["enabled"]?.objectValue,
                let forUser = enabled["forUser"]?.boolValue, let forContact = enabled["forContact"]?.boolValue
            else { return nil }
            let state = PrefEnabled(forUser: forUser, forContact: forContact)
            let param = json["param"]?.intValue
            self =
                type == "rcvChatFeature"
                ? .rcvChatFeature(feature, state, param: param)
                : .sndChatFeature(feature, state, param: param)
        case "rcvChatPreference", "sndChatPreference":
            guard let feature = Self.feature(json),
                let allowed = json["allowed"]?.stringValue.flatMap(FeatureAllowed.init(rawValue:))
            else { return nil }
            let param = json["param"]?.intValue
            self =
                type == "rcvChatPreference"
                ? .rcvChatPreference(feature, allowed, param: param)
                : .sndChatPreference(feature, allowed, param: param)
        default:
            return nil
        }
    }

    private static func feature(_ json: JSONObject) -> ChatFeature? {
        json["feature"]?.stringValue.flatMap(ChatFeature.init(rawValue:))
    }

    /// The members besides `type` (SimpleX `JSONCIContent`).
    private var fields: [(String, JSON?)] {
        func number(_ value: Int?) -> JSON? { value.map { .number(JSONNumber($0)) } }
        switch self {
        case .rcvIntegrityError(let error):
            return [("msgError", error.json)]
        case .rcvDecryptionError(let error, let count):
            return [("msgDecryptError", .string(error.rawValue)), ("msgCount", number(count))]
        case .rcvDirectE2EEInfo:
            return [("e2eeInfo", .object(["pqEnabled": .bool(false)]))]
        case .rcvChatFeature(let feature, let enabled, let param),
            .sndChatFeature(let feature, let enabled, let param):
            let state: JSON = .object([
                "forUser": .bool(enabled.forUser), "forContact": .bool(enabled.forContact),
            ])
            return [("feature", .string(feature.rawValue)), ("enabled", state), ("param", number(param))]
        case .rcvChatPreference(let feature, let allowed, let param),
            .sndChatPreference(let feature, let allowed, let param):
            return [
                ("feature", .string(feature.rawValue)), ("allowed", .string(allowed.rawValue)),
                ("param", number(param)),
            ]
        }
    }
}

extension ChatItem {
    /// The event this item is, when the core made it (nil for messages).
    public var event: ChatItemEvent? { ChatItemEvent(content: content) }
}

/// A message-number or hash-chain error the agent reported with a message (SimpleX `MsgErrorType`).
public enum MsgErrorType: Equatable, Sendable {
    case msgSkipped(from: Int64, to: Int64)
    case msgBadId(Int64)
    case msgBadHash
    case msgDuplicate

    /// The error an agent's integrity check gives, if the check failed.
    init?(_ integrity: MessageIntegrity) {
        switch integrity {
        case .ok: return nil
        case .skipped(let from, let to): self = .msgSkipped(from: from, to: to)
        case .badID(let id): self = .msgBadId(id)
        case .badHash: self = .msgBadHash
        case .duplicate: self = .msgDuplicate
        }
    }

    /// SimpleX `msgIntegrityError`.
    public var text: String {
        switch self {
        case .msgSkipped(let from, let to): "skipped message ID \(from)" + (from == to ? "" : "..\(to)")
        case .msgBadId(let id): "unexpected message ID \(id)"
        case .msgBadHash: "incorrect message hash"
        case .msgDuplicate: "duplicate message ID"
        }
    }

    var json: JSON {
        switch self {
        case .msgSkipped(let from, let to):
            [
                "type": "msgSkipped", "fromMsgId": .number(JSONNumber(Int(from))),
                "toMsgId": .number(JSONNumber(Int(to))),
            ]
        case .msgBadId(let id): ["type": "msgBadId", "msgId": .number(JSONNumber(Int(id)))]
        case .msgBadHash: ["type": "msgBadHash"]
        case .msgDuplicate: ["type": "msgDuplicate"]
        }
    }

    init?(json: JSON) {
        switch json["type"]?.stringValue {
        case "msgSkipped":
            guard let from = json["fromMsgId"]?.intValue, let to = json["toMsgId"]?.intValue else {
                return nil
            }
            self = .msgSkipped(from: Int64(from), to: Int64(to))
        case "msgBadId":
            guard let id = json["msgId"]?.intValue else { return nil }
            self = .msgBadId(Int64(id))
        case "msgBadHash": self = .msgBadHash
        case "msgDuplicate": self = .msgDuplicate
        default: return nil
        }
    }
}

/// Why received messages did not decrypt (SimpleX `MsgDecryptError`).
public enum MsgDecryptError: String, Sendable {
    /// No header key opens the message's header.
    case ratchetHeader
    /// The message is further ahead than the ratchet keeps keys for.
    case tooManySkipped
    /// The message's key was used already: an earlier message sent again with a different
    /// ratchet (a restored backup, or the same profile on two devices).
    case ratchetEarlier
    case other
    case ratchetSync

    /// SimpleX `msgDecryptErrorText`.
    func text(count: Int) -> String {
        let counter = count == 1 ? nil : "\(count) messages"
        let withCounter = counter.map { ", " + $0 } ?? ""
        let detail: String? =
            switch self {
            case .ratchetHeader: "header" + withCounter
            case .tooManySkipped: "too many skipped messages" + withCounter
            case .ratchetEarlier: "earlier message" + withCounter
            case .other: counter
            case .ratchetSync: "synchronization error"
            }
        return "decryption error, possibly due to the device change" + (detail.map { " (\($0))" } ?? "")
    }

    /// The count of an item of this error after `count` more such messages (SimpleX
    /// `mdeUpdatedCI`): added up, except too-many-skipped, whose count is the latest gap.
    func merged(_ old: Int, _ count: Int) -> Int {
        switch self {
        case .tooManySkipped: count
        case .ratchetSync: 0
        default: old + count
        }
    }
}

extension ChatItemEvent {
    /// SimpleX `featureStateText`: `Voice messages: enabled for you`.
    static func featureStateText(_ feature: ChatFeature, _ enabled: PrefEnabled, param: Int?) -> String {
        "\(feature.name): " + featureState(feature, enabled, param: param)
    }

    /// The state part of `featureStateText`: `enabled for you`, `enabled (1 day)`, `off`.
    public static func featureState(_ feature: ChatFeature, _ enabled: PrefEnabled, param: Int?) -> String {
        enabledText(feature, enabled, param: param) + (enabled.forUser ? paramText(feature, param) : "")
    }

    /// SimpleX `prefEnabledToText`: `enabled for you`, `allowed` (a timer without one set), `off`.
    public static func enabledText(_ feature: ChatFeature, _ enabled: PrefEnabled, param: Int?) -> String {
        let on = feature == .timedMessages && param == nil ? "allowed" : "enabled"
        return switch (enabled.forUser, enabled.forContact) {
        case (true, true): on
        case (false, false): "off"
        case (true, false): on + " for you"
        case (false, true): on + " for contact"
        }
    }

    /// SimpleX `prefStateText`: `offered Disappearing messages (1 day)`, `cancelled Voice messages`.
    static func preferenceStateText(_ feature: ChatFeature, _ allowed: FeatureAllowed, param: Int?) -> String
    {
        allowed == .no ? "cancelled \(feature.name)" : "offered \(feature.name)" + paramText(feature, param)
    }

    private static func paramText(_ feature: ChatFeature, _ param: Int?) -> String {
        guard feature == .timedMessages, let param else { return "" }
        return " (\(timedTTLText(param)))"
    }

    /// SimpleX `timedTTLText`: `1 day`, `2 weeks`, `1 hour 30 min`.
    public static func timedTTLText(_ ttl: Int) -> String {
        if ttl == 0 { return "0 sec" }
        let (minutes, seconds) = ttl.quotientAndRemainder(dividingBy: 60)
        let (hours, minute) = minutes.quotientAndRemainder(dividingBy: 60)
        let (days, hour) = hours.quotientAndRemainder(dividingBy: 24)
        let (months, day) = days.quotientAndRemainder(dividingBy: 30)
        var parts: [String] = []
        if months != 0 { parts.append(months == 1 ? "1 month" : "\(months) months") }
        if day != 0 {
            parts.append(day == 1 ? "1 day" : day == 7 ? "1 week" : day == 14 ? "2 weeks" : "\(day) days")
        }
        if hour != 0 { parts.append(hour == 1 ? "1 hour" : "\(hour) hours") }
        if minute != 0 { parts.append("\(minute) min") }
        if seconds != 0 { parts.append("\(seconds) sec") }
        return parts.joined(separator: " ")
    }
}
