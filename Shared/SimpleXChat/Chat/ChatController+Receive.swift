import Foundation
import SimpleXProtocol

extension ChatController {
    /// Agent events in, chat events out; each received message is stored before it is
    /// acknowledged, and acknowledged once (a redelivered one is recognised by its agent id).
    func handle(_ event: AgentEvent) async {
        do {
            try await handleEvent(event)
        } catch {
            emit(.error("\(error)"))
        }
    }

    private func handleEvent(_ event: AgentEvent) async throws(ChatError) {
        if try await handleFileEvent(event) { return }
        switch event {
        case .confirmation(let id, let peerInfo):
            // Joiners of our invitation, and the owner of an address we asked, both confirm:
            // the contact is made from their profile and the connection completed.
            if try store.contact(agentConnectionID: id) == nil, let profile = profile(in: peerInfo) {
                _ = try store.createContact(user, profile: profile, agentConnectionID: id)
            }
            do { try await agent.allowConnection(id, connInfo: profileInfo) } catch { throw .agent("\(error)") }
        case .info(let id, let peerInfo):
            if try store.contact(agentConnectionID: id) == nil, let profile = profile(in: peerInfo) {
                _ = try store.createContact(user, profile: profile, agentConnectionID: id)
            }
        case .connected(let id):
            try store.setReady(agentConnectionID: id)
            if let contact = try store.contact(agentConnectionID: id) { emit(.contactConnected(contact)) }
        case .contactRequest(_, let invitationID, let peerInfo):
            guard let profile = profile(in: peerInfo) else { throw .invalidCommand("a contact request without a profile") }
            emit(.contactRequest(try store.insertRequest(user, invitationID: invitationID, profile: profile)))
        case .message(let id, let message):
            try await received(message, on: id)
        case .sent(let id, let agentMsgID):
            try updateStatus(connection: id, agentMsgID: agentMsgID, to: .sndSent)
        case .delivered(let id, let agentMsgID, _):
            try updateStatus(connection: id, agentMsgID: agentMsgID, to: .sndRcvd)
        case .sendFailed(let id, let agentMsgID, _):
            if let agentMsgID { try updateStatus(connection: id, agentMsgID: agentMsgID, to: .sndError) }
        case .subscriptionEnded(let id):
            if let contact = try store.contact(agentConnectionID: id) { emit(.contactSwitchedDevice(contact)) }
        case .receiveFailed, .relayDown, .relayUp:
            break
        }
    }

    private func profile(in connInfo: [UInt8]) -> Profile? {
        switch (try? ChatMessage(decoding: connInfo))?.event {
        case .info(let profile): profile
        case .contact(let request): request.profile
        default: nil
        }
    }

    private func updateStatus(connection id: String, agentMsgID: Int64, to status: ChatItemStatus) throws(ChatError) {
        guard let contact = try store.contact(agentConnectionID: id), let item = try store.item(contact, agentMsgID: agentMsgID) else { return }
        // A receipt can overtake SENT; never go back from delivered.
        if item.status == .sndRcvd && status == .sndSent { return }
        try store.setStatus(item, status)
        emit(.itemStatus(contact, try store.item(id: item.itemId)))
    }

    private func received(_ message: AgentReceivedMessage, on id: String) async throws(ChatError) {
        guard let contact = try store.contact(agentConnectionID: id) else { return }
        if message.integrity != .ok { emit(.integrityError(contact, message.integrity.description)) }
        for decoded in ChatMessage.decodeBody(message.body) {
            switch decoded {
            case .success(let chatMessage): try await apply(chatMessage, from: contact)
            case .failure(let error):
                // Kept and shown as invalid, never dropped silently.
                let item = try store.insertItem(
                    user, contact: contact, direction: .received,
                    content: .unknown(type: "invalid", text: "invalid message: \(error)", json: JSONObject()), status: .rcvNew,
                    sharedMsgId: nil)
                emit(.newItem(contact, item))
            }
        }
        do { try await agent.ackMessage(id, agentMsgID: message.agentMsgID, receipt: true) } catch { throw .agent("\(error)") }
    }

    private func apply(_ message: ChatMessage, from contact: ChatContact) async throws(ChatError) {
        switch message.event {
        case .msgNew(let container):
            if let msgId = message.msgId, try store.item(contact, sharedMsgId: msgId) != nil { return }  // delivered again
            let quote = container.quote.map {
                ChatItemQuote(sharedMsgId: $0.msgRef.msgId, sentByUser: !$0.msgRef.sent, content: $0.content)
            }
            var item = try store.insertItem(
                user, contact: contact, direction: .received, content: container.content, status: .rcvNew, sharedMsgId: message.msgId,
                quote: quote, forwarded: container.forward)
            var accepted: ChatFile?
            if let invitation = container.file { (item.file, accepted) = try await fileOffered(invitation, item: item, from: contact) }
            emit(.newItem(contact, try timed(item, ttl: container.ttl)))
            if let accepted { emit(.file(.rcvAccepted(contact, accepted))) }
        case .msgUpdate(let update):
            guard let item = try store.item(contact, sharedMsgId: update.msgId), item.direction == .received else { return }
            if item.content == update.content { return }
            try store.updateContent(item, update.content)
            emit(.itemUpdated(contact, try store.item(id: item.itemId)))
        case .msgDel(let msgId, _, _):
            guard let item = try store.item(contact, sharedMsgId: msgId), item.direction == .received else { return }
            try store.markDeleted(item)
            emit(.itemDeleted(contact, try store.item(id: item.itemId)))
        case .msgReact(let msgId, _, _, let reaction, let add):
            guard let item = try store.item(contact, sharedMsgId: msgId), case .emoji(let emoji) = reaction else { return }
            try store.setReaction(item, emoji: emoji.displayText, byUser: false, add: add)
            emit(.itemReaction(contact, try store.item(id: item.itemId), emoji: emoji.displayText, add: add))
        case .fileAcptInv(let msgId, let link, let fileName):
            try await fileAccepted(msgId: msgId, link: link, fileName: fileName, from: contact)
        case .fileCancel(let msgId):
            try await fileCancelled(msgId: msgId, from: contact)
        case .info(let profile):
            let old = contact.profile
            guard profile.displayName != old.displayName || profile.fullName != old.fullName else { return }
            try store.updateContactProfile(contact, profile)
            emit(.contactUpdated(try store.contact(id: contact.contactId), from: old))
        case .directDel:
            // The contact deleted us: the chat stays, and says so; nothing more can be sent.
            let item = try store.insertItem(
                user, contact: contact, direction: .received,
                content: .unknown(type: "contactDeleted", text: "deleted contact", json: JSONObject()), status: .rcvNew,
                sharedMsgId: message.msgId)
            emit(.newItem(contact, item))
        case .ok, .infoProbe, .infoProbeCheck, .infoProbeOk:
            break  // Nothing to show: acknowledgements and profile probes.
        default:
            // Events this client does not act on (groups, calls, files over XFTP) are kept as an
            // item that says so.
            let item = try store.insertItem(
                user, contact: contact, direction: .received,
                content: .unknown(type: message.event.name, text: "unsupported event \(message.event.name)", json: JSONObject()),
                status: .rcvNew, sharedMsgId: message.msgId)
            emit(.newItem(contact, item))
        }
    }
}
