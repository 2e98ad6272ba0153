import Foundation
import SimpleXChat

/// Seed 000 §9's row rules, each a gap of 0 or 1 blank line (docs/tui-chat-layout.md: a gap of at least a third
/// of a line, `terminalParagraphGap`, is one blank line; a smaller one is none).
extension ChatViewLayout {
    /// terminalNameRepeatInterval: after this pause the sender name is shown again.
    public static let nameRepeatInterval: TimeInterval = 7.5 * 60
    /// getItemSeparation's large gap: items more than this apart.
    public static let largeGapInterval: TimeInterval = 60

    /// terminalItemShowsSender: the item has a sender, and the older item is absent, has none,
    /// has another, or is 7.5 minutes or more older.
    public static func terminalItemShowsSender(_ item: ChatViewItem, older: ChatViewItem?) -> Bool {
        guard let sender = item.sender else { return false }
        guard let older, let olderSender = older.sender, olderSender.id == sender.id else { return true }
        return item.timestamp.timeIntervalSince(older.timestamp) >= nameRepeatInterval
    }

    /// ChatItem.isOneLine: text at the item top (no quote, header or media), no block markdown,
    /// no line break; a large emoji is one-line; items without a sender are not.
    public static func isOneLine(_ item: ChatViewItem) -> Bool {
        guard item.sender != nil, item.deletion == nil, !item.hasQuoteOrHeader else { return false }
        guard case .text(let text) = item.content else { return false }
        if text.isLargeEmoji { return true }
        return !text.hasBlocks && !text.source.contains("\n")
    }

    /// getItemSeparation's large gap: another sender, or more than 60 seconds apart.
    public static func isLargeGap(_ item: ChatViewItem, older: ChatViewItem) -> Bool {
        item.sender?.id != older.sender?.id
            || item.timestamp.timeIntervalSince(older.timestamp) > largeGapInterval
    }

    /// terminalRowsSeparated: a date separator is between the rows.
    public static func rowsSeparated(_ item: ChatViewItem, older: ChatViewItem?, timeZone: TimeZone) -> Bool {
        guard let older else { return false }
        return ChatTime.day(item.timestamp, timeZone) != ChatTime.day(older.timestamp, timeZone)
    }

    /// terminalRowGap: 1 when the older item exists, no date separates them, and there is a large
    /// gap, a sender row, either item is not one-line, or the older item has reactions.
    public static func terminalRowGap(_ item: ChatViewItem, older: ChatViewItem?, timeZone: TimeZone) -> Int {
        guard let older, !rowsSeparated(item, older: older, timeZone: timeZone) else { return 0 }
        let gap =
            isLargeGap(item, older: older) || terminalItemShowsSender(item, older: older) || !isOneLine(item)
            || !isOneLine(older) || !older.reactions.isEmpty
        return gap ? 1 : 0
    }

    /// terminalItemStartsWithCard: the item's first element is a card (a marked deleted or
    /// deleted item, an error, invalid data, a quote with no header above it, media, a file, a
    /// link preview, text starting with a code block, table or rule, a large emoji). Then the
    /// sender row has a blank line below it.
    public static func terminalItemStartsWithCard(_ item: ChatViewItem) -> Bool {
        if item.isCardItem { return true }
        if item.quote != nil { return !item.hasHeaderAboveQuote && item.header == nil }
        if item.header != nil { return false }
        return item.hasMediaCard || item.showsLargeEmoji || item.textStartsWithCardBlock
    }

    /// terminalCardTopGap: 1 above media, voice, file and emoji below a quote or header.
    public static func terminalCardTopGap(_ item: ChatViewItem) -> Int {
        guard item.hasQuoteOrHeader else { return 0 }
        switch item.content {
        case .image, .video, .voice, .file: return 1
        default: return item.showsLargeEmoji ? 1 : 0
        }
    }

    /// terminalCardBottomGap: 1 below a card that ends the item when reactions follow.
    public static func terminalCardBottomGap(_ item: ChatViewItem) -> Int {
        guard !item.reactions.isEmpty else { return 0 }
        if item.isCardItem || item.showsLargeEmoji { return 1 }
        return item.hasMediaCard && item.bodyText == nil ? 1 : 0
    }

    /// terminalTextTopGap: 0 at the item top; 1 below a quote or media, or when the text starts with
    /// a code block, table or rule, unless it starts with typed empty lines; 0 below a header
    /// (terminalLevelStep, under a third of a line).
    public static func terminalTextTopGap(_ item: ChatViewItem) -> Int {
        guard item.bodyText != nil, !item.textStartsWithEmptyLine else { return 0 }
        let belowQuoteOrMedia = item.quote != nil || item.hasMediaCard
        let atTop = !belowQuoteOrMedia && item.header == nil
        if atTop { return 0 }
        return belowQuoteOrMedia || item.textStartsWithCardBlock ? 1 : 0
    }

    /// Blank lines for `count` typed empty lines in terminal rows, where each adds
    /// terminalParagraphGap (a third of a line): a third of them, rounded, and at least 1.
    public static func terminalEmptyLines(_ count: Int) -> Int {
        count <= 0 ? 0 : max(1, (2 * count + 3) / 6)
    }
}
