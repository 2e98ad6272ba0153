import Foundation
import SimpleXChat
import Synchronization

extension ChatViewItem {
    /// The row of a group item: the user's own, or a member's with the member as sender (so a
    /// run of one member's messages shares one sender row, seed 000 §9); a refused event is an
    /// event row.
    public init(group item: GroupChatItem, userName: String) {
        var sender: ChatViewSender? = item.member.map(ChatViewSender.member) ?? .user(userName)
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
        case .unknown(_, let text, _):
            // The core's own group items (refused events, member changes) have no sender row.
            content = .event(.connection(text))
            sender = nil
        }
        self.init(
            id: item.itemId, timestamp: item.timestamp, sender: sender, content: content,
            quote: item.quote.map { quote in
                .init(
                    senderName: quote.byUser ? "you" : quote.member?.localDisplayName,
                    text: quote.content.text)
            },
            forwarded: item.forwarded,
            edited: item.edited, reactions: Self.groupReactions(item.reactions),
            file: item.file.map { File(name: $0.fileName, size: $0.fileSize, status: $0.status) },
            deletion: Self.deletion(item))
    }

    /// Each emoji once, in the order it first came, with how many reacted with it.
    static func groupReactions(_ reactions: [GroupItemReaction]) -> [Reaction] {
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

    /// How a hidden group item shows: deleted by its sender, by a moderator, or muted as blocked.
    static func deletion(_ item: GroupChatItem) -> Deletion? {
        switch item.moderation {
        case .marked(let by), .removed(let by): return .moderated(by: by?.localDisplayName ?? "you")
        case .blocked: return .blockedByAdmin
        case nil: return item.deleted ? .markedDeleted : nil
        }
    }
}

extension ChatViewSender {
    /// A group member: its name with its role where it is above member (`bob · admin`).
    public static func member(_ member: GroupMember) -> ChatViewSender {
        let badge = member.role >= .admin ? " · \(member.role.rawValue)" : ""
        return .init(
            id: "member:\(member.groupMemberId)", name: member.localDisplayName + badge, isUser: false,
            picture: member.profile.image.flatMap(AvatarPictures.shared.picture))
    }
}

/// Profile images drawn in one cell of symbols for the avatar gutter, decoded once per image
/// (gdk-pixbuf and chafa, as every picture): items are made again on every page and update.
final class AvatarPictures: Sendable {
    static let shared = AvatarPictures()
    private let cache = Mutex<[String: StyledLine?]>([:])

    /// `image` (a `data:image/...;base64,` URI, as profiles carry it) in one cell; nil when it
    /// does not decode.
    func picture(_ image: String) -> StyledLine? {
        if let known = cache.withLock({ $0[image] }) { return known }
        var picture: StyledLine?
        if let comma = image.firstIndex(of: ","), image.hasPrefix("data:image/"),
            let data = Data(base64Encoded: String(image[image.index(after: comma)...])),
            let decoded = try? TerminalImage(data: Array(data), name: "profile image"),
            let line = try? decoded.symbols(fitting: CellBox(columns: 1, rows: 1)).first, line.width == 1
        {
            picture = line
        }
        cache.withLock { cache in
            if cache.count >= 256 { cache.removeAll() }  // members' images: few, but not unbounded
            cache[image] = picture
        }
        return picture
    }
}
