import Foundation

/// The group commands of the chat API (`/_create link #1 member`, `/_group_profile #1 {...}`,
/// `/_block #1 3 blocked=on`, `/_delete member item #1 9`): the line mode's group commands by
/// ids, answered as SimpleX's core answers them.
extension ChatController {
    func runGroup(_ command: ChatCommand) async throws(ChatAPIError) -> ChatResponse {
        try await api { () async throws(ChatError) -> ChatResponse in
            switch command {
            case .apiCreateGroupLink(let groupId, let role):
                let group = try store.group(id: groupId)
                let link = try await createGroupLink(group.localDisplayName, role: role)
                return .groupLinkCreated(user: user, groupInfo: group, groupLink: link)
            case .apiGroupLinkMemberRole(let groupId, let role):
                let group = try store.group(id: groupId)
                let link = try setGroupLinkRole(group.localDisplayName, role)
                return .groupLink(user: user, groupInfo: group, groupLink: link)
            case .apiDeleteGroupLink(let groupId):
                let group = try store.group(id: groupId)
                try await deleteGroupLink(group.localDisplayName)
                return .groupLinkDeleted(user: user, groupInfo: group)
            case .apiGetGroupLink(let groupId):
                let group = try store.group(id: groupId)
                return .groupLink(user: user, groupInfo: group, groupLink: try groupLink(group.localDisplayName))
            case .apiUpdateGroupProfile(let groupId, let profile):
                let group = try store.group(id: groupId)
                let (from, to) = try await updateGroupProfile(group.localDisplayName) { $0 = profile }
                return .groupUpdated(user: user, fromGroup: from, toGroup: to)
            case .apiBlockMembersForAll(let groupId, let memberIds, let blocked):
                let group = try store.group(id: groupId)
                // Every member is checked before any is blocked: a bad id changes nothing.
                let members = try memberIds.map { id throws(ChatError) in try member(id, of: group) }
                var done: [GroupMember] = []
                for member in members {
                    done.append(
                        try await blockMemberForAll(
                            group.localDisplayName, member: member.localDisplayName, blocked: blocked))
                }
                return .membersBlockedForAllUser(
                    user: user, groupInfo: try store.group(id: groupId), members: done, blocked: blocked)
            case .apiDeleteMemberChatItem(let groupId, let itemIds):
                let group = try store.group(id: groupId)
                let items = try itemIds.map { id throws(ChatError) in try store.groupItem(id: id, groupId: groupId) }
                if let own = items.first(where: { $0.member == nil }) {
                    throw .invalidCommand(
                        "item \(own.itemId) is your own message: /_delete item #\(groupId) \(own.itemId) broadcast")
                }
                if let refused = items.first(where: { !group.mayModerate($0) }) {
                    throw .invalidCommand(
                        "#\(group.localDisplayName): you cannot delete item \(refused.itemId) for everyone")
                }
                var deletions: [GroupItemDeletion] = []
                for item in items {
                    let moderated = try await moderateGroupItem(group.localDisplayName, item)
                    let gone = (try? store.groupItem(id: item.itemId, groupId: groupId)) == nil
                    deletions.append(GroupItemDeletion(deleted: item, to: gone ? nil : moderated))
                }
                return .groupChatItemsDeleted(user: user, groupInfo: group, deletions: deletions, byUser: true)
            default:
                throw .invalidCommand("not a group command: \(command.cmdString)")
            }
        }
    }

    /// Member `id` of `group`, or a clear error.
    private func member(_ id: Int64, of group: ChatGroup) throws(ChatError) -> GroupMember {
        guard let member = try? store.member(id: id), member.groupId == group.groupId else {
            throw .invalidCommand("#\(group.localDisplayName) has no member \(id)")
        }
        return member
    }
}
