import SimpleXProtocol

extension Agent {
    /// Whether messages are still waiting to go to a relay (a delivery worker is running), so a
    /// short-lived process (`simplex-chat -e`) can let them leave before it stops.
    public var hasPendingDeliveries: Bool { !workers.isEmpty }

    /// Resumes delivery of every message still waiting, without subscribing anything.
    public func startDeliveries() {
        if receiving == nil { receiving = [] }
        for connection in (try? store.connectionsWithPendingMessages()) ?? [] { kick(connection) }
    }

    /// Subscribes the queues of `connections` only (with `startDeliveries`: the share helper waiting
    /// for a contact to accept a file, whose other chats stay with the service). SUBs are sent in
    /// the background, retried while the relay is away, until `stop`.
    public func subscribe(_ connections: [AgentConnectionID]) {
        var queues: [RcvQueue] = []
        for connection in connections {
            receiving?.insert(connection)
            queues += (try? store.rcvQueues(connection: connection)) ?? []
        }
        for (server, serverQueues) in Dictionary(grouping: queues, by: \.server) {
            Task { await self.subscribe(serverQueues, on: server) }
        }
    }

    /// What `receivePending` did.
    public struct PendingReceipt: Sendable, Equatable {
        /// Messages taken from the relays (each processed and acknowledged as when subscribed).
        public var messages = 0
        /// Relays that could not be reached; their messages wait there for the next pass.
        public var unreachableServers = 0
    }

    /// The periodic mode's receive (the iOS extension's): every receiving queue is read with GET,
    /// never SUB, so the subscription of another process (the client) is never ended; each message
    /// is processed, committed and acknowledged as a subscribed one is, and the queue is read again
    /// until it is empty. What the app had not acknowledged in an earlier run is given to it first,
    /// as `start` does. Nothing is subscribed and nothing is sent but the ACKs (and what receiving
    /// itself leads to); call `stop` after.
    public func receivePending() async -> PendingReceipt {
        var receipt = PendingReceipt()
        let queues: [RcvQueue]
        do {
            queues = try store.rcvQueues()
            for message in try store.unacknowledgedByApp() {
                givenAtStart.insert(AppMessage(connection: message.connectionID, agentMsgID: message.agentMsgID))
                emit(.message(connection: message.connectionID, message: message.forApp))
            }
        } catch {
            sink.yield(.sendFailed(connection: "", agentMsgID: nil, reason: "\(error)"))
            return receipt
        }
        await withTaskGroup(of: Int?.self) { group in
            for (server, serverQueues) in Dictionary(grouping: queues, by: \.server) {
                group.addTask { await self.receivePending(serverQueues, on: server) }
            }
            for await received in group {
                if let received { receipt.messages += received } else { receipt.unreachableServers += 1 }
            }
        }
        return receipt
    }

    /// GET on every queue of `server`, in batches, again on the queues that had a message once its
    /// ACK is answered (the relay's head moves only then), until none has one; nil when the relay
    /// cannot be reached.
    private func receivePending(_ queues: [RcvQueue], on server: SMPServerAddress) async -> Int? {
        guard let client = try? await client(for: server) else { return nil }
        var received = 0
        var remaining = queues
        while !remaining.isEmpty && !stopped {
            var again: [RcvQueue] = []
            for start in stride(from: 0, to: remaining.count, by: config.subscriptionBatchSize) {
                let batch = Array(remaining[start..<min(start + config.subscriptionBatchSize, remaining.count)])
                let replies = await client.sendBatch(batch.map { SMPRequest(.get, entityID: $0.recipientID, key: $0.authKey) })
                for (queue, reply) in zip(batch, replies) {
                    guard case .success(.msg(let messageID, let body)) = reply else { continue }
                    received += 1
                    again.append(queue)
                    await process(
                        SMPDeliveredMessage(messageID: messageID, encryptedBody: body), on: server,
                        recipientID: queue.recipientID)
                }
            }
            // Commit what this round received and send its ACKs now; the next GET of a queue must
            // come after its ACK's reply, or it returns the same message again.
            finishBatch()
            await acknowledgementsAnswered()
            remaining = again
        }
        return received
    }

    /// Returns once every ACK sent so far has been answered (or failed).
    func acknowledgementsAnswered() async {
        guard outstandingAcks > 0 else { return }
        await withCheckedContinuation { ackWaiters.append($0) }
    }

    /// `count` ACKs have their answers (or will never get one).
    func acknowledgementsDone(_ count: Int) {
        outstandingAcks -= count
        guard outstandingAcks <= 0 else { return }
        outstandingAcks = 0
        let waiters = ackWaiters
        ackWaiters = []
        for waiter in waiters { waiter.resume() }
    }
}
