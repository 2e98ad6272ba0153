import Foundation
import SimpleXProtocol

/// Leaving (`/l`), role changes (`/mr`) and removal (`/rm`), sent by the user and received from
/// members, each checked against the sender's role by the receiver.
extension ChatController {
    /// Leaves the group (`x.grp.leave` to every ready member); its connections go after delivery.
    public func leaveGroup(_ name: String) async throws(ChatError) -> ChatGroup {
        let group = try store.group(named: name, user)
        guard group.membership.status.isCurrent else {
            throw .invalidCommand("you are not a member of #\(group.localDisplayName)")
        }
        try await sendToReadyMembers(.group(.leave), in: group)
        try await dropGroupLink(of: group)
        try store.setMemberStatus(group.membership, .left)
        for member in try store.members(groupId: group.groupId) {
            try await dropConnection(of: member, waitDelivery: true)
        }
        return try store.group(id: group.groupId)
    }

    /// Deletes the group (`/d #team`): the owner of a group it is still in tells every member first
    /// (`x.grp.del`); a member still in it must leave first. Gone from this device after.
    public func deleteGroup(_ name: String) async throws(ChatError) {
        let group = try store.group(named: name, user)
        if group.membership.status.isCurrent {
            guard group.membership.role == .owner else {
                throw .invalidCommand(
                    "#\(group.localDisplayName): leave the group first (/l \(group.localDisplayName)), or ask its owner"
                )
            }
            try await sendToReadyMembers(.group(.del), in: group)
        }
        try await dropGroupLink(of: group)
        for member in try store.members(groupId: group.groupId) {
            try await dropConnection(of: member, waitDelivery: true)
        }
        try store.deleteGroup(group)
    }

    /// Changes a member's role (`x.grp.mem.role` to every ready member): an admin may give any role
    /// up to its own to a member whose role is not above its own.
    public func changeRole(_ groupName: String, member name: String, to role: GroupMemberRole)
        async throws(ChatError)
        -> GroupMember
    {
        let (group, member) = try currentMember(name, of: groupName)
        let own = group.membership.role
        guard own >= .admin, own >= member.role, own >= role else {
            throw .invalidCommand(
                "#\(group.localDisplayName): you have no permission to make \(name) \(role.rawValue)")
        }
        try await sendToReadyMembers(.group(.memRole(memberId: member.memberId, role: role)), in: group)
        try store.setMemberRole(member, role)
        return try store.member(id: member.groupMemberId)
    }

    /// Removes a member (`x.grp.mem.del` to every ready member, the removed one included).
    public func removeMember(_ groupName: String, member name: String) async throws(ChatError) -> GroupMember
    {
        let (group, member) = try currentMember(name, of: groupName)
        guard group.membership.role >= .admin, group.membership.role >= member.role else {
            throw .invalidCommand("#\(group.localDisplayName): you have no permission to remove \(name)")
        }
        try await sendToReadyMembers(.group(.memDel(memberId: member.memberId, messages: false)), in: group)
        try store.setMemberStatus(member, .removed)
        try await dropConnection(of: member, waitDelivery: true)
        return try store.member(id: member.groupMemberId)
    }

    private func currentMember(_ name: String, of groupName: String) throws(ChatError) -> (
        ChatGroup, GroupMember
    ) {
        let group = try store.group(named: groupName, user)
        guard group.membership.status.isCurrent else {
            throw .invalidCommand("you are not a member of #\(group.localDisplayName)")
        }
        let bare = name.hasPrefix("@") ? String(name.dropFirst()) : name
        guard let member = try store.member(named: bare, groupId: group.groupId), member.status.isCurrent
        else {
            throw .invalidCommand("#\(group.localDisplayName) has no member \(bare)")
        }
        return (group, member)
    }

    /// `x.grp.mem.role` from `sender`: applied when it is an admin whose role is not below the
    /// member's old and new roles.
    func memberRoleChanged(
        _ memberId: MemberID, to role: GroupMemberRole, by sender: GroupMember, in group: ChatGroup
    )
        throws(ChatError)
    {
        let target =
            memberId == group.membership.memberId
            ? group.membership : try store.member(groupId: group.groupId, memberId: memberId)
        guard let target else { return refuse(group, sender, "x.grp.mem.role for an unknown member") }
        guard sender.role >= .admin, sender.role >= target.role, sender.role >= role else {
            return refuse(
                group, sender,
                "x.grp.mem.role from \(sender.role.withArticle), who may not make \(target.role.withArticle) \(role.rawValue)"
            )
        }
        guard target.role != role else { return }
        try store.setMemberRole(target, role)
        emit(
            .group(
                .memberRole(
                    try store.group(id: group.groupId), by: sender,
                    try store.member(id: target.groupMemberId), from: target.role, to: role)))
    }

    /// `x.grp.mem.del` from `sender`: applied when it is an admin whose role is not below the
    /// member's. When it names the user, the user is out and every connection of the group goes.
    func memberRemoved(_ memberId: MemberID, by sender: GroupMember, in group: ChatGroup) throws(ChatError) {
        let target =
            memberId == group.membership.memberId
            ? group.membership : try store.member(groupId: group.groupId, memberId: memberId)
        guard let target, target.status.isCurrent else {
            return refuse(group, sender, "x.grp.mem.del for a member not in the group")
        }
        guard sender.role >= .admin, sender.role >= target.role else {
            return refuse(
                group, sender,
                "x.grp.mem.del from \(sender.role.withArticle), who may not remove \(target.role.withArticle)"
            )
        }
        try store.setMemberStatus(target, .removed)
        emit(
            .group(
                .memberRemoved(
                    try store.group(id: group.groupId), by: sender, try store.member(id: target.groupMemberId)
                )))
    }

    /// After a message is acknowledged: the connections to members who left or were removed go,
    /// and all of them when the user is out. (Not those of members still invited: "not current"
    /// dropped the invitations of contacts who had not yet joined once the first joiner's
    /// messages came, and their joins then never completed.)
    func dropConnectionsOfLeavers(_ groupId: Int64) async throws(ChatError) {
        let group = try store.group(id: groupId)
        for member in try store.members(groupId: groupId) where member.agentConnectionID != nil {
            if member.status.isGone || group.membership.status.isGone {
                try await dropConnection(of: member, waitDelivery: false)
            }
        }
    }

    private func dropConnection(of member: GroupMember, waitDelivery: Bool) async throws(ChatError) {
        guard let connection = member.agentConnectionID else { return }
        // A relay that does not confirm is no reason to keep the member: the agent's side is gone.
        try? await agent.deleteConnection(connection, waitDelivery: waitDelivery)
        try store.deleteMemberConnection(member)
    }
}
