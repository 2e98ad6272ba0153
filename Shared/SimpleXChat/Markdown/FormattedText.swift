/// One run of message text with the format SimpleX markdown gave it (Markdown.hs `FormattedText`).
///
/// `text` is the run as it appears in the message with its delimiters removed (`*bold*` gives
/// `bold`); links, mentions, emails and phones keep their text as typed.
public struct FormattedText: Equatable, Sendable {
    /// The text of the run.
    public var text: String
    /// The format; nil for plain text.
    public var format: Format?

    /// A run of `text` in `format`.
    public init(_ text: String, _ format: Format? = nil) {
        self.text = text
        self.format = format
    }

    /// The run as it was typed: `text` with its delimiters put back (Markdown.hs `markdownText`).
    public var markdownText: String {
        switch format {
        case .bold: return "*\(text)*"
        case .italic: return "_\(text)_"
        case .strikeThrough: return "~\(text)~"
        case .snippet: return "`\(text)`"
        case .secret: return "#\(text)#"
        case .colored(let color):
            guard let number = color.markdownNumber else { return text }
            return "!\(number) \(text)!"
        case .uri, .hyperLink, .simplexLink, .command, .mention, .email, .phone, .unknown, nil:
            return text
        }
    }
}

/// How a run of text is formatted (Markdown.hs `Format`; JSON tagged by `type`).
public enum Format: Equatable, Sendable {
    /// `*text*`
    case bold
    /// `_text_`
    case italic
    /// `~text~`
    case strikeThrough
    /// `` `text` ``: inline code.
    case snippet
    /// `#text#`: hidden until tapped, and `...` in notification previews.
    case secret
    /// `!1 text!` (or `!red text!`, `!r text!`).
    case colored(color: FormatColor)
    /// A web address, written bare: `https://...`, `http://...` or a domain such as `example.com`.
    case uri
    /// `[text](https://...)`: a web link shown as its text.
    case hyperLink(showText: String?, linkUri: String)
    /// A SimpleX connection link; `simplexUri` is its `simplex:` form, `smpHosts` the relay hosts
    /// of its queues in order (repeats kept), shown so a reader sees where the link leads.
    case simplexLink(showText: String?, linkType: SimplexLinkType, simplexUri: String, smpHosts: [String])
    /// `/command` for bots; a message of one line starting with `/` is one command.
    case command(commandStr: String)
    /// `@name` or `@'name with spaces'`.
    case mention(memberName: String)
    /// An email address.
    case email
    /// A phone number.
    case phone
    /// A format from a newer peer or core, kept as its JSON and shown as plain text.
    case unknown(json: JSONValue)

    /// The JSON `type` tag.
    public var typeTag: String {
        switch self {
        case .bold: return "bold"
        case .italic: return "italic"
        case .strikeThrough: return "strikeThrough"
        case .snippet: return "snippet"
        case .secret: return "secret"
        case .colored: return "colored"
        case .uri: return "uri"
        case .hyperLink: return "hyperLink"
        case .simplexLink: return "simplexLink"
        case .command: return "command"
        case .mention: return "mention"
        case .email: return "email"
        case .phone: return "phone"
        case .unknown(let json):
            if case .object(let members) = json, case .string(let type)? = members["type"] { return type }
            return "unknown"
        }
    }
}

/// The colours of `!n text!` (Markdown.hs `FormatColor`; black and white are only ever decoded).
public enum FormatColor: String, CaseIterable, Sendable {
    case red, green, blue, yellow, cyan, magenta, black, white

    /// The digit that selects this colour in markdown (`!1 ...!` is red), if it has one.
    public var markdownNumber: Int? {
        switch self {
        case .red: return 1
        case .green: return 2
        case .blue: return 3
        case .yellow: return 4
        case .cyan: return 5
        case .magenta: return 6
        case .black, .white: return nil
        }
    }
}

/// What a SimpleX link connects to (Markdown.hs `SimplexLinkType`; JSON without the `XL` prefix).
public enum SimplexLinkType: String, CaseIterable, Sendable {
    /// A contact address.
    case contact
    /// A one-time invitation.
    case invitation
    /// A group link (a contact address whose data says `"type":"group"`).
    case group
    /// A channel link (short links only).
    case channel
    /// A chat relay link (short links only).
    case relay
}

/// The response of `/_parse markdown <text>` (Markdown.hs `ParsedMarkdown`): the runs, or nil
/// when the text has no formatting (then `formattedText` is left out of the JSON).
public struct ParsedMarkdown: Equatable, Sendable {
    /// The runs, nil for plain text.
    public var formattedText: [FormattedText]?

    /// A response with these runs.
    public init(formattedText: [FormattedText]?) {
        self.formattedText = formattedText
    }
}
