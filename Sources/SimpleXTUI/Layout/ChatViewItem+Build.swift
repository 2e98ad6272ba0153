import Foundation
import SimpleXChat

extension ChatViewItem {
    /// The row of a stored item in a direct chat with `contactName`; `fileProgress` is the bytes
    /// of its file transferred so far, which the app tracks from file events.
    public init(
        _ item: ChatItem, contactName: String, userName: String, fileProgress: Int64? = nil,
        mediaCells: CellSize? = nil
    ) {
        let sent = item.direction == .sent
        var sender: ChatViewSender? = sent ? .user(userName) : .contact(item.contactId, name: contactName)
        let content: Content
        switch item.content {
        case .text(let text): content = .text(MessageText(text))
        case .link(let text, let preview): content = .link(MessageText(text), preview)
        case .image(let text, _): content = .image(MessageText(text))
        case .video(let text, _, let duration): content = .video(MessageText(text), duration: duration)
        case .voice(let text, let duration): content = .voice(MessageText(text), duration: duration)
        case .file(let text): content = .file(MessageText(text))
        case .report(let text, let reason): content = .report(MessageText(text), reason: reason)
        case .chat(let text, _): content = .chatLink(MessageText(text))
        case .unknown(let type, let text, _):
            // The core stores its event items, and what it cannot show, as content of these types.
            if let event = item.event {
                content = .event(Event(event))
                sender = nil
                break
            }
            switch type {
            case "invalid": content = .invalid(text)
            case "contactDeleted":
                content = .event(.contactDeleted)
                sender = nil
            default: content = .text(MessageText(text.isEmpty ? MsgContent.unknownTypeText : text))
            }
        }
        self.init(
            id: item.itemId, timestamp: item.timestamp, sender: sender, content: content,
            quote: item.quote.map {
                Quote(senderName: $0.sentByUser ? "you" : nil, text: Self.quoteText($0.content))
            },
            forwarded: item.forwarded, edited: item.edited, status: sent && sender != nil ? item.status : nil,
            timedTTL: item.timed?.ttl, reactions: Self.counted(item.reactions),
            file: item.file.map {
                File(name: $0.fileName, size: $0.fileSize, status: $0.status, progressBytes: fileProgress)
            },
            deletion: item.deleted ? .markedDeleted : nil, mediaCells: mediaCells)
    }

    /// An event row (no sender): connection, feature and preference changes, errors.
    public static func event(_ event: Event, id: Int64, at timestamp: Date) -> ChatViewItem {
        ChatViewItem(id: id, timestamp: timestamp, sender: nil, content: .event(event))
    }

    /// A call row, by the user or by the contact.
    public static func call(_ call: Call, id: Int64, at timestamp: Date, sender: ChatViewSender)
        -> ChatViewItem
    {
        ChatViewItem(id: id, timestamp: timestamp, sender: sender, content: .call(call))
    }

    /// What a quote shows of the quoted content: its text, or what it is when it has none.
    static func quoteText(_ content: MsgContent) -> String {
        let text = content.text
        switch content {
        case .voice, .report: return content.displayText
        case .image where text.isEmpty: return "image"
        case .video where text.isEmpty: return "video"
        case .file where text.isEmpty: return "file"
        case .link(_, let preview) where text.isEmpty: return preview.uri
        default: return text
        }
    }

    /// Reactions counted by emoji, in the order each emoji first came.
    static func counted(_ reactions: [ChatItemReaction]) -> [Reaction] {
        var result: [Reaction] = []
        for reaction in reactions {
            if let index = result.firstIndex(where: { $0.emoji == reaction.emoji }) {
                result[index].count += 1
                result[index].byUser = result[index].byUser || reaction.byUser
            } else {
                result.append(Reaction(emoji: reaction.emoji, count: 1, byUser: reaction.byUser))
            }
        }
        return result
    }
}

/// Emoji-only texts (iOS `isShortEmoji`).
enum EmojiText {
    static let maxLargeEmoji = 5

    /// The text is 1 to 5 emoji, spaces between them allowed.
    static func isShortEmoji(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 200 else { return false }
        var count = 0
        for character in text where character != " " {
            guard isEmoji(character) else { return false }
            count += 1
            if count > maxLargeEmoji { return false }
        }
        return count > 0
    }

    static func isEmoji(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return false }
        // Digits, # and * are emoji only as keycaps (with U+20E3).
        if first.isASCII { return scalars.contains { $0.value == 0x20E3 } }
        let properties = first.properties
        if properties.isEmojiPresentation { return true }
        return properties.isEmoji && scalars.contains { $0.value == 0xFE0F || $0.value == 0x200D }
    }
}
