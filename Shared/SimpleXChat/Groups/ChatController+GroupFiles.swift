import Foundation
import SimpleXProtocol

/// Files in groups, by SimpleX's SMP method as in direct chats: the user's `x.msg.new` with the
/// file goes to every ready member; each member who wants it answers `x.file.acpt.inv` on its own
/// connection with a new invitation, and the user sends the chunks there, one transfer per member.
/// A member's offer to the user is received as a contact's is (`/fr`), the acceptance going back
/// on the member's connection. The transfer code names the other side as a contact: for a group
/// file that is the member (`filePeer`).
extension ChatController {
    /// Offers a file to every ready member of group `name` (`/f #team path`), when the group allows
    /// files for the user's role; refused before anything is sent otherwise.
    public func sendGroupFile(_ name: String, path: String, content: MsgContent = .file(""))
        async throws(ChatError)
        -> GroupChatItem
    {
        let group = try store.group(named: name, user)
        guard group.membership.status.isCurrent, group.membership.status != .invited else {
            throw .invalidCommand("you are not a member of #\(group.localDisplayName)")
        }
        guard group.membership.role >= .author else {
            throw .invalidCommand("#\(group.localDisplayName): observers cannot send messages")
        }
        guard group.profile.allowsGroupFeature("files", role: group.membership.role) else {
            throw .invalidCommand("#\(group.localDisplayName): files and media not allowed")
        }
        let absolute = Self.absolutePath(path)
        let fileName = FileNames.sanitized(absolute)
        let size: Int64
        let digest: [UInt8]
        let (source, key) = try openLocalFile(absolute)
        do throws(ChatFileError) {
            let sourceSize = source.size
            guard sourceSize <= FileChunking.maxFileSize else {
                throw ChatFileError.tooLarge(
                    name: fileName, size: sourceSize, limit: FileChunking.maxFileSize)
            }
            size = sourceSize
            digest = try source.digest()
        } catch {
            throw .file(error)
        }
        var generator = SystemRandomNumberGenerator()
        let msgId = SharedMsgID.random(using: &generator)
        let invitation = FileInvitation(
            fileName: fileName, fileSize: size, fileDigest: FileDigest(bytes: digest))
        try await sendToReadyMembers(
            .msgNew(MsgContainer(content: content, file: invitation)), msgId: msgId, in: group)
        var item = try store.insertGroupItem(
            user, groupId: group.groupId, member: nil, content: content, sharedMsgId: msgId)
        item.file = try store.insertGroupFile(
            user, groupId: group.groupId, member: nil, itemId: item.itemId, sharedMsgId: msgId, sent: true,
            name: fileName, path: absolute, size: size, digest: digest, status: .sndStored)
        if let key, let file = item.file {
            try store.setFileKey(file, key)
            item.file?.fileKey = key
        }
        return item
    }

    /// The other side of a file transfer, as the transfer code names it: the contact, or for a group
    /// file the member (with its connection), or the group itself for the user's offer to it.
    public func filePeer(_ file: ChatFile) throws(ChatError) -> ChatContact {
        guard let groupId = file.groupId else { return try store.contact(id: file.contactId) }
        guard let memberId = file.groupMemberId else {
            let group = try store.group(id: groupId)
            return ChatContact(
                contactId: 0, localDisplayName: "#" + group.localDisplayName,
                profile: Profile(displayName: group.localDisplayName, fullName: group.profile.fullName),
                localAlias: "", agentConnectionID: nil, ready: false)
        }
        let member = try store.member(id: memberId)
        return ChatContact(
            contactId: 0, localDisplayName: member.localDisplayName, profile: member.profile, localAlias: "",
            agentConnectionID: member.agentConnectionID, ready: member.ready)
    }

    /// A member's message offered a file: kept for `/fr`, refused when the group prohibits files
    /// for the member's role.
    func groupFileOffered(
        _ invitation: FileInvitation, item: GroupChatItem, from member: GroupMember, in group: ChatGroup
    )
        throws(ChatError) -> ChatFile?
    {
        guard group.profile.allowsGroupFeature("files", role: member.role) else {
            refuse(group, member, "a file, but files are prohibited in this group")
            return nil
        }
        return try store.insertGroupFile(
            user, groupId: group.groupId, member: member, itemId: item.itemId, sharedMsgId: item.sharedMsgId,
            sent: false, name: FileNames.sanitized(invitation.fileName), path: nil, size: invitation.fileSize,
            digest: invitation.fileDigest?.bytes, status: .rcvInvitation)
    }

    /// A member accepted the user's file (`x.file.acpt.inv` on its connection): a transfer of its own,
    /// joined to the connection it offered. Again, or for a cancelled offer, nothing.
    func groupFileAccepted(
        msgId: SharedMsgID, link text: String?, fileName: String, from member: GroupMember,
        in group: ChatGroup
    ) async throws(ChatError) {
        guard let offer = try store.groupFileOffer(groupId: group.groupId, sharedMsgId: msgId),
            offer.status == .sndStored,
            try store.groupFile(groupId: group.groupId, member: member, sharedMsgId: msgId, sent: true) == nil
        else { return }
        let transfer = try store.insertGroupFile(
            user, groupId: group.groupId, member: member, itemId: nil, sharedMsgId: msgId, sent: true,
            name: offer.fileName, path: offer.filePath, size: offer.fileSize, digest: offer.digest,
            status: .sndStored)
        if let key = offer.fileKey { try store.setFileKey(transfer, key) }
        let peer = try filePeer(transfer)
        guard fileName == offer.fileName, let text else {
            try store.finishFile(transfer, .sndError)
            let reason =
                text == nil
                ? "the recipient asked for the file inline, which this client does not send"
                : "the recipient named another file"
            emit(.file(.sndError(peer, try store.file(id: transfer.fileId, user), reason: reason)))
            return
        }
        do {
            let connection = try await agent.joinConnection(
                try ConnectionLink(text), connInfo: try encode(.ok))
            try store.setFileConnection(transfer, connection)
        } catch let error as ChatError {
            throw error
        } catch {
            try store.finishFile(transfer, .sndError)
            emit(.file(.sndError(peer, try store.file(id: transfer.fileId, user), reason: "\(error)")))
        }
    }
}
