internal import CSystem
import Glibc
import SimpleXSystem

/// The outcome of a non-blocking read or write: bytes moved (0 on read means end of stream), or
/// nothing because the call would block.
public enum IOResult: Equatable, Sendable {
    case bytes(Int)
    case wouldBlock
}

/// One non-blocking IPv4/IPv6 TCP socket; the only owner of its descriptor, closed in deinit.
///
/// Every system call goes through `retryingOnInterrupt`. Stateless apart from the descriptor, so
/// it is `Sendable`; a `BlockConnection` confines its reads and writes to one event loop.
public final class TCPSocket: Sendable {
    /// The descriptor, for registration with an event loop; do not close it.
    public let fd: Int32

    init(fd: Int32) { self.fd = fd }

    deinit { Glibc.close(fd) }

    /// Binds and listens on `host` (numeric, or "localhost"); port 0 picks a free port (see `localPort`).
    public static func listen(host: String, port: UInt16, backlog: Int32 = 1024) throws(SystemError)
        -> TCPSocket
    {
        let address = try SocketAddress(numericHost: host, port: port)
        let socket = try TCPSocket(fd: retryingOnInterrupt("socket") { CSystem_tcpSocket(address.family) })
        try socket.setOption(SOL_SOCKET, SO_REUSEADDR, 1, "setsockopt(SO_REUSEADDR)")
        try retryingOnInterrupt("bind", path: address.description) {
            address.withSockAddr { Glibc.bind(socket.fd, $0, $1) }
        }
        try retryingOnInterrupt("listen", path: address.description) { Glibc.listen(socket.fd, backlog) }
        return socket
    }

    /// Accepts one pending connection, or nil when none is waiting (EAGAIN).
    public func accept() throws(SystemError) -> TCPSocket? {
        do {
            return TCPSocket(fd: try retryingOnInterrupt("accept") { CSystem_accept(fd) })
        } catch  where error.errno == EAGAIN || error.errno == EWOULDBLOCK || error.errno == ECONNABORTED {
            return nil
        }
    }

    /// Starts a non-blocking connect; true when already connected, false when in progress (EINPROGRESS).
    static func startConnect(to address: SocketAddress) throws(SystemError) -> (TCPSocket, Bool) {
        let socket = try TCPSocket(fd: retryingOnInterrupt("socket") { CSystem_tcpSocket(address.family) })
        // EINTR during a non-blocking connect leaves it in progress: retrying would give EALREADY.
        let result = address.withSockAddr { Glibc.connect(socket.fd, $0, $1) }
        if result == 0 { return (socket, true) }
        let code = Glibc.errno
        if code == EINPROGRESS || code == EINTR { return (socket, false) }
        throw SystemError(errno: code, call: "connect", path: address.description)
    }

    /// The pending error of a finished non-blocking connect (SO_ERROR), 0 when it succeeded.
    func pendingError() throws(SystemError) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        try retryingOnInterrupt("getsockopt(SO_ERROR)") {
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &value, &length)
        }
        return value
    }

    /// Reads up to `buffer.count` bytes; `.bytes(0)` is end of stream.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> IOResult {
        do {
            return .bytes(
                try retryingOnInterrupt("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) })
        } catch  where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
            return .wouldBlock
        }
    }

    /// Writes up to `buffer.count` bytes (MSG_NOSIGNAL: a closed peer is EPIPE, not SIGPIPE).
    public func write(from buffer: UnsafeRawBufferPointer) throws(SystemError) -> IOResult {
        do {
            return .bytes(
                try retryingOnInterrupt("send") {
                    Glibc.send(fd, buffer.baseAddress, buffer.count, CSystem_sendFlags)
                })
        } catch  where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
            return .wouldBlock
        }
    }

    /// Writes from several buffers at once, in order, up to their total (MSG_NOSIGNAL, as `write`).
    func write(vectors: UnsafeMutableBufferPointer<iovec>) throws(SystemError) -> IOResult {
        var message = msghdr()
        message.msg_iov = vectors.baseAddress
        message.msg_iovlen = vectors.count
        do {
            return .bytes(try retryingOnInterrupt("sendmsg") { sendmsg(fd, &message, CSystem_sendFlags) })
        } catch where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
            return .wouldBlock
        }
    }

    /// Disables (true) or enables Nagle's algorithm: blocks go out at once.
    public func setNoDelay(_ on: Bool = true) throws(SystemError) {
        try setOption(Int32(IPPROTO_TCP), TCP_NODELAY, on ? 1 : 0, "setsockopt(TCP_NODELAY)")
    }

    /// Turns on TCP keep-alive: first probe after `idle` seconds, then every `interval`, dropping after `count`.
    public func setKeepAlive(idle: Int32 = 30, interval: Int32 = 15, count: Int32 = 4) throws(SystemError) {
        try setOption(SOL_SOCKET, SO_KEEPALIVE, 1, "setsockopt(SO_KEEPALIVE)")
        try setOption(Int32(IPPROTO_TCP), CSystem_tcpKeepIdle, idle, "setsockopt(TCP_KEEPIDLE)")
        try setOption(Int32(IPPROTO_TCP), CSystem_tcpKeepInterval, interval, "setsockopt(TCP_KEEPINTVL)")
        try setOption(Int32(IPPROTO_TCP), CSystem_tcpKeepCount, count, "setsockopt(TCP_KEEPCNT)")
    }

    /// Which directions `shutdown` closes.
    public enum ShutdownDirection: Sendable {
        case read, write, both
    }

    /// Shuts down one or both directions; the descriptor stays open until deinit.
    public func shutdown(_ direction: ShutdownDirection) throws(SystemError) {
        let how: Int32
        switch direction {
        case .read: how = Int32(SHUT_RD)
        case .write: how = Int32(SHUT_WR)
        case .both: how = Int32(SHUT_RDWR)
        }
        try retryingOnInterrupt("shutdown") { Glibc.shutdown(fd, how) }
    }

    /// The local address (port 0 at `listen` reads back as the real port here).
    public func localAddress() throws(SystemError) -> SocketAddress {
        var address = SocketAddress()
        address.length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        try withUnsafeMutablePointer(to: &address.storage) { (pointer) throws(SystemError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (raw) throws(SystemError) in
                _ = try retryingOnInterrupt("getsockname") { getsockname(fd, raw, &address.length) }
            }
        }
        return address
    }

    /// The local port, e.g. the one the kernel chose for port 0 (0 if it cannot be read).
    public var localPort: UInt16 { (try? localAddress().port) ?? 0 }

    /// The peer's address as text ("127.0.0.1:40112"), or "unknown" once disconnected.
    public var peerAddress: String {
        var address = SocketAddress()
        address.length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &address.storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &address.length) }
        }
        return result == 0 ? address.description : "unknown"
    }

    private func setOption(_ level: Int32, _ name: Int32, _ value: Int32, _ call: String) throws(SystemError)
    {
        var value = value
        try retryingOnInterrupt(call) {
            setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
        }
    }
}
