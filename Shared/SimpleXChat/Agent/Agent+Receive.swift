import Foundation
import SimpleXCrypto
import SimpleXProtocol

extension Agent {
    // MARK: - Relay events

    func handle(_ event: SMPServerEvent, from server: SMPServerAddress) async {
        guard !stopped else { return }
        switch event {
        case .message(let recipientID, let messageID, let encryptedBody):
            await process(
                SMPDeliveredMessage(messageID: messageID, encryptedBody: encryptedBody), on: server,
                recipientID: recipientID)
        case .end(let recipientID):
            ended.insert(QueueAddress(server: server, id: recipientID))
            if let queue = try? store.rcvQueue(server: server, recipientID: recipientID) {
                emit(.subscriptionEnded(connection: queue.connectionID))
            }
        case .deleted, .unexpected:
            break
        case .disconnected:
            emit(.relayDown(server: server.description))
        case .reconnected:
            emit(.relayUp(server: server.description))
            let queues = (try? store.rcvQueues().filter { $0.server == server }) ?? []
            await subscribe(queues.filter { receiving?.contains($0.connectionID) ?? true }, on: server)
        }
    }

    /// SUB for `queues`, in batches, until the relay answers (retrying with backoff while it is
    /// away); messages waiting in the queues arrive as the replies and are processed.
    func subscribe(_ queues: [RcvQueue], on server: SMPServerAddress) async {
        var remaining = queues
        var attempt = 0
        while !remaining.isEmpty && !stopped {
            do {
                let client = try await client(for: server)
                let batches = stride(from: 0, to: remaining.count, by: config.subscriptionBatchSize).map {
                    Array(remaining[$0..<min($0 + config.subscriptionBatchSize, remaining.count)])
                }
                for queue in remaining { ended.remove(QueueAddress(server: server, id: queue.recipientID)) }
                // Every batch is sent at once, without waiting for the one before: the relay works
                // through them while the replies come back (a client start with a thousand
                // contacts no longer waits ten round trips).
                remaining = await withTaskGroup(of: [RcvQueue].self) { group in
                    for batch in batches {
                        group.addTask { await self.subscribeBatch(batch, on: server, client: client) }
                    }
                    var failed: [RcvQueue] = []
                    for await batchFailed in group { failed += batchFailed }
                    return failed
                }
            } catch {
                // Cannot connect: try everything again later.
            }
            if !remaining.isEmpty {
                try? await Task.sleep(
                    for: config.retry.delay(attempt: attempt, random: Double.random(in: 0..<1)))
                attempt += 1
            }
        }
    }

    /// SUB for one batch; the queues whose SUB failed for a reason that may pass.
    private nonisolated func subscribeBatch(_ batch: [RcvQueue], on server: SMPServerAddress, client: SMPClient) async
        -> [RcvQueue]
    {
        let replies = await client.sendBatch(batch.map { SMPRequest(.sub, entityID: $0.recipientID, key: $0.authKey) }) {
            index, reply in
            // A message waiting in the queue is the reply: processed as it comes, not after the
            // batch's last reply (the relay answers a batch over milliseconds).
            guard case .success(.msg(let messageID, let body)) = reply else { return }
            let recipientID = batch[index].recipientID
            Task {
                await self.process(
                    SMPDeliveredMessage(messageID: messageID, encryptedBody: body), on: server, recipientID: recipientID)
            }
        }
        var failed: [RcvQueue] = []
        for (queue, reply) in zip(batch, replies) {
            switch reply {
            case .success:
                break  // OK, or the queue's first message, processed above
            case .failure(let error) where error.isPermanent:
                break  // The queue is gone on the relay; nothing will arrive.
            case .failure:
                failed.append(queue)
            }
        }
        return failed
    }

    // MARK: - Received messages

    /// One message from a relay: both layers opened, committed to the store, then handed to the
    /// app (A_MSG) or handled here, and acknowledged on the relay: once committed here, the
    /// message is the agent's to keep until the app acknowledges it (`ackMessage`), so the relay
    /// sends the next one without waiting for the app.
    func process(_ delivered: SMPDeliveredMessage, on server: SMPServerAddress, recipientID: EntityID) async {
        guard !stopped, !ended.contains(QueueAddress(server: server, id: recipientID)),
            let queue = try? store.rcvQueue(server: server, recipientID: recipientID)
        else { return }
        let received: ReceivedMessageBody
        do {
            received = try SMPClient.decryptMessage(
                delivered.encryptedBody, messageID: delivered.messageID, sharedKey: queue.messageKey)
        } catch {
            return failed(queue, delivered, .decryption("relay layer: \(error)"))
        }
        guard case .message(_, let body) = received.content else {
            return quotaMarker(queue, delivered)
        }
        let outcome: ReceiveOutcome
        let batch: UInt64
        do {
            (outcome, batch) = try store.batched {
                try receive(body, on: queue, serverMsgID: delivered.messageID)
            }
        } catch let failure as AgentReceiveFailure {
            return failed(queue, delivered, failure)
        } catch {
            // The store failed: leave the message on the relay, it comes again after a restart.
            return
        }
        // Committed together with the messages processed next (group commit); what the message
        // leads to waits for that commit.
        afterCommit(of: batch) { [self] in
            for event in outcome.events { emit(event) }
            acknowledgeLater(queue, delivered.messageID, stored: outcome.stored)
            if let reply = outcome.kick { kick(reply) }
            if let drained = outcome.drained { queueDrained(drained) }
        }
    }

    /// The relay's quota marker: the sender got ERR QUOTA and we have now received everything
    /// before it. The sender is told it may continue (A_QCONT, committed before the marker is
    /// acknowledged); nothing for the app.
    private func quotaMarker(_ queue: RcvQueue, _ delivered: SMPDeliveredMessage) {
        let id = queue.connectionID
        let address = SenderQueueAddress(server: queue.server, senderID: queue.senderID)
        guard
            let (_, batch) = try? store.batched({ () throws(AgentError) -> Int64 in
                try enqueueMessage(id, .queueContinue(address), kind: .queueContinue)
            })
        else {
            // Not connected (yet, or any more), or the store failed: the sender retries on its own.
            return afterCommit(of: nil) { [self] in
                acknowledgeLater(queue, delivered.messageID, stored: nil)
            }
        }
        afterCommit(of: batch) { [self] in
            kick(id)
            acknowledgeLater(queue, delivered.messageID, stored: nil)
        }
    }

    /// A message that cannot be opened: reported, and acknowledged so the next one comes (in
    /// order with the effects of the messages before it).
    private func failed(_ queue: RcvQueue, _ delivered: SMPDeliveredMessage, _ reason: AgentReceiveFailure) {
        afterCommit(of: nil) { [self] in
            emit(.receiveFailed(connection: queue.connectionID, reason: reason))
            acknowledgeLater(queue, delivered.messageID, stored: nil)
        }
    }

    /// ACKs `serverMsgID` on its relay with the others the same commit made due. Called only
    /// from the effects `finishBatch` runs, which sends them all after the last one.
    private func acknowledgeLater(_ queue: RcvQueue, _ serverMsgID: [UInt8], stored: Int64?) {
        pendingAcks.append(PendingAck(queue: queue, serverMsgID: serverMsgID, stored: stored))
    }

    /// Runs `effect` once batch `batch` (the writes it depends on, if any) is committed, in
    /// order with the effects before it; if that commit failed, `failed` runs instead.
    func afterCommit(of batch: UInt64?, failed: (() -> Void)? = nil, _ effect: @escaping () -> Void) {
        pendingEffects.append((batch, effect, failed))
        guard !batchCommitScheduled else { return }
        batchCommitScheduled = true
        // Behind the jobs already waiting on the actor (more messages, often), which join the batch.
        Task { self.finishBatch() }
    }

    /// Commits the open batch (received and sent messages) and runs what waited for it.
    func finishBatch() {
        batchCommitScheduled = false
        store.commitBatch()
        let effects = pendingEffects
        pendingEffects = []
        for (batch, effect, failed) in effects {
            if let batch, store.batchFailed(batch) { failed?() } else { effect() }
        }
        sendPendingAcks()
    }

    struct ReceiveOutcome {
        var events: [AgentEvent] = []
        var kick: AgentConnectionID?
        /// The connection whose send queue the peer has drained (A_QCONT).
        var drained: AgentConnectionID?
        /// The agent message id of the stored row this delivery is (`rcv_messages`), whose
        /// relay acknowledgement is then recorded.
        var stored: Int64?
    }

    /// Everything about one SEND body that needs no network: decrypt, check, commit. Runs without
    /// suspending, so no other task sees the ratchet half-advanced.
    private func receive(_ body: [UInt8], on queue: RcvQueue, serverMsgID: [UInt8]) throws -> ReceiveOutcome {
        let id = queue.connectionID
        let (clientMessage, clientBytes, newPeerKey) = try AgentCrypto.open(body, on: queue, store: store)
        // The same client message sent again (a resend after a lost OK, or a replay) hashes the same.
        let encHash = SHA256.hash(clientBytes)
        if let earlier = try store.receivedMessage(connection: id, encHash: encHash) {
            return duplicate(earlier)
        }
        let envelope: AgentMsgEnvelope
        do { envelope = try clientMessage.envelope() } catch {
            throw AgentReceiveFailure.invalid("envelope: \(error)")
        }
        guard AgentVersions.agent.contains(envelope.agentVersion) else {
            throw AgentReceiveFailure.invalid("agent version \(envelope.agentVersion)")
        }
        var record = try store.connection(id)
        switch envelope.content {
        case .invitation(let link, let connInfo):
            guard record.mode == .contact else {
                throw AgentReceiveFailure.invalid("a contact request on a connection that is not an address")
            }
            if try store.contactRequestExists(encHash: encHash) { return ReceiveOutcome() }
            let invitationID = Self.newConnectionID()
            try store.insertContactRequest(
                id: invitationID, address: id, connRequest: link.description, connInfo: connInfo,
                encHash: encHash)
            return ReceiveOutcome(events: [
                .contactRequest(address: id, invitationID: invitationID, peerInfo: connInfo)
            ])
        case .confirmation(let params, let encrypted):
            return try confirmation(
                &record, queue: queue, params: params, encrypted: encrypted, newPeerKey: newPeerKey)
        case .message(let encrypted):
            return try message(
                &record, queue: queue, encrypted: encrypted, encHash: encHash, serverMsgID: serverMsgID)
        case .ratchetKey:
            throw AgentReceiveFailure.invalid("ratchet re-synchronisation is not supported")
        }
    }

    private func duplicate(_ earlier: RcvMessage) -> ReceiveOutcome {
        // Committed here before, but the relay was not told (a restart, or the relay went away
        // before the ACK): ACK it now. The app is given it again unless it has processed it or
        // was given it when the agent started.
        if !earlier.relayAck {
            let key = AppMessage(connection: earlier.connectionID, agentMsgID: earlier.agentMsgID)
            let again = !earlier.userAck && !givenAtStart.contains(key) && !awaitingReceipt.contains(key)
            return ReceiveOutcome(
                events: again ? [.message(connection: earlier.connectionID, message: earlier.forApp)] : [],
                stored: earlier.agentMsgID)
        }
        // Already ACKed on the relay: the same bytes were sent again — a replay.
        return ReceiveOutcome(
            events: [.receiveFailed(connection: earlier.connectionID, reason: .duplicate)],
            stored: earlier.agentMsgID)
    }

    private func confirmation(
        _ record: inout ConnectionRecord, queue: RcvQueue, params: E2ERatchetParams?, encrypted: [UInt8],
        newPeerKey: [UInt8]?
    ) throws -> ReceiveOutcome {
        switch record.status {
        case .new:
            // We invited; the joiner's keys start our ratchet.
            guard let params else { throw AgentReceiveFailure.invalid("a confirmation without ratchet keys") }
            guard AgentVersions.e2e.contains(params.version) else {
                throw AgentReceiveFailure.invalid("e2e version \(params.version)")
            }
            let own = try AgentCrypto.openX3DH(record, store: store)
            var ratchet: RatchetState
            let plain: [UInt8]
            do {
                ratchet = try RatchetState.initiating(
                    own: own, joiner: try RatchetPublicKeys(first: params.key1, second: params.key2))
                plain = try ratchet.decrypt(encrypted)
            } catch {
                throw AgentReceiveFailure.decryption("confirmation: \(error)")
            }
            guard case .connInfoReply(let queues, let connInfo) = try decodeAgentMessage(plain),
                let reply = queues.first
            else {
                throw AgentReceiveFailure.invalid("a confirmation without reply queues")
            }
            let sndQueue = SndQueue(
                connectionID: record.id, server: reply.server, senderID: reply.senderID,
                authKey: .generate(.x25519),
                e2eKey: X25519.generateKeyPair(), e2ePeerKey: reply.dhPublicKey, secured: false)
            record.status = .confirmed
            record.x3dhKeys = nil
            record.peerConnInfo = connInfo
            record.ratchet = AgentCrypto.sealRatchet(ratchet, store: store, connection: record.id)
            let updated = record
            try store.transaction { () throws(AgentError) in
                try store.update(updated)
                if let newPeerKey { try store.setPeerKey(newPeerKey, of: queue) }
                try store.insert(sndQueue)
            }
            return ReceiveOutcome(events: [.confirmation(connection: record.id, peerInfo: connInfo)])
        case .joined:
            // We joined; the inviter's profile completes the connection.
            var ratchet = try AgentCrypto.openRatchet(record, store: store)
            let plain: [UInt8]
            do { plain = try ratchet.decrypt(encrypted) } catch {
                throw AgentReceiveFailure.decryption("confirmation: \(error)")
            }
            guard case .connInfo(let connInfo) = try decodeAgentMessage(plain) else {
                throw AgentReceiveFailure.invalid("the inviter's confirmation without its connection info")
            }
            record.status = .ready
            record.ratchet = AgentCrypto.sealRatchet(ratchet, store: store, connection: record.id)
            let updated = record
            try store.transaction { () throws(AgentError) in
                try store.update(updated)
                if let newPeerKey { try store.setPeerKey(newPeerKey, of: queue) }
            }
            return ReceiveOutcome(events: [
                .info(connection: record.id, peerInfo: connInfo), .connected(connection: record.id),
            ])
        case .confirmed, .ready, .deleted:
            // A confirmation sent again after a lost OK: already done.
            return ReceiveOutcome()
        }
    }

    private func message(
        _ record: inout ConnectionRecord, queue: RcvQueue, encrypted: [UInt8], encHash: [UInt8],
        serverMsgID: [UInt8]
    ) throws -> ReceiveOutcome {
        guard record.status == .ready || record.status == .confirmed else {
            throw AgentReceiveFailure.invalid("a message before the connection is established")
        }
        var ratchet = try AgentCrypto.openRatchet(record, store: store)
        let plain: [UInt8]
        do { plain = try ratchet.decrypt(encrypted) } catch {
            throw AgentReceiveFailure.ratchet(error)
        }
        guard case .message(let header, let content) = try decodeAgentMessage(plain) else {
            throw AgentReceiveFailure.invalid("not a message")
        }
        let hash = AgentMessage.hash(ofEncoded: plain)
        let integrity = MessageIntegrity.check(
            id: header.sndMsgID, previousHash: header.prevMsgHash, lastID: record.lastRcvID,
            lastHash: record.lastRcvHash)
        if header.sndMsgID > record.lastRcvID {
            record.lastRcvID = header.sndMsgID
            record.lastRcvHash = hash
        }
        record.ratchet = AgentCrypto.sealRatchet(ratchet, store: store, connection: record.id)
        var outcome = ReceiveOutcome(stored: header.sndMsgID)
        var appBody: [UInt8] = []
        var forApp = false
        var delivered: [Int64] = []
        switch content {
        case .message(let body):
            // The relay is acknowledged once this is committed; the row keeps the body until the
            // app acknowledges it, and gives it to the app again at the next start until then.
            appBody = body
            forApp = true
            outcome.events.append(
                .message(
                    connection: record.id,
                    message: AgentReceivedMessage(
                        agentMsgID: header.sndMsgID, integrity: integrity, body: body)))
        case .receipts(let receipts):
            for receipt in receipts {
                guard
                    let sentHash = try store.sentMessageHash(
                        connection: record.id, agentMsgID: receipt.agentMsgID)
                else { continue }
                let matched = sentHash == receipt.msgHash
                if matched { delivered.append(receipt.agentMsgID) }
                outcome.events.append(
                    .delivered(connection: record.id, agentMsgID: receipt.agentMsgID, hashMatched: matched))
            }
        case .queueContinue(let address):
            if let sending = try store.sndQueue(connection: record.id), sending.server == address.server,
                sending.senderID == address.senderID
            {
                outcome.drained = record.id
            }
        case .hello, .queueAdd, .queueKey, .queueUse, .queueTest, .ratchetReady:
            break
        }
        let updated = record
        try store.transaction { () throws(AgentError) in
            for agentMsgID in delivered {
                try store.markDelivered(connection: updated.id, agentMsgID: agentMsgID)
            }
            try store.update(updated)
            try store.insertReceived(
                connection: updated.id, agentMsgID: header.sndMsgID, encHash: encHash, msgHash: hash,
                body: appBody, integrity: integrity,
                queue: queue, serverMsgID: serverMsgID, userAck: !forApp)
        }
        return outcome
    }

    private func decodeAgentMessage(_ plain: [UInt8]) throws(AgentReceiveFailure) -> AgentMessage {
        do { return try AgentMessage.decode(plain) } catch { throw .invalid("agent message: \(error)") }
    }
}
