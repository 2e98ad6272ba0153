import Foundation
import SimpleXProtocol

/// Group commands: create (`/g`), invite a contact (`/a`), join (`/j`), send (`#team text`), members.
extension ChatController {
    /// A new group with the user as owner (`/g team`).
    public func createGroup(_ profile: GroupProfile) throws(ChatError) -> ChatGroup {
        if let problem = Profile.displayNameProblem(profile.displayName) { throw .invalidCommand(problem) }
        var generator = SystemRandomNumberGenerator()
        var profile = profile
        if profile.groupPreferences == nil { profile.preferences = .newGroup }
        return try store.createGroup(user, profile: profile, memberId: Self.newMemberID(using: &generator))
    }

    public func group(named name: String) throws(ChatError) -> ChatGroup {
        try store.group(named: name, user)
    }

    public func groups() throws(ChatError) -> [ChatGroup] { try store.groups(user) }

    /// The active user's groups, read without starting the core (for the share helper's choice).
    public static func groups(groupDirectory: String, databaseKey: DatabaseKey? = nil) throws(ChatError)
        -> [ChatGroup]
    {
        let store = try ChatStore(path: groupDirectory + "/simplex_v1_chat.db", key: databaseKey)
        defer { store.close() }
        guard let user = try store.activeUser() else { throw .noUser }
        return try store.groups(user)
    }

    /// The group's members other than the user (`/ms team`).
    public func members(of name: String) throws(ChatError) -> (ChatGroup, [GroupMember]) {
        let group = try store.group(named: name, user)
        return (group, try store.members(groupId: group.groupId))
    }

    /// The last `count` items of a group, oldest first.
    public func groupItems(_ name: String, count: Int) throws(ChatError) -> [GroupChatItem] {
        try store.groupItems(groupId: try store.group(named: name, user).groupId, count: count)
    }

    /// Received items of the group the user has not seen yet.
    public func groupUnreadCount(_ name: String) throws(ChatError) -> Int {
        try store.groupUnreadCount(groupId: try store.group(named: name, user).groupId)
    }

    /// Marks the group's received items seen; returns how many were unread.
    @discardableResult
    public func markGroupRead(_ name: String) throws(ChatError) -> Int {
        try store.markGroupRead(groupId: try store.group(named: name, user).groupId)
    }

    static func newMemberID(using generator: inout some RandomNumberGenerator) -> MemberID {
        MemberID(bytes: (0..<12).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// Invites contact `contactName` with `role` (`/a team bob member`): a new connection for the
    /// member, offered in `x.grp.inv` over the direct connection.
    public func addMember(_ groupName: String, contact contactName: String, role: GroupMemberRole)
        async throws(ChatError) -> GroupMember
    {
        let group = try store.group(named: groupName, user)
        let own = group.membership
        guard own.status.isCurrent else {
            throw .invalidCommand("you are not a member of #\(group.localDisplayName)")
        }
        guard own.role >= .admin, role <= own.role else {
            throw .invalidCommand(
                "#\(group.localDisplayName): you have no permission to invite as \(role.rawValue)")
        }
        let contact = try contact(named: contactName)
        let direct = try connected(contact)
        if try store.members(groupId: group.groupId).contains(where: {
            $0.contactId == contact.contactId && ($0.status.isCurrent || $0.status == .invited)
        }) {
            throw .invalidCommand("\(contact.viewName) is already in #\(group.localDisplayName)")
        }
        var generator = SystemRandomNumberGenerator()
        let memberId = Self.newMemberID(using: &generator)
        do {
            let (connection, link) = try await agent.createInvitation()
            let member = try store.transaction { () throws(ChatError) in
                let member = try store.insertMember(
                    user, groupId: group.groupId,
                    info: MemberInfo(memberId: memberId, memberRole: role, profile: contact.profile),
                    category: .invitee,
                    status: .invited, contactId: contact.contactId, invitedBy: own.groupMemberId)
                try store.setMemberConnection(user, member, agentConnectionID: connection)
                return member
            }
            let invitation = GroupInvitation(
                fromMember: MemberIdRole(memberId: own.memberId, memberRole: own.role),
                invitedMember: MemberIdRole(memberId: memberId, memberRole: role),
                connRequest: link.description,
                groupProfile: group.profile)
            _ = try await agent.sendMessage(direct, body: try encode(.group(.inv(invitation))))
            return try store.member(id: member.groupMemberId)
        } catch let error as ChatError {
            throw error
        } catch {
            throw .agent("\(error)")
        }
    }

    /// Accepts a group invitation (`/j team`): joins the host's member connection with `x.grp.acpt`.
    public func joinGroup(_ name: String) async throws(ChatError) -> ChatGroup {
        let group = try store.group(named: name, user)
        guard group.membership.status == .invited,
            let host = try store.members(groupId: group.groupId).first(where: { $0.category == .host }),
            let request = host.connRequest
        else { throw .invalidCommand("no invitation to #\(group.localDisplayName) to accept") }
        let link: ConnectionLink
        do { link = try ConnectionLink(request) } catch {
            throw .invalidCommand("the invitation's link: \(error)")
        }
        // The connection is the host's before it exists: the host's answer on it may come (the
        // actor taking events while this waits for the join) before the join returns.
        let connection = Agent.newConnectionID()
        try store.setMemberConnection(user, host, agentConnectionID: connection)
        do {
            _ = try await agent.joinConnection(
                link, connInfo: try encode(.group(.acpt(memberId: group.membership.memberId))),
                connectionID: connection)
            try store.transaction { () throws(ChatError) in
                try store.setMemberStatus(group.membership, .accepted)
                try store.setMemberStatus(host, .accepted)
            }
        } catch {
            try? store.deleteConnectionRecord(agentConnectionID: connection)
            if let error = error as? ChatError { throw error }
            throw .agent("\(error)")
        }
        return try store.group(id: group.groupId)
    }

    /// Sends a message to every member whose connection is ready (`#team hello`); members still
    /// connecting get it forwarded by the admin who introduced them.
    public func sendGroup(_ name: String, _ content: MsgContent, quoting quoted: GroupChatItem? = nil)
        async throws(ChatError) -> GroupChatItem
    {
        let group = try store.group(named: name, user)
        guard group.membership.status.isCurrent, group.membership.status != .invited else {
            throw .invalidCommand("you are not a member of #\(group.localDisplayName)")
        }
        guard group.membership.role >= .author else {
            throw .invalidCommand("#\(group.localDisplayName): observers cannot send messages")
        }
        var generator = SystemRandomNumberGenerator()
        let msgId = SharedMsgID.random(using: &generator)
        let mentions = try groupMentions(in: content.text, group: group)
        let quote = try quoted.map { item throws(ChatError) in try groupQuote(of: item, in: group) }
        let body = try encode(
            .msgNew(MsgContainer(content: content, mentions: mentions, quote: quote)), msgId: msgId)
        for member in try store.members(groupId: group.groupId) where member.ready && member.status.isCurrent
        {
            guard let connection = member.agentConnectionID else { continue }
            do { _ = try await agent.sendMessage(connection, body: body) } catch { throw .agent("\(error)") }
        }
        return try store.insertGroupItem(
            user, groupId: group.groupId, member: nil, content: content, sharedMsgId: msgId,
            quote: quoted.map { item in
                GroupItemQuote(
                    content: item.content, member: item.member ?? group.membership,
                    sharedMsgId: item.sharedMsgId)
            })
    }

    /// Sends `event` to `member` over its group connection.
    func send(_ event: ChatMsgEvent, to member: GroupMember, msgId: SharedMsgID? = nil)
        async throws(ChatError)
    {
        guard let connection = member.agentConnectionID else {
            throw .notConnected(member.localDisplayName)
        }
        do { _ = try await agent.sendMessage(connection, body: try encode(event, msgId: msgId)) } catch {
            throw .agent("\(error)")
        }
    }
}
