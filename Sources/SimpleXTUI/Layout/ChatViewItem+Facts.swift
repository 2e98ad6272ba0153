import SimpleXChat

/// What the layout rules ask of an item (the iOS `hasQuoteOrHeader`, `terminalMediaCard`, ...).
extension ChatViewItem {
    /// A header above the content (iOS framedItemHeader).
    enum Header: Equatable {
        case report(ReportReason)
        case forwarded
    }

    /// The text of a message (nil for calls, events and invalid content).
    var messageText: MessageText? {
        switch content {
        case .text(let text), .link(let text, _), .image(let text), .video(let text, _), .voice(let text, _),
            .file(let text), .report(let text, _), .chatLink(let text):
            return text
        case .call, .event, .invalid: return nil
        }
    }

    /// The header: a report's reason; else `forwarded` when there is no quote (as iOS, which
    /// shows the quote instead).
    var header: Header? {
        guard deletion == nil else { return nil }
        if case .report(_, let reason) = content { return .report(reason) }
        return forwarded && quote == nil ? .forwarded : nil
    }

    /// Whether the header sits above the quote (iOS hasHeaderAboveQuote: report, deleted, live).
    var hasHeaderAboveQuote: Bool { if case .report? = header { quote != nil } else { false } }

    var hasQuoteOrHeader: Bool { deletion == nil && (quote != nil || header != nil) }

    /// Image, video, voice, file, link preview or chat link: drawn as a card (terminalMediaCard).
    var hasMediaCard: Bool {
        guard deletion == nil else { return false }
        switch content {
        case .link, .image, .video, .voice, .file, .chatLink: return true
        case .text, .report, .call, .event, .invalid: return false
        }
    }

    /// Emoji only, drawn without decoration (EmojiItemView, or FramedItemView.showsEmoji below a quote).
    var showsLargeEmoji: Bool {
        guard deletion == nil, case .text(let text) = content else { return false }
        return text.isLargeEmoji
    }

    /// A card instead of a message: deleted, marked deleted, an error, invalid data.
    var isCardItem: Bool {
        if deletion != nil { return true }
        switch content {
        case .invalid: return true
        case .event(.messagesSkipped), .event(.messageError), .event(.decryptionError): return true
        default: return false
        }
    }

    /// A plain event row (CIEventView, feature and preference events): no sender, centred in classic.
    var isEvent: Bool {
        guard deletion == nil, case .event = content else { return false }
        return !isCardItem
    }

    /// The text drawn below the media and the quote, if any (not for large emoji).
    var bodyText: MessageText? {
        guard deletion == nil, let text = messageText, !text.isEmpty, !showsLargeEmoji else { return nil }
        return text
    }

    /// The first block of the body text is a code block, table or rule.
    var textStartsWithCardBlock: Bool {
        guard let text = bodyText, case .blocks(let blocks) = text.markup, let first = blocks.blocks.first
        else { return false }
        return first.isCard
    }

    /// The body text starts with an empty line (typed empty lines give the gap instead).
    var textStartsWithEmptyLine: Bool {
        guard let text = bodyText else { return false }
        switch text.markup {
        case .blocks(let blocks): return blocks.leadingEmptyLines > 0
        case .lines: return text.source.first == "\n"
        }
    }
}
