import Foundation
import SimpleXCrypto
import SimpleXProtocol

extension Agent {
    // MARK: - Making and joining connections

    /// A one-time invitation: a new queue on one of our relays and our X3DH keys, as a link to
    /// pass to the other person (SimpleX `NEW` / `createConnection`).
    public func createInvitation() async throws(AgentError) -> (AgentConnectionID, ConnectionLink) {
        let id = Self.newConnectionID()
        let (queue, dhPrivate, serverDH) = try await newRcvQueue(connection: id, mode: .messaging)
        let keys = RatchetKeyPairs.generate()
        var record = ConnectionRecord(id: id, mode: .invitation, status: .new)
        record.x3dhKeys = AgentCrypto.sealX3DH(keys, store: store, connection: id)
        try store.transaction { () throws(AgentError) in
            try store.insert(record)
            try store.insert(queue, rcvDHPrivateKey: dhPrivate, serverDHKey: serverDH)
        }
        return (id, try invitationLink(queue: queue, keys: keys))
    }

    /// A contact address: a long-lived queue anyone with the link can send requests to.
    public func createContactAddress() async throws(AgentError) -> (AgentConnectionID, ConnectionLink) {
        let id = Self.newConnectionID()
        let (queue, dhPrivate, serverDH) = try await newRcvQueue(connection: id, mode: .contact)
        try store.transaction { () throws(AgentError) in
            try store.insert(ConnectionRecord(id: id, mode: .contact, status: .ready))
            try store.insert(queue, rcvDHPrivateKey: dhPrivate, serverDHKey: serverDH)
        }
        do {
            return (id, try ConnectionLink(mode: .contact, queues: [try queue.uri]))
        } catch {
            throw .link("\(error)")
        }
    }

    /// Joins an invitation (fast handshake: our reply queue and profile go in a confirmation to
    /// their queue, which we secure with SKEY), or sends a request to a contact address.
    ///
    /// `connectionID` (from `Agent.newConnectionID()`) lets the caller record what the connection
    /// is for before the peer can answer on it: its events may come before this call returns (an
    /// invitation's; a contact address request makes its own).
    public func joinConnection(
        _ link: ConnectionLink, connInfo: [UInt8], connectionID: AgentConnectionID? = nil
    ) async throws(AgentError)
        -> AgentConnectionID
    {
        guard link.agentVersionRange.intersection(AgentVersions.agent) != nil else {
            throw .link(
                "agent versions \(link.agentVersionRange) are not supported (this agent speaks \(AgentVersions.agent))"
            )
        }
        guard let target = link.queues.first else { throw .link("the link has no queue") }
        if link.isContactAddress { return try await requestContact(target, connInfo: connInfo) }
        guard let params = link.e2eParams?.params() else {
            throw .link("no common e2e encryption version (this agent speaks \(AgentVersions.e2e))")
        }
        let own = RatchetKeyPairs.generate()
        var ratchet: RatchetState
        do {
            ratchet = try RatchetState.joining(
                own: own, initiator: try RatchetPublicKeys(first: params.key1, second: params.key2))
        } catch {
            throw .link("the invitation's keys: \(error)")
        }
        let id = connectionID ?? Self.newConnectionID()
        let (reply, dhPrivate, serverDH) = try await newRcvQueue(connection: id, mode: .messaging)
        let sndQueue = SndQueue(
            connectionID: id, server: target.server, senderID: target.senderID, authKey: .generate(.x25519),
            e2eKey: X25519.generateKeyPair(), e2ePeerKey: target.dhPublicKey, secured: false)
        let body: [UInt8]
        do {
            let info = try AgentMessage.connInfoReply(
                queues: [SMPQueueInfo(try reply.uri, clientVersion: AgentConfig.queueVersionRange.max)],
                connInfo: connInfo
            ).encoded()
            let encrypted = try ratchet.encrypt(info, paddedLength: AgentCrypto.confirmationPaddedLength)
            let envelope = AgentMsgEnvelope(
                agentVersion: AgentVersions.agent.max,
                content: .confirmation(
                    e2eParams: try E2ERatchetParams(
                        version: params.version, key1: own.first.publicKey, key2: own.second.publicKey),
                    encryptedConnInfo: encrypted))
            body = try ClientMessage(privateHeader: .empty, envelope: envelope).encoded()
        } catch let error as AgentError {
            throw error
        } catch {
            throw .crypto("cannot make the confirmation: \(error)")
        }
        var record = ConnectionRecord(id: id, mode: .invitation, status: .joined)
        record.ratchet = AgentCrypto.sealRatchet(ratchet, store: store, connection: id)
        try store.transaction { () throws(AgentError) in
            try store.insert(record)
            try store.insert(reply, rcvDHPrivateKey: dhPrivate, serverDHKey: serverDH)
            try store.insert(sndQueue)
            try store.enqueue(
                connection: id, queue: sndQueue, kind: .confirmation, agentMsgID: nil, msgHash: nil,
                body: body)
        }
        kick(id)
        return id
    }

    /// To a contact address: make our own invitation and send it with our profile ('I' envelope,
    /// only per-queue encrypted); the address owner joins it if they accept.
    private func requestContact(_ target: SMPQueueURI, connInfo: [UInt8]) async throws(AgentError)
        -> AgentConnectionID
    {
        let (id, link) = try await createInvitation()
        let sndQueue = SndQueue(
            connectionID: id, server: target.server, senderID: target.senderID, authKey: nil,
            e2eKey: X25519.generateKeyPair(), e2ePeerKey: target.dhPublicKey, secured: true)
        let body: [UInt8]
        do {
            let envelope = AgentMsgEnvelope(
                agentVersion: AgentVersions.agent.max,
                content: .invitation(connectionRequest: link, connInfo: connInfo))
            body = try ClientMessage(privateHeader: .empty, envelope: envelope).encoded()
        } catch {
            throw .crypto("cannot make the contact request: \(error)")
        }
        try store.transaction { () throws(AgentError) in
            try store.insert(sndQueue)
            try store.enqueue(
                connection: id, queue: sndQueue, kind: .invitation, agentMsgID: nil, msgHash: nil, body: body)
        }
        kick(id)
        return id
    }

    /// Completes a connection whose confirmation arrived (`confirmation` event): our profile goes
    /// to their reply queue, and the connection is ready (SimpleX `LET` / `allowConnection`).
    public func allowConnection(_ id: AgentConnectionID, connInfo: [UInt8]) throws(AgentError) {
        var record = try store.connection(id)
        guard record.status == .confirmed else {
            throw .state("connection \(id) is \(record.status.rawValue), not waiting to be allowed")
        }
        guard let sndQueue = try store.sndQueue(connection: id) else {
            throw .store("connection \(id) has no reply queue")
        }
        var ratchet = try AgentCrypto.openRatchet(record, store: store)
        let body: [UInt8]
        do {
            let encrypted = try ratchet.encrypt(
                try AgentMessage.connInfo(connInfo).encoded(),
                paddedLength: AgentCrypto.confirmationPaddedLength)
            let envelope = AgentMsgEnvelope(
                agentVersion: AgentVersions.agent.max,
                content: .confirmation(e2eParams: nil, encryptedConnInfo: encrypted))
            body = try ClientMessage(privateHeader: .empty, envelope: envelope).encoded()
        } catch let error as AgentError {
            throw error
        } catch {
            throw .crypto("cannot make the confirmation: \(error)")
        }
        record.status = .ready
        record.peerConnInfo = nil
        record.ratchet = AgentCrypto.sealRatchet(ratchet, store: store, connection: id)
        try store.transaction { () throws(AgentError) in
            try store.update(record)
            try store.enqueue(
                connection: id, queue: sndQueue, kind: .replyConfirmation, agentMsgID: nil, msgHash: nil,
                body: body)
        }
        kick(id)
    }

    /// Accepts a contact request: joins the invitation it carried, with our profile.
    public func acceptContact(_ invitationID: String, connInfo: [UInt8]) async throws(AgentError)
        -> AgentConnectionID
    {
        let request = try store.contactRequest(invitationID)
        let link: ConnectionLink
        do { link = try ConnectionLink(request.connRequest) } catch { throw .link("\(error)") }
        let id = try await joinConnection(link, connInfo: connInfo)
        try store.deleteContactRequest(invitationID)
        return id
    }

    /// Rejects a contact request: it is forgotten; the requester never hears back.
    public func rejectContact(_ invitationID: String) throws(AgentError) {
        _ = try store.contactRequest(invitationID)
        try store.deleteContactRequest(invitationID)
    }

    /// Deletes a connection: its queues on the relays (DEL), then everything the agent kept.
    /// A relay that cannot be reached leaves the queue to expire there; nothing more is received.
    /// `waitDelivery` (SimpleX's, for a contact told it is deleted): messages already queued on
    /// the connection leave first; a relay that does not take them within a few seconds does not
    /// hold the deletion up. Without it what is queued is dropped (a cancelled file's chunks).
    public func deleteConnection(_ id: AgentConnectionID, waitDelivery: Bool = false) async throws(AgentError)
    {
        if waitDelivery, let worker = workers[id] {
            let timeout = Task {
                try? await Task.sleep(for: Self.deliveryWaitOnDelete)
                worker.cancel()
            }
            await worker.value
            timeout.cancel()
        }
        var record = try store.connection(id)
        let queues = try store.rcvQueues(connection: id)
        record.status = .deleted
        try store.update(record)
        workers[id]?.cancel()
        workers[id] = nil
        var unreachable: [String] = []
        for queue in queues {
            do {
                try await client(for: queue.server).delete(recipientID: queue.recipientID, key: queue.authKey)
            } catch let error as SMPClientError where error == .server(.auth) {
                // Already gone on the relay.
            } catch {
                unreachable.append("\(error)")
            }
        }
        try store.deleteConnection(id)
        if let first = unreachable.first {
            throw .relay("the connection is deleted here, but a relay did not confirm: \(first)")
        }
    }

    // MARK: - Queues

    /// NEW on one of our relays, subscribed on this connection.
    func newRcvQueue(connection: AgentConnectionID, mode: SMPQueueMode) async throws(AgentError)
        -> (RcvQueue, dhPrivate: SecureBytes, serverDH: [UInt8])
    {
        // A queue made now is subscribed by its NEW: it is this process's to resubscribe.
        receiving?.insert(connection)
        let server = try pickServer()
        let authKey = QueueAuthKey.generate(.x25519)
        let dh = X25519.generateKeyPair()
        let ids: SMPQueueIDs
        do {
            ids = try await client(for: server).createQueue(
                recipientKey: authKey, recipientDHKey: dh.publicKey, subscriptionMode: .subscribe,
                queueMode: mode)
        } catch let error as AgentError {
            throw error
        } catch {
            throw .relay("cannot create a queue: \(error)")
        }
        let messageKey: CryptoBox.SharedKey
        do {
            messageKey = try CryptoBox.SharedKey(publicKey: ids.serverDHKey, privateKey: dh.privateKey)
        } catch {
            throw .relay("the relay's queue key is invalid: \(error)")
        }
        let queue = RcvQueue(
            connectionID: connection, server: server, recipientID: ids.recipientID, senderID: ids.senderID,
            mode: mode,
            authKey: authKey, messageKey: messageKey, e2eKey: X25519.generateKeyPair(), e2ePeerKey: nil)
        return (queue, dh.privateKey, ids.serverDHKey)
    }

    private func invitationLink(queue: RcvQueue, keys: RatchetKeyPairs) throws(AgentError) -> ConnectionLink {
        do {
            let params = try E2ERatchetParamsURI(
                versionRange: AgentVersions.e2e, key1: keys.first.publicKey, key2: keys.second.publicKey)
            return try ConnectionLink(mode: .invitation(params), queues: [try queue.uri])
        } catch {
            throw .link("\(error)")
        }
    }
}
