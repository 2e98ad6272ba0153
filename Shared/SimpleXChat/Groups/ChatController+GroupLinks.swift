import Foundation
import SimpleXProtocol

/// Group links (SimpleX's v≥3 flow): a contact address the group owns. A joiner's request to it
/// is accepted at once by the host with `x.grp.link.inv` (or refused with `x.grp.link.reject`),
/// the joiner answers `x.info`, and when the connection is up the host sends its profile
/// (`x.grp.link.mem`), introduces the member to everyone and sends the history.
extension ChatController {
    /// Makes the group's link (`/create link #team [role]`); a member who joins by it gets `role`.
    public func createGroupLink(_ name: String, role: GroupMemberRole = .member) async throws(ChatError)
        -> GroupLink
    {
        let group = try store.group(named: name, user)
        try requireRole(.admin, in: group)
        guard Self.linkRoles.contains(role) else {
            throw .invalidCommand("a group link can make members observer or member, not \(role.rawValue)")
        }
        guard try store.groupLink(groupId: group.groupId) == nil else {
            throw .invalidCommand(
                "you already have link for this group, to show: /show link #\(group.localDisplayName)")
        }
        var generator = SystemRandomNumberGenerator()
        let linkId = GroupLinkID(
            bytes: (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        do {
            let (connection, address) = try await agent.createContactAddress()
            let link = try ConnectionLink(
                mode: address.mode, agentVersionRange: address.agentVersionRange, queues: address.queues,
                clientData: Self.groupLinkData(linkId))
            try store.insertGroupLink(
                groupId: group.groupId, agentConnectionID: connection, link: link.description, linkId: linkId,
                role: role)
        } catch let error as ChatError {
            throw error
        } catch {
            throw .agent("\(error)")
        }
        return try groupLink(name)
    }

    /// The roles a group link may give (SimpleX: observer or member).
    static let linkRoles: Set<GroupMemberRole> = [.observer, .member]

    /// The group's link (`/show link #team`).
    public func groupLink(_ name: String) throws(ChatError) -> GroupLink {
        let group = try store.group(named: name, user)
        guard let link = try store.groupLink(groupId: group.groupId) else {
            throw .invalidCommand("no group link, to create: /create link #\(group.localDisplayName)")
        }
        return link
    }

    /// The group's link, or nil when it has none.
    public func existingGroupLink(_ name: String) throws(ChatError) -> GroupLink? {
        try store.groupLink(groupId: try store.group(named: name, user).groupId)
    }

    /// Changes the role a member joining by the link gets (`/set link role #team observer`).
    public func setGroupLinkRole(_ name: String, _ role: GroupMemberRole) throws(ChatError) -> GroupLink {
        let group = try store.group(named: name, user)
        try requireRole(.admin, in: group)
        guard Self.linkRoles.contains(role) else {
            throw .invalidCommand("a group link can make members observer or member, not \(role.rawValue)")
        }
        _ = try groupLink(name)
        try store.setGroupLinkRole(groupId: group.groupId, role)
        return try groupLink(name)
    }

    /// Deletes the group's link (`/delete link #team`): its queue goes from the relay, so nobody
    /// can join by it any more; members who joined stay.
    public func deleteGroupLink(_ name: String) async throws(ChatError) {
        let link = try groupLink(name)
        try await dropGroupLink(link)
    }

    /// The link goes with the user's membership: on leaving or deleting the group (SimpleX).
    func dropGroupLink(of group: ChatGroup) async throws(ChatError) {
        if let link = try store.groupLink(groupId: group.groupId) { try await dropGroupLink(link) }
    }

    private func dropGroupLink(_ link: GroupLink) async throws(ChatError) {
        var unconfirmed: AgentError?
        do { try await agent.deleteConnection(link.agentConnectionID) } catch { unconfirmed = error }
        try store.deleteGroupLink(groupId: link.groupId)
        if let unconfirmed { throw .agent("\(unconfirmed)") }
    }

    /// `{"type":"group","groupLinkId":"..."}`: the link's client data, by which a joiner knows
    /// the address is a group's.
    static func groupLinkData(_ linkId: GroupLinkID) -> String {
        JSON.object(.sorted([("type", .string("group")), ("groupLinkId", linkId.json)])).compactText
    }

    /// The group link id in a link's client data, when the link is a group's.
    static func groupLinkId(in link: ConnectionLink) -> GroupLinkID? {
        guard link.isContactAddress, let data = link.clientData, let json = try? JSON(parsing: data),
            json["type"]?.stringValue == "group", let id = json["groupLinkId"]?.stringValue
        else { return nil }
        return GroupLinkID(base64: id)
    }

    /// (Joiner) before a request to `link`: refused when it is the user's own group's link, or
    /// the link of a group the user is in already (SimpleX's connection plan).
    func checkGroupLinkJoin(_ link: ConnectionLink) throws(ChatError) {
        guard let linkId = Self.groupLinkId(in: link) else { return }
        if let own = try store.groupLink(linkId: linkId) {
            let name = try store.group(id: own.groupId).localDisplayName
            throw .invalidCommand("group link: own link for group #\(name)")
        }
        if let group = try store.groupJoined(byLink: linkId, user) {
            throw .invalidCommand(
                "group link: known group #\(group.localDisplayName), use #\(group.localDisplayName) <message> to send messages"
            )
        }
    }

    /// (Joiner) a request just sent to `link`: remembered, so the host's answer on `connection`
    /// is taken as a group's.
    func recordGroupLinkJoin(_ link: ConnectionLink, connection: String) throws(ChatError) {
        guard let linkId = Self.groupLinkId(in: link) else { return }
        try store.insertGroupLinkJoin(user, agentConnectionID: connection, linkId: linkId)
    }

    /// `role` or above is needed for a change to `group`.
    func requireRole(_ role: GroupMemberRole, in group: ChatGroup) throws(ChatError) {
        guard group.membership.status.isCurrent else {
            throw .invalidCommand("you are not a member of #\(group.localDisplayName)")
        }
        guard group.membership.role >= role else {
            throw .invalidCommand(
                "#\(group.localDisplayName): you have insufficient permissions for this action, the required role is \(role.rawValue)"
            )
        }
    }

    // MARK: - Agent events

    /// Handles `event` when it is a request to one of the user's group links, or the host's answer
    /// to a request the user sent to one; false when it is neither.
    func handleGroupLinkEvent(_ event: AgentEvent) async throws(ChatError) -> Bool {
        switch event {
        case .contactRequest(let address, let invitationID, let peerInfo):
            guard let link = try store.groupLink(agentConnectionID: address) else { return false }
            try await linkRequest(to: link, invitationID: invitationID, peerInfo: peerInfo)
            return true
        case .confirmation(let connection, let peerInfo):
            guard try store.isGroupLinkJoin(agentConnectionID: connection) else { return false }
            return try await linkAnswered(on: connection, peerInfo: peerInfo)
        default:
            return false
        }
    }

    /// The longest display name a joiner may have (SimpleX rejects longer ones as `long_name`).
    static let maxJoinerNameLength = 100

    /// (Host) a request through `link`: accepted at once with `x.grp.link.inv` and the member
    /// made with the link's role; a joiner whose name is too long is refused with
    /// `x.grp.link.reject`. A request when the user can no longer add members is dropped.
    private func linkRequest(to link: GroupLink, invitationID: String, peerInfo: [UInt8])
        async throws(ChatError)
    {
        let group = try store.group(id: link.groupId)
        let profile: Profile? =
            switch (try? ChatMessage(decoding: peerInfo))?.event {
            case .contact(let request): request.profile
            case .info(let profile): profile
            default: nil
            }
        guard group.membership.status.isCurrent, group.membership.role >= .admin, let profile else {
            do { try await agent.rejectContact(invitationID) } catch { throw .agent("\(error)") }
            emit(.error("#\(group.localDisplayName): a request through the group link could not be accepted"))
            return
        }
        var generator = SystemRandomNumberGenerator()
        let memberId = Self.newMemberID(using: &generator)
        let own = group.membership
        let from = MemberIdRole(memberId: own.memberId, memberRole: own.role)
        let invited = MemberIdRole(memberId: memberId, memberRole: link.memberRole)
        if profile.displayName.count > Self.maxJoinerNameLength {
            let rejection = GroupLinkRejection(
                fromMember: from, invitedMember: invited, groupProfile: group.profile,
                rejectionReason: "long_name")
            do {
                let connection = try await agent.acceptContact(
                    invitationID, connInfo: try encode(.group(.linkReject(rejection))))
                // The refusal goes in the confirmation: the connection is not needed after it.
                try await agent.deleteConnection(connection, waitDelivery: true)
            } catch let error as ChatError {
                throw error
            } catch {
                throw .agent("\(error)")
            }
            return
        }
        // The group's size as the joiner will find it, the joiner included (SimpleX's `groupSize`).
        let size = try store.members(groupId: group.groupId).filter(\.status.isCurrent).count + 2
        let invitation = GroupLinkInvitation(
            fromMember: from, fromMemberName: user.profile.displayName, invitedMember: invited,
            groupProfile: group.profile, groupSize: size)
        do {
            let connection = try await agent.acceptContact(
                invitationID, connInfo: try encode(.group(.linkInv(invitation))))
            let member = try store.transaction { () throws(ChatError) in
                let member = try store.insertMember(
                    user, groupId: group.groupId,
                    info: MemberInfo(memberId: memberId, memberRole: link.memberRole, profile: profile),
                    category: .invitee, status: .accepted, invitedBy: own.groupMemberId)
                try store.setMemberConnection(user, member, agentConnectionID: connection)
                try store.setViaGroupLink(member)
                return member
            }
            emit(.group(.change(group, .acceptingLinkRequest(member))))
        } catch let error as ChatError {
            throw error
        } catch {
            throw .agent("\(error)")
        }
    }

    /// (Joiner) the host's confirmation on a request the user sent to a group link: `x.grp.link.inv`
    /// makes the group and is answered with the user's profile; `x.grp.link.reject` ends it. False
    /// when it is neither (the address was not a group's after all: a contact, as usual).
    private func linkAnswered(on connection: String, peerInfo: [UInt8]) async throws(ChatError) -> Bool {
        switch (try? ChatMessage(decoding: peerInfo))?.event {
        case .group(.linkInv(let invitation)):
            guard !invitation.groupProfile.isPublicGroup else {
                try store.dropGroupLinkJoin(agentConnectionID: connection)
                // A relay that does not confirm is no reason to keep it: the agent's side is gone.
                try? await agent.deleteConnection(connection)
                emit(
                    .error(
                        "#\(invitation.groupProfile.displayName) is a channel, which this client cannot join")
                )
                return true
            }
            let group = try store.createLinkJoinedGroup(user, invitation, agentConnectionID: connection)
            do { try await agent.allowConnection(connection, connInfo: profileInfo) } catch {
                throw .agent("\(error)")
            }
            emit(.group(.change(group, .joiningByLink)))
            return true
        case .group(.linkReject(let rejection)):
            let group = try store.createRejectedGroup(user, rejection, agentConnectionID: connection)
            // A relay that does not confirm is no reason to keep it: the agent's side is gone.
            try? await agent.deleteConnection(connection)
            emit(.group(.change(group, .linkRejected(reason: rejection.rejectionReason))))
            return true
        default:
            try store.deleteGroupLinkJoin(agentConnectionID: connection)
            return false
        }
    }

    /// (Host) what a member who joined by the link is sent first when its connection is up:
    /// the host's profile, which `x.grp.link.inv` named only.
    func sendLinkMemberProfile(to member: GroupMember) async throws(ChatError) {
        guard try store.joinedViaGroupLink(member) else { return }
        try await send(.group(.linkMem(user.profile)), to: member)
    }

    /// `x.grp.link.mem` from the host: its profile, taken when it comes from the host.
    func linkMemberProfile(_ profile: Profile, from sender: GroupMember, in group: ChatGroup)
        throws(ChatError)
    {
        guard sender.category == .host else {
            return refuse(group, sender, "x.grp.link.mem from a member who is not the host")
        }
        try store.updateMemberProfile(sender, profile)
    }
}
