/// What happened in a chat that may be notified: a chat item, or an event about the chat.
public enum NotificationItem: Sendable, Equatable {
    /// A chat item received in the chat.
    case received(ReceivedItem)
    /// A chat item the user sent (from this or another device): never notified.
    case sent
    /// Someone asked to connect (the chat is the contact request).
    case contactRequest
    /// A new contact finished connecting.
    case contactConnected
    /// The contact is calling.
    case callInvitation(CallMedia)

    /// A received chat item, reduced to what its notification shows.
    public struct ReceivedItem: Sendable, Equatable {
        public var content: Content
        /// The group member who sent it; nil in direct chats and for items a channel sends as itself.
        public var sender: NotificationName?
        /// The item mentions the user or replies to the user's message (iOS `meta.userMention`).
        public var mentionsUser: Bool
        /// The name of the file attached to the item, if any.
        public var fileName: String?

        public init(
            content: Content, sender: NotificationName? = nil, mentionsUser: Bool = false,
            fileName: String? = nil
        ) {
            self.content = content
            self.sender = sender
            self.mentionsUser = mentionsUser
            self.fileName = fileName
        }
    }

    /// A received item's content, as far as notifications tell contents apart.
    public enum Content: Sendable, Equatable {
        /// A message (iOS `CIContent.rcvMsgContent` of an item that is not deleted).
        case message(MessageContent)
        /// An invitation to join a group (iOS `rcvGroupInvitation`); shown as "invitation to group <name>".
        case groupInvitation(groupName: String)
        /// One of the received events iOS notifies about (`ChatItem.showNotification`: your role changed,
        /// you were removed, the group was deleted, a member awaits review, a feature was rejected, a group
        /// invitation link was received), with its item text.
        case event(text: String)
        /// Any other received item (deleted or moderated, call log entries, decryption and integrity
        /// errors, profile and feature changes, other group events): never notified.
        case silent
    }

    /// A message's content (iOS `MsgContent`), carrying only what a notification shows.
    public enum MessageContent: Sendable, Equatable {
        case text(String)
        case link(text: String)
        case image(text: String)
        /// A video; `duration` in seconds.
        case video(text: String, duration: Int)
        /// A voice message; `duration` in seconds.
        case voice(text: String, duration: Int)
        case file(text: String)
        /// A report of a group message to the group's moderators.
        case report(text: String, reason: ReportReason)
        /// A card for a contact address, invitation or group link.
        case chat(text: String)
        /// A content type this client does not know; `text` is what the sender put in it.
        case unknown(type: String, text: String)

        /// The message text (caption for media), possibly empty.
        public var text: String {
            switch self {
            case .text(let text), .link(let text), .image(let text), .video(let text, _), .voice(let text, _),
                .file(let text), .report(let text, _), .chat(let text), .unknown(_, let text):
                text
            }
        }
    }

    /// Why a message was reported (iOS `ReportReason`).
    public enum ReportReason: Sendable, Equatable {
        case spam, illegal, community, profile, other
        case unknown(String)

        /// The reason as iOS names it, used when a report has no text.
        public var text: String {
            switch self {
            case .spam: "Spam"
            case .illegal: "Inappropriate content"
            case .community: "Community guidelines violation"
            case .profile: "Inappropriate profile"
            case .other: "Another reason"
            case .unknown(let type): type
            }
        }
    }

    /// Whether a call is audio only or has video.
    public enum CallMedia: String, Sendable, Equatable, CaseIterable {
        case audio, video
    }
}

extension NotificationItem {
    /// A duration as iOS `durationText` writes it: `00:15`, `02:05`, and `01:00:05` from an hour on.
    public static func durationText(seconds: Int) -> String {
        let seconds = max(0, seconds)
        let minutes = seconds / 60
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return minutes < 60
            ? "\(twoDigits(minutes)):\(twoDigits(seconds % 60))"
            : "\(twoDigits(minutes / 60)):\(twoDigits(minutes % 60)):\(twoDigits(seconds % 60))"
    }
}
