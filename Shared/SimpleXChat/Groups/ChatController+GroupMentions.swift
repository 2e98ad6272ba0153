import Foundation
import SimpleXProtocol

/// Mentions in group messages (SimpleX `MsgMentions`): `@name` in the text names a member, the
/// message carries `{"name":{"memberId":...}}` so every member knows whom it means whatever its own
/// name for that member, and a member's message that mentions the user (or quotes the user's
/// message) is marked, to notify in a group set to mentions only.
extension ChatController {
    /// At most this many mentions are sent with one message (SimpleX `maxSndMentions`).
    static let maxSentMentions = 3
    /// At most this many of a received message's mentions are read (SimpleX `maxRcvMentions`).
    static let maxReceivedMentions = 5

    /// The members of `group` that `text` mentions as `@name` (or `@'name with spaces'`), by the
    /// user's local name for them (unique in the group, `bob_1` beside `bob`); the first three.
    func groupMentions(in text: String, group: ChatGroup) throws(ChatError) -> [String: MemberID] {
        let names = Markdown.parse(text).compactMap { run -> String? in
            if case .mention(let name) = run.format { name } else { nil }
        }
        guard !names.isEmpty else { return [:] }
        let members = try store.members(groupId: group.groupId).filter { $0.status.isCurrent }
        var mentions: [String: MemberID] = [:]
        for name in names where mentions[name] == nil && mentions.count < Self.maxSentMentions {
            if let member = members.first(where: { $0.localDisplayName == name }) {
                mentions[name] = member.memberId
            }
        }
        return mentions
    }

    /// The group's unread items that mention the user (the chat list's `@`).
    public func groupUnreadMentionCount(_ name: String) throws(ChatError) -> Int {
        try store.groupUnreadMentionCount(groupId: try store.group(named: name, user).groupId)
    }

    /// Whether a member's message mentions the user: one of its first five mentions is the user's
    /// member id, or it quotes the user's message.
    static func mentionsUser(_ mentions: [String: MemberID], quote: QuotedMsg?, in group: ChatGroup) -> Bool {
        let own = group.membership.memberId
        if let quoted = quote?.msgRef.memberId, quoted == own { return true }
        return mentions.keys.sorted().prefix(maxReceivedMentions).contains { mentions[$0] == own }
    }
}
