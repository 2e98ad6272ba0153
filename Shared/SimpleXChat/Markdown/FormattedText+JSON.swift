import Foundation

// JSON as SimpleX's core writes it (Markdown.hs: `sumTypeJSON fstToLower` for Format, `defaultJSON`
// for FormattedText): {"format":{"type":"bold"},"text":"hi"}, {"text":"plain"},
// {"type":"colored","color":"red"}, {"type":"mention","memberName":"alice"},
// {"type":"simplexLink","linkType":"invitation","simplexUri":"simplex:/...","smpHosts":["..."]}.
// Decoding is tolerant as Markdown.hs's FromJSON: a format it cannot read becomes `.unknown`.

extension Format {
    /// The format as SimpleX's JSON.
    public var json: MarkdownJSON {
        var members: [(key: String, value: MarkdownJSON)] = [("type", .string(typeTag))]
        switch self {
        case .bold, .italic, .strikeThrough, .snippet, .secret, .uri, .email, .phone: break
        case .colored(let color): members.append(("color", .string(color.rawValue)))
        case .hyperLink(let showText, let linkUri):
            if let showText { members.append(("showText", .string(showText))) }
            members.append(("linkUri", .string(linkUri)))
        case .simplexLink(let showText, let linkType, let simplexUri, let smpHosts):
            if let showText { members.append(("showText", .string(showText))) }
            members.append(("linkType", .string(linkType.rawValue)))
            members.append(("simplexUri", .string(simplexUri)))
            members.append(("smpHosts", .array(smpHosts.map { .string($0) })))
        case .command(let commandStr): members.append(("commandStr", .string(commandStr)))
        case .mention(let memberName): members.append(("memberName", .string(memberName)))
        case .unknown(let json): return MarkdownJSON(json)
        }
        return .object(members)
    }

    /// Reads a format; anything that is not a format this version knows is `.unknown`.
    public init(json: JSONValue) {
        self = Self.known(json) ?? .unknown(json: json)
    }

    private static func known(_ json: JSONValue) -> Format? {
        guard case .object(let members) = json, case .string(let type)? = members["type"] else { return nil }
        func string(_ key: String) -> String? {
            if case .string(let value)? = members[key] { return value }
            return nil
        }
        // An optional field may be absent or null, but not of another type.
        func optionalString(_ key: String) -> String?? {
            switch members[key] {
            case nil, .null?: return .some(nil)
            case .string(let value)?: return .some(value)
            default: return nil
            }
        }
        switch type {
        case "bold": return .bold
        case "italic": return .italic
        case "strikeThrough": return .strikeThrough
        case "snippet": return .snippet
        case "secret": return .secret
        case "uri": return .uri
        case "email": return .email
        case "phone": return .phone
        case "colored":
            return string("color").flatMap(FormatColor.init(rawValue:)).map { .colored(color: $0) }
        case "hyperLink":
            guard let showText = optionalString("showText"), let linkUri = string("linkUri") else {
                return nil
            }
            return .hyperLink(showText: showText, linkUri: linkUri)
        case "simplexLink":
            guard let showText = optionalString("showText"),
                let linkType = string("linkType").flatMap(SimplexLinkType.init(rawValue:)),
                let simplexUri = string("simplexUri"), case .array(let hostValues)? = members["smpHosts"]
            else { return nil }
            var hosts: [String] = []
            for value in hostValues {
                guard case .string(let host) = value else { return nil }
                hosts.append(host)
            }
            // aeson reads smpHosts as a NonEmpty list.
            guard !hosts.isEmpty else { return nil }
            return .simplexLink(
                showText: showText, linkType: linkType, simplexUri: simplexUri, smpHosts: hosts)
        case "command": return string("commandStr").map { .command(commandStr: $0) }
        case "mention": return string("memberName").map { .mention(memberName: $0) }
        default: return nil
        }
    }
}

extension FormattedText {
    /// The run as SimpleX's JSON: `format` (left out for plain text), then `text`.
    public var json: MarkdownJSON {
        var members: [(key: String, value: MarkdownJSON)] = []
        if let format { members.append(("format", format.json)) }
        members.append(("text", .string(text)))
        return .object(members)
    }

    /// Reads a run; nil when it has no `text` string. A `format` that cannot be read is `.unknown`.
    public init?(json: JSONValue) {
        guard case .object(let members) = json, case .string(let text)? = members["text"] else { return nil }
        switch members["format"] {
        case nil, .null?: self.init(text)
        case let format?: self.init(text, Format(json: format))
        }
    }
}

extension ParsedMarkdown {
    /// `{"formattedText":[...]}`, or `{}` for plain text.
    public var json: MarkdownJSON {
        guard let formattedText else { return .object([]) }
        return .object([("formattedText", .array(formattedText.map(\.json)))])
    }
}

/// The markdown types encode through their `json` (the same members; `json.text` keeps the order).
extension Format: Codable {
    public init(from decoder: Decoder) throws {
        self.init(json: try JSONValue(from: decoder))
    }

    public func encode(to encoder: Encoder) throws { try json.encode(to: encoder) }
}

extension FormattedText: Codable {
    public init(from decoder: Decoder) throws {
        let value = try JSONValue(from: decoder)
        guard let formattedText = FormattedText(json: value) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath, debugDescription: "formatted text without a text string"))
        }
        self = formattedText
    }

    public func encode(to encoder: Encoder) throws { try json.encode(to: encoder) }
}

extension ParsedMarkdown: Encodable {
    public func encode(to encoder: Encoder) throws { try json.encode(to: encoder) }
}
