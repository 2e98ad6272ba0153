/// A reaction to a message (SimpleX `MsgReaction`): one of SimpleX's emoji, or anything else kept as
/// it came, so a newer client's reactions survive (and show as "?").
public enum MsgReaction: Hashable, Sendable {
    case emoji(MsgReactionEmoji)
    /// A reaction this build does not know: its `"type"` and the whole object, written back as is.
    /// An `"emoji"` reaction with an emoji outside the set is one of these too, as in SimpleX.
    case unknown(type: String, json: JSONObject)

    /// The text to show: the emoji, or "?" for an unknown reaction.
    public var displayText: String {
        switch self {
        case .emoji(let emoji): return emoji.displayText
        case .unknown: return "?"
        }
    }
}

/// SimpleX's reaction emoji, each a single Unicode scalar on the wire (Haskell `MREmojiChar` is a
/// `Char`): the heart is U+2764 alone, without the U+FE0F variation selector that makes it
/// display as an emoji; `"❤️"` (two scalars) is not in the set and reads as an unknown reaction.
public enum MsgReactionEmoji: String, CaseIterable, Hashable, Sendable {
    case thumbsUp = "\u{1F44D}"  // 👍
    case thumbsDown = "\u{1F44E}"  // 👎
    case smile = "\u{1F600}"  // 😀
    case laugh = "\u{1F602}"  // 😂
    case sad = "\u{1F622}"  // 😢
    case heart = "\u{2764}"  // ❤ (shown as ❤️)
    case launch = "\u{1F680}"  // 🚀
    case check = "\u{2705}"  // ✅

    /// The emoji as shown: the heart with U+FE0F so it draws as an emoji, the others as sent.
    public var displayText: String {
        self == .heart ? "\u{2764}\u{FE0F}" : rawValue
    }
}

extension MsgReaction: ChatJSONRepresentable {
    /// Reads a reaction object; only a non-object or a missing or non-string `"type"` is an error.
    public init(json: JSON) throws(ChatProtocolError) {
        try self.init(json: json, path: "reaction")
    }

    init(json: JSON, path: String) throws(ChatProtocolError) {
        let fields = try JSONFields(json, path: path)
        let type = try fields.string("type")
        if type == "emoji", let text = fields.object["emoji"]?.stringValue,
            text.unicodeScalars.count == 1, let emoji = MsgReactionEmoji(rawValue: text)
        {
            self = .emoji(emoji)
        } else {
            self = .unknown(type: type, json: fields.object)
        }
    }

    /// `{"emoji":"👍","type":"emoji"}`; an unknown reaction as it came.
    public var json: JSON {
        switch self {
        case .emoji(let emoji):
            return .object(.sorted([("type", "emoji"), ("emoji", .string(emoji.rawValue))]))
        case .unknown(_, let object): return .object(object)
        }
    }
}
