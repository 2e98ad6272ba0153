import Foundation
import SimpleXCrypto
import SimpleXNetwork
import SimpleXProtocol
import SimpleXSystem

/// The relay: accepts connections, performs the handshake, and runs SMP commands against the
/// durable queue store.
///
/// Everything it owns (the store, the sessions, the subscriptions) is confined to one event-loop
/// thread, so no state needs a lock. Commands that arrive in one loop turn are committed to the
/// journal together, once, before any of their replies leave (group commit): an OK means the
/// SEND is in the journal.
public final class RelayServer: @unchecked Sendable {
    // @unchecked Sendable: all mutable state is touched only on `loop`'s thread (the public
    // methods hop there with `execute`); `port`, `address` and the loop are immutable.

    public let port: UInt16
    public let address: SMPServerAddress
    let identity: ServerIdentity
    let config: ServerConfig
    let group: EventLoopGroup
    var loop: EventLoop { group.loops[0] }
    /// The store, the subscriptions and the statistics, and the command handling over them.
    let core: RelayCore
    var store: DurableQueueStore { core.store }
    private var blockServer: BlockServer?
    var sessions: [Int: RelaySession] = [:]
    private var nextSessionID = 0
    private var commitScheduled = false
    private var timers: [String: TimerHandle] = [:]
    let log: @Sendable (String) -> Void

    /// Opens the store and starts listening (`port` 0 picks a free port, read back in `port`).
    public init(
        files: RelayFiles, config: ServerConfig, identity: ServerIdentity, port: UInt16? = nil,
        environment: StoreEnvironment = .live, log: @escaping @Sendable (String) -> Void
    ) throws(RelayError) {
        self.identity = identity
        self.config = config
        self.log = log
        let storeDirectory = files.storeDirectory(config)
        do {
            try PrivateDirectory.ensure(storeDirectory, createParents: true)
            core = RelayCore(store: try DurableQueueStore(
                directory: storeDirectory,
                configuration: QueueStoreConfiguration(
                    quota: config.queueQuota, messageTTL: .seconds(config.messageExpiryDays * 86_400)),
                environment: environment,
                options: .init(
                    syncPolicy: config.fsyncIntervalMilliseconds == 0
                        ? .everyCommit : .interval(milliseconds: config.fsyncIntervalMilliseconds))))
        } catch {
            throw .store("cannot open the store in \(storeDirectory): \(error)")
        }
        do {
            // One loop: the store is confined to it and every command is a few microseconds.
            group = try EventLoopGroup(loopCount: 1, name: "smp-server")
        } catch {
            throw .network("cannot start the event loop: \(error)")
        }
        let target = AcceptTarget()
        let server: BlockServer
        do {
            server = try BlockServer(
                host: config.listen, port: port ?? config.port, blockSize: TransportBlock.size, group: group,
                limits: BlockConnectionLimits(idleTimeout: .seconds(config.idleTimeoutSeconds)),
                maxConnections: config.maxConnections
            ) { connection in target.server?.accept(connection) }
        } catch {
            group.shutdown()
            throw .network("cannot listen on \(config.listen):\(port ?? config.port): \(error)")
        }
        self.port = server.port
        do {
            address = try files.address(identity: identity, config: config, port: server.port)
        } catch {
            server.close()
            group.shutdown()
            throw error
        }
        blockServer = server
        target.server = self
        loop.execute { [self] in startTimers() }
    }

    /// Stops accepting, closes every connection, writes the store out and stops the loop.
    public func stop() {
        let done = DispatchSemaphore(value: 0)
        // A loop already stopped (a second stop) runs nothing: waiting for it would hang.
        let queued = loop.execute { [self] in
            blockServer?.close()
            blockServer = nil
            for timer in timers.values { timer.cancel() }
            timers = [:]
            for session in sessions.values { session.connection?.close() }
            do { try store.close() } catch { log("smp-server: closing the store failed: \(error)") }
            done.signal()
        }
        guard queued else { return }
        done.wait()
        group.shutdown()
    }

    /// Logs the statistics line now (SIGUSR1).
    public func logStatistics() {
        loop.execute { [self] in
            log(core.statistics.line(queues: store.store.queueCount, storedMessages: store.store.storedMessageCount))
        }
    }

    // MARK: - Connections (loop thread)

    fileprivate func accept(_ connection: BlockConnection) {
        nextSessionID += 1
        let session = RelaySession(id: nextSessionID, connection: connection, handshake: ServerHandshake(identity: identity))
        sessions[session.id] = session
        core.statistics.connectionsOpen += 1
        core.statistics.connectionsTotal += 1
        connection.start(
            onBlock: { [unowned self] _, block in received(Array(block), on: session) },
            onClose: { [unowned self] _, _ in closed(session) })
        guard case .awaitingClientHello(let handshake) = session.state, let hello = try? handshake.hello().encode()
        else { return connection.close() }
        connection.send(hello)
    }

    private func closed(_ session: RelaySession) {
        core.closed(session)
        sessions[session.id] = nil
        core.statistics.connectionsOpen -= 1
    }

    private func received(_ block: [UInt8], on session: RelaySession) {
        switch session.state {
        case .closed:
            return
        case .awaitingClientHello(let handshake):
            do {
                session.state = .active(try handshake.receive(ClientHello.decode(block)))
            } catch {
                // A client that cannot complete the handshake (wrong key hash, version, garbage).
                core.statistics.badBlocks += 1
                session.connection?.close()
            }
        case .active(var transport):
            // Take the session out of the state while it advances, so its chain buffer is
            // uniquely referenced and rewritten in place rather than copied (copy-on-write).
            session.state = .closed
            let padded: [UInt8]
            do {
                padded = try transport.openBlock(block)
            } catch {
                // The block chain is out of step: nothing more from this connection can be read.
                core.statistics.badBlocks += 1
                session.connection?.close()
                return
            }
            session.state = .active(transport)
            core.receive(padded, on: session, transport: transport)
            scheduleCommit()
        }
    }

    /// At the end of the loop turn: one journal commit for every command of the turn, then the
    /// replies and deliveries.
    func scheduleCommit() {
        guard !commitScheduled else { return }
        commitScheduled = true
        loop.afterThisTurn { [self] in
            commitScheduled = false
            do {
                try store.commit()
            } catch {
                // Nothing of this turn is durable: answer nothing (clients retry), and stop serving
                // rather than acknowledge what could be lost.
                stop(journalFailure: error)
            }
            for session in sessions.values where !session.pending.isEmpty { session.flush() }
        }
    }

    /// The journal cannot be trusted (a write or a sync failed): stop serving; a restart goes on
    /// from what is on disk.
    private func stop(journalFailure error: any Error) -> Never {
        log("smp-server: journal write or sync failed, stopping: \(error)")
        for session in sessions.values { session.connection?.close() }
        exit(EX_IOERR)
    }

    private func startTimers() {
        if config.fsyncIntervalMilliseconds > 0 {
            repeating("sync", every: .milliseconds(config.fsyncIntervalMilliseconds)) { [self] in
                // A failed sync: what was acknowledged may not be on disk.
                do { try store.syncIfDue() } catch { stop(journalFailure: error) }
            }
        }
        repeating("expire", every: .seconds(60)) { [self] in
            let removed = (try? store.update { $0.expireMessages() }) ?? 0
            if removed > 0 { scheduleCommit() }
        }
        if config.statisticsInterval > 0 {
            repeating("statistics", every: .seconds(config.statisticsInterval)) { [self] in
                log(core.statistics.line(queues: store.store.queueCount, storedMessages: store.store.storedMessageCount))
            }
        }
    }

    /// Runs `body` every `interval` until `stop`.
    private func repeating(_ name: String, every interval: Duration, _ body: @escaping () -> Void) {
        timers[name] = loop.scheduleLocal(after: interval) { [weak self] in
            guard let self, self.timers[name] != nil else { return }
            body()
            self.repeating(name, every: interval, body)
        }
    }
}

/// Lets the listener, made before the server is, reach it.
///
/// `@unchecked Sendable`: `server` is set once, before the loop can run the accept handler
/// (the loop's job queue orders the write before the first read).
private final class AcceptTarget: @unchecked Sendable {
    weak var server: RelayServer?
}
