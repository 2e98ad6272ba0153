import Foundation

/// A disappearing message's timer (SimpleX `CITimed`): `ttl` seconds, counted from when the
/// item was sent, or from when the user read it for a received item (`deleteAt` is nil until then).
public struct ChatItemTimed: Equatable, Sendable {
    public let ttl: Int
    public let deleteAt: Date?

    public init(ttl: Int, deleteAt: Date?) {
        self.ttl = ttl
        self.deleteAt = deleteAt
    }
}

/// Which page of a chat to read (SimpleX `ChatPagination`). Pages come oldest first.
public enum ChatPagination: Equatable, Sendable {
    /// The newest `count` items.
    case last(count: Int)
    /// `count` items just older than item `id`.
    case before(id: Int64, count: Int)
    /// `count` items just newer than item `id`.
    case after(id: Int64, count: Int)
    /// Item `id` with `count` items on each side of it (it is left out when a filter excludes it).
    case around(id: Int64, count: Int)
    /// Where a chat opens: around its oldest unread item, or its newest items when all are read.
    case initial(count: Int)
}

/// A content filter of a chat (SimpleX `ContentFilter`): items whose message is of one type.
public enum ChatContentFilter: String, CaseIterable, Sendable {
    case images, videos, voice, files, links

    /// The `MsgContent` type the filter selects (the stored `msg_content_tag`).
    public var contentType: String {
        switch self {
        case .images: "image"
        case .videos: "video"
        case .voice: "voice"
        case .files: "file"
        case .links: "link"
        }
    }
}
