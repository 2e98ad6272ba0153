import Foundation
import SimpleXProtocol

/// Direct chats between members who are not contacts (`x.grp.direct.inv` over their group
/// connection), where the group allows direct messages: the sender makes an invitation and a
/// contact for it, the receiver joins it and has the contact too, with the first message in it.
extension ChatController {
    /// A message to member `name` of the group (`@#team bob hi`): to the member's contact when
    /// there is one (`existing`), else a new contact is made and invited with the message in
    /// `x.grp.direct.inv`.
    public func sendToMember(_ groupName: String, member name: String, _ content: MsgContent)
        async throws(ChatError) -> (contact: ChatContact, item: ChatItem?)
    {
        let group = try store.group(named: groupName, user)
        guard group.membership.status.isCurrent else {
            throw .invalidCommand("you are not a member of #\(group.localDisplayName)")
        }
        let bare = name.hasPrefix("@") ? String(name.dropFirst()) : name
        guard let member = try store.member(named: bare, groupId: group.groupId), member.status.isCurrent
        else {
            throw .invalidCommand("#\(group.localDisplayName) has no member \(bare)")
        }
        if let contactId = member.contactId {
            return (try store.contact(id: contactId), nil)
        }
        guard group.preferences.allows(.directMessages, role: group.membership.role) else {
            throw .invalidCommand(
                "#\(group.localDisplayName): direct messages between members are prohibited")
        }
        guard member.ready, member.agentConnectionID != nil else {
            throw .notConnected(member.localDisplayName)
        }
        var generator = SystemRandomNumberGenerator()
        let msgId = SharedMsgID.random(using: &generator)
        do {
            let (connection, link) = try await agent.createInvitation()
            let contact = try store.transaction { () throws(ChatError) in
                try store.insertPendingConnection(user, agentConnectionID: connection)
                let contact = try store.createContact(
                    user, profile: member.profile, agentConnectionID: connection)
                try store.setMemberContact(member, contactId: contact.contactId)
                return contact
            }
            try await send(
                .group(.directInv(connReq: link.description, content: content, scope: nil)), to: member,
                msgId: msgId)
            let item = try store.insertItem(
                user, contact: contact, direction: .sent, content: content, status: .sndSent,
                sharedMsgId: msgId)
            return (try store.contact(id: contact.contactId), item)
        } catch let error as ChatError {
            throw error
        } catch {
            throw .agent("\(error)")
        }
    }

    /// `x.grp.direct.inv` from `sender`: joined, and `sender` becomes a contact, when the group
    /// allows direct messages and the user has no contact with it yet; else an error item.
    func memberContactInvitation(
        _ connReq: String, content: MsgContent?, from sender: GroupMember, in group: ChatGroup
    ) async throws(ChatError) {
        guard group.preferences.allows(.directMessages, role: sender.role) else {
            return refuse(group, sender, "x.grp.direct.inv where direct messages are prohibited")
        }
        guard sender.contactId == nil else {
            return refuse(group, sender, "x.grp.direct.inv from a member who is a contact already")
        }
        let link: ConnectionLink
        do { link = try ConnectionLink(connReq) } catch {
            return refuse(group, sender, "x.grp.direct.inv with an unreadable invitation: \(error)")
        }
        guard !link.isContactAddress else {
            return refuse(group, sender, "x.grp.direct.inv with a contact address, not an invitation")
        }
        do {
            let connection = try await agent.joinConnection(link, connInfo: profileInfo)
            let contact = try store.transaction { () throws(ChatError) in
                try store.insertPendingConnection(user, agentConnectionID: connection)
                let contact = try store.createContact(
                    user, profile: sender.profile, agentConnectionID: connection)
                try store.setMemberContact(sender, contactId: contact.contactId)
                return contact
            }
            emit(.group(.change(group, .memberContact(sender, contact: contact))))
            if let content {
                let item = try store.insertItem(
                    user, contact: contact, direction: .received, content: content, status: .rcvNew,
                    sharedMsgId: nil)
                emit(.newItem(try store.contact(id: contact.contactId), item))
            }
        } catch let error as ChatError {
            throw error
        } catch {
            throw .agent("\(error)")
        }
    }
}
