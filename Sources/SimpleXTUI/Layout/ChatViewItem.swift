import Foundation
import SimpleXChat

/// The view model of one row of the chat view: a message or an event, ready to lay out (its
/// markdown parsed once, so laying out the visible window of a long chat stays cheap).
public struct ChatViewItem: Equatable, Sendable {
    public var id: Int64
    public var timestamp: Date
    /// Who the row speaks for; nil for events, which have no sender row.
    public var sender: ChatViewSender?
    public var content: Content
    public var quote: Quote?
    public var forwarded: Bool
    public var edited: Bool
    /// A sent item's delivery status; nil for received items and events (no icon, as iOS).
    public var status: ChatItemStatus?
    /// A disappearing message's time to live, in seconds.
    public var timedTTL: Int?
    public var reactions: [Reaction]
    public var file: File?
    public var deletion: Deletion?
    /// The box of an image or video, when the media view knows its aspect; else `ChatViewSettings.mediaCells`.
    public var mediaCells: CellSize?

    public init(
        id: Int64, timestamp: Date, sender: ChatViewSender?, content: Content, quote: Quote? = nil,
        forwarded: Bool = false, edited: Bool = false, status: ChatItemStatus? = nil, timedTTL: Int? = nil,
        reactions: [Reaction] = [], file: File? = nil, deletion: Deletion? = nil, mediaCells: CellSize? = nil
    ) {
        self.id = id
        self.timestamp = timestamp
        self.sender = sender
        self.content = content
        self.quote = quote
        self.forwarded = forwarded
        self.edited = edited
        self.status = status
        self.timedTTL = timedTTL
        self.reactions = reactions
        self.file = file
        self.deletion = deletion
        self.mediaCells = mediaCells
    }

    /// What the item shows.
    public enum Content: Equatable, Sendable {
        case text(MessageText)
        case link(MessageText, LinkPreview)
        case image(MessageText)
        /// `duration` in seconds.
        case video(MessageText, duration: Int)
        case voice(MessageText, duration: Int)
        case file(MessageText)
        case report(MessageText, reason: ReportReason)
        /// A shared contact address, invitation or group link.
        case chatLink(MessageText)
        case call(Call)
        case event(Event)
        /// Content that could not be decoded: `invalid data`, with what was wrong (for item info).
        case invalid(String)
    }

    /// A message's text, parsed once: blocks when it has block syntax or an empty line (up to
    /// `Markdown.maxMarkupTokens`), else lines of inline markdown.
    public struct MessageText: Equatable, Sendable {
        public let source: String
        public let markup: Markup
        /// Only emoji, at most five (iOS `isShortEmoji`): drawn without decoration.
        public let isLargeEmoji: Bool

        public enum Markup: Equatable, Sendable {
            case lines([FormattedText])
            case blocks(MarkdownBlocks)
        }

        public init(_ source: String) {
            self.source = source
            if let blocks = Markdown.parseBlocks(source) {
                markup = .blocks(blocks)
            } else {
                markup = .lines(Markdown.parse(source))
            }
            isLargeEmoji = EmojiText.isShortEmoji(source)
        }

        public var isEmpty: Bool { source.isEmpty }
        public var hasBlocks: Bool { if case .blocks = markup { true } else { false } }
    }

    /// The message this one replies to.
    public struct Quote: Equatable, Sendable {
        /// "you" for own messages; nil for the contact's in direct chats (as iOS).
        public var senderName: String?
        /// What the quoted message shows, as one text (`voice message (00:12)`, a file name...).
        public var text: MessageText
        public init(senderName: String?, text: String) {
            self.senderName = senderName
            self.text = MessageText(text)
        }
    }

    /// One emoji and how many reacted with it.
    public struct Reaction: Equatable, Sendable {
        public var emoji: String
        public var count: Int
        public var byUser: Bool
        public init(emoji: String, count: Int, byUser: Bool) {
            self.emoji = emoji
            self.count = count
            self.byUser = byUser
        }
    }

    /// A file's card: name, size and transfer.
    public struct File: Equatable, Sendable {
        public var name: String
        public var size: Int64
        public var status: ChatFileStatus
        /// Bytes sent or received so far, while the transfer runs.
        public var progressBytes: Int64?
        public init(name: String, size: Int64, status: ChatFileStatus, progressBytes: Int64? = nil) {
            self.name = name
            self.size = size
            self.status = status
            self.progressBytes = progressBytes
        }
    }

    /// An item deleted for everyone (`message deleted`) or marked deleted (`[marked deleted]`).
    public enum Deletion: Equatable, Sendable {
        case deleted, markedDeleted
        /// A group moderator deleted it for everyone (`by` "you" for the user).
        case moderated(by: String)
        /// Its sender is blocked for all in the group.
        case blockedByAdmin
    }

    /// A call's outcome (iOS CICallItemView).
    public struct Call: Equatable, Sendable {
        public enum Status: Equatable, Sendable {
            case pending, missed, rejected, inProgress, error
            /// `duration` in seconds.
            case ended(duration: Int)
        }
        public var video: Bool
        public var status: Status
        public init(video: Bool, status: Status) {
            self.video = video
            self.status = status
        }
    }

    /// Events the app makes items of from core events.
    public enum Event: Equatable, Sendable {
        /// Messages lost between the relay and us: `N skipped message(s)`.
        case messagesSkipped(Int)
        /// A message that failed the integrity check: bad hash, bad id, duplicate.
        case messageError(String)
        /// `decryption error`, of one or more messages.
        case decryptionError(messages: Int)
        case connected
        case contactDeleted
        /// Another connection event, in words (`security code changed`, ...).
        case connection(String)
        /// A chat feature turned on or off: `Voice messages: enabled`.
        case feature(name: String, state: String)
        /// A preference the contact or the user set: `Disappearing messages: offered 1 day`.
        case preference(name: String, value: String)
    }
}

/// Who sent a run of items: rows of one sender share a sender row (terminal layout).
public struct ChatViewSender: Hashable, Sendable {
    /// Equal for items of one sender (`user`, `contact:12`, later `member:7`).
    public var id: String
    public var name: String
    public var isUser: Bool
    /// The sender's profile image drawn in one cell (a group's avatar gutter); nil: the initial.
    public var picture: StyledLine?
    public init(id: String, name: String, isUser: Bool, picture: StyledLine? = nil) {
        self.id = id
        self.name = name
        self.isUser = isUser
        self.picture = picture
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(name)
        hasher.combine(isUser)
    }

    public static func user(_ name: String) -> ChatViewSender { .init(id: "user", name: name, isUser: true) }
    public static func contact(_ id: Int64, name: String) -> ChatViewSender {
        .init(id: "contact:\(id)", name: name, isUser: false)
    }
}
