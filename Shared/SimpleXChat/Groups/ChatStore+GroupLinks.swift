import Foundation
import SimpleXProtocol

/// A group's link as the host keeps it: the contact address the group owns and the role a member
/// who joins by it gets.
public struct GroupLink: Equatable, Sendable {
    public let groupId: Int64
    public let agentConnectionID: String
    /// The link to share (`simplex:/contact#/?v=...&data=...`).
    public let link: String
    public let linkId: GroupLinkID
    public var memberRole: GroupMemberRole
}

extension ChatStore {
    // MARK: - Host: the group's link

    func insertGroupLink(
        groupId: Int64, agentConnectionID: String, link: String, linkId: GroupLinkID, role: GroupMemberRole
    ) throws(ChatError) {
        try run(
            """
            INSERT INTO group_links (group_id, agent_conn_id, conn_req_contact, link_id, member_role, created_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """, [groupId, agentConnectionID, link, linkId.bytes, role.rawValue, now()])
    }

    func groupLink(groupId: Int64) throws(ChatError) -> GroupLink? {
        try row(Self.groupLinkColumns + " WHERE group_id = ?", [groupId]).map { row throws(ChatError) in
            try groupLink(row)
        }
    }

    /// The group link whose address is `agentConnectionID`, if it is one.
    func groupLink(agentConnectionID: String) throws(ChatError) -> GroupLink? {
        try row(Self.groupLinkColumns + " WHERE agent_conn_id = ?", [agentConnectionID]).map {
            row throws(ChatError) in try groupLink(row)
        }
    }

    func setGroupLinkRole(groupId: Int64, _ role: GroupMemberRole) throws(ChatError) {
        try run("UPDATE group_links SET member_role = ? WHERE group_id = ?", [role.rawValue, groupId])
    }

    func deleteGroupLink(groupId: Int64) throws(ChatError) {
        try run("DELETE FROM group_links WHERE group_id = ?", [groupId])
    }

    static let groupLinkColumns =
        "SELECT group_id, agent_conn_id, conn_req_contact, link_id, member_role FROM group_links"

    func groupLink(_ row: Row) throws(ChatError) -> GroupLink {
        let roleText: String = try value(row, "member_role")
        guard let role = GroupMemberRole(rawValue: roleText) else {
            throw .store("group link with role \(roleText)")
        }
        return GroupLink(
            groupId: try value(row, "group_id"), agentConnectionID: try value(row, "agent_conn_id"),
            link: try value(row, "conn_req_contact"), linkId: GroupLinkID(bytes: try value(row, "link_id")),
            memberRole: role)
    }

    func setViaGroupLink(_ member: GroupMember) throws(ChatError) {
        try run(
            "UPDATE group_members SET via_group_link = 1 WHERE group_member_id = ?", [member.groupMemberId])
    }

    func joinedViaGroupLink(_ member: GroupMember) throws(ChatError) -> Bool {
        try row(
            "SELECT 1 FROM group_members WHERE group_member_id = ? AND via_group_link = 1",
            [member.groupMemberId])
            != nil
    }

    // MARK: - Joiner: a request sent to a group link

    func insertGroupLinkJoin(_ user: ChatUser, agentConnectionID: String, linkId: GroupLinkID)
        throws(ChatError)
    {
        try run(
            "INSERT INTO group_link_joins (agent_conn_id, user_id, link_id, created_at) VALUES (?, ?, ?, ?)",
            [agentConnectionID, user.userId, linkId.bytes, now()])
    }

    /// Whether `agentConnectionID` is a request the user sent to a group link, not yet answered.
    func isGroupLinkJoin(agentConnectionID: String) throws(ChatError) -> Bool {
        try row("SELECT 1 FROM group_link_joins WHERE agent_conn_id = ?", [agentConnectionID]) != nil
    }

    func deleteGroupLinkJoin(agentConnectionID: String) throws(ChatError) {
        try run("DELETE FROM group_link_joins WHERE agent_conn_id = ?", [agentConnectionID])
    }

    /// A request to a group link that comes to nothing: its pending connection is forgotten too.
    func dropGroupLinkJoin(agentConnectionID: String) throws(ChatError) {
        try transaction { () throws(ChatError) in
            try deleteGroupLinkJoin(agentConnectionID: agentConnectionID)
            try run("DELETE FROM connections WHERE agent_conn_id = ?", [agentConnectionID])
        }
    }

    /// The group a host's `x.grp.link.inv` describes, the user in it (accepted) and the host as a
    /// member, whose connection is the one the request was made on.
    func createLinkJoinedGroup(_ user: ChatUser, _ invitation: GroupLinkInvitation, agentConnectionID: String)
        throws(ChatError) -> ChatGroup
    {
        try transaction { () throws(ChatError) in
            let group = try insertGroup(user, profile: invitation.groupProfile)
            let membership = try insertMembership(
                user, groupId: group, memberId: invitation.invitedMember.memberId,
                role: invitation.invitedMember.memberRole, status: .accepted)
            let host = try insertMember(
                user, groupId: group,
                info: MemberInfo(
                    memberId: invitation.fromMember.memberId, memberRole: invitation.fromMember.memberRole,
                    profile: Profile(displayName: invitation.fromMemberName, fullName: "")),
                category: .host, status: .accepted, invitedBy: nil)
            try run(
                "UPDATE group_members SET invited_by_group_member_id = ? WHERE group_member_id = ?",
                [host.groupMemberId, membership])
            try run(
                """
                UPDATE connections SET conn_type = 'member', group_member_id = ?, updated_at = ?
                WHERE agent_conn_id = ?
                """, [host.groupMemberId, now(), agentConnectionID])
            try run(
                """
                UPDATE groups SET via_group_link_id =
                  (SELECT link_id FROM group_link_joins WHERE agent_conn_id = ?) WHERE group_id = ?
                """, [agentConnectionID, group])
            try deleteGroupLinkJoin(agentConnectionID: agentConnectionID)
            return try self.group(id: group)
        }
    }

    /// The group a host refused the user (`x.grp.link.reject`): kept with the user `rejected`, so
    /// the user sees what happened; the request is over.
    func createRejectedGroup(_ user: ChatUser, _ rejection: GroupLinkRejection, agentConnectionID: String)
        throws(ChatError) -> ChatGroup
    {
        try transaction { () throws(ChatError) in
            let group = try insertGroup(user, profile: rejection.groupProfile)
            _ = try insertMembership(
                user, groupId: group, memberId: rejection.invitedMember.memberId,
                role: rejection.invitedMember.memberRole, status: .rejected)
            try run("DELETE FROM connections WHERE agent_conn_id = ?", [agentConnectionID])
            try deleteGroupLinkJoin(agentConnectionID: agentConnectionID)
            return try self.group(id: group)
        }
    }
}

extension ChatStore {
    /// The group's new profile; a new display name renames the group here too (`team` → `club`,
    /// or `club_1` when the user has a `club` already).
    func updateGroupProfile(_ user: ChatUser, _ group: ChatGroup, _ profile: GroupProfile) throws(ChatError) {
        try transaction { () throws(ChatError) in
            try run(
                """
                UPDATE group_profiles SET display_name = ?, full_name = ?, short_descr = ?, description = ?,
                  image = ?, preferences = ?, other_fields = ?, updated_at = ?
                WHERE group_profile_id = (SELECT group_profile_id FROM groups WHERE group_id = ?)
                """,
                [
                    profile.displayName, profile.fullName, profile.shortDescr, profile.description,
                    profile.image,
                    profile.groupPreferences?.compactText,
                    profile.otherFields.isEmpty ? nil : JSON.object(profile.otherFields).compactText, now(),
                    group.groupId,
                ])
            if profile.displayName != group.profile.displayName {
                try run(
                    "UPDATE groups SET local_display_name = ?, updated_at = ? WHERE group_id = ?",
                    [try freeGroupName(userId: user.userId, profile.displayName), now(), group.groupId])
            }
        }
    }
}

extension ChatStore {
    /// `member` is now also the user's contact `contactId` (a direct chat made in the group).
    func setMemberContact(_ member: GroupMember, contactId: Int64) throws(ChatError) {
        try run(
            "UPDATE group_members SET contact_id = ?, updated_at = ? WHERE group_member_id = ?",
            [contactId, now(), member.groupMemberId])
    }
}

extension ChatStore {
    /// The user's group joined by the link with `linkId` that the user is still in, if any.
    func groupJoined(byLink linkId: GroupLinkID, _ user: ChatUser) throws(ChatError) -> ChatGroup? {
        for row in try rows(
            "SELECT group_id FROM groups WHERE user_id = ? AND via_group_link_id = ?",
            [user.userId, linkId.bytes])
        {
            let group = try group(id: try value(row, "group_id"))
            if group.membership.status.isCurrent { return group }
        }
        return nil
    }

    /// The user's own group link with `linkId`, if it is one.
    func groupLink(linkId: GroupLinkID) throws(ChatError) -> GroupLink? {
        try row(Self.groupLinkColumns + " WHERE link_id = ?", [linkId.bytes]).map { row throws(ChatError) in
            try groupLink(row)
        }
    }
}
