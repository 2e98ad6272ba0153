import Foundation
import SimpleXChat

extension AppEffects {
    /// The group effects, against the core's group commands (which take the group's name).
    func performGroup(_ effect: AppEffect) async throws {
        switch effect {
        case .openGroup(let groupId):
            // The open group is read: its items are on screen.
            let group = try await group(groupId)
            report(
                .groupOpened(
                    group, try await chat.groupItems(group.localDisplayName, count: GroupChatState.pageSize)))
            if try await chat.markGroupRead(group.localDisplayName) > 0 {
                report(.chatList(await chatList()))
            }
            let (_, members) = try await chat.members(of: group.localDisplayName)
            report(
                .groupMemberNames(
                    groupId: groupId, members.filter { $0.status.isCurrent }.map(\.localDisplayName)))
        case .sendGroup(let groupId, let text):
            let group = try await group(groupId)
            _ = try await chat.sendGroup(
                group.localDisplayName, Self.messageContent(text, groupDirectory: groupDirectory))
            report(
                .groupOpened(
                    group, try await chat.groupItems(group.localDisplayName, count: GroupChatState.pageSize)))
            report(.chatList(await chatList()))
        case .joinGroup(let groupId):
            let group = try await chat.joinGroup(try await group(groupId).localDisplayName)
            report(.notice("joining #\(group.localDisplayName): connecting to the host…"))
            report(.chatList(await chatList()))
        case .createGroup(let name):
            report(.groupCreated(try await chat.createGroup(GroupProfile(displayName: name))))
        case .inviteMembers(let groupId, let contacts):
            let group = try await group(groupId)
            for contact in contacts {
                _ = try await chat.addMember(group.localDisplayName, contact: contact, role: .member)
            }
            report(.notice("invited \(contacts.joined(separator: ", ")) to #\(group.localDisplayName)"))
        case .loadGroupInfo(let groupId):
            let (group, members) = try await chat.members(of: try await group(groupId).localDisplayName)
            report(.groupMembers(group, members))
            report(.groupLink(groupId: groupId, link: try await chat.existingGroupLink(group.localDisplayName)?.link))
        case .createGroupLink(let groupId):
            let link = try await chat.createGroupLink(try await group(groupId).localDisplayName)
            report(.groupLink(groupId: groupId, link: link.link))
            report(.notice("the group link is made: q shows its QR code"))
        case .leaveGroup(let groupId):
            report(.groupLeft(try await chat.leaveGroup(try await group(groupId).localDisplayName)))
            report(.chatList(await chatList()))
        case .deleteGroup(let groupId):
            try await chat.deleteGroup(try await group(groupId).localDisplayName)
            report(.groupDeleted(groupId: groupId))
            report(.chatList(await chatList()))
        case .editGroupItem(let groupId, let item, let text):
            let group = try await group(groupId)
            _ = try await chat.editGroup(group.localDisplayName, item, to: .text(text))
            report(
                .groupOpened(
                    group, try await chat.groupItems(group.localDisplayName, count: GroupChatState.pageSize)))
        case .deleteGroupItem(let groupId, let item):
            let group = try await group(groupId)
            try await chat.deleteGroupItem(group.localDisplayName, item)
            report(
                .groupOpened(
                    group, try await chat.groupItems(group.localDisplayName, count: GroupChatState.pageSize)))
            report(.chatList(await chatList()))
        case .reportGroupItem(let groupId, let item, let reason, let text):
            let group = try await group(groupId)
            _ = try await chat.reportGroupItem(group.localDisplayName, item, reason: reason, text: text)
            report(
                .groupOpened(
                    group, try await chat.groupItems(group.localDisplayName, count: GroupChatState.pageSize)))
        case .moderateGroupItem(let groupId, let item):
            let group = try await group(groupId)
            _ = try await chat.moderateGroupItem(group.localDisplayName, item)
            report(
                .groupOpened(
                    group, try await chat.groupItems(group.localDisplayName, count: GroupChatState.pageSize)))
            report(.chatList(await chatList()))
        case .replyGroup(let groupId, let text, let quoting):
            let group = try await group(groupId)
            _ = try await chat.sendGroup(group.localDisplayName, .text(text), quoting: quoting)
            report(
                .groupOpened(
                    group, try await chat.groupItems(group.localDisplayName, count: GroupChatState.pageSize)))
            report(.chatList(await chatList()))
        case .blockMember(let groupId, let name, let blocked):
            let group = try await group(groupId)
            let member = try await chat.blockMemberForAll(
                group.localDisplayName, member: name, blocked: blocked)
            report(.notice("you \(blocked ? "blocked" : "unblocked") \(member.localDisplayName) for all"))
            let (updated, members) = try await chat.members(of: group.localDisplayName)
            report(.groupMembers(updated, members))
        case .loadGroupReports(let groupId):
            let group = try await group(groupId)
            report(.groupReports(group, try await chat.groupReports(group.localDisplayName)))
        case .sendGroupFile(let groupId, let path):
            let group = try await group(groupId)
            _ = try await chat.sendGroupFile(group.localDisplayName, path: path)
            report(
                .groupOpened(
                    group, try await chat.groupItems(group.localDisplayName, count: GroupChatState.pageSize)))
            report(.chatList(await chatList()))
        case .reactGroup(let groupId, let item, let emoji, let add):
            let group = try await group(groupId)
            _ = try await chat.reactGroup(group.localDisplayName, item, emoji: emoji, add: add)
            report(
                .groupOpened(
                    group, try await chat.groupItems(group.localDisplayName, count: GroupChatState.pageSize)))
        default:
            break
        }
    }

    private func group(_ groupId: Int64) async throws(ChatError) -> ChatGroup {
        guard let group = try await chat.groups().first(where: { $0.groupId == groupId }) else {
            throw .invalidCommand("no such group")
        }
        return group
    }
}
