import SimpleXChat

/// One piece of an item, top to bottom: a header, a quote, a card, the text (FramedItemView's column).
struct ContentPart {
    enum Kind: Equatable { case header, quote, media, emoji, text, card, event, call }
    var kind: Kind
    var lines: [StyledLine]
    /// Blank lines above the part.
    var gapAbove = 0
    /// The meta goes on a line of its own below (text that ends with typed empty lines).
    var metaOwnLine = false
    /// The image or video box inside the part: its first line and its size.
    var media: (line: Int, size: CellSize)? = nil
}

/// The content of an item at a width: each renderer of seed 000 §4–5 in cells.
struct ContentLayout {
    let settings: ChatViewSettings
    let markdown: MarkdownLayout
    let terminal: Bool
    var theme: Theme { settings.theme }

    init(settings: ChatViewSettings, state: ItemRenderState, terminal: Bool) {
        self.settings = settings
        self.terminal = terminal
        markdown = MarkdownLayout(
            theme: settings.theme, revealSecrets: settings.showSecrets || state.revealedSecret,
            highlight: state.searchHighlight, terminal: terminal, userName: settings.userName)
    }

    func parts(_ item: ChatViewItem, width: Int, metaWidth: Int) -> [ContentPart] {
        if let deletion = item.deletion {
            let text =
                switch deletion {
                case .deleted: "message deleted"
                case .markedDeleted: "[marked deleted]"
                case .moderated(let by): "[marked deleted by \(by)]"
                case .blockedByAdmin: "blocked by admin"
                }
            return [card(text, width: width)]
        }
        switch item.content {
        case .invalid: return [card("invalid data", width: width)]
        case .event(let event):
            if item.isCardItem { return [card(Self.eventText(event), width: width, color: theme.error)] }
            let style = Style(foreground: theme.secondary, attributes: .italic)
            return [
                ContentPart(
                    kind: .event,
                    lines: StyledLine.wrap(markdown.plain(Self.eventText(event), style), width: width))
            ]
        case .call(let call):
            let style = Style(
                foreground: call.status == .missed || call.status == .error ? theme.error : theme.secondary)
            return [
                ContentPart(
                    kind: .call,
                    lines: StyledLine.wrap(markdown.plain(Self.callText(call), style), width: width))
            ]
        default: break
        }
        var parts: [ContentPart] = []
        if let header = item.header { parts.append(self.header(header, width: width)) }
        if let quote = item.quote {
            var part = self.quote(quote, width: width)
            part.gapAbove = terminal && item.hasHeaderAboveQuote ? 1 : 0
            parts.append(part)
        }
        let cardGap = terminal ? ChatViewLayout.terminalCardTopGap(item) : 0
        if var media = media(item, width: width) {
            media.gapAbove = cardGap
            parts.append(media)
        }
        if item.showsLargeEmoji, let text = item.messageText {
            parts.append(
                ContentPart(
                    kind: .emoji, lines: StyledLine.wrap([TextRun(text.source)], width: width),
                    gapAbove: cardGap))
        }
        if let text = item.bodyText {
            var part = ContentPart(
                kind: .text, lines: markdown.lines(text, width: width, minRuleWidth: metaWidth))
            part.gapAbove = terminal ? ChatViewLayout.terminalTextTopGap(item) : 0
            if case .blocks(let blocks) = text.markup, blocks.trailingEmptyLines > 0 {
                part.metaOwnLine = true
            }
            parts.append(part)
        }
        return parts
    }

    // MARK: Pieces

    func card(_ text: String, width: Int, color: Color? = nil) -> ContentPart {
        let style = Style(
            foreground: color ?? theme.secondary, background: theme.cardBackground, attributes: .italic)
        let rows = StyledLine.wrap([TextRun(text, style)], width: max(1, width - 2))
        return ContentPart(kind: .card, lines: MarkdownLayout.card(rows, width: width, style: style))
    }

    private func header(_ header: ChatViewItem.Header, width: Int) -> ContentPart {
        let text: String
        let style: Style
        switch header {
        case .forwarded:
            text = "↪ forwarded"
            style = Style(foreground: theme.secondary, attributes: .italic)
        case .report(let reason):
            text = "⚑ " + Self.reasonText(reason)
            style = Style(foreground: theme.error, attributes: .italic)
        }
        return ContentPart(kind: .header, lines: StyledLine.wrap([TextRun(text, style)], width: width))
    }

    private func quote(_ quote: ChatViewItem.Quote, width: Int) -> ContentPart {
        let bar = Span("▌ ", Style(foreground: theme.quoteBar))
        let inner = max(1, width - 2)
        var rows: [StyledLine] = []
        if let name = quote.senderName {
            rows.append(
                StyledLine(name, Style(foreground: theme.secondary, attributes: .bold)).truncated(to: inner))
        }
        var quoted = markdown
        quoted.base = Style(foreground: theme.secondary)
        var text = quoted.lines(quote.text, width: inner)
        let limit = max(1, settings.quoteLineLimit)
        if text.count > limit {
            text = Array(text.prefix(limit))
            var last = text[limit - 1]
            last.append("…", Style(foreground: theme.secondary))
            text[limit - 1] = last.width > inner ? last.truncated(to: inner) : last
        }
        rows.append(contentsOf: text)
        return ContentPart(
            kind: .quote,
            lines: rows.map { row in
                var line = StyledLine([bar])
                line.append(row)
                return line
            })
    }

    private func media(_ item: ChatViewItem, width: Int) -> ContentPart? {
        let style = Style(foreground: theme.secondary, background: theme.cardBackground)
        switch item.content {
        case .link(_, let preview):
            var rows = Array(
                StyledLine.wrap(
                    [TextRun(preview.title, style.foreground(theme.text).with(.bold))],
                    width: max(1, width - 2)
                ).prefix(2))
            if !preview.description.isEmpty {
                rows += StyledLine.wrap(
                    [TextRun(preview.description, style.foreground(theme.text))], width: max(1, width - 2)
                ).prefix(3)
            }
            rows.append(StyledLine(Self.host(preview.uri), style).truncated(to: max(1, width - 2)))
            return ContentPart(kind: .media, lines: MarkdownLayout.card(rows, width: width, style: style))
        case .image: return box(item, label: "image", extra: nil, width: width)
        case .video(_, let duration):
            return box(item, label: "video", extra: "▶ " + ChatTime.duration(duration), width: width)
        case .voice(_, let duration):
            let rows = [
                StyledLine("▶ voice message " + ChatTime.duration(duration), style.foreground(theme.text))
            ]
            return ContentPart(kind: .media, lines: MarkdownLayout.card(rows, width: width, style: style))
        case .file: return fileCard(item.file, width: width)
        case .chatLink:
            let rows = [StyledLine("🔗 SimpleX chat link", style.foreground(theme.link))]
            return ContentPart(kind: .media, lines: MarkdownLayout.card(rows, width: width, style: style))
        default: return nil
        }
    }

    /// The image or video placeholder: a box of the item's cells, which the media view draws into.
    private func box(_ item: ChatViewItem, label: String, extra: String?, width: Int) -> ContentPart {
        let wanted = item.mediaCells ?? settings.mediaCells
        let size = CellSize(columns: max(1, min(width, wanted.columns)), rows: max(1, wanted.rows))
        let style = Style(foreground: theme.secondary, background: theme.cardBackground)
        let name = "[\(label) \(wanted.columns)x\(wanted.rows)]"
        var lines = Array(
            repeating: StyledLine(String(repeating: " ", count: size.columns), style), count: size.rows)
        func centred(_ text: String) -> StyledLine {
            let cut = StyledLine(text, style).truncated(to: size.columns)
            let before = (size.columns - cut.width) / 2
            var line = StyledLine(String(repeating: " ", count: before), style)
            line.append(cut)
            return line.padded(to: size.columns, style)
        }
        lines[(size.rows - 1) / 2] = centred(size.rows == 1 && extra != nil ? name + " " + extra! : name)
        if let extra, size.rows > 1 { lines[size.rows - 1] = centred(extra) }
        return ContentPart(kind: .media, lines: lines, media: (0, size))
    }

    private func fileCard(_ file: ChatViewItem.File?, width: Int) -> ContentPart {
        let style = Style(foreground: theme.secondary, background: theme.cardBackground)
        let inner = max(1, width - 2)
        guard let file else {
            return ContentPart(
                kind: .media,
                lines: MarkdownLayout.card([StyledLine("📄 file", style)], width: width, style: style))
        }
        var rows = [
            StyledLine([Span("📄 ", style), Span(file.name, style.foreground(theme.text).with(.bold))])
                .truncated(to: inner)
        ]
        let size = FileChunking.readableSize(file.size)
        switch file.status {
        case .sndTransfer, .rcvTransfer:
            let done = min(file.size, max(0, file.progressBytes ?? 0))
            rows.append(progressBar(done: done, total: file.size, width: inner, style: style))
        case .rcvInvitation: rows.append(StyledLine("\(size) · not received", style))
        case .rcvAccepted: rows.append(StyledLine("\(size) · waiting for the sender", style))
        case .sndCancelled, .rcvCancelled: rows.append(StyledLine("\(size) · cancelled", style))
        case .sndError, .rcvError: rows.append(StyledLine("\(size) · error", style.foreground(theme.error)))
        case .sndStored, .sndComplete, .rcvComplete: rows.append(StyledLine(size, style))
        }
        return ContentPart(
            kind: .media,
            lines: MarkdownLayout.card(rows.map { $0.truncated(to: inner) }, width: width, style: style))
    }

    /// `██████░░░░ 60% · 1.2 MB / 2 MB`, the bar as long as the room allows (up to 20 cells).
    func progressBar(done: Int64, total: Int64, width: Int, style: Style) -> StyledLine {
        let percent = total > 0 ? Int(done * 100 / total) : 0
        let tail = " \(percent)% · \(FileChunking.readableSize(done)) / \(FileChunking.readableSize(total))"
        let barWidth = max(4, min(20, width - TextWidth.width(tail)))
        let filled = total > 0 ? Int(Int64(barWidth) * done / total) : 0
        var line = StyledLine(String(repeating: "█", count: filled), style.foreground(theme.primary))
        line.append(String(repeating: "░", count: barWidth - filled), style)
        line.append(tail, style)
        return line.truncated(to: width)
    }

    // MARK: Words

    static func host(_ uri: String) -> String {
        var rest = Substring(uri)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        return String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
    }

    static func reasonText(_ reason: ReportReason) -> String {
        switch reason {
        case .spam: "Spam"
        case .content: "Inappropriate content"
        case .community: "Community guidelines violation"
        case .profile: "Inappropriate profile"
        case .other: "Another reason"
        case .unknown(let text): text
        }
    }

    static func eventText(_ event: ChatViewItem.Event) -> String {
        switch event {
        case .messagesSkipped(let count): "\(count) skipped message(s)"  // iOS's words
        case .messageError(let text): text
        case .decryptionError(let count):
            count <= 1 ? "decryption error" : "decryption error, \(count) messages"
        case .connected: "connected"
        case .contactDeleted: "contact deleted"
        case .connection(let text): text
        case .feature(let name, let state): "\(name): \(state)"
        case .preference(let name, let value): "\(name): \(value)"
        }
    }

    static func callText(_ call: ChatViewItem.Call) -> String {
        let icon = call.video ? "📹 " : "📞 "
        switch call.status {
        case .pending: return icon + "calling…"
        case .missed: return icon + "missed call"
        case .rejected: return icon + "rejected call"
        case .inProgress: return icon + "call in progress"
        case .error: return icon + "call error"
        case .ended(let duration): return icon + "call ended · " + ChatTime.duration(duration)
        }
    }
}
