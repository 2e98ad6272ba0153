import SimpleXChat

/// Message text to styled lines: inline markdown (MsgContentView) and blocks (MarkdownBlocksView).
struct MarkdownLayout {
    let theme: Theme
    /// Secrets are drawn as text; otherwise as `░` of the same width.
    let revealSecrets: Bool
    /// Matches of this term are drawn in reverse video.
    let highlight: String?
    /// Terminal rows add a third of a line per typed empty line; classic bubbles a line each.
    let terminal: Bool
    /// The style of plain text.
    var base: Style
    /// The user's name: a mention of it (`@alice` in a group) stands out in reverse video.
    var userName: String? = nil

    init(
        theme: Theme, revealSecrets: Bool, highlight: String?, terminal: Bool, base: Style? = nil,
        userName: String? = nil
    ) {
        self.userName = userName
        self.theme = theme
        self.revealSecrets = revealSecrets
        self.highlight = highlight.flatMap { $0.isEmpty ? nil : $0 }
        self.terminal = terminal
        self.base = base ?? Style(foreground: theme.text)
    }

    // MARK: Inline

    /// The runs of inline markdown, styled.
    func runs(_ texts: [FormattedText], extra: Attributes = []) -> [TextRun] {
        var result: [TextRun] = []
        result.reserveCapacity(texts.count)
        for text in texts {
            var style = base.with(extra)
            var shown = text.text
            switch text.format {
            case nil, .unknown: break
            case .bold: style = style.with(.bold)
            case .italic: style = style.with(.italic)
            case .strikeThrough: style = style.with(.strikethrough)
            case .snippet: style = style.foreground(theme.code)
            case .secret:
                if !revealSecrets { shown = Self.hidden(text.text) }
                style = style.foreground(theme.secondary)
            case .colored(let color): style = style.foreground(theme.color(color))
            case .uri:
                style = linkStyle(style, Self.webTarget(text.text))
            case .hyperLink(let showText, let uri):
                shown = showText ?? uri
                style = linkStyle(style, uri)
            case .simplexLink(let showText, let type, let uri, let hosts):
                shown =
                    showText ?? "SimpleX \(Self.linkName(type))" + (hosts.isEmpty ? "" : " (via \(hosts[0]))")
                style = linkStyle(style, uri)
            case .command: style = style.foreground(theme.primary)
            case .mention(let name):
                style = style.foreground(theme.mention).with(name == userName ? [.bold, .reverse] : .bold)
            case .email: style = linkStyle(style, "mailto:" + text.text)
            case .phone: style = linkStyle(style, "tel:" + text.text.filter { !$0.isWhitespace })
            }
            appendHighlighted(shown, style, to: &result)
        }
        return result
    }

    /// Plain text runs (for quotes of texts drawn as text, headers, events).
    func plain(_ text: String, _ style: Style) -> [TextRun] {
        var result: [TextRun] = []
        appendHighlighted(text, style, to: &result)
        return result
    }

    private func linkStyle(_ style: Style, _ target: String) -> Style {
        var linked = style.foreground(theme.link).with(.underline)
        // A link target never carries controls into the OSC 8 sequence.
        linked.link = String(
            String.UnicodeScalarView(
                target.unicodeScalars.filter {
                    $0.value >= 0x20 && $0.value != 0x7F && !(0x80..<0xA0).contains($0.value)
                }))
        return linked
    }

    private func appendHighlighted(_ text: String, _ style: Style, to result: inout [TextRun]) {
        guard let highlight, !text.isEmpty else {
            result.append(TextRun(text, style))
            return
        }
        var rest = text[...]
        while let range = rest.range(of: highlight, options: [.caseInsensitive]) {
            if range.lowerBound > rest.startIndex {
                result.append(TextRun(String(rest[..<range.lowerBound]), style))
            }
            result.append(TextRun(String(rest[range]), style.with(.reverse)))
            rest = rest[range.upperBound...]
        }
        if !rest.isEmpty { result.append(TextRun(String(rest), style)) }
    }

    /// A secret's cells as `░`, spaces kept, so revealing it changes no line break.
    static func hidden(_ text: String) -> String {
        var result = ""
        TextWidth.forEachGrapheme(text) { grapheme, cells in
            result += grapheme == " " ? " " : (cells == 2 ? "░░" : "░")
        }
        return result
    }

    static func webTarget(_ text: String) -> String {
        text.contains("://") ? text : "https://" + text
    }

    static func linkName(_ type: SimplexLinkType) -> String {
        switch type {
        case .contact: "contact address"
        case .invitation: "one-time link"
        case .group: "group link"
        case .channel: "channel link"
        case .relay: "relay link"
        }
    }

    // MARK: Text

    /// A message text's lines at `width`: blocks, or lines of inline markdown (one full line per
    /// empty line, as texts over the markup limit are drawn). `minRuleWidth` is the narrowest a
    /// top-level rule is drawn (the meta's width: iOS ruleMinWidth).
    func lines(_ text: ChatViewItem.MessageText, width: Int, minRuleWidth: Int = 3) -> [StyledLine] {
        switch text.markup {
        case .lines(let runs): return StyledLine.wrap(self.runs(runs), width: width)
        case .blocks(let blocks): return self.blocks(blocks, width: width, minRuleWidth: minRuleWidth)
        }
    }

    /// iOS maxEmptyLines: the most empty lines one gap keeps.
    static let maxEmptyLines = 100

    /// Blank lines for `count` typed empty lines, by the layout's rule.
    func emptyLines(_ count: Int) -> Int {
        let count = min(count, Self.maxEmptyLines)
        return terminal ? ChatViewLayout.terminalEmptyLines(count) : count
    }
}
