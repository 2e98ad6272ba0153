import Glibc
import SimpleXSystem

/// A TCP connection carrying fixed-size blocks (16,384 bytes for SMP), confined to one event loop.
///
/// Reads go into the loop's shared 64 KB buffer; only a partly received block is copied into the
/// connection, so an idle connection holds no buffers. Each block sent is written into a block the
/// loop lends (`EventLoop.takeBlock`); a turn's blocks go out in one `sendmsg`, and each is given
/// back once written.
public final class BlockConnection: @unchecked Sendable {
    // @unchecked Sendable: every `var` is touched only on `loop`'s thread; other threads reach the
    // connection only through `loop.execute` (the loop's inbox `Mutex`): `sendFromAnyThread`, `close`.

    /// Called on the loop thread with each complete block; the bytes are valid only during the call.
    public typealias BlockHandler = (BlockConnection, UnsafeRawBufferPointer) -> Void
    /// Called once on the loop thread when the connection closes.
    public typealias CloseHandler = (BlockConnection, CloseReason) -> Void

    /// The loop this connection is confined to.
    public let loop: EventLoop
    /// The size of every block in both directions.
    public let blockSize: Int
    /// The limits this connection enforces.
    public let limits: BlockConnectionLimits
    /// The peer's address as text, read once at creation.
    public let peerAddress: String

    private var socket: TCPSocket?
    private var registration: UInt64?
    private var interest: IOEvents = []
    private var onBlock: BlockHandler?
    private var onClose: CloseHandler?
    /// A block received in part; empty (no allocation) between blocks.
    private var partial: [UInt8] = []
    /// Blocks waiting to be written, oldest first, the first `outboundStart` bytes of the first
    /// already written; each lent by the loop.
    private var outbound: [UnsafeMutableRawBufferPointer] = []
    private var outboundStart = 0
    private var flushScheduled = false
    private var readingPaused = false
    private var slowTimer: TimerHandle?
    private var idleTimer: TimerHandle?
    private var lastReceived: ContinuousClock.Instant = .now
    private var closed = false
    /// Runs once, at close or deinit, whichever comes first (the server's connection count).
    var onRelease: (() -> Void)?

    init(socket: TCPSocket, loop: EventLoop, blockSize: Int, limits: BlockConnectionLimits) {
        precondition(blockSize > 0)
        self.socket = socket
        self.loop = loop
        self.blockSize = blockSize
        self.limits = limits
        self.peerAddress = socket.peerAddress
    }

    deinit {
        // Not on the loop thread, perhaps: the blocks are freed, not given back.
        for block in outbound { block.deallocate() }
        onRelease?()
    }

    /// Connects to `host:port` (numeric or "localhost") on `loop`; call `start` to begin reading.
    public static func connect(
        host: String, port: UInt16, blockSize: Int = 16_384, on loop: EventLoop,
        timeout: Duration = .seconds(10),
        limits: BlockConnectionLimits = .init()
    ) async throws(SystemError) -> BlockConnection {
        let socket = try await TCPSocket.connect(host: host, port: port, timeout: timeout, on: loop)
        try socket.setNoDelay()
        return BlockConnection(socket: socket, loop: loop, blockSize: blockSize, limits: limits)
    }

    /// Bytes queued for the peer and not yet written. Loop thread only.
    public var queuedBytes: Int { outbound.count * blockSize - outboundStart }

    /// Whether the connection has closed. Loop thread only.
    public var isClosed: Bool { closed }

    /// Starts reading and the idle timer. Loop thread only (a server's `onConnection` runs there).
    public func start(onBlock: @escaping BlockHandler, onClose: @escaping CloseHandler) {
        precondition(loop.inEventLoop, "BlockConnection.start off its loop thread")
        guard !closed, registration == nil, let socket else { return }
        self.onBlock = onBlock
        self.onClose = onClose
        lastReceived = loop.now
        do {
            interest = .read
            registration = try loop.register(fd: socket.fd, interest: .read) { [self] in handle($0) }
        } catch {
            return close(.error(error))
        }
        if let idle = limits.idleTimeout { scheduleIdleCheck(after: idle) }
        if queuedBytes > 0 { updateInterest() }
    }

    /// Queues one block (exactly `blockSize` bytes) for the peer. Loop thread only.
    public func send(_ block: some Collection<UInt8>) {
        precondition(block.count == blockSize, "block of \(block.count) bytes, expected \(blockSize)")
        send { (buffer: UnsafeMutableRawBufferPointer) in
            if block.withContiguousStorageIfAvailable({ buffer.copyMemory(from: UnsafeRawBufferPointer($0)) }) == nil {
                buffer.copyBytes(from: block)
            }
        }
    }

    /// Queues one block for the peer, written by `write` straight into the queue's `blockSize`
    /// bytes (a block sealed in place, not built and then copied). When `write` throws, nothing is
    /// queued. Loop thread only.
    public func send<Failure: Error>(writing write: (UnsafeMutableRawBufferPointer) throws(Failure) -> Void)
        throws(Failure)
    {
        precondition(loop.inEventLoop, "BlockConnection.send off its loop thread")
        guard !closed else { return }
        let block = loop.takeBlock(size: blockSize)
        do { try write(block) } catch {
            loop.giveBack(block)
            throw error
        }
        outbound.append(block)
        if queuedBytes >= limits.maxQueuedBytes, !readingPaused { pauseReading() }
        if !flushScheduled && !interest.contains(.write) {
            // Every block sent in this loop turn goes out in one write.
            flushScheduled = true
            loop.afterThisTurn { [self] in
                flushScheduled = false
                flush()
            }
        }
    }

    /// Queues one block from any thread, hopping to the loop thread.
    public func sendFromAnyThread(_ block: [UInt8]) {
        if loop.inEventLoop { return send(block) }
        loop.execute { self.send(block) }
    }

    /// Closes the connection from any thread (`.local`), first trying once to write what is queued.
    public func close() {
        if loop.inEventLoop { return close(.local) }
        loop.execute { self.close(.local) }
    }

    // MARK: - Loop thread

    private func handle(_ events: IOEvents) {
        if events.contains(.write) { flush() }
        if events.contains(.read) && !closed && !readingPaused { readAvailable() }
        if events.contains(.error) && !events.contains(.read) && !closed, let socket {
            let code = (try? socket.pendingError()) ?? 0
            close(code == 0 ? .peerClosed : .error(SystemError(errno: code, call: "epoll_wait")))
        }
    }

    private func readAvailable() {
        let buffer = loop.readBuffer
        // At most a few reads per turn, so one busy peer cannot starve the others on the loop.
        for _ in 0..<4 {
            guard !closed, !readingPaused, let socket else { return }
            let count: Int
            do {
                guard case .bytes(let read) = try socket.read(into: buffer) else { return }
                count = read
            } catch {
                return close(.error(error))
            }
            if count == 0 { return close(.peerClosed) }
            lastReceived = loop.now
            deliver(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            if count < buffer.count { return }
        }
    }

    private func deliver(_ data: UnsafeRawBufferPointer) {
        var offset = 0
        if !partial.isEmpty {
            offset = min(blockSize - partial.count, data.count)
            partial.append(contentsOf: data[0..<offset])
            if partial.count < blockSize { return }
            partial.withUnsafeBytes { onBlock?(self, $0) }
            partial = []
        }
        while !closed && data.count - offset >= blockSize {
            onBlock?(self, UnsafeRawBufferPointer(rebasing: data[offset..<offset + blockSize]))
            offset += blockSize
        }
        if !closed && offset < data.count {
            partial.reserveCapacity(blockSize)
            partial.append(contentsOf: data[offset...])
        }
    }

    private func flush() {
        guard !closed, let socket, queuedBytes > 0 else { return updateInterest() }
        switch Result(catching: { () throws(SystemError) in try writeQueued(to: socket) }) {
        case .failure(let error): return close(.error(error))
        case .success(.wouldBlock): break
        case .success(.bytes(let written)): advance(written: written)
        }
        if readingPaused && queuedBytes <= limits.maxQueuedBytes / 2 { resumeReading() }
        updateInterest()
    }

    private func pauseReading() {
        readingPaused = true
        slowTimer = loop.scheduleLocal(after: limits.slowConsumerTimeout) { [self] in close(.slowConsumer) }
        updateInterest()
    }

    private func resumeReading() {
        readingPaused = false
        slowTimer?.cancel()
        slowTimer = nil
    }

    private func updateInterest() {
        guard !closed, let socket, let registration else { return }
        var wanted: IOEvents = readingPaused ? [] : .read
        if queuedBytes > 0 { wanted.insert(.write) }
        guard wanted != interest else { return }
        do {
            try loop.setInterest(fd: socket.fd, registration: registration, wanted)
            interest = wanted
        } catch {
            close(.error(error))
        }
    }

    /// Checks at most once per `idleTimeout`, not on every block: a timer per block would cost more.
    private func scheduleIdleCheck(after delay: Duration) {
        idleTimer = loop.scheduleLocal(after: delay) { [self] in
            guard !closed, let idle = limits.idleTimeout else { return }
            let quiet = lastReceived.duration(to: loop.now)
            if quiet >= idle { return close(.idleTimeout) }
            scheduleIdleCheck(after: idle - quiet)
        }
    }

    /// One `sendmsg` of the queued blocks (as many as the loop's vectors hold).
    private func writeQueued(to socket: TCPSocket) throws(SystemError) -> IOResult {
        let vectors = loop.writeVectors
        let count = min(outbound.count, vectors.count)
        for index in 0..<count {
            let skip = index == 0 ? outboundStart : 0
            vectors[index] = iovec(iov_base: outbound[index].baseAddress! + skip, iov_len: blockSize - skip)
        }
        return try socket.write(vectors: UnsafeMutableBufferPointer(rebasing: vectors[0..<count]))
    }

    /// `count` more bytes written: the blocks wholly written go back to the loop.
    private func advance(written count: Int) {
        var done = 0
        var position = outboundStart + count
        while done < outbound.count && position >= blockSize {
            loop.giveBack(outbound[done])
            done += 1
            position -= blockSize
        }
        // Whole blocks: at most a few dozen references move.
        outbound.removeFirst(done)
        outboundStart = position
    }

    func close(_ reason: CloseReason) {
        guard !closed else { return }
        if reason == .local && queuedBytes > 0, let socket {
            _ = try? writeQueued(to: socket)
        }
        closed = true
        slowTimer?.cancel()
        idleTimer?.cancel()
        if let registration, let socket { loop.unregister(fd: socket.fd, registration: registration) }
        registration = nil
        socket = nil
        for block in outbound { loop.giveBack(block) }
        outbound = []
        outboundStart = 0
        partial = []
        let handler = onClose
        onBlock = nil
        onClose = nil
        onRelease?()
        onRelease = nil
        handler?(self, reason)
    }
}
