import SimpleXNetwork
import SimpleXProtocol
import Synchronization

/// A client connection to one SMP relay: commands with replies matched by correlation id, a
/// stream of server events, PING keep-alive, and reconnection with backoff when the connection drops.
///
/// Threading: the connection (socket, encryption chains, commands in flight, timers) is confined
/// to `loop`; callers on any task reach it through `loop.execute` and wait on continuations, so
/// no cooperative thread ever blocks. The client's own state (the current connection, whether it
/// is closed, the reconnection task) is behind a `Mutex`. Reconnection runs in a task that sleeps
/// between attempts. Server errors are thrown (`SMPClientError.server`), never returned as `.err`.
public final class SMPClient: Sendable {
    /// The relay this client talks to.
    public let address: SMPServerAddress
    /// The loop the connection lives on.
    public let loop: EventLoop
    /// Timeouts, keep-alive and backoff.
    public let options: SMPClientOptions
    /// Server events and connection changes, for one consumer; finishes on `close()`.
    public let events: AsyncStream<SMPServerEvent>

    private let eventSink: AsyncStream<SMPServerEvent>.Continuation
    private let environment: SMPClientEnvironment
    private let state = Mutex(State())

    private struct State {
        var connection: SMPConnection?
        var closed = false
        var reconnecting: Task<Void, Never>?
    }

    private init(
        address: SMPServerAddress, loop: EventLoop, options: SMPClientOptions,
        environment: SMPClientEnvironment
    ) {
        self.address = address
        self.loop = loop
        self.options = options
        self.environment = environment
        (events, eventSink) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    deinit {
        if let connection = state.withLock({ $0.connection }) {
            loop.execute { connection.close(.closed) }
        }
        eventSink.finish()
    }

    /// Connects to `address` on `loop` and completes the handshake, refusing a server whose
    /// identity does not match the address (`.identityMismatch`). The first connect is not retried.
    public static func connect(
        to address: SMPServerAddress, loop: EventLoop, options: SMPClientOptions = SMPClientOptions(),
        environment: SMPClientEnvironment = .live
    ) async throws(SMPClientError) -> SMPClient {
        let client = SMPClient(address: address, loop: loop, options: options, environment: environment)
        let connection = try await client.establish()
        guard client.install(connection, reconnected: false) else { throw .disconnected }
        return client
    }

    /// Connects on the group's next loop.
    public static func connect(
        to address: SMPServerAddress, group: EventLoopGroup, options: SMPClientOptions = SMPClientOptions(),
        environment: SMPClientEnvironment = .live
    ) async throws(SMPClientError) -> SMPClient {
        try await connect(to: address, loop: group.next(), options: options, environment: environment)
    }

    /// Sends one command and waits for its reply; `ERR` replies throw `.server`. While the client
    /// is reconnecting, fails at once with `.disconnected`.
    public func send(_ command: SMPCommand, entityID: EntityID = .empty, key: QueueAuthKey?)
        async throws(SMPClientError) -> SMPResponse
    {
        try await sendBatch([SMPRequest(command, entityID: entityID, key: key)])[0].get()
    }

    /// Sends commands together (in as few blocks as they fit) and waits for all replies, in order.
    /// Separate `send` calls made in the same loop turn are batched the same way. `onEach`, if
    /// given, also sees each reply as it comes, `(index, reply)` on the connection's loop, so the
    /// caller can start on the first replies while the relay is still working on the rest.
    public func sendBatch(
        _ requests: [SMPRequest],
        onEach: (@Sendable (Int, Result<SMPResponse, SMPClientError>) -> Void)? = nil
    ) async -> [Result<SMPResponse, SMPClientError>] {
        let (connection, closed) = state.withLock { ($0.connection, $0.closed) }
        guard let connection, !Task.isCancelled else {
            let failure: SMPClientError = closed ? .closed : Task.isCancelled ? .cancelled : .disconnected
            return requests.map { _ in .failure(failure) }
        }
        guard !requests.isEmpty else { return [] }
        let ids = requests.map { _ in CorrelationID.random() }
        let loop = loop
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let replies = Replies(count: requests.count, continuation)
                let queued = enqueue(requests, ids: ids, on: connection) { index, reply in
                    onEach?(index, reply)
                    replies.set(index, reply)
                }
                if !queued {
                    continuation.resume(returning: requests.map { _ in .failure(.closed) })
                }
            }
        } onCancel: {
            loop.execute { for id in ids { connection.cancel(id) } }
        }
    }

    /// `sendBatch` without a task: each reply is given to `onReply` (on the connection's loop) as
    /// it comes, `(index, reply)`, so a caller acts on the first replies while the relay is still
    /// working on the rest. Each request gets exactly one reply.
    public func sendEach(
        _ requests: [SMPRequest],
        onReply: @escaping @Sendable (Int, Result<SMPResponse, SMPClientError>) -> Void
    ) {
        let (connection, closed) = state.withLock { ($0.connection, $0.closed) }
        guard let connection else {
            let failure: SMPClientError = closed ? .closed : .disconnected
            for index in requests.indices { onReply(index, .failure(failure)) }
            return
        }
        let ids = requests.map { _ in CorrelationID.random() }
        if !enqueue(requests, ids: ids, on: connection, onReply: onReply) {
            for index in requests.indices { onReply(index, .failure(.closed)) }
        }
    }

    /// Queues `requests` (correlation ids `ids`) on `connection` in one turn of its loop, so they
    /// share blocks; `onReply` gets each reply as it comes. False when the loop has shut down: it
    /// runs no job, so nothing was sent and nothing would answer.
    private func enqueue(
        _ requests: [SMPRequest], ids: [CorrelationID], on connection: SMPConnection,
        onReply: @escaping @Sendable (Int, Result<SMPResponse, SMPClientError>) -> Void
    ) -> Bool {
        let timeout = options.commandTimeout
        return loop.execute {
            for (index, request) in requests.enumerated() {
                connection.enqueue(request, correlationID: ids[index], timeout: timeout) {
                    onReply(index, $0)
                }
            }
        }
    }

    /// Stops everything: the connection closes, commands in flight fail with `.closed`,
    /// reconnection stops and `events` finishes.
    public func close() {
        let (connection, reconnecting) = state.withLock { state in
            guard !state.closed else { return (SMPConnection?.none, Task<Void, Never>?.none) }
            state.closed = true
            defer { (state.connection, state.reconnecting) = (nil, nil) }
            return (state.connection, state.reconnecting)
        }
        reconnecting?.cancel()
        if let connection { loop.execute { connection.close(.closed) } }
        eventSink.finish()
    }

    /// X25519 queue keys whose authenticator key the current session has cached (for tests).
    func cachedAuthenticatorKeyCount() async -> Int {
        guard let connection = state.withLock({ $0.connection }) else { return 0 }
        return await withCheckedContinuation { continuation in
            loop.execute { continuation.resume(returning: connection.cachedAuthenticatorKeyCount) }
        }
    }

    // MARK: - Connecting and reconnecting

    private func establish() async throws(SMPClientError) -> SMPConnection {
        let sink = eventSink
        return try await SMPConnection.establish(
            address: address, loop: loop, options: options, onEvent: { sink.yield($0) },
            onClose: { [weak self] connection, reason in self?.dropped(connection, reason) })
    }

    /// Makes `connection` current unless the client closed or the connection already dropped.
    /// `.reconnected` is sent under the lock, so it always precedes that connection's `.disconnected`.
    private func install(_ connection: SMPConnection, reconnected: Bool) -> Bool {
        let installed = state.withLock { state in
            guard !state.closed, !connection.isClosed else { return false }
            state.connection = connection
            state.reconnecting = nil
            if reconnected { eventSink.yield(.reconnected) }
            return true
        }
        loop.execute { installed ? connection.startKeepAlive() : connection.close(.closed) }
        return installed
    }

    /// The current connection dropped (on the loop thread): tell the agent and start reconnecting.
    private func dropped(_ connection: SMPConnection, _ reason: SMPClientError) {
        state.withLock { state in
            guard !state.closed, state.connection === connection else { return }
            state.connection = nil
            eventSink.yield(.disconnected(reason: reason))
            state.reconnecting = Task { await self.reconnect() }
        }
    }

    private func reconnect() async {
        var attempt = 0
        while !Task.isCancelled {
            let delay = options.backoff.delay(attempt: attempt, random: environment.random())
            do {
                try await environment.sleep(delay)
            } catch {
                return
            }
            if state.withLock({ $0.closed }) { return }
            if let connection = try? await establish(), install(connection, reconnected: true) { return }
            attempt += 1
        }
    }
}

/// Collects a batch's replies on the loop thread and resumes the caller once all are in. Made
/// before the batch is queued, then touched only on that loop.
private final class Replies: @unchecked Sendable {
    private var results: [Result<SMPResponse, SMPClientError>?]
    private var missing: Int
    private let continuation: CheckedContinuation<[Result<SMPResponse, SMPClientError>], Never>

    init(count: Int, _ continuation: CheckedContinuation<[Result<SMPResponse, SMPClientError>], Never>) {
        results = Array(repeating: nil, count: count)
        missing = count
        self.continuation = continuation
    }

    func set(_ index: Int, _ result: Result<SMPResponse, SMPClientError>) {
        guard results[index] == nil else { return }
        results[index] = result
        missing -= 1
        if missing == 0 { continuation.resume(returning: results.map { $0! }) }
    }
}
