import Foundation
import SimpleXProtocol

/// Moderation in groups (SimpleX reference §3): a moderator deletes a member's message for
/// everyone, blocks a member for all, and receives the members' reports; each checked against
/// the sender's role by the receiver, as the other group events are.
extension ChatController {
    // MARK: - The user as moderator

    /// The last message of member `memberName` in group `name` whose text starts with `prefix`.
    public func findMemberItem(in name: String, member memberName: String, textPrefix prefix: String)
        throws(ChatError) -> GroupChatItem
    {
        let group = try store.group(named: name, user)
        let bare = memberName.hasPrefix("@") ? String(memberName.dropFirst()) : memberName
        let items = try store.groupItems(groupId: group.groupId, count: 200)
        guard
            let item = items.last(where: { item in
                item.member?.localDisplayName == bare && !item.isError && !item.deleted
                    && (item.moderation == nil || item.moderation == .blocked) && item.text.hasPrefix(prefix)
            })
        else { throw .itemNotFound("of \(bare) starting with \(prefix) in #\(group.localDisplayName)") }
        return item
    }

    /// Deletes a member's message for everyone (`x.msg.del` with the author's `memberId`): marked
    /// deleted by the user, or removed where the group has full delete.
    public func moderateGroupItem(_ name: String, _ item: GroupChatItem) async throws(ChatError)
        -> GroupChatItem
    {
        let group = try store.group(named: name, user)
        guard let author = item.member, let msgId = item.sharedMsgId else {
            throw .invalidCommand(
                "only a member's message can be moderated; delete your own with \\ #\(name)")
        }
        guard group.mayModerate(item) else {
            throw .invalidCommand(
                "#\(group.localDisplayName): you have no permission to delete \(author.localDisplayName)'s message"
            )
        }
        try await sendToReadyMembers(.msgDel(msgId: msgId, memberId: author.memberId, scope: nil), in: group)
        try store.moderateGroupItem(item, by: nil, fullDelete: group.fullDelete)
        return try store.groupItem(id: item.itemId, groupId: group.groupId)
    }

    /// Blocks (or unblocks) a member for all (`x.grp.mem.restrict` to every other ready member:
    /// the blocked member is never told). Its messages are then muted for everyone.
    public func blockMemberForAll(_ groupName: String, member name: String, blocked: Bool)
        async throws(ChatError) -> GroupMember
    {
        let group = try store.group(named: groupName, user)
        guard group.membership.status.isCurrent else {
            throw .invalidCommand("you are not a member of #\(group.localDisplayName)")
        }
        let bare = name.hasPrefix("@") ? String(name.dropFirst()) : name
        guard let member = try store.member(named: bare, groupId: group.groupId), member.status.isCurrent
        else { throw .invalidCommand("#\(group.localDisplayName) has no member \(bare)") }
        let own = group.membership.role
        guard own >= .moderator, own >= member.role else {
            throw .invalidCommand(
                "#\(group.localDisplayName): you have no permission to \(blocked ? "block" : "unblock") \(bare)"
            )
        }
        guard member.blockedByAdmin != blocked else {
            throw .invalidCommand(
                "#\(group.localDisplayName): \(bare) is \(blocked ? "already blocked" : "not blocked")")
        }
        let event = ChatMsgEvent.group(
            .memRestrict(
                memberId: member.memberId,
                restrictions: MemberRestrictions(restriction: blocked ? .blocked : .unrestricted)))
        let body = try encode(event)
        for other in try store.members(groupId: group.groupId)
        where other.ready && other.status.isCurrent && other.groupMemberId != member.groupMemberId {
            guard let connection = other.agentConnectionID else { continue }
            do { _ = try await agent.sendMessage(connection, body: body) } catch { throw .agent("\(error)") }
        }
        try store.setMemberBlocked(member, blocked)
        return try store.member(id: member.groupMemberId)
    }

    /// Reports a member's message to the group's moderators (`x.msg.new` with `report` content
    /// quoting it), sent to members who are moderators or higher only.
    public func reportGroupItem(
        _ name: String, _ item: GroupChatItem, reason: ReportReason, text: String = ""
    )
        async throws(ChatError) -> GroupChatItem
    {
        let group = try store.group(named: name, user)
        guard group.membership.status.isCurrent, group.membership.status != .invited else {
            throw .invalidCommand("you are not a member of #\(group.localDisplayName)")
        }
        guard let author = item.member, let reported = item.sharedMsgId, !item.isError else {
            throw .invalidCommand("only a member's message can be reported")
        }
        let content = MsgContent.report(text: text, reason: reason)
        let quote = QuotedMsg(
            msgRef: MsgRef(
                msgId: reported, sentAt: ChatTimestamp(item.timestamp), sent: false, memberId: author.memberId
            ),
            content: item.content)
        var generator = SystemRandomNumberGenerator()
        let msgId = SharedMsgID.random(using: &generator)
        let body = try encode(.msgNew(MsgContainer(content: content, quote: quote)), msgId: msgId)
        for member in try store.members(groupId: group.groupId)
        where member.ready && member.status.isCurrent && member.role >= .moderator {
            guard let connection = member.agentConnectionID else { continue }
            do { _ = try await agent.sendMessage(connection, body: body) } catch { throw .agent("\(error)") }
        }
        let sent = try store.insertGroupItem(
            user, groupId: group.groupId, member: nil, content: content, sharedMsgId: msgId)
        try store.setGroupItemQuote(
            sent,
            GroupItemQuote(
                sharedMsgId: reported, member: author, memberId: author.memberId, content: item.content))
        return try store.groupItem(id: sent.itemId, groupId: group.groupId)
    }

    /// The group's reports, oldest first: what moderators received and what the user sent.
    public func groupReports(_ name: String, count: Int = 100) throws(ChatError) -> [GroupChatItem] {
        try store.groupReports(groupId: try store.group(named: name, user).groupId, count: count)
    }

    // MARK: - Received

    /// A member's new item as it is shown: hidden when its sender is blocked for all, or deleted
    /// at once when a moderation of it came first.
    func moderatedOnArrival(_ item: GroupChatItem, from sender: GroupMember, in group: ChatGroup)
        throws(ChatError) -> GroupChatItem
    {
        if let msgId = item.sharedMsgId,
            let moderator = try store.takePendingModeration(author: sender, sharedMsgId: msgId)
        {
            try store.moderateGroupItem(item, by: moderator, fullDelete: group.fullDelete)
        } else if sender.blockedByAdmin {
            try store.markGroupItemBlocked(item)
        } else {
            return item
        }
        return try store.groupItem(id: item.itemId, groupId: group.groupId)
    }

    /// `x.msg.del` naming another member's message, from `moderator`: applied when it is a moderator
    /// or higher and not below the author's role; kept for later when the message has not come yet.
    /// Whether it applied (then an admin forwards it).
    func moderationReceived(
        msgId: SharedMsgID, author authorId: MemberID, by moderator: GroupMember, in group: ChatGroup
    ) throws(ChatError) -> Bool {
        let isUser = authorId == group.membership.memberId
        let author = isUser ? group.membership : try store.member(groupId: group.groupId, memberId: authorId)
        guard let author else {
            refuse(group, moderator, "x.msg.del for a message of an unknown member")
            return false
        }
        guard moderator.role >= .moderator, moderator.role >= author.role else {
            refuse(
                group, moderator,
                "x.msg.del from \(moderator.role.withArticle), who may not delete a message of \(author.role.withArticle)"
            )
            return false
        }
        guard
            let item = try store.groupItem(
                groupId: group.groupId, member: isUser ? nil : author, sharedMsgId: msgId)
        else {
            guard !isUser else { return false }  // The user's message is gone here already.
            try store.insertPendingModeration(
                groupId: group.groupId, author: author, sharedMsgId: msgId, moderator: moderator)
            return true
        }
        guard !item.deleted, item.moderation == nil || item.moderation == .blocked else { return false }
        try store.moderateGroupItem(item, by: moderator, fullDelete: group.fullDelete)
        emit(.group(.itemDeleted(group, try store.groupItem(id: item.itemId, groupId: group.groupId))))
        return true
    }

    /// `x.grp.mem.restrict` from `sender`: applied when it is a moderator or higher and not below
    /// the member's role; when it names the user, ignored (a blocked member is never told).
    /// Whether it applied (then an admin forwards it).
    @discardableResult
    func restrictionReceived(
        _ memberId: MemberID, _ restrictions: MemberRestrictions, by sender: GroupMember, in group: ChatGroup
    ) throws(ChatError) -> Bool {
        guard memberId != group.membership.memberId else { return false }
        guard let target = try store.member(groupId: group.groupId, memberId: memberId),
            target.status.isCurrent
        else {
            refuse(group, sender, "x.grp.mem.restrict for a member not in the group")
            return false
        }
        guard sender.role >= .moderator, sender.role >= target.role else {
            refuse(
                group, sender,
                "x.grp.mem.restrict from \(sender.role.withArticle), who may not block \(target.role.withArticle)"
            )
            return false
        }
        let blocked = restrictions.restriction == .blocked
        guard target.blockedByAdmin != blocked else { return false }  // Sent again, or by a second moderator.
        try store.setMemberBlocked(target, blocked)
        emit(
            .group(
                .memberBlocked(
                    group, by: sender, try store.member(id: target.groupMemberId), blocked: blocked)))
        return true
    }

    /// A member's report (`x.msg.new` with `report` content): kept, with the reported message
    /// quoted, when the user is a moderator; a report sent to anyone else is refused.
    func reportReceived(
        _ container: MsgContainer, msgId: SharedMsgID?, from sender: GroupMember, in group: ChatGroup,
        forwarded: Bool
    ) throws(ChatError) {
        guard group.membership.role >= .moderator else {
            return refuse(
                group, sender, "a report sent to \(group.membership.role.withArticle), not a moderator")
        }
        let item = try store.insertGroupItem(
            user, groupId: group.groupId, member: sender, content: container.content, sharedMsgId: msgId,
            forwarded: forwarded)
        if let quote = container.quote {
            let authorId = quote.msgRef.memberId
            let author =
                authorId == group.membership.memberId
                ? group.membership
                : try authorId.flatMap { id throws(ChatError) in
                    try store.member(groupId: group.groupId, memberId: id)
                }
            try store.setGroupItemQuote(
                item,
                GroupItemQuote(
                    sharedMsgId: quote.msgRef.msgId, member: author, memberId: authorId,
                    content: quote.content))
        }
        emit(.group(.newItem(group, try store.groupItem(id: item.itemId, groupId: group.groupId))))
    }
}

extension ChatGroup {
    /// Whether the user may report `item` to the group's moderators (SimpleX shows "Report" to
    /// members below moderator, where the group allows reports): a member's message, not deleted.
    public func mayReport(_ item: GroupChatItem) -> Bool {
        guard item.member != nil, !item.isError, !item.deleted, item.moderation == nil, item.sharedMsgId != nil
        else { return false }
        return membership.status.isCurrent && membership.status != .invited && membership.role < .moderator
            && profile.allowsGroupFeature("reports", role: membership.role)
    }

    /// Whether the user may delete `item` for everyone as a moderator: a moderator or higher, not
    /// below the author's role, and the item a member's message not deleted yet.
    public func mayModerate(_ item: GroupChatItem) -> Bool {
        guard let author = item.member, !item.isError, !item.deleted,
            item.moderation == nil || item.moderation == .blocked,
            item.sharedMsgId != nil
        else { return false }
        return membership.status.isCurrent && membership.role >= .moderator && membership.role >= author.role
    }

    /// Whether the user may block `member` for all (or unblock it).
    public func mayBlock(_ member: GroupMember) -> Bool {
        membership.status.isCurrent && member.status.isCurrent && membership.role >= .moderator
            && membership.role >= member.role
    }

    /// Whether the group's `fullDelete` preference is on: moderated messages lose their content.
    public var fullDelete: Bool {
        profile.groupPreferences?["fullDelete"]?["enable"]?.stringValue == "on"
    }
}
