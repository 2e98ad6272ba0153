import Foundation
import SimpleXProtocol

/// Messages from members: items, the introduction steps, and forwarding, each checked against the
/// sender's role and what the user knows of the group (SimpleX Subscriber.hs, receiver side).
extension ChatController {
    /// Applies one message from `sender`; `forwardedBy` is the admin who forwarded it.
    func applyGroup(
        _ message: ChatMessage, from sender: GroupMember, in group: ChatGroup, forwardedBy: GroupMember? = nil
    )
        async throws(ChatError)
    {
        // Once the user is out, what was still on the way is of no group any more.
        guard group.membership.status.isCurrent else { return }
        guard sender.status.isCurrent else {
            if case .ok = message.event { return }
            return refuse(group, sender, "\(message.event.name) from a member who is no longer in the group")
        }
        switch message.event {
        case .msgNew(let container):
            guard sender.role >= .author else {
                return refuse(group, sender, "an observer cannot send messages")
            }
            if let problem = featureProblem(of: container, from: sender, in: group) {
                return refuse(group, sender, problem)
            }
            if let msgId = message.msgId,
                try store.hasGroupItem(groupId: group.groupId, member: sender, sharedMsgId: msgId)
            {
                return  // It came both directly and forwarded.
            }
            if case .report = container.content {
                try reportReceived(
                    container, msgId: message.msgId, from: sender, in: group, forwarded: forwardedBy != nil)
                if forwardedBy == nil { try await forward(message, from: sender, in: group) }
                return
            }
            var item = try moderatedOnArrival(
                try store.insertGroupItem(
                    user, groupId: group.groupId, member: sender, content: container.content,
                    sharedMsgId: message.msgId,
                    forwarded: forwardedBy != nil,
                    userMention: Self.mentionsUser(container.mentions, quote: container.quote, in: group),
                    quote: try receivedGroupQuote(container.quote, in: group)), from: sender, in: group)
            if let invitation = container.file {
                item.file = try groupFileOffered(invitation, item: item, from: sender, in: group)
            }
            emit(.group(.newItem(group, item)))
            // A blocked member's messages are not passed on (reference §2, forwarding).
            if forwardedBy == nil, !sender.blockedByAdmin {
                try await forward(message, from: sender, in: group)
            }
        case .msgUpdate, .msgDel:
            if try applyGroupChange(message.event, from: sender, in: group), forwardedBy == nil {
                try await forward(message, from: sender, in: group)
            }
        case .group(.memRestrict(let memberId, let restrictions)):
            // Passed on to members still connecting to the moderator, never to the blocked one.
            if try restrictionReceived(memberId, restrictions, by: sender, in: group), forwardedBy == nil {
                try await forward(message, from: sender, in: group, except: memberId)
            }
        case .msgReact(let msgId, let author, _, let reaction, let add):
            if try applyGroupReaction(
                msgId: msgId, author: author, reaction: reaction, add: add, from: sender, in: group),
                forwardedBy == nil
            {
                try await forward(message, from: sender, in: group)
            }
        case .fileAcptInv(let msgId, let link, let fileName) where forwardedBy == nil:
            try await groupFileAccepted(msgId: msgId, link: link, fileName: fileName, from: sender, in: group)
        case .group(let event):
            try await applyGroupEvent(event, from: sender, in: group, forwardedBy: forwardedBy)
        case .ok, .info:
            break
        default:
            let item = try store.insertGroupItem(
                user, groupId: group.groupId, member: sender,
                content: .placeholder(
                    type: message.event.name, text: "unsupported event \(message.event.name)"),
                sharedMsgId: message.msgId)
            emit(.group(.newItem(group, item)))
        }
    }

    private func applyGroupEvent(
        _ event: GroupEvent, from sender: GroupMember, in group: ChatGroup, forwardedBy: GroupMember?
    ) async throws(ChatError) {
        switch event {
        case .memIntro(let info, let restrictions):
            guard sender.category == .host, sender.role >= .admin else {
                return refuse(
                    group, sender, "x.grp.mem.intro from a member who is not the admin that invited you")
            }
            try await introduced(info, by: sender, in: group)
            if restrictions?.restriction == .blocked,
                let member = try store.member(groupId: group.groupId, memberId: info.memberId)
            {
                try store.setMemberBlocked(member, true)  // Blocked for all before the user joined.
            }
        case .memNew(let info, _):
            guard sender.role >= .admin, sender.role >= info.memberRole else {
                return refuse(
                    group, sender, "x.grp.mem.new from a member who may not add a \(info.memberRole.rawValue)"
                )
            }
            guard info.memberId != group.membership.memberId,
                try store.member(groupId: group.groupId, memberId: info.memberId) == nil
            else { return }
            let member = try store.insertMember(
                user, groupId: group.groupId, info: info, category: .post, status: .announced,
                invitedBy: sender.groupMemberId)
            emit(.group(.memberAdded(group, by: sender, member)))
        case .memInv(let memberId, let intro):
            guard let other = try store.member(groupId: group.groupId, memberId: memberId),
                try store.introStatus(re: other, to: sender) != nil
            else { return refuse(group, sender, "x.grp.mem.inv for a member you did not introduce") }
            try await send(.group(.memFwd(sender.info, intro: intro)), to: other)
            try store.setIntroStatus(re: other, to: sender, .fwd)
        case .memFwd(let info, let intro):
            guard sender.role >= .admin,
                let newMember = try store.member(groupId: group.groupId, memberId: info.memberId),
                newMember.invitedBy == sender.groupMemberId, newMember.agentConnectionID == nil
            else {
                return refuse(
                    group, sender, "x.grp.mem.fwd for a member that was not announced by this admin")
            }
            try await joinIntroduced(newMember, intro: intro, in: group)
        case .memCon(let memberId):
            if let other = try store.member(groupId: group.groupId, memberId: memberId) {
                try store.setIntroConnected(sender, other)
            }
        case .msgForward(let forward):
            try await forwarded(forward, by: sender, in: group, nested: forwardedBy != nil)
        case .del:
            guard sender.role == .owner else {
                return refuse(group, sender, "x.grp.del from \(sender.role.withArticle), not the owner")
            }
            try store.setMemberStatus(group.membership, .deleted)
            emit(.group(.groupDeleted(try store.group(id: group.groupId), by: sender)))
        case .leave:
            try store.setMemberStatus(sender, .left)
            emit(.group(.memberLeft(group, try store.member(id: sender.groupMemberId))))
        case .memRole(let memberId, let role):
            try memberRoleChanged(memberId, to: role, by: sender, in: group)
        case .memDel(let memberId, _):
            try memberRemoved(memberId, by: sender, in: group)
        case .inv:
            // An invitation comes from a contact over its own connection, never from a member.
            refuse(group, sender, "x.grp.inv from a group member, not over a contact's connection")
        case .linkMem(let profile):
            try linkMemberProfile(profile, from: sender, in: group)
        case .info, .prefs:
            if try groupProfileEvent(event, from: sender, in: group), forwardedBy == nil {
                try await forward(ChatMessage(event: .group(event)), from: sender, in: group)
            }
        case .directInv(let connReq, let content, _):
            try await memberContactInvitation(connReq, content: content, from: sender, in: group)
        default:
            // Roles, removal, leaving, profile changes, links and direct chats come later (issue 24).
            let item = try store.insertGroupItem(
                user, groupId: group.groupId, member: sender,
                content: .placeholder(type: event.name, text: "unsupported group event \(event.name)"),
                sharedMsgId: nil)
            emit(.group(.newItem(group, item)))
        }
    }

    /// (New member) the host introduced `info`: a connection made for it, its invitation sent back.
    private func introduced(_ info: MemberInfo, by host: GroupMember, in group: ChatGroup)
        async throws(ChatError)
    {
        guard try store.member(groupId: group.groupId, memberId: info.memberId) == nil else { return }
        do {
            let (connection, link) = try await agent.createInvitation()
            let member = try store.transaction { () throws(ChatError) in
                let member = try store.insertMember(
                    user, groupId: group.groupId, info: info, category: .pre, status: .introduced,
                    invitedBy: host.groupMemberId)
                try store.setMemberConnection(user, member, agentConnectionID: connection)
                return member
            }
            try await send(
                .group(
                    .memInv(memberId: info.memberId, intro: IntroInvitation(groupConnReq: link.description))),
                to: host)
            try store.setMemberStatus(member, .introInvited)
        } catch let error as ChatError {
            throw error
        } catch {
            throw .agent("\(error)")
        }
    }

    /// (Existing member) joins the new member's invitation, introducing itself with `x.grp.mem.info`.
    private func joinIntroduced(_ member: GroupMember, intro: IntroInvitation, in group: ChatGroup)
        async throws(ChatError)
    {
        let link: ConnectionLink
        do { link = try ConnectionLink(intro.groupConnReq) } catch {
            return refuse(group, member, "x.grp.mem.fwd with an unreadable invitation: \(error)")
        }
        // Recorded first: the new member's answer may come before the join returns.
        let connection = Agent.newConnectionID()
        try store.setMemberConnection(user, member, agentConnectionID: connection)
        do {
            _ = try await agent.joinConnection(
                link,
                connInfo: try encode(
                    .group(.memInfo(memberId: group.membership.memberId, profile: user.profile))),
                connectionID: connection)
        } catch {
            try? store.deleteConnectionRecord(agentConnectionID: connection)
            if let error = error as? ChatError { throw error }
            throw .agent("\(error)")
        }
    }

    /// A message an admin forwarded: taken as from its author only when that admin introduced the
    /// author (so it is the one that may speak for it), never a forward inside a forward.
    private func forwarded(
        _ forward: GroupMsgForward, by admin: GroupMember, in group: ChatGroup, nested: Bool
    )
        async throws(ChatError)
    {
        // The admin's own messages come forwarded too, as the history a new member is sent.
        let author =
            forward.memberId == admin.memberId
            ? admin
            : try forward.memberId.flatMap { id throws(ChatError) in
                try store.member(groupId: group.groupId, memberId: id)
            }
        guard !nested, admin.role >= .admin, let author,
            author.groupMemberId == admin.groupMemberId || author.invitedBy == admin.groupMemberId
        else {
            return refuse(group, admin, "a forwarded message from a member who did not introduce its sender")
        }
        // The author's messages and edits are in order at the author's items, whatever way they came.
        switch forward.msg.event {
        case .msgNew, .msgUpdate, .msgDel, .msgReact, .group(.memRestrict), .group(.info), .group(.prefs): break
        default: return  // Messages, edits, deletions, reactions, blocks, profile and preferences only.
        }
        try await applyGroup(forward.msg, from: author, in: group, forwardedBy: admin)
    }

    /// (Admin) `message` from `sender` to the members it introduced to or with `sender` who are
    /// not connected to it yet (`x.grp.msg.forward`).
    func forward(
        _ message: ChatMessage, from sender: GroupMember, in group: ChatGroup,
        except excluded: MemberID? = nil
    )
        async throws(ChatError)
    {
        guard group.membership.role >= .admin else { return }
        var isReport = false
        if case .msgNew(let container) = message.event, case .report = container.content { isReport = true }
        for id in try store.unconnectedIntroduced(sender) {
            let other = try store.member(id: id)
            guard other.ready, other.status.isCurrent, !isReport || other.role >= .moderator,
                other.memberId != excluded
            else { continue }
            let forward = GroupMsgForward(
                memberId: sender.memberId, memberName: sender.localDisplayName, msg: message,
                msgTs: ChatTimestamp(store.now()))
            try await send(.group(.msgForward(forward)), to: other)
        }
    }

    /// `x.grp.inv` from a contact: the group made, the user invited; refused (an item in the
    /// contact's chat) when the inviter may not invite with that role or the group is a channel.
    func groupInvitation(_ invitation: GroupInvitation, from contact: ChatContact) throws(ChatError)
        -> [ChatEvent]
    {
        let from = invitation.fromMember.memberRole
        guard from >= .admin, from >= invitation.invitedMember.memberRole,
            !invitation.groupProfile.isPublicGroup
        else {
            let item = try store.insertItem(
                user, contact: contact, direction: .received,
                content: .placeholder(
                    type: "groupError",
                    text:
                        "group invitation to #\(invitation.groupProfile.displayName) refused: a \(from.rawValue) cannot invite as \(invitation.invitedMember.memberRole.rawValue)"
                ),
                status: .rcvNew, sharedMsgId: nil)
            return [.newItem(contact, item)]
        }
        for group in try store.groups(user)
        where group.membership.memberId == invitation.invitedMember.memberId {
            return []  // The same invitation again.
        }
        let group = try store.createInvitedGroup(user, invitation, host: contact)
        return [.group(.invitation(group, from: contact.viewName, role: invitation.invitedMember.memberRole))]
    }
}
