import SimpleXNetwork
import SimpleXProtocol
import SimpleXSystem
import Synchronization

/// One handshaken connection to a relay, confined to its event loop: it matches replies to
/// commands by correlation id, turns the rest into events, batches the commands of a loop turn
/// into one block, pings when idle, and fails everything in flight when it closes.
final class SMPConnection: @unchecked Sendable {
    // @unchecked Sendable: every `var` is touched only on `loop`'s thread (other threads reach the
    // connection through `loop.execute`, the loop's inbox `Mutex`); `closedFlag` is an `Atomic`.

    typealias Completion = (Result<SMPResponse, SMPClientError>) -> Void

    private struct Pending {
        let completion: Completion
        let timer: TimerHandle
    }

    let loop: EventLoop
    private let connection: BlockConnection
    private let keyHash: [UInt8]
    private let options: SMPClientOptions
    private let onEvent: @Sendable (SMPServerEvent) -> Void
    private let onClose: @Sendable (SMPConnection, SMPClientError) -> Void
    private let closedFlag = Atomic<Bool>(false)

    private var handshake: ((Result<Void, SMPClientError>) -> Void)?
    private var handshakeTimer: TimerHandle?
    private var session: TransportSession?
    private var authorizer: SessionAuthorizer?
    private var pending: [CorrelationID: Pending] = [:]
    private var outgoing: [[UInt8]] = []
    private var flushScheduled = false
    private var lastSent = ContinuousClock.now
    private var pingTimer: TimerHandle?
    private var closed = false

    private init(
        connection: BlockConnection, keyHash: [UInt8], options: SMPClientOptions,
        onEvent: @escaping @Sendable (SMPServerEvent) -> Void,
        onClose: @escaping @Sendable (SMPConnection, SMPClientError) -> Void
    ) {
        self.loop = connection.loop
        self.connection = connection
        self.keyHash = keyHash
        self.options = options
        self.onEvent = onEvent
        self.onClose = onClose
    }

    /// Whether the connection has closed, from any thread.
    var isClosed: Bool { closedFlag.load(ordering: .acquiring) }

    /// Connects to the first reachable host of `address` and completes the handshake. `onEvent`
    /// and `onClose` (called once, only for a connection that got through the handshake) run on `loop`.
    static func establish(
        address: SMPServerAddress, loop: EventLoop, options: SMPClientOptions,
        onEvent: @escaping @Sendable (SMPServerEvent) -> Void,
        onClose: @escaping @Sendable (SMPConnection, SMPClientError) -> Void
    ) async throws(SMPClientError) -> SMPConnection {
        var lastError = SystemError(errno: 0, call: "connect")
        for host in address.hosts {
            let numericHost = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
            let block: BlockConnection
            do {
                block = try await BlockConnection.connect(
                    host: numericHost, port: address.port, blockSize: TransportSession.blockSize, on: loop,
                    timeout: options.connectTimeout, limits: BlockConnectionLimits(idleTimeout: nil))
            } catch {
                lastError = error
                continue
            }
            let connection = SMPConnection(
                connection: block, keyHash: address.keyHash, options: options, onEvent: onEvent,
                onClose: onClose)
            let result = await withCheckedContinuation { continuation in
                loop.execute { connection.start { continuation.resume(returning: $0) } }
            }
            // A server that answers but fails the handshake is the wrong server or broken: other
            // hosts of the same address would not do better, so this is final.
            try result.get()
            return connection
        }
        throw .connectionFailed(lastError)
    }

    private func start(_ done: @escaping (Result<Void, SMPClientError>) -> Void) {
        handshake = done
        handshakeTimer = loop.scheduleLocal(after: options.connectTimeout) { [self] in close(.timeout) }
        connection.start(
            onBlock: { [self] _, block in received(block) },
            onClose: { [self] _, reason in close(.connectionClosed(reason)) })
    }

    // MARK: - Commands

    /// Queues a command for this loop turn's block; `completion` runs exactly once, on the loop.
    func enqueue(
        _ request: SMPRequest, correlationID: CorrelationID, timeout: Duration,
        completion: @escaping Completion
    ) {
        guard !closed, authorizer != nil else { return completion(.failure(.disconnected)) }
        let bytes: [UInt8]
        do {
            bytes = try authorizer!.transmission(
                request.command, correlationID: correlationID, entityID: request.entityID, key: request.key)
        } catch {
            return completion(.failure(.invalidCommand("\(error)")))
        }
        guard TransportBlock.fits(bytes) else {
            return completion(
                .failure(.invalidCommand("transmission of \(bytes.count) bytes does not fit a block")))
        }
        let timer = loop.scheduleLocal(after: timeout) { [self] in
            pending.removeValue(forKey: correlationID)?.completion(.failure(.timeout))
        }
        pending[correlationID] = Pending(completion: completion, timer: timer)
        outgoing.append(bytes)
        if !flushScheduled {
            flushScheduled = true
            // Everything queued in this turn (concurrent callers, a batch) shares blocks.
            loop.afterThisTurn { [self] in flush() }
        }
    }

    /// Stops waiting for a command's reply (its caller was cancelled); a late reply is dropped.
    func cancel(_ correlationID: CorrelationID) {
        guard let waiting = pending.removeValue(forKey: correlationID) else { return }
        waiting.timer.cancel()
        waiting.completion(.failure(.cancelled))
    }

    /// X25519 queue keys whose authenticator key this session has cached.
    var cachedAuthenticatorKeyCount: Int { authorizer?.cachedKeyCount ?? 0 }

    private func flush() {
        flushScheduled = false
        let transmissions = outgoing
        outgoing = []
        guard !closed, session != nil, !transmissions.isEmpty else { return }
        for batch in TransportBlock.batch(transmissions) {
            do {
                let padded = try TransportBlock.encode(batch)
                try padded.withUnsafeBytes { padded throws in
                    try connection.send { (block) throws(TransportError) in try session!.sealBlock(padded, into: block) }
                }
            } catch {
                // Each transmission was checked to fit; failing here is a bug, not the server's doing.
                return close(.invalidCommand("block encoding failed: \(error)"))
            }
        }
        lastSent = loop.now
    }

    // MARK: - Receiving

    private func received(_ block: UnsafeRawBufferPointer) {
        guard session != nil else { return receivedHello(Array(block)) }
        let padded: [UInt8]
        do {
            padded = try session!.openBlock(Array(block))
        } catch {
            return close(.transport(error))
        }
        let transmissions: [[UInt8]]
        do {
            transmissions = try TransportBlock.decode(padded)
        } catch {
            return close(.protocolViolation("block: \(error)"))
        }
        for bytes in transmissions where !closed {
            do {
                dispatch(try SMPTransmission.decode(bytes))
            } catch {
                close(.protocolViolation("transmission: \(error)"))
            }
        }
    }

    private func receivedHello(_ block: [UInt8]) {
        guard let done = handshake else { return }
        do {
            let hello = try ServerHello.decode(block)
            let (clientHello, session) = try ClientHandshake(expectedKeyHash: keyHash).receive(hello)
            connection.send(try clientHello.encode())
            self.session = session
            authorizer = SessionAuthorizer(session: session)
        } catch let error as TransportError {
            return close(error == .identityMismatch ? .identityMismatch : .handshake(error))
        } catch let error as ProtocolError {
            return close(.handshake(.malformed(error)))
        } catch {
            return close(.protocolViolation("handshake: \(error)"))
        }
        handshake = nil
        handshakeTimer?.cancel()
        lastSent = loop.now
        done(.success(()))
    }

    private func dispatch(_ transmission: SMPTransmission) {
        switch ResponseRouting.route(transmission, isWaiting: { pending[$0] != nil }) {
        case .reply(let correlationID, let result):
            guard let waiting = pending.removeValue(forKey: correlationID) else { return }
            waiting.timer.cancel()
            waiting.completion(result)
        case .event(let event): onEvent(event)
        case .drop: break
        }
    }

    // MARK: - Keep-alive and closing

    /// Starts PINGs when idle. The client calls it once the connection is its current one, so a
    /// PING timeout cannot drop a connection that `connect` has not handed over yet.
    func startKeepAlive() {
        precondition(loop.inEventLoop)
        guard !closed, pingTimer == nil else { return }
        lastSent = loop.now
        schedulePing(after: options.pingInterval)
    }

    /// Checks at most once per interval whether anything was sent, rather than a timer per block.
    private func schedulePing(after delay: Duration) {
        pingTimer = loop.scheduleLocal(after: delay) { [self] in
            guard !closed else { return }
            let idle = lastSent.duration(to: loop.now)
            if idle < options.pingInterval { return schedulePing(after: options.pingInterval - idle) }
            enqueue(SMPRequest(.ping), correlationID: .random(), timeout: options.pingTimeout) {
                [self] result in
                if case .failure(.timeout) = result { close(.pingTimeout) }
            }
            schedulePing(after: options.pingInterval)
        }
    }

    /// Closes the connection: the handshake or every command in flight fails (`.closed` after
    /// `close()`, `.disconnected` otherwise), then `onClose` tells the client why.
    func close(_ reason: SMPClientError) {
        guard !closed else { return }
        closed = true
        closedFlag.store(true, ordering: .releasing)
        handshakeTimer?.cancel()
        pingTimer?.cancel()
        connection.close()
        outgoing = []
        if let done = handshake {
            handshake = nil
            return done(.failure(reason))
        }
        let failed = pending
        pending = [:]
        let failure: SMPClientError = reason == .closed ? .closed : .disconnected
        for waiting in failed.values {
            waiting.timer.cancel()
            waiting.completion(.failure(failure))
        }
        onClose(self, reason)
    }
}
