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
        if try await handleGroupConnectionEvent(event) { return }
        if try await handleGroupLinkEvent(event) { return }
        if try await handleFileEvent(event) { return }
        switch event {
        case .confirmation(let id, let peerInfo):
            // Joiners of our invitation, and the owner of an address we asked, both confirm:
            // the contact is made from their profile and the connection completed.
            if try store.contact(agentConnectionID: id) == nil, let profile = profile(in: peerInfo) {
                _ = try store.createContact(user, profile: profile, agentConnectionID: id)
            }
            // A contact who knows the user incognito is answered with that profile.
            let contact = try store.contact(agentConnectionID: id)
            let incognito = try contact.flatMap { contact throws(ChatError) in
                try store.incognitoProfile(contactId: contact.contactId)
            }
            let info =
                try incognito.map { profile throws(ChatError) in try encode(.info(profile)) } ?? profileInfo
            do { try await agent.allowConnection(id, connInfo: info) } catch {
                throw .agent("\(error)")
            }
        case .info(let id, let peerInfo):
            if try store.contact(agentConnectionID: id) == nil, let profile = profile(in: peerInfo) {
                _ = try store.createContact(user, profile: profile, agentConnectionID: id)
            }
        case .connected(let id):
            try store.setReady(agentConnectionID: id)
            if let contact = try store.contact(agentConnectionID: id) {
                emit(.contactConnected(contact))
                if let item = try connectedItem(contact) { emit(item) }
            }
        case .contactRequest(_, let invitationID, let peerInfo):
            guard let profile = profile(in: peerInfo) else {
                throw .invalidCommand("a contact request without a profile")
            }
            emit(.contactRequest(try store.insertRequest(user, invitationID: invitationID, profile: profile)))
        case .message(let id, let message):
            try await received(message, on: id)
        case .sent, .delivered, .sendFailed:
            if let update = try statusUpdate(event) { emit(update) }
        case .subscriptionEnded(let id):
            if let contact = try store.contact(agentConnectionID: id) {
                emit(.contactSwitchedDevice(contact))
            }
        case .receiveFailed(let id, let reason):
            try decryptionFailed(on: id, reason)
        case .relayDown, .relayUp:
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

    /// The status an agent event gives a sent item (sent, delivered, failed), written; the
    /// event that tells of it, or nil when there is no such item or nothing changes.
    private func statusUpdate(_ event: AgentEvent) throws(ChatError) -> ChatEvent? {
        let (id, agentMsgID, status): (String, Int64?, ChatItemStatus) =
            switch event {
            case .sent(let id, let agentMsgID): (id, agentMsgID, .sndSent)
            case .delivered(let id, let agentMsgID, _): (id, agentMsgID, .sndRcvd)
            case .sendFailed(let id, let agentMsgID, _): (id, agentMsgID, .sndError)
            default: ("", nil, .sndNew)
            }
        guard let agentMsgID, let contact = try store.contact(agentConnectionID: id),
            let item = try store.item(contact, agentMsgID: agentMsgID)
        else { return nil }
        // A receipt can overtake SENT; never go back from delivered.
        if item.status == .sndRcvd && status == .sndSent { return nil }
        try store.setStatus(item, status)
        return .itemStatus(contact, try store.item(id: item.itemId))
    }

    /// Whether `event` is a status for a contact's sent item (not a file's own connection, whose
    /// events the transfer handles), which `handle(batch:)` writes together with its neighbours.
    private func isContactStatus(_ event: AgentEvent) -> Bool {
        switch event {
        case .sent(let id, _), .delivered(let id, _, _), .sendFailed(let id, _, _):
            (try? store.contact(agentConnectionID: id)) != nil
        default: false
        }
    }

    /// Statuses that came together: written in one transaction (one durable commit instead of
    /// one per message), told after it. If that fails, each is tried on its own.
    private func statusesTogether(_ events: [AgentEvent]) async {
        var updates: [ChatEvent] = []
        do {
            try store.transaction { () throws(ChatError) in
                for event in events { if let update = try statusUpdate(event) { updates.append(update) } }
            }
        } catch {
            for event in events { await handle(event) }
            return
        }
        for update in updates { emit(update) }
    }

    // MARK: - Received messages

    /// A batch of agent events, in order. Each run of received messages that need only the store
    /// (texts, edits, deletions, reactions, profiles: no file to offer) — one message or many — is
    /// stored in one transaction, one durable commit for the run, and acknowledged after it; each
    /// run of statuses of sent items is written in one transaction too; anything else is handled
    /// on its own.
    func handle(batch events: [AgentEvent]) async {
        var index = 0
        while index < events.count {
            var statuses = 0
            while index + statuses < events.count, isContactStatus(events[index + statuses]) { statuses += 1 }
            if statuses > 1 {
                await statusesTogether(Array(events[index..<index + statuses]))
                index += statuses
                continue
            }
            var groupRun: [GroupReceivedMessage] = []
            while index + groupRun.count < events.count,
                case .message(let id, let message) = events[index + groupRun.count],
                let received = storeOnlyGroupMessage(id, message)
            {
                groupRun.append(received)
            }
            if !groupRun.isEmpty {
                await receivedFromMembersTogether(groupRun)
                index += groupRun.count
                continue
            }
            var run: [ReceivedMessage] = []
            while index + run.count < events.count,
                case .message(let id, let message) = events[index + run.count],
                // A contact's message: those of a file's own connection (chunks) and of a
                // connection that is no contact yet are handled on their own.
                let contact = try? store.contact(agentConnectionID: id)
            {
                let decoded = ChatMessage.decodeBody(message.body)
                guard decoded.allSatisfy(Self.needsOnlyTheStore) else { break }
                run.append(
                    ReceivedMessage(connection: id, contact: contact, message: message, decoded: decoded))
            }
            if !run.isEmpty {
                await receivedTogether(run)
                index += run.count
            } else {
                await handle(events[index])
                index += 1
            }
        }
    }

    struct ReceivedMessage {
        let connection: String
        let contact: ChatContact
        let message: AgentReceivedMessage
        let decoded: [Result<ChatMessage, ChatProtocolError>]
    }

    private func receivedTogether(_ messages: [ReceivedMessage]) async {
        var events: [ChatEvent] = []
        do {
            try store.transaction { () throws(ChatError) in
                for received in messages {
                    events += try store(received.message, decoded: received.decoded, from: received.contact)
                }
            }
        } catch {
            // Nothing stored, nothing acknowledged: the agent gives them again at the next start.
            emit(.error("\(error)"))
            return
        }
        for event in events { emit(event) }
        // Their receipts, too, in one transaction of the agent.
        do {
            try await agent.ackMessages(
                messages.map {
                    ($0.connection, $0.message.agentMsgID, sendsReceipt(for: $0.decoded, from: $0.contact))
                })
        } catch {
            emit(.error("\(ChatError.agent("\(error)"))"))
        }
    }

    /// A received message that needs more than the store (a file offer or transfer; the batches
    /// of `handle(batch:)` take the others), handled and acknowledged on its own.
    private func received(_ message: AgentReceivedMessage, on id: String) async throws(ChatError) {
        guard let contact = try store.contact(agentConnectionID: id) else { return }
        if let event = try integrityItem(message, from: contact) { emit(event) }
        let decoded = ChatMessage.decodeBody(message.body)
        for result in decoded {
            switch result {
            case .success(let chatMessage): try await apply(chatMessage, from: contact)
            case .failure(let error): emit(try storeInvalid(error, from: contact))
            }
        }
        do {
            try await agent.ackMessage(
                id, agentMsgID: message.agentMsgID, receipt: sendsReceipt(for: decoded, from: contact))
        } catch {
            throw .agent("\(error)")
        }
    }

    /// Whether a received message is acknowledged with a delivery receipt: as SimpleX, only one
    /// that brings a new message (not edits, deletions, reactions or profile updates), and only
    /// when the user's setting for the contact is on.
    func sendsReceipt(for decoded: [Result<ChatMessage, ChatProtocolError>], from contact: ChatContact)
        -> Bool
    {
        contact.sendsReceipts(user) && decoded.contains(where: Self.hasDeliveryReceipt)
    }

    /// SimpleX `hasDeliveryReceipt`: the events a receipt is sent for (of those this build
    /// knows: a new message).
    static func hasDeliveryReceipt(_ decoded: Result<ChatMessage, ChatProtocolError>) -> Bool {
        if case .success(let message) = decoded, case .msgNew = message.event { return true }
        return false
    }

    /// Whether a decoded message is handled by the store alone (no file offer or transfer).
    static func needsOnlyTheStore(_ decoded: Result<ChatMessage, ChatProtocolError>) -> Bool {
        guard case .success(let message) = decoded else { return true }
        switch message.event {
        case .msgNew(let container): return container.file == nil
        case .fileAcptInv, .fileCancel: return false
        default: return true
        }
    }

    /// A received message that needs only the store: its items written, its chat events returned
    /// for after the commit.
    private func store(
        _ message: AgentReceivedMessage, decoded: [Result<ChatMessage, ChatProtocolError>],
        from contact: ChatContact
    ) throws(ChatError) -> [ChatEvent] {
        var events: [ChatEvent] = []
        if let event = try integrityItem(message, from: contact) { events.append(event) }
        for result in decoded {
            switch result {
            case .success(let chatMessage): events += try applyToStore(chatMessage, from: contact)
            case .failure(let error): events.append(try storeInvalid(error, from: contact))
            }
        }
        return events
    }

    /// A message that does not decode: kept and shown as invalid, never dropped silently.
    private func storeInvalid(_ error: ChatProtocolError, from contact: ChatContact) throws(ChatError)
        -> ChatEvent
    {
        let item = try store.insertItem(
            user, contact: contact, direction: .received,
            content: .placeholder(type: "invalid", text: "invalid message: \(error)"), status: .rcvNew,
            sharedMsgId: nil)
        return .newItem(contact, item)
    }

    /// A message with a file (offered to us, accepted or cancelled by the contact).
    private func apply(_ message: ChatMessage, from contact: ChatContact) async throws(ChatError) {
        switch message.event {
        case .msgNew(let container) where container.file != nil:
            if let msgId = message.msgId, try store.item(contact, sharedMsgId: msgId) != nil { return }  // delivered again
            var item = try insertReceived(container, msgId: message.msgId, from: contact)
            var accepted: ChatFile?
            if let invitation = container.file {
                (item.file, accepted) = try await fileOffered(invitation, item: item, from: contact)
            }
            emit(.newItem(contact, try timed(item, ttl: container.ttl)))
            if let accepted { emit(.file(.rcvAccepted(contact, accepted))) }
        case .fileAcptInv(let msgId, let link, let fileName):
            try await fileAccepted(msgId: msgId, link: link, fileName: fileName, from: contact)
        case .fileCancel(let msgId):
            try await fileCancelled(msgId: msgId, from: contact)
        default:
            for event in try applyToStore(message, from: contact) { emit(event) }
        }
    }

    private func insertReceived(_ container: MsgContainer, msgId: SharedMsgID?, from contact: ChatContact)
        throws(ChatError) -> ChatItem
    {
        let quote = container.quote.map {
            ChatItemQuote(sharedMsgId: $0.msgRef.msgId, sentByUser: !$0.msgRef.sent, content: $0.content)
        }
        return try store.insertItem(
            user, contact: contact, direction: .received, content: container.content, status: .rcvNew,
            sharedMsgId: msgId,
            quote: quote, forwarded: container.forward)
    }

    /// Everything but files: the store changes and the chat events that tell of them.
    private func applyToStore(_ message: ChatMessage, from contact: ChatContact) throws(ChatError)
        -> [ChatEvent]
    {
        switch message.event {
        case .msgNew(let container):
            if let msgId = message.msgId, try store.item(contact, sharedMsgId: msgId) != nil { return [] }  // delivered again
            let item = try insertReceived(container, msgId: message.msgId, from: contact)
            return [.newItem(contact, try timed(item, ttl: container.ttl))]
        case .msgUpdate(let update):
            guard let item = try store.item(contact, sharedMsgId: update.msgId), item.direction == .received
            else { return [] }
            if item.content == update.content { return [] }
            try store.updateContent(item, update.content)
            return [.itemUpdated(contact, try store.item(id: item.itemId))]
        case .msgDel(let msgId, _, _):
            guard let item = try store.item(contact, sharedMsgId: msgId), item.direction == .received else {
                return []
            }
            try store.markDeleted(item)
            return [.itemDeleted(contact, try store.item(id: item.itemId))]
        case .msgReact(let msgId, _, _, let reaction, let add):
            guard let item = try store.item(contact, sharedMsgId: msgId), case .emoji(let emoji) = reaction
            else { return [] }
            try store.setReaction(item, emoji: emoji.displayText, byUser: false, add: add)
            return [
                .itemReaction(contact, try store.item(id: item.itemId), emoji: emoji.displayText, add: add)
            ]
        case .info(let profile):
            // A new name first, then what the new preferences change (SimpleX: feature items).
            let old = contact.profile
            var events: [ChatEvent] = []
            var current = contact
            if profile.displayName != old.displayName || profile.fullName != old.fullName {
                try store.updateContactProfile(user, contact, profile)
                current = try store.contact(id: contact.contactId)
                events.append(.contactUpdated(current, from: contact))
            }
            return events + (try contactPreferencesChanged(profile, of: current))
        case .directDel:
            // The contact deleted us: the chat stays, and says so; nothing more can be sent.
            try store.setDeletedByContact(contact)
            let item = try store.insertItem(
                user, contact: contact, direction: .received,
                content: .placeholder(type: "contactDeleted", text: "deleted contact"), status: .rcvNew,
                sharedMsgId: message.msgId)
            return [.newItem(contact, item)]
        case .group(.inv(let invitation)):
            return try groupInvitation(invitation, from: contact)
        case .ok, .infoProbe, .infoProbeCheck, .infoProbeOk:
            return []  // Nothing to show: acknowledgements and profile probes.
        case .fileAcptInv, .fileCancel:
            return []  // Handled with the files (`apply`).
        default:
            // Events this client does not act on (groups, calls, files over XFTP) are kept as an
            // item that says so.
            let item = try store.insertItem(
                user, contact: contact, direction: .received,
                content: .placeholder(
                    type: message.event.name, text: "unsupported event \(message.event.name)"),
                status: .rcvNew, sharedMsgId: message.msgId)
            return [.newItem(contact, item)]
        }
    }
}

/// Members' messages as the contacts' are: a run of those that need only the store, in one
/// transaction (one durable commit for the run, not one per message), acknowledged after it.
extension ChatController {
    struct GroupReceivedMessage {
        let connection: String
        let member: GroupMember
        let group: ChatGroup
        let message: AgentReceivedMessage
        let messages: [ChatMessage]
    }

    /// `message` on `connection` when it is a member's and needs only the store: new texts
    /// (no file, no report), edits, deletions and reactions, in a group where the user forwards
    /// nothing to this member's introduced members (so handling it never waits on the agent).
    /// Nothing of it changes who is in the group, so no connection is dropped after it.
    func storeOnlyGroupMessage(_ connection: String, _ message: AgentReceivedMessage) -> GroupReceivedMessage? {
        guard let member = try? store.member(agentConnectionID: connection), member.ready,
            let group = try? store.group(id: member.groupId)
        else { return nil }
        var messages: [ChatMessage] = []
        for result in ChatMessage.decodeBody(message.body) {
            guard case .success(let chatMessage) = result else { return nil }
            switch chatMessage.event {
            case .msgNew(let container):
                if container.file != nil { return nil }
                if case .report = container.content { return nil }
            case .msgUpdate, .msgDel, .msgReact: break
            default: return nil
            }
            messages.append(chatMessage)
        }
        if group.membership.role >= .admin, (try? store.unconnectedIntroduced(member))?.isEmpty != true {
            return nil
        }
        return GroupReceivedMessage(
            connection: connection, member: member, group: group, message: message, messages: messages)
    }

    func receivedFromMembersTogether(_ run: [GroupReceivedMessage]) async {
        heldEvents = []
        do {
            try store.begin()
            do {
                for received in run {
                    for message in received.messages {
                        try await applyGroup(message, from: received.member, in: received.group)
                    }
                }
                try store.commit()
            } catch {
                store.rollback()
                throw error
            }
        } catch {
            // Nothing stored, nothing acknowledged: the agent gives them again at the next start.
            heldEvents = nil
            emit(.error("\(error)"))
            return
        }
        let events = heldEvents ?? []
        heldEvents = nil
        for event in events { emit(event) }
        do {
            try await agent.ackMessages(run.map { ($0.connection, $0.message.agentMsgID, false) })
        } catch {
            emit(.error("\(ChatError.agent("\(error)"))"))
        }
    }
}
