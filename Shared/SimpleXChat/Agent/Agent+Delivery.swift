import Foundation
import SimpleXCrypto
import SimpleXProtocol

extension Agent {
    // MARK: - Sending

    /// Encrypts a message and puts it in the connection's persistent send queue; it leaves when
    /// the relay is reachable, in order, retried until the relay accepts it (SimpleX `SEND`).
    /// Returns its id on this connection (the `sent` and `delivered` events carry it).
    ///
    /// Returns once the message is committed. Messages sent together (several chats at once)
    /// share one commit: each is written in a savepoint of the open batch, which commits when
    /// the sends already waiting have joined it (`AgentStore.batched`).
    @discardableResult
    public func sendMessage(_ id: AgentConnectionID, body: [UInt8]) async throws(AgentError) -> Int64 {
        guard body.count <= Self.maxMessageBodySize else {
            throw .state("message of \(body.count) bytes, the limit is \(Self.maxMessageBodySize)")
        }
        let agentMsgID: Int64
        let batch: UInt64
        do {
            (agentMsgID, batch) = try store.batched { () throws(AgentError) -> Int64 in
                try enqueueMessage(id, .message(body: body), kind: .message)
            }
        } catch let error as AgentError {
            throw error
        } catch {
            throw .store("\(error)")
        }
        let committed = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            afterCommit(of: batch, failed: { continuation.resume(returning: false) }) {
                continuation.resume(returning: true)
            }
        }
        guard committed else { throw .store("the message to \(id) could not be stored") }
        kick(id)
        return agentMsgID
    }

    /// Encrypts an A_MSG-level message with the next id and the hash chain, and enqueues it in
    /// the same transaction that advances the ratchet.
    func enqueueMessage(_ id: AgentConnectionID, _ message: AMessage, kind: SndMessageKind) throws(AgentError)
        -> Int64
    {
        var record = try store.connection(id)
        guard record.status == .ready, record.mode == .invitation else {
            throw .state("connection \(id) is \(record.status.rawValue), not connected")
        }
        guard let queue = try store.sndQueue(connection: id) else {
            throw .store("connection \(id) has no send queue")
        }
        var ratchet = try AgentCrypto.openRatchet(record, store: store)
        let agentMsgID = record.lastSndID + 1
        let body: [UInt8]
        let hash: [UInt8]
        do {
            let plain = try AgentMessage.message(
                APrivHeader(sndMsgID: agentMsgID, prevMsgHash: record.lastSndHash), message
            ).encoded()
            hash = AgentMessage.hash(ofEncoded: plain)
            let encrypted = try ratchet.encrypt(
                plain, paddedLength: AgentCrypto.ratchetPaddedLength(forMessageOf: plain.count))
            let envelope = AgentMsgEnvelope(
                agentVersion: AgentVersions.agent.max, content: .message(encryptedAgentMessage: encrypted))
            body = try ClientMessage(privateHeader: .empty, envelope: envelope).encoded()
        } catch let error as AgentError {
            throw error
        } catch {
            throw .crypto("cannot encrypt the message: \(error)")
        }
        record.lastSndID = agentMsgID
        record.lastSndHash = hash
        record.ratchet = AgentCrypto.sealRatchet(ratchet, store: store, connection: id)
        try store.transaction { () throws(AgentError) in
            try store.update(record)
            try store.enqueue(
                connection: id, queue: queue, kind: kind, agentMsgID: agentMsgID, msgHash: hash, body: body)
        }
        return agentMsgID
    }

    /// Starts the connection's delivery worker, or tells the running one to look again.
    func kick(_ id: AgentConnectionID) {
        guard !stopped else { return }
        if workers[id] != nil {
            rescan.insert(id)
            return
        }
        workers[id] = Task { await self.deliver(id) }
    }

    /// The delivery worker: the oldest waiting message goes first; the next waits until the relay
    /// has accepted it. A relay that is away is retried with backoff; nothing is dropped except
    /// what the relay refuses for good (AUTH: the queue is gone).
    private func deliver(_ id: AgentConnectionID) async {
        var attempt = 0
        while !Task.isCancelled && !stopped {
            rescan.remove(id)
            // The next message may still be in the open batch (a send not yet returned, a reply
            // written by a received message): committed first, so the sync before SEND covers
            // it. (Nothing else a relay command carries can come from that batch: ACKs and the
            // app's commands follow its commit.)
            store.commitBatch()
            let message: SndMessage?
            do { message = try store.nextPending(connection: id) } catch { break }
            guard let message else {
                if rescan.contains(id) { continue }
                break
            }
            do {
                try await send(message)
                attempt = 0
                sent(message)
            } catch let error as SMPClientError where error.isPermanent {
                try? store.setStatus("error", sndMessage: message.id)
                emit(.sendFailed(connection: id, agentMsgID: message.agentMsgID, reason: "\(error)"))
            } catch let error as SMPClientError where error == .server(.quota) {
                // The queue is full: the recipient's agent says when it has drained it (A_QCONT,
                // after the relay's quota marker); until then the same bytes go again after a while.
                let delay = config.retry.delay(attempt: attempt, random: Double.random(in: 0..<1))
                attempt += 1
                await waitForDrainedQueue(id, atMost: delay)
            } catch {
                // The relay is away, slow or full: the same bytes go again after a while.
                let delay = config.retry.delay(attempt: attempt, random: Double.random(in: 0..<1))
                attempt += 1
                try? await Task.sleep(for: delay)
            }
        }
        workers[id] = nil
        drained.remove(id)
        // A message enqueued after the last look, with no worker to see it.
        if !stopped, !Task.isCancelled, (try? store.nextPending(connection: id)) != nil { kick(id) }
    }

    /// Sleeps up to `delay`, or until `queueDrained(id)` (or the worker's cancellation) ends it.
    private func waitForDrainedQueue(_ id: AgentConnectionID, atMost delay: Duration) async {
        guard drained.remove(id) == nil else { return }
        let sleeper = Task { _ = try? await Task.sleep(for: delay) }
        quotaWaits[id] = sleeper
        await withTaskCancellationHandler {
            await sleeper.value
        } onCancel: {
            sleeper.cancel()
        }
        quotaWaits[id] = nil
    }

    /// The recipient drained the queue connection `id` sends to (A_QCONT): its worker, waiting
    /// after ERR QUOTA, sends again now.
    func queueDrained(_ id: AgentConnectionID) {
        if let sleeper = quotaWaits.removeValue(forKey: id) {
            sleeper.cancel()
        } else if workers[id] != nil {
            // Between the ERR QUOTA and its wait: the wait is skipped.
            drained.insert(id)
        } else {
            kick(id)
        }
    }

    private func send(_ message: SndMessage) async throws {
        guard let queue = try store.sndQueue(server: message.server, senderID: message.senderID) else {
            throw SMPClientError.server(.auth)
        }
        let client = try await client(for: queue.server)
        if !queue.secured, let key = queue.authKey {
            // SKEY is idempotent with the same key, so a retry after a lost OK is harmless.
            try await client.secureBySender(senderID: queue.senderID, senderKey: key)
            try store.setSecured(queue)
        }
        try await client.sendMessage(
            senderID: queue.senderID, key: queue.authKey, body: try message.sealed(for: queue, store: store))
    }

    private func sent(_ message: SndMessage) {
        store.markSent(message)
        scheduleFlush()
        switch message.kind {
        case .message:
            if let agentMsgID = message.agentMsgID {
                emit(.sent(connection: message.connectionID, agentMsgID: agentMsgID))
            }
        case .replyConfirmation:
            // The inviting side is connected once its profile is on the way to the joiner.
            emit(.connected(connection: message.connectionID))
        case .confirmation, .invitation, .receipt, .hello, .queueContinue:
            break
        }
    }

    // MARK: - Acknowledging

    /// The app has processed message `agentMsgID`, so it is not given to the app again; with
    /// `receipt`, the sender learns it was delivered (A_RCVD). The relay was acknowledged when the
    /// message was committed here.
    public func ackMessage(_ id: AgentConnectionID, agentMsgID: Int64, receipt: Bool = false)
        async throws(AgentError)
    {
        try acknowledged(id, agentMsgID: agentMsgID, receipt: receipt)
        scheduleFlush()
    }

    /// `ackMessage` for several messages at once, each with or without a receipt. One that
    /// cannot be acknowledged (unknown) does not hold back the others; the first such error is
    /// thrown after them.
    public func ackMessages(_ messages: [(connection: AgentConnectionID, agentMsgID: Int64, receipt: Bool)])
        async throws(AgentError)
    {
        defer { scheduleFlush() }
        var firstError: AgentError?
        for message in messages {
            do {
                try acknowledged(message.connection, agentMsgID: message.agentMsgID, receipt: message.receipt)
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
    }

    /// The app's acknowledgement recorded (deferred); with a receipt, both wait for the
    /// receipts gathered on the connection (`sendReceiptsSoon`).
    private func acknowledged(_ id: AgentConnectionID, agentMsgID: Int64, receipt: Bool) throws(AgentError) {
        guard let message = try store.appAcknowledgement(connection: id, agentMsgID: agentMsgID) else {
            throw .notFound("message \(agentMsgID) on \(id)")
        }
        let key = AppMessage(connection: id, agentMsgID: agentMsgID)
        guard !message.userAck, !awaitingReceipt.contains(key) else { return }
        if receipt {
            pendingReceipts[id, default: []].append(
                AMessageReceipt(agentMsgID: agentMsgID, msgHash: message.msgHash, receiptInfo: []))
            awaitingReceipt.insert(key)
            sendReceiptsSoon()
        } else {
            store.setUserAck(connection: id, agentMsgID: agentMsgID)
        }
    }

    /// Receipts in one A_RCVD: the list's length is one byte, and a receipt without info takes
    /// about 45 bytes of the ratchet's padded 15,840.
    static let receiptsPerMessage = 200

    private func sendReceiptsSoon() {
        guard !receiptsScheduled else { return }
        receiptsScheduled = true
        Task {
            try? await Task.sleep(for: self.config.receiptsGathering)
            self.queuePendingReceipts()
        }
    }

    /// Queues the gathered receipts, one A_RCVD per connection (per `receiptsPerMessage`), and
    /// records their messages' acknowledgements with them in one transaction. If that fails,
    /// the messages stay unacknowledged: the app is given them again at the next start and
    /// acknowledges them again, with their receipts.
    func queuePendingReceipts() {
        receiptsScheduled = false
        guard !pendingReceipts.isEmpty, !stopped else { return }
        let gathered = pendingReceipts
        pendingReceipts = [:]
        awaitingReceipt = []
        func queue(_ receipts: [AMessageReceipt], on id: AgentConnectionID) throws(AgentError) {
            for start in stride(from: 0, to: receipts.count, by: Self.receiptsPerMessage) {
                let part = Array(receipts[start..<min(start + Self.receiptsPerMessage, receipts.count)])
                _ = try enqueueMessage(id, .receipts(part), kind: .receipt)
            }
            for receipt in receipts { store.setUserAck(connection: id, agentMsgID: receipt.agentMsgID) }
        }
        do {
            try store.transaction { () throws(AgentError) in
                for (id, receipts) in gathered { try queue(receipts, on: id) }
            }
        } catch {
            // One connection's failure (deleted meanwhile, say) does not hold back the others.
            for (id, receipts) in gathered {
                _ = try? store.transaction { () throws(AgentError) in try queue(receipts, on: id) }
            }
        }
        for id in gathered.keys { kick(id) }
    }

    /// Sends the ACKs that commits have made due (`acknowledgeLater`) for messages committed here
    /// (`stored`, the agent message id, when a row was stored). Once the WAL holds those commits
    /// on disk they go from the sync thread straight to each relay's connection, in as few blocks
    /// as they fit, with no hop back into the actor; each reply comes back as one job, which
    /// records the ACK and processes the next message the relay returned with it. Lost after the
    /// ACK, the record only means the row says the relay still holds the message; a relay that
    /// is away delivers it again after resubscribing, and it is then acknowledged without
    /// reaching the app twice.
    func sendPendingAcks() {
        let due = pendingAcks
        pendingAcks = []
        guard !due.isEmpty, !stopped else { return }
        outstandingAcks += due.count
        for (server, acks) in Dictionary(grouping: due, by: \.queue.server) {
            let requests = acks.map {
                SMPRequest(
                    .ack(messageID: $0.serverMsgID), entityID: $0.queue.recipientID, key: $0.queue.authKey)
            }
            guard let client = clients[server] else {
                // Not connected from here yet: connect first (after the sync), as any command does.
                Task { await self.acknowledge(acks, requests, on: server) }
                continue
            }
            store.durability.whenDurable {
                client.sendEach(requests) { index, reply in
                    Task { await self.acknowledged(acks[index], reply) }
                }
            }
        }
    }

    /// The ACKs of `sendPendingAcks` for a relay not connected yet, sent once it is.
    private func acknowledge(_ acks: [PendingAck], _ requests: [SMPRequest], on server: SMPServerAddress)
        async
    {
        // Cannot connect: left on the relay, they come again after resubscribing.
        guard let client = try? await client(for: server) else { return acknowledgementsDone(acks.count) }
        for (ack, reply) in zip(acks, await client.sendBatch(requests)) { await acknowledged(ack, reply) }
    }

    /// The relay's reply to an ACK: recorded, and the next message it returned processed.
    private func acknowledged(_ ack: PendingAck, _ reply: Result<SMPResponse, SMPClientError>) async {
        defer { acknowledgementsDone(1) }
        // Stopped meanwhile: the record could not be written any more, and a message the relay
        // sent with the reply comes again at the next subscription.
        guard !stopped else { return }
        switch reply {
        case .success(.ok):
            recordAcknowledged(ack)
        case .success(.msg(let messageID, let body)):
            recordAcknowledged(ack)
            await process(
                SMPDeliveredMessage(messageID: messageID, encryptedBody: body), on: ack.queue.server,
                recipientID: ack.queue.recipientID)
        case .failure(.server(.noMsg)):
            // Already acknowledged (a retry after a lost reply).
            recordAcknowledged(ack)
        case .success, .failure:
            break  // Left on the relay: it comes again after resubscribing, to be acknowledged then.
        }
    }

    private func recordAcknowledged(_ ack: PendingAck) {
        // Nothing stored (a quota marker, a message that could not be opened): nothing to record.
        guard let stored = ack.stored else { return }
        store.setAcknowledged(
            connection: ack.queue.connectionID, agentMsgID: stored, serverMsgID: ack.serverMsgID)
        scheduleFlush()
    }
}

extension SndMessage {
    /// The SEND body for this message on `queue` (first messages carry our per-queue key).
    func sealed(for queue: SndQueue, store: AgentStore) throws(AgentError) -> [UInt8] {
        let first = kind == .confirmation || kind == .replyConfirmation || kind == .invitation
        return try AgentCrypto.seal(
            body, for: queue, includeKey: first,
            paddedLength: first
                ? ClientMsgEnvelope.paddedConfirmationLength : ClientMsgEnvelope.paddedMessageLength,
            store: store)
    }
}

extension SMPClientError {
    /// Errors after which resending the same message can never succeed.
    var isPermanent: Bool {
        switch self {
        case .server(.auth), .server(.largeMsg), .server(.cmd): return true
        default: return false
        }
    }
}
