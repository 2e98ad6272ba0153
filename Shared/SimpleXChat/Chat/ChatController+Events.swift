import Foundation

// Event items (`ChatItemEvent`): what the core stores itself when the agent reports a gap or a
// message that did not decrypt, and when the features between the user and a contact change.
extension ChatController {
    /// The integrity error item of a received message that failed the agent's check, stored
    /// before the message's own items; nil when the check passed, or when this delivery repeats
    /// one whose item is stored already (the agent gives an unacknowledged message again after a
    /// restart, with the same check).
    func integrityItem(_ message: AgentReceivedMessage, from contact: ChatContact) throws(ChatError)
        -> ChatEvent?
    {
        guard let error = MsgErrorType(message.integrity) else { return nil }
        let event = ChatItemEvent.rcvIntegrityError(error)
        let earlier = try store.eventItems(contact, agentMsgID: message.agentMsgID)
        if earlier.contains(where: { $0.event == event }) { return nil }
        return .newItem(
            contact, try store.insertEvent(user, contact: contact, event, agentMsgID: message.agentMsgID))
    }

    /// A message the agent could not decrypt: a decryption error item, or, when the chat's last
    /// item is one of the same kind, that item with its count grown (as SimpleX merges them).
    func decryptionFailed(on id: AgentConnectionID, _ failure: AgentReceiveFailure) throws(ChatError) {
        guard let (error, count) = failure.decryptError,
            let contact = try store.contact(agentConnectionID: id)
        else { return }
        if let last = try store.lastItem(contact), case .rcvDecryptionError(error, let before)? = last.event {
            try store.replaceEvent(last, with: .rcvDecryptionError(error, count: error.merged(before, count)))
            emit(.itemUpdated(contact, try store.item(id: last.itemId)))
            return
        }
        emit(
            .newItem(
                contact,
                try store.insertEvent(user, contact: contact, .rcvDecryptionError(error, count: count))))
    }

    /// The item that tells a new contact's chat it is end-to-end encrypted, as SimpleX makes one
    /// when the connection completes; once per chat.
    func connectedItem(_ contact: ChatContact) throws(ChatError) -> ChatEvent? {
        let event = ChatItemEvent.rcvDirectE2EEInfo
        guard try !store.hasItem(user, contact, type: event.type) else { return nil }
        return .newItem(contact, try store.insertEvent(user, contact: contact, event))
    }

    /// The feature items of a contact's new profile (x.info), with its preferences stored; none
    /// when the preferences are as before (the same profile delivered again after a restart).
    func contactPreferencesChanged(_ profile: Profile, of contact: ChatContact) throws(ChatError)
        -> [ChatEvent]
    {
        let old = ChatPreferences(json: try store.contactPreferences(contact))
        let new = ChatPreferences(json: profile.preferences)
        guard old != new else { return [] }
        try store.setContactPreferences(contact, profile.preferences)
        let own = ChatPreferences(json: user.profile.preferences)
        let items = try ChatItemEvent.contactChanged(user: own, from: old, to: new).map {
            event throws(ChatError) -> ChatEvent in
            .newItem(contact, try store.insertEvent(user, contact: contact, event))
        }
        return [.contactPreferencesUpdated(contact, user: own, from: old, to: new)] + items
    }

    /// The feature items the user's new preferences make in the chat with each of `contacts`.
    func userPreferencesChanged(from old: JSON?, to new: JSON?, contacts: [ChatContact]) throws(ChatError) {
        let (before, after) = (ChatPreferences(json: old), ChatPreferences(json: new))
        guard before != after else { return }
        var events: [ChatEvent] = []
        try store.transaction { () throws(ChatError) in
            for contact in contacts {
                let theirs = ChatPreferences(json: try store.contactPreferences(contact))
                for event in ChatItemEvent.userChanged(contact: theirs, from: before, to: after) {
                    events.append(.newItem(contact, try store.insertEvent(user, contact: contact, event)))
                }
            }
        }
        for event in events { emit(event) }
    }
}

extension AgentReceiveFailure {
    /// The decryption error a failure is, with how many messages it stands for (SimpleX
    /// `agentMsgDecryptError`); nil for a duplicate (dropped, as SimpleX's agent drops it) or an
    /// invalid message (stored as invalid when it reaches the chat).
    var decryptError: (MsgDecryptError, count: Int)? {
        switch self {
        case .ratchet(.headerDecryptionFailed): (.ratchetHeader, 1)
        case .ratchet(.duplicateMessage): (.ratchetEarlier, 1)
        case .ratchet(.tooManySkipped(let count)): (.tooManySkipped, count)
        case .ratchet, .decryption: (.other, 1)
        case .duplicate, .invalid: nil
        }
    }
}
