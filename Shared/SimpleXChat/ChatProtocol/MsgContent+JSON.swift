extension MsgContent: ChatJSONRepresentable {
    /// Reads content from its JSON object. A known type missing a required field is an error, as in
    /// SimpleX (which then drops the whole message); an unknown type is always accepted.
    public init(json: JSON) throws(ChatProtocolError) {
        try self.init(json: json, path: "content")
    }

    init(json: JSON, path: String) throws(ChatProtocolError) {
        let fields = try JSONFields(json, path: path)
        let type = try fields.string("type")
        switch type {
        case "text": self = .text(try fields.string("text"))
        case "link": self = .link(text: try fields.string("text"), preview: try fields.decode("preview"))
        case "image": self = .image(text: try fields.string("text"), image: try fields.string("image"))
        case "video":
            self = .video(
                text: try fields.string("text"), image: try fields.string("image"),
                duration: try fields.int("duration"))
        case "voice": self = .voice(text: try fields.string("text"), duration: try fields.int("duration"))
        case "file": self = .file(try fields.string("text"))
        case "report":
            self = .report(
                text: try fields.string("text"), reason: ReportReason(rawValue: try fields.string("reason")))
        case "chat": self = .chat(text: try fields.string("text"), chatLink: try fields.value("chatLink"))
        default:
            // SimpleX reads `text` of an unknown type as text when it is one, else uses a placeholder.
            let text = fields.optionalValue("text")?.stringValue ?? MsgContent.unknownTypeText
            self = .unknown(type: type, text: text, json: fields.object)
        }
    }

    /// The content's JSON object: keys in SimpleX's (sorted) order; an unknown type as it came.
    public var json: JSON {
        let text: JSON = .string(self.text)
        switch self {
        case .text, .file: return .object(.sorted([("type", .string(type)), ("text", text)]))
        case .link(_, let preview):
            return .object(.sorted([("type", .string(type)), ("text", text), ("preview", preview.json)]))
        case .image(_, let image):
            return .object(.sorted([("type", .string(type)), ("text", text), ("image", .string(image))]))
        case .video(_, let image, let duration):
            return .object(
                .sorted([
                    ("type", .string(type)), ("text", text), ("image", .string(image)),
                    ("duration", .number(JSONNumber(duration))),
                ]))
        case .voice(_, let duration):
            return .object(
                .sorted([
                    ("type", .string(type)), ("text", text), ("duration", .number(JSONNumber(duration))),
                ]))
        case .report(_, let reason):
            return .object(
                .sorted([("type", .string(type)), ("text", text), ("reason", .string(reason.rawValue))]))
        case .chat(_, let chatLink):
            return .object(.sorted([("type", .string(type)), ("text", text), ("chatLink", chatLink)]))
        case .unknown(_, _, let object):
            return .object(object)
        }
    }
}

extension LinkPreview: ChatJSONRepresentable {
    init(json: JSON, path: String) throws(ChatProtocolError) {
        let fields = try JSONFields(json, path: path)
        self.init(
            uri: try fields.string("uri"), title: try fields.string("title"),
            description: try fields.string("description"), image: try fields.string("image"),
            content: fields.optionalValue("content"))
    }

    var json: JSON {
        .object(
            .sorted([
                ("uri", .string(uri)), ("title", .string(title)), ("description", .string(description)),
                ("image", .string(image)), ("content", content),
            ]))
    }
}
