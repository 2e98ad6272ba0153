import Foundation
import SimpleXProtocol

/// Reactions to group items and replies in groups (SimpleX `x.msg.react` with the author's member
/// id, and `x.msg.new` with a quote naming the quoted item's author).
extension ChatController {
    /// Adds or removes the user's reaction to `item` (`+1 #team hello`), sent to every ready member
    /// when the group allows reactions.
    public func reactGroup(_ name: String, _ item: GroupChatItem, emoji: MsgReactionEmoji, add: Bool)
        async throws(ChatError) -> GroupChatItem
    {
        let group = try store.group(named: name, user)
        guard group.membership.status.isCurrent, group.membership.status != .invited else {
            throw .invalidCommand("you are not a member of #\(group.localDisplayName)")
        }
        guard group.profile.allowsGroupFeature("reactions", role: group.membership.role) else {
            throw .invalidCommand("#\(group.localDisplayName): message reactions not allowed")
        }
        guard let msgId = item.sharedMsgId, !item.deleted, !item.isError else {
            throw .invalidCommand("this item cannot have reactions")
        }
        let author = item.member?.memberId ?? group.membership.memberId
        let emojiText = emoji.displayText
        if add == item.reactions.contains(where: { $0.byUser && $0.emoji == emojiText }) {
            throw .invalidCommand(
                add ? "you already reacted with \(emojiText)" : "you did not react with \(emojiText)")
        }
        try await sendToReadyMembers(
            .msgReact(msgId: msgId, memberId: author, scope: nil, reaction: .emoji(emoji), add: add),
            in: group)
        try store.setGroupReaction(item, member: nil, emoji: emojiText, add: add)
        return try store.groupItem(id: item.itemId, groupId: group.groupId)
    }

    /// The quote of `item` as a reply to it carries it: its id, time, and author's member id.
    func groupQuote(of item: GroupChatItem, in group: ChatGroup) throws(ChatError) -> QuotedMsg {
        guard let msgId = item.sharedMsgId, !item.deleted, !item.isError else {
            throw .invalidCommand("this item cannot be replied to")
        }
        return QuotedMsg(
            msgRef: MsgRef(
                msgId: msgId, sentAt: ChatTimestamp(item.timestamp), sent: item.member == nil,
                memberId: item.member?.memberId ?? group.membership.memberId),
            content: item.content)
    }

    /// The quote of a received reply, with the quoted item's author as the user knows it (the
    /// user's own membership when it quotes the user; none when the author is unknown here).
    func receivedGroupQuote(_ quote: QuotedMsg?, in group: ChatGroup) throws(ChatError) -> GroupItemQuote? {
        guard let quote else { return nil }
        let author: GroupMember? =
            if let memberId = quote.msgRef.memberId {
                memberId == group.membership.memberId
                    ? group.membership : try store.member(groupId: group.groupId, memberId: memberId)
            } else { nil }
        return GroupItemQuote(content: quote.content, member: author, sharedMsgId: quote.msgRef.msgId)
    }

    /// A member's reaction to an item of the group (its own, another member's or the user's); whether it
    /// applied (so an admin forwards it). Refused when the group does not allow reactions.
    func applyGroupReaction(
        msgId: SharedMsgID, author memberId: MemberID?, reaction: MsgReaction, add: Bool,
        from sender: GroupMember, in group: ChatGroup
    ) throws(ChatError) -> Bool {
        guard case .emoji(let emoji) = reaction else { return false }
        guard group.profile.allowsGroupFeature("reactions", role: sender.role) else {
            refuse(group, sender, "a reaction, but reactions are prohibited in this group")
            return false
        }
        let author: GroupMember? =
            if let memberId, memberId != group.membership.memberId {
                try store.member(groupId: group.groupId, memberId: memberId)
            } else { nil }
        if memberId != nil, memberId != group.membership.memberId, author == nil { return false }
        guard let item = try store.groupItem(groupId: group.groupId, member: author, sharedMsgId: msgId),
            !item.deleted,
            try store.setGroupReaction(item, member: sender, emoji: emoji.displayText, add: add)
        else { return false }
        emit(
            .group(
                .itemReaction(
                    group, try store.groupItem(id: item.itemId, groupId: group.groupId), by: sender,
                    emoji: emoji.displayText, add: add)))
        return true
    }
}
