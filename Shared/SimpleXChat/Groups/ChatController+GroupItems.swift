import Foundation
import SimpleXProtocol

/// Edits and deletions of group messages: the user's own, sent to every ready member (forwarded by
/// the host to those not connected to the user yet), and the members', applied when they come.
extension ChatController {
    /// The last item of group `name` whose text starts with `prefix`, sent by the user or any member.
    public func findGroupItem(in name: String, sentByUser: Bool?, textPrefix prefix: String) throws(ChatError)
        -> GroupChatItem
    {
        let group = try store.group(named: name, user)
        let items = try store.groupItems(groupId: group.groupId, count: 200)
        guard
            let item = items.last(where: { item in
                !item.isError && !item.deleted && item.moderation == nil && item.text.hasPrefix(prefix)
                    && (sentByUser.map { byUser in (item.member == nil) == byUser } ?? true)
            })
        else { throw .itemNotFound("starting with \(prefix) in #\(group.localDisplayName)") }
        return item
    }

    /// The last item of group `name` starting with `prefix` by member `author` (nil: by the user),
    /// for a reply (`> #team @bob (hello) hi`).
    public func findGroupItem(in name: String, author: String?, textPrefix prefix: String) throws(ChatError)
        -> GroupChatItem
    {
        guard let author else { return try findGroupItem(in: name, sentByUser: true, textPrefix: prefix) }
        let group = try store.group(named: name, user)
        guard
            let item = try store.groupItems(groupId: group.groupId, count: 200).last(where: { item in
                !item.isError && !item.deleted && item.text.hasPrefix(prefix)
                    && item.member?.localDisplayName == author
            })
        else { throw .itemNotFound("from \(author) starting with \(prefix) in #\(group.localDisplayName)") }
        return item
    }

    /// Edits the user's own message in the group (`x.msg.update` to every ready member).
    public func editGroup(_ name: String, _ item: GroupChatItem, to content: MsgContent)
        async throws(ChatError)
        -> GroupChatItem
    {
        let group = try store.group(named: name, user)
        guard item.member == nil, let msgId = item.sharedMsgId else {
            throw .invalidCommand("only your own messages can be edited")
        }
        let mentions = try groupMentions(in: content.text, group: group)
        try await sendToReadyMembers(
            .msgUpdate(MsgUpdate(msgId: msgId, content: content, mentions: mentions)), in: group)
        try store.updateGroupItem(item, content)
        return try store.groupItem(id: item.itemId, groupId: group.groupId)
    }

    /// Deletes the user's own message for everyone (`x.msg.del`); here it is gone.
    public func deleteGroupItem(_ name: String, _ item: GroupChatItem) async throws(ChatError) {
        let group = try store.group(named: name, user)
        guard item.member == nil, let msgId = item.sharedMsgId else {
            throw .invalidCommand("only your own messages can be deleted for everyone")
        }
        try await sendToReadyMembers(.msgDel(msgId: msgId, memberId: nil, scope: nil), in: group)
        try store.deleteGroupItem(item)
    }

    func sendToReadyMembers(_ event: ChatMsgEvent, msgId: SharedMsgID? = nil, in group: ChatGroup)
        async throws(ChatError)
    {
        let body = try encode(event, msgId: msgId)
        for member in try store.members(groupId: group.groupId) where member.ready && member.status.isCurrent
        {
            guard let connection = member.agentConnectionID else { continue }
            do { _ = try await agent.sendMessage(connection, body: body) } catch { throw .agent("\(error)") }
        }
    }

    /// A member's edit or deletion of its own message; nothing when there is no such message of
    /// that member (another member's message cannot be changed this way). Whether it applied.
    func applyGroupChange(_ event: ChatMsgEvent, from sender: GroupMember, in group: ChatGroup)
        throws(ChatError)
        -> Bool
    {
        switch event {
        case .msgUpdate(let update):
            guard
                let item = try store.groupItem(
                    groupId: group.groupId, member: sender, sharedMsgId: update.msgId),
                !item.deleted, item.moderation == nil || item.moderation == .blocked,
                item.content != update.content
            else { return false }
            // A reply to the user's message stays a mention of the user whatever the edit says.
            let mention = item.quote?.byUser == true || Self.mentionsUser(update.mentions, quote: nil, in: group)
            try store.updateGroupItem(item, update.content, userMention: mention)
            emit(.group(.itemUpdated(group, try store.groupItem(id: item.itemId, groupId: group.groupId))))
            return true
        case .msgDel(let msgId, let memberId, _):
            if let memberId, memberId != sender.memberId {
                return try moderationReceived(msgId: msgId, author: memberId, by: sender, in: group)
            }
            guard
                let item = try store.groupItem(groupId: group.groupId, member: sender, sharedMsgId: msgId),
                !item.deleted
            else { return false }
            try store.markGroupItemDeleted(item)
            emit(.group(.itemDeleted(group, try store.groupItem(id: item.itemId, groupId: group.groupId))))
            return true
        default:
            return false
        }
    }
}
