/// What a message says, by its `"type"` (SimpleX `MsgContent`). A type this build does not know is
/// kept whole, shown by its `text`, and written back unchanged.
public enum MsgContent: Hashable, Sendable {
    case text(String)
    case link(text: String, preview: LinkPreview)
    /// `image` is a small data-URI thumbnail; the file itself comes with the message's file invitation.
    case image(text: String, image: String)
    case video(text: String, image: String, duration: Int)
    /// `duration` in seconds.
    case voice(text: String, duration: Int)
    case file(String)
    case report(text: String, reason: ReportReason)
    /// A shared contact, invitation or group link; `chatLink` is kept as JSON (`MsgChatLink`).
    case chat(text: String, chatLink: JSON)
    /// A type this build does not know: its `"type"`, its `"text"` (or "unknown message type"),
    /// and the whole object, which is what is written back.
    case unknown(type: String, text: String, json: JSONObject)

    /// The `"type"` value.
    public var type: String {
        switch self {
        case .text: return "text"
        case .link: return "link"
        case .image: return "image"
        case .video: return "video"
        case .voice: return "voice"
        case .file: return "file"
        case .report: return "report"
        case .chat: return "chat"
        case .unknown(let type, _, _): return type
        }
    }

    /// The message's `"text"` as sent.
    public var text: String {
        switch self {
        case .text(let text), .file(let text): return text
        case .link(let text, _), .image(let text, _), .video(let text, _, _), .voice(let text, _),
            .report(let text, _), .chat(let text, _), .unknown(_, let text, _):
            return text
        }
    }

    /// The text to show for the message, as SimpleX's `msgContentText`: a voice message is
    /// "voice message (m:ss)", a report "report <reason>", each followed by any text.
    public var displayText: String {
        switch self {
        case .voice(let text, let duration):
            let message = "voice message \(MsgContent.durationText(duration))"
            return text.isEmpty ? message : "\(message); \(text)"
        case .report(let text, let reason):
            let message = "report \(reason.rawValue)"
            return text.isEmpty ? message : "\(message): \(text)"
        default:
            return text
        }
    }

    /// `(mm:ss)` as SimpleX writes a duration.
    static func durationText(_ seconds: Int) -> String {
        let minutes = seconds / 60
        let rest = seconds % 60
        func twoDigits(_ value: Int) -> String { value <= 9 ? "0\(value)" : "\(value)" }
        return "(\(twoDigits(minutes)):\(twoDigits(rest)))"
    }

    /// The text SimpleX shows for content of an unknown type without text.
    public static let unknownTypeText = "unknown message type"

    /// Content this client makes itself to show something that is not a message it can show (an
    /// invalid one, an unsupported event): of `type`, with `text` in its JSON too, so the text
    /// is stored and read back with the item.
    public static func placeholder(type: String, text: String) -> MsgContent {
        .unknown(type: type, text: text, json: ["type": .string(type), "text": .string(text)])
    }
}

/// A link's preview (SimpleX `LinkPreview`).
public struct LinkPreview: Hashable, Sendable {
    public var uri: String
    public var title: String
    public var description: String
    /// A data-URI thumbnail.
    public var image: String
    /// What the link leads to (`{"type":"page"}`, `{"type":"video","duration":..}`, ...), kept as JSON.
    public var content: JSON?

    public init(uri: String, title: String, description: String, image: String, content: JSON? = nil) {
        self.uri = uri
        self.title = title
        self.description = description
        self.image = image
        self.content = content
    }
}

/// Why a message was reported to the group's moderators; an unknown reason is kept.
public enum ReportReason: Hashable, Sendable, RawRepresentable {
    case spam
    case content
    case community
    case profile
    case other
    case unknown(String)

    public init(rawValue: String) {
        switch rawValue {
        case "spam": self = .spam
        case "content": self = .content
        case "community": self = .community
        case "profile": self = .profile
        case "other": self = .other
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: String {
        switch self {
        case .spam: return "spam"
        case .content: return "content"
        case .community: return "community"
        case .profile: return "profile"
        case .other: return "other"
        case .unknown(let reason): return reason
        }
    }
}
