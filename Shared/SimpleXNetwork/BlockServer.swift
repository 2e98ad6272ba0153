import Glibc
import SimpleXSystem
import Synchronization

/// Accepts TCP connections on one loop and spreads them, as `BlockConnection`s, over a group.
public final class BlockServer: @unchecked Sendable {
    // @unchecked Sendable: `registration` and `accepting` are touched only on `acceptLoop`'s thread;
    // the connection count is an `Atomic`; everything else is immutable.

    /// The port listened on (the real one when 0 was asked for).
    public let port: UInt16
    /// The largest number of open connections; more are accepted and closed at once.
    public let maxConnections: Int
    private let listener: TCPSocket
    private let group: EventLoopGroup
    private let acceptLoop: EventLoop
    private let blockSize: Int
    private let limits: BlockConnectionLimits
    private let onConnection: @Sendable (BlockConnection) -> Void
    private let openConnections = Atomic<Int>(0)
    private var registration: UInt64?
    private var accepting = true

    /// Listens on `host:port` and starts accepting; `onConnection` runs on the new connection's
    /// loop thread and should call `start` on it.
    public init(
        host: String = "127.0.0.1", port: UInt16, blockSize: Int = 16_384, group: EventLoopGroup,
        limits: BlockConnectionLimits = .init(), maxConnections: Int = 100_000, backlog: Int32 = 1024,
        onConnection: @escaping @Sendable (BlockConnection) -> Void
    ) throws(SystemError) {
        listener = try TCPSocket.listen(host: host, port: port, backlog: backlog)
        self.port = try listener.localAddress().port
        self.group = group
        self.acceptLoop = group.loops[0]
        self.blockSize = blockSize
        self.limits = limits
        self.maxConnections = maxConnections
        self.onConnection = onConnection
        acceptLoop.execute { self.register() }
    }

    /// Connections open now (from any thread).
    public var connectionCount: Int { openConnections.load(ordering: .relaxed) }

    /// Stops accepting and closes the listening socket; open connections stay open.
    public func close() {
        acceptLoop.execute {
            self.accepting = false
            if let registration = self.registration {
                self.acceptLoop.unregister(fd: self.listener.fd, registration: registration)
            }
            self.registration = nil
        }
    }

    private func register() {
        guard accepting else { return }
        // Errors here leave the server not accepting; its listener stays bound, so callers see refusals only later.
        registration = try? acceptLoop.register(fd: listener.fd, interest: .read) { [self] _ in
            acceptPending()
        }
    }

    private func acceptPending() {
        // Bounded per turn so a connection storm cannot starve the loop's other connections.
        for _ in 0..<256 {
            let socket: TCPSocket
            do {
                guard let accepted = try listener.accept() else { return }
                socket = accepted
            } catch {
                // Out of descriptors or memory: level-triggered epoll would spin, so pause accepting briefly.
                if let registration { acceptLoop.unregister(fd: listener.fd, registration: registration) }
                registration = nil
                _ = acceptLoop.scheduleLocal(after: .milliseconds(100)) { [self] in register() }
                return
            }
            guard openConnections.add(1, ordering: .relaxed).newValue <= maxConnections else {
                openConnections.subtract(1, ordering: .relaxed)
                continue  // dropping `socket` closes it
            }
            try? socket.setNoDelay()
            let loop = group.next()
            loop.execute { [self] in
                let connection = BlockConnection(
                    socket: socket, loop: loop, blockSize: blockSize, limits: limits)
                connection.onRelease = { self.openConnections.subtract(1, ordering: .relaxed) }
                onConnection(connection)
            }
        }
    }
}
