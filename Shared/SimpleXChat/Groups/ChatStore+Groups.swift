import Foundation
import SimpleXProtocol

/// Groups and their members (`groups`, `group_profiles`, `group_members`).
extension ChatStore {
    /// A new group with the user as its owner and creator (`/g`).
    func createGroup(_ user: ChatUser, profile: GroupProfile, memberId: MemberID) throws(ChatError)
        -> ChatGroup
    {
        try transaction { () throws(ChatError) in
            let group = try insertGroup(user, profile: profile)
            _ = try insertMembership(user, groupId: group, memberId: memberId, role: .owner, status: .creator)
            return try self.group(id: group)
        }
    }

    /// The group an invitation brings (`x.grp.inv`): the user invited, the host known.
    func createInvitedGroup(_ user: ChatUser, _ invitation: GroupInvitation, host contact: ChatContact)
        throws(ChatError) -> ChatGroup
    {
        try transaction { () throws(ChatError) in
            let group = try insertGroup(user, profile: invitation.groupProfile)
            let membership = try insertMembership(
                user, groupId: group, memberId: invitation.invitedMember.memberId,
                role: invitation.invitedMember.memberRole, status: .invited)
            let host = try insertMember(
                user, groupId: group,
                info: MemberInfo(
                    memberId: invitation.fromMember.memberId, memberRole: invitation.fromMember.memberRole,
                    profile: contact.profile),
                category: .host, status: .invited, contactId: contact.contactId, invitedBy: nil,
                connRequest: invitation.connRequest)
            try run(
                "UPDATE group_members SET invited_by_group_member_id = ? WHERE group_member_id = ?",
                [host.groupMemberId, membership])
            return try self.group(id: group)
        }
    }

    func insertGroup(_ user: ChatUser, profile: GroupProfile) throws(ChatError) -> Int64 {
        let now = self.now()
        try run(
            """
            INSERT INTO group_profiles (user_id, display_name, full_name, short_descr, description, image, preferences,
              other_fields, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?)
            """,
            [
                user.userId, profile.displayName, profile.fullName, profile.shortDescr, profile.description,
                profile.image, profile.groupPreferences?.compactText,
                profile.otherFields.isEmpty ? nil : JSON.object(profile.otherFields).compactText, now, now,
            ])
        let profileId = lastID
        try run(
            """
            INSERT INTO groups (user_id, local_display_name, group_profile_id, chat_ts, created_at, updated_at)
            VALUES (?,?,?,?,?,?)
            """, [user.userId, try freeGroupName(user, profile.displayName), profileId, now, now, now])
        return lastID
    }

    func insertMembership(
        _ user: ChatUser, groupId: Int64, memberId: MemberID, role: GroupMemberRole, status: GroupMemberStatus
    ) throws(ChatError) -> Int64 {
        let now = self.now()
        try run(
            """
            INSERT INTO group_members (group_id, member_id, member_role, member_category, member_status,
              local_display_name, member_profile_id, created_at, updated_at)
            SELECT ?, ?, ?, 'user', ?, local_display_name, contact_profile_id, ?, ? FROM users WHERE user_id = ?
            """, [groupId, memberId.bytes, role.rawValue, status.rawValue, now, now, user.userId])
        return lastID
    }

    /// A local group name not yet taken: `name`, else `name_1`, ...
    private func freeGroupName(_ user: ChatUser, _ name: String) throws(ChatError) -> String {
        try freeGroupName(userId: user.userId, name)
    }

    func freeGroupName(userId: Int64, _ name: String) throws(ChatError) -> String {
        var candidate = name
        var suffix = 0
        while try row(
            "SELECT 1 FROM groups WHERE user_id = ? AND local_display_name = ?", [userId, candidate])
            != nil
        {
            suffix += 1
            candidate = "\(name)_\(suffix)"
        }
        return candidate
    }

    /// A member of group `groupId`, with its own copy of the profile it came with.
    func insertMember(
        _ user: ChatUser, groupId: Int64, info: MemberInfo, category: GroupMemberCategory,
        status: GroupMemberStatus, contactId: Int64? = nil, invitedBy: Int64?, connRequest: String? = nil
    ) throws(ChatError) -> GroupMember {
        try transaction { () throws(ChatError) in
            let now = self.now()
            try run(
                """
                INSERT INTO contact_profiles (user_id, display_name, full_name, image, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [user.userId, info.profile.displayName, info.profile.fullName, info.profile.image, now, now])
            let profileId = lastID
            try run(
                """
                INSERT INTO group_members (group_id, member_id, member_role, member_category, member_status,
                  invited_by_group_member_id, local_display_name, member_profile_id, contact_id, conn_request,
                  created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)
                """,
                [
                    groupId, info.memberId.bytes, info.memberRole.rawValue, category.rawValue,
                    status.rawValue,
                    invitedBy, try freeMemberName(groupId, info.profile.displayName), profileId, contactId,
                    connRequest, now, now,
                ])
            return try member(id: lastID)
        }
    }

    private func freeMemberName(_ groupId: Int64, _ name: String) throws(ChatError) -> String {
        var candidate = name
        var suffix = 0
        while try row(
            "SELECT 1 FROM group_members WHERE group_id = ? AND local_display_name = ?", [groupId, candidate])
            != nil
        {
            suffix += 1
            candidate = "\(name)_\(suffix)"
        }
        return candidate
    }

    // MARK: - Reading

    func group(id: Int64) throws(ChatError) -> ChatGroup {
        guard let row = try row(Self.groupColumns + " WHERE g.group_id = ?", [id]) else {
            throw .invalidCommand("no group #\(id)")
        }
        return try group(row)
    }

    func group(named name: String, _ user: ChatUser) throws(ChatError) -> ChatGroup {
        let bare = name.hasPrefix("#") ? String(name.dropFirst()) : name
        guard
            let row = try row(
                Self.groupColumns + " WHERE g.user_id = ? AND g.local_display_name = ?", [user.userId, bare])
        else { throw .invalidCommand("no group #\(bare)") }
        return try group(row)
    }

    func groups(_ user: ChatUser) throws(ChatError) -> [ChatGroup] {
        var found: [ChatGroup] = []
        for row in try rows(Self.groupColumns + " WHERE g.user_id = ? ORDER BY g.group_id", [user.userId]) {
            found.append(try group(row))
        }
        return found
    }

    private static let groupColumns = """
        SELECT g.group_id, g.local_display_name, g.enable_ntfs, p.display_name, p.full_name, p.short_descr, p.description, p.image,
          p.preferences, p.other_fields
        FROM groups g JOIN group_profiles p ON p.group_profile_id = g.group_profile_id
        """

    private func group(_ row: Row) throws(ChatError) -> ChatGroup {
        let groupId: Int64 = try value(row, "group_id")
        let others = (try value(row, "other_fields") as String?).flatMap {
            try? JSON(parsing: Array($0.utf8))
        }
        let profile = GroupProfile(
            displayName: try value(row, "display_name"), fullName: try value(row, "full_name"),
            shortDescr: try value(row, "short_descr"), description: try value(row, "description"),
            image: try value(row, "image"),
            groupPreferences: (try value(row, "preferences") as String?).flatMap {
                try? JSON(parsing: Array($0.utf8))
            },
            otherFields: others?.objectValue ?? JSONObject())
        guard
            let membershipRow = try self.row(
                Self.memberColumns + " WHERE m.group_id = ? AND m.member_category = 'user'", [groupId])
        else { throw .store("group \(groupId) has no membership") }
        return ChatGroup(
            groupId: groupId, localDisplayName: try value(row, "local_display_name"), profile: profile,
            membership: try member(membershipRow),
            enableNtfs: NotificationChat.NotificationSetting(enableNtfsColumn: try value(row, "enable_ntfs")))
    }

    /// Sets which of the group's messages notify.
    func setGroupNotifications(groupId: Int64, _ setting: NotificationChat.NotificationSetting) throws(ChatError) {
        try run(
            "UPDATE groups SET enable_ntfs = ?, updated_at = ? WHERE group_id = ?",
            [setting.enableNtfsColumn, now(), groupId])
    }

    func member(id: Int64) throws(ChatError) -> GroupMember {
        guard let row = try row(Self.memberColumns + " WHERE m.group_member_id = ?", [id]) else {
            throw .store("no group member \(id)")
        }
        return try member(row)
    }

    /// The members of a group other than the user, in the order they became known.
    func members(groupId: Int64) throws(ChatError) -> [GroupMember] {
        var found: [GroupMember] = []
        for row in try rows(
            Self.memberColumns
                + " WHERE m.group_id = ? AND m.member_category != 'user' ORDER BY m.group_member_id",
            [groupId])
        {
            found.append(try member(row))
        }
        return found
    }

    func member(groupId: Int64, memberId: MemberID) throws(ChatError) -> GroupMember? {
        try row(Self.memberColumns + " WHERE m.group_id = ? AND m.member_id = ?", [groupId, memberId.bytes])
            .map {
                row throws(ChatError) in try member(row)
            }
    }

    func member(named name: String, groupId: Int64) throws(ChatError) -> GroupMember? {
        try row(
            Self.memberColumns
                + " WHERE m.group_id = ? AND m.local_display_name = ? AND m.member_category != 'user'",
            [groupId, name]
        ).map { row throws(ChatError) in try member(row) }
    }

    /// The member whose connection is `agentConnectionID`, if it is a member's.
    func member(agentConnectionID: String) throws(ChatError) -> GroupMember? {
        try row(Self.memberColumns + " WHERE cn.agent_conn_id = ?", [agentConnectionID]).map {
            row throws(ChatError) in try member(row)
        }
    }

    private static let memberColumns = """
        SELECT m.group_member_id, m.group_id, m.member_id, m.member_role, m.member_category, m.member_status,
          m.local_display_name, p.display_name, p.full_name, p.image, m.contact_id, m.invited_by_group_member_id,
          m.conn_request, m.member_restriction, cn.agent_conn_id, cn.conn_status
        FROM group_members m JOIN contact_profiles p ON p.contact_profile_id = m.member_profile_id
        LEFT JOIN connections cn ON cn.group_member_id = m.group_member_id
        """

    private func member(_ row: Row) throws(ChatError) -> GroupMember {
        let roleText: String = try value(row, "member_role")
        let categoryText: String = try value(row, "member_category")
        let statusText: String = try value(row, "member_status")
        guard let role = GroupMemberRole(rawValue: roleText),
            let category = GroupMemberCategory(rawValue: categoryText),
            let status = GroupMemberStatus(rawValue: statusText)
        else {
            throw .store("group member with role \(roleText), category \(categoryText), status \(statusText)")
        }
        return GroupMember(
            groupMemberId: try value(row, "group_member_id"), groupId: try value(row, "group_id"),
            memberId: MemberID(bytes: try value(row, "member_id")), role: role, category: category,
            status: status,
            localDisplayName: try value(row, "local_display_name"),
            profile: Profile(
                displayName: try value(row, "display_name"), fullName: try value(row, "full_name"),
                image: try value(row, "image")),
            contactId: try value(row, "contact_id"), invitedBy: try value(row, "invited_by_group_member_id"),
            connRequest: try value(row, "conn_request"), agentConnectionID: try value(row, "agent_conn_id"),
            ready: (try value(row, "conn_status") as String?) == "ready",
            blockedByAdmin: (try value(row, "member_restriction") as String?) == "blocked")
    }

    // MARK: - Changes

    func setMemberStatus(_ member: GroupMember, _ status: GroupMemberStatus) throws(ChatError) {
        try run(
            "UPDATE group_members SET member_status = ?, updated_at = ? WHERE group_member_id = ?",
            [status.rawValue, now(), member.groupMemberId])
    }

    /// The connection to `member` (made or joined): a `member` row of `connections`.
    func setMemberConnection(_ user: ChatUser, _ member: GroupMember, agentConnectionID: String)
        throws(ChatError)
    {
        try run(
            """
            INSERT INTO connections (user_id, agent_conn_id, conn_type, conn_status, group_member_id, created_at, updated_at)
            VALUES (?, ?, 'member', 'new', ?, ?, ?)
            """, [user.userId, agentConnectionID, member.groupMemberId, now(), now()])
    }

    /// A connection recorded for a join that failed.
    func deleteConnectionRecord(agentConnectionID: String) throws(ChatError) {
        try run("DELETE FROM connections WHERE agent_conn_id = ?", [agentConnectionID])
    }

    /// The group, its members, their profiles and connections, and its items, gone from this device.
    func deleteGroup(_ group: ChatGroup) throws(ChatError) {
        try transaction { () throws(ChatError) in
            let profiles = try rows(
                "SELECT member_profile_id FROM group_members WHERE group_id = ? AND member_category != 'user'",
                [group.groupId]
            ).map { row throws(ChatError) -> Int64 in try value(row, "member_profile_id") }
            let groupProfile = try row(
                "SELECT group_profile_id FROM groups WHERE group_id = ?", [group.groupId])
            try run("DELETE FROM chat_items WHERE group_id = ?", [group.groupId])
            try run("DELETE FROM groups WHERE group_id = ?", [group.groupId])
            for id in profiles { try run("DELETE FROM contact_profiles WHERE contact_profile_id = ?", [id]) }
            if let groupProfile {
                try run(
                    "DELETE FROM group_profiles WHERE group_profile_id = ?",
                    [try value(groupProfile, "group_profile_id") as Int64])
            }
        }
    }

    func setMemberRole(_ member: GroupMember, _ role: GroupMemberRole) throws(ChatError) {
        try run(
            "UPDATE group_members SET member_role = ?, updated_at = ? WHERE group_member_id = ?",
            [role.rawValue, now(), member.groupMemberId])
    }

    /// The connection to `member` is gone (it left or was removed, or the user left).
    func deleteMemberConnection(_ member: GroupMember) throws(ChatError) {
        try run("DELETE FROM connections WHERE group_member_id = ?", [member.groupMemberId])
    }

    /// The member's profile as it introduced itself (`x.grp.mem.info`).
    func updateMemberProfile(_ member: GroupMember, _ profile: Profile) throws(ChatError) {
        try run(
            """
            UPDATE contact_profiles SET display_name = ?, full_name = ?, image = ?, updated_at = ?
            WHERE contact_profile_id = (SELECT member_profile_id FROM group_members WHERE group_member_id = ?)
            """, [profile.displayName, profile.fullName, profile.image, now(), member.groupMemberId])
    }
}
