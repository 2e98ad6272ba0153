import Foundation
import SimpleXProtocol

/// Agent events on members' connections: confirmations checked against the member they were made
/// for, connections that come up, and messages from members.
extension ChatController {
    /// Handles `event` when it is on a member's connection; false when it is not.
    func handleGroupConnectionEvent(_ event: AgentEvent) async throws(ChatError) -> Bool {
        let connection: String
        switch event {
        case .confirmation(let id, _), .info(let id, _), .connected(let id), .message(let id, _),
            .sent(let id, _),
            .delivered(let id, _, _), .sendFailed(let id, _, _):
            connection = id
        default: return false
        }
        guard let member = try store.member(agentConnectionID: connection) else { return false }
        let group = try store.group(id: member.groupId)
        switch event {
        case .confirmation(_, let peerInfo):
            try await memberConfirmed(member, in: group, connection: connection, peerInfo: peerInfo)
        case .connected:
            try store.setReady(agentConnectionID: connection)
            try await memberConnected(try store.member(id: member.groupMemberId), in: group)
        case .message(_, let message):
            for result in ChatMessage.decodeBody(message.body) {
                switch result {
                case .success(let chatMessage): try await applyGroup(chatMessage, from: member, in: group)
                case .failure(let error): refuse(group, member, "invalid message: \(error)")
                }
            }
            do { try await agent.ackMessage(connection, agentMsgID: message.agentMsgID) } catch {
                throw .agent("\(error)")
            }
            try await dropConnectionsOfLeavers(group.groupId)
        default:
            break  // The other side's info (checked on its side) and statuses of sent group messages.
        }
        return true
    }

    /// A joiner's confirmation on a connection the user made for `member`: an invitee's
    /// `x.grp.acpt`, or an introduced member's `x.grp.mem.info`, naming that member; anything else
    /// is refused and the connection not completed.
    private func memberConfirmed(
        _ member: GroupMember, in group: ChatGroup, connection: String, peerInfo: [UInt8]
    )
        async throws(ChatError)
    {
        let event = (try? ChatMessage(decoding: peerInfo))?.event
        let reply: ChatMsgEvent
        switch (member.category, event) {
        case (.invitee, .group(.acpt(let memberId))) where memberId == member.memberId:
            reply = .ok
            try store.setMemberStatus(member, .accepted)
        case (.pre, .group(.memInfo(let memberId, let profile))) where memberId == member.memberId:
            try store.updateMemberProfile(member, profile)
            reply = .group(.memInfo(memberId: group.membership.memberId, profile: user.profile))
        default:
            refuse(
                group, member,
                "a connection confirmation that is not from this member (\(event?.name ?? "unreadable"))")
            return
        }
        do { try await agent.allowConnection(connection, connInfo: try encode(reply)) } catch {
            throw .agent("\(error)")
        }
    }

    /// The connection to `member` is up: the host introduces a new member to the others; a member
    /// connected to one it was introduced to tells the host, which then stops forwarding.
    private func memberConnected(_ member: GroupMember, in group: ChatGroup) async throws(ChatError) {
        try store.setMemberStatus(member, .connected)
        let connected = try store.member(id: member.groupMemberId)
        switch member.category {
        case .invitee:
            emit(.group(.memberJoined(group, connected)))
            try await sendLinkMemberProfile(to: connected)
            try await introduce(connected, in: group)
        case .host:
            try store.setMemberStatus(group.membership, .connected)
            emit(.group(.userJoined(try store.group(id: group.groupId))))
        case .pre, .post:
            emit(.group(.memberConnected(group, connected, newMember: member.category == .post)))
            if let introducer = try member.invitedBy.map({ id throws(ChatError) in try store.member(id: id) }
            ),
                introducer.ready
            {
                try await send(.group(.memCon(memberId: member.memberId)), to: introducer)
            }
        case .user:
            break
        }
    }

    /// (Host) `x.grp.mem.new` about `newMember` to every connected member, and an `x.grp.mem.intro`
    /// about each of them to `newMember`.
    private func introduce(_ newMember: GroupMember, in group: ChatGroup) async throws(ChatError) {
        for other in try store.members(groupId: group.groupId)
        where other.groupMemberId != newMember.groupMemberId && other.ready && other.status.isCurrent {
            try store.insertIntro(re: other, to: newMember)
            try await send(.group(.memNew(newMember.info, scope: nil)), to: other)
            let restrictions = other.blockedByAdmin ? MemberRestrictions(restriction: .blocked) : nil
            try await send(.group(.memIntro(other.info, restrictions: restrictions)), to: newMember)
        }
        if group.profile.preferences.isOn(.history) { try await sendHistory(to: newMember, in: group) }
        try await sendWelcome(to: newMember, in: group)
    }

    /// (Host) the group's last messages to a new member, after its introductions, each forwarded
    /// from its author (SimpleX sends up to 100): only those of the user and of current members,
    /// whom the newcomer knows by now.
    private func sendHistory(to newMember: GroupMember, in group: ChatGroup) async throws(ChatError) {
        for item in try store.groupItems(groupId: group.groupId, count: Self.historyItems) {
            guard !item.isError, !item.deleted, item.moderation == nil, let msgId = item.sharedMsgId else {
                continue
            }
            if case .report = item.content { continue }  // Reports are for moderators only.
            let author = item.member ?? group.membership
            guard author.groupMemberId != newMember.groupMemberId, author.status.isCurrent else { continue }
            if case .unknown = item.content { continue }  // Only messages, not the items this client makes.
            let forward = GroupMsgForward(
                memberId: author.memberId, memberName: author.localDisplayName,
                msg: ChatMessage(msgId: msgId, event: .msgNew(MsgContainer(content: item.content))),
                msgTs: ChatTimestamp(item.timestamp))
            try await send(.group(.msgForward(forward)), to: newMember)
        }
    }

    /// How many of the last items a new member is sent.
    static let historyItems = 100

    /// An event from `member` that its role or the group's state does not allow: recorded as an
    /// error item of the group, and nothing else changes.
    func refuse(_ group: ChatGroup, _ member: GroupMember, _ reason: String) {
        do {
            let item = try store.insertGroupItem(
                user, groupId: group.groupId, member: member,
                content: .placeholder(type: "groupError", text: reason),
                sharedMsgId: nil)
            emit(.group(.newItem(group, item)))
        } catch {
            emit(.error("\(error)"))
        }
    }
}
