import Foundation
import SimpleXCrypto
import SimpleXNetwork
import SimpleXProtocol

/// The SimpleX agent: duplex connections over relay queues, end-to-end encrypted with the double
/// ratchet, with delivery that loses nothing (commands in, `events` out).
///
/// An actor: the store, the workers and the subscriptions are its state. Every section that reads
/// a ratchet, advances it and writes it back runs without suspending, inside one transaction with
/// the message it belongs to, so interleaved commands cannot fork a ratchet.
public actor Agent {
    /// Events for one consumer (the chat core); finishes on `stop()`.
    public nonisolated let events: AsyncStream<AgentEvent>
    let sink: AsyncStream<AgentEvent>.Continuation
    let store: AgentStore
    let pool: SMPServerPool
    var config: AgentConfig
    /// One delivery worker per connection with messages waiting.
    var workers: [AgentConnectionID: Task<Void, Never>] = [:]
    /// Workers asked to look again for messages enqueued while they were sending.
    var rescan: Set<AgentConnectionID> = []
    /// Workers waiting after ERR QUOTA, woken early when the recipient says it drained the
    /// queue (A_QCONT); and connections whose A_QCONT came while their worker was not waiting.
    var quotaWaits: [AgentConnectionID: Task<Void, Never>] = [:]
    var drained: Set<AgentConnectionID> = []
    /// Queues another process took over (END): their messages are not ours to process any more.
    var ended: Set<QueueAddress> = []
    /// The messages given to the app again when the agent started (not acknowledged by it in an
    /// earlier run): if the relay also delivers one again, it is not given twice.
    var givenAtStart: Set<AppMessage> = []
    /// Delivery receipts the app has asked for, gathered a moment per connection so a run of
    /// messages from one contact is confirmed in one A_RCVD (`sendReceiptsSoon`); their messages'
    /// acknowledgements are recorded when the receipts are queued, in the same transaction.
    var pendingReceipts: [AgentConnectionID: [AMessageReceipt]] = [:]
    var awaitingReceipt: Set<AppMessage> = []
    var receiptsScheduled = false
    var stopped = false
    /// A flush of the store's deferred bookkeeping writes is due (`scheduleFlush`).
    var flushScheduled = false
    /// What received (and sent) messages lead to (events, ACKs, the sender's return), waiting
    /// for their batch to commit (`afterCommit`), and whether that commit is scheduled.
    var pendingEffects: [(batch: UInt64?, run: () -> Void, failed: (() -> Void)?)] = []
    var batchCommitScheduled = false
    /// Relay ACKs that committed messages have made due (`acknowledgeLater`), sent together when
    /// the batch's effects have run (`sendPendingAcks`).
    var pendingAcks: [PendingAck] = []
    /// ACKs sent and not answered yet, and who waits for them all (`receivePending`).
    var outstandingAcks = 0
    var ackWaiters: [CheckedContinuation<Void, Never>] = []
    /// The hourly deletion of old message records (`expireRecords`).
    var expiry: Task<Void, Never>?
    /// The connections this process receives on when it subscribes only some (the share helper:
    /// nothing, or one contact and the file connections it makes); nil when it receives on all.
    /// A relay that reconnects gets these SUBs again, never the other process's.
    var receiving: Set<AgentConnectionID>?
    /// Connected relay clients (`client(for:)`).
    var clients: [SMPServerAddress: SMPClient] = [:]

    /// How long `deleteConnection` lets messages already queued on the connection try to leave.
    static let deliveryWaitOnDelete: Duration = .seconds(3)

    /// The largest message body `sendMessage` takes.
    public static let maxMessageBodySize = AgentCrypto.maxMessageBodySize

    /// A message to acknowledge on its relay (`acknowledgeLater`).
    struct PendingAck: Sendable {
        let queue: RcvQueue
        let serverMsgID: [UInt8]
        /// Its agent message id, when a row was stored for it.
        let stored: Int64?
    }

    /// A queue on a relay, as events and replies name it.
    struct QueueAddress: Hashable {
        let server: SMPServerAddress
        let id: EntityID
    }

    private init(config: AgentConfig, store: AgentStore, pool: SMPServerPool) {
        self.config = config
        self.store = store
        self.pool = pool
        (events, sink) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Opens the agent database (creating it) and prepares the relay connections; `start` then
    /// subscribes and resumes delivery.
    public static func open(config: AgentConfig, secrets: AgentSecrets) async throws(AgentError) -> Agent {
        let store = try AgentStore(path: config.databasePath, secrets: secrets, key: config.databaseKey)
        let group: EventLoopGroup
        do {
            group = try EventLoopGroup(loopCount: 1, name: "simplex-agent")
        } catch {
            throw .relay("cannot start the network loop: \(error)")
        }
        let pool = SMPServerPool(group: group, options: config.clientOptions)
        let agent = Agent(config: config, store: store, pool: pool)
        await pool.setEventHandler { [weak agent] server, event in await agent?.handle(event, from: server) }
        return agent
    }

    /// Subscribes every receiving queue (in batches per relay) and restarts delivery of every
    /// message still waiting. Relays that are down are retried in the background.
    public func start() async {
        let queues: [RcvQueue]
        do {
            queues = try store.rcvQueues()
            for connection in try store.connectionsWithPendingMessages() { kick(connection) }
            // What the app had not acknowledged when the last run ended (a crash, or the app
            // stopping first) comes first, before anything the relays deliver now.
            for message in try store.unacknowledgedByApp() {
                givenAtStart.insert(
                    AppMessage(connection: message.connectionID, agentMsgID: message.agentMsgID))
                emit(.message(connection: message.connectionID, message: message.forApp))
            }
        } catch {
            sink.yield(.sendFailed(connection: "", agentMsgID: nil, reason: "\(error)"))
            return
        }
        for (server, serverQueues) in Dictionary(grouping: queues, by: \.server) {
            Task { await self.subscribe(serverQueues, on: server) }
        }
        if expiry == nil { expiry = Task { await self.expireRecords() } }
    }

    /// Deletes the records of messages done with longer than `messageRecordsTTL` ago, a minute
    /// after start (not in the way of the subscriptions and the first messages) and then hourly.
    private func expireRecords() async {
        var wait: Duration = .seconds(60)
        while !stopped && !Task.isCancelled {
            try? await Task.sleep(for: wait)
            guard !stopped && !Task.isCancelled else { return }
            _ = try? deleteExpiredRecords()
            wait = .seconds(3_600)
        }
    }

    /// One pass of `expireRecords`: how many received and sent records went.
    @discardableResult
    func deleteExpiredRecords() throws(AgentError) -> (received: Int, sent: Int) {
        try store.deleteExpiredRecords(before: store.now().addingTimeInterval(-config.messageRecordsTTL.seconds))
    }

    /// Stops workers and relay connections; the store stays consistent (what was not ACKed is
    /// delivered again by the relays next time, and what the app did not acknowledge is given
    /// to it again when the agent starts).
    public func stop() async {
        guard !stopped else { return }
        // What is processed is committed and reported; its ACKs fail once the relays are
        // closed, and those messages come again next time, to be acknowledged then.
        finishBatch()
        queuePendingReceipts()
        stopped = true
        expiry?.cancel()
        for worker in workers.values { worker.cancel() }
        for worker in workers.values { await worker.value }
        workers = [:]
        clients = [:]
        await pool.close()
        try? store.flushDeferred()
        store.close()
        acknowledgementsDone(outstandingAcks)
        sink.finish()
    }

    func emit(_ event: AgentEvent) { sink.yield(event) }

    /// Commits the store's deferred bookkeeping writes (`AgentStore.deferWrite`) a little later,
    /// unless a transaction has taken them along by then, as it does while messages flow.
    func scheduleFlush() {
        guard !flushScheduled, !store.deferredWrites.isEmpty else { return }
        flushScheduled = true
        Task {
            try? await Task.sleep(for: .milliseconds(20))
            self.flushDeferredWrites()
        }
    }

    private func flushDeferredWrites() {
        flushScheduled = false
        guard !stopped else { return }
        // A failed write stays deferred and is tried again with the next transaction.
        if (try? store.flushDeferred()) == nil { scheduleFlush() }
    }

    /// The relay client for `server`, kept here once connected so a command does not first hop
    /// into the pool's actor; a closed client (the agent stopping) is dropped and asked for again.
    ///
    /// Every command to a relay is sent from here on, so this is where the commits it may depend
    /// on (the ratchet step of a message, a received message about to be acknowledged) are made
    /// durable first (`DurableCommits`).
    func client(for server: SMPServerAddress) async throws(AgentError) -> SMPClient {
        await store.durability.durable()
        if let client = clients[server] { return client }
        let client = try await pool.client(for: server)
        clients[server] = client
        return client
    }

    /// How many times the WAL was synced before relay commands (tests and benchmarks).
    public var durableSyncs: Int { store.durability.syncs }

    func pickServer() throws(AgentError) -> SMPServerAddress {
        guard let server = config.servers.randomElement() else { throw .noServers }
        return server
    }

    public static func newConnectionID() -> AgentConnectionID { Base64URL.encode(Random.bytes(count: 12)) }
}
