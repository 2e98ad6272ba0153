import Glibc
import SimpleXSystem

extension TCPSocket {
    /// Connects without blocking any thread: the connect completes on `loop`, or fails with
    /// ETIMEDOUT after `timeout`. `host` is a numeric IPv4/IPv6 address or "localhost".
    public static func connect(host: String, port: UInt16, timeout: Duration, on loop: EventLoop)
        async throws(SystemError) -> TCPSocket
    {
        let address = try SocketAddress(numericHost: host, port: port)
        let result: Result<TCPSocket, SystemError> = await withCheckedContinuation { continuation in
            let queued = loop.execute {
                PendingConnect(loop: loop, address: address, continuation: continuation).start(
                    timeout: timeout)
            }
            if !queued {
                let error = SystemError(errno: ESHUTDOWN, call: "connect", path: address.description)
                continuation.resume(returning: .failure(error))
            }
        }
        return try result.get()
    }
}

/// One connect in progress, confined to its loop; whichever of writable or the timer comes first wins.
private final class PendingConnect {
    let loop: EventLoop
    let address: SocketAddress
    var continuation: CheckedContinuation<Result<TCPSocket, SystemError>, Never>?
    var socket: TCPSocket?
    var registration: UInt64?
    var timer: TimerHandle?

    init(
        loop: EventLoop, address: SocketAddress,
        continuation: CheckedContinuation<Result<TCPSocket, SystemError>, Never>
    ) {
        self.loop = loop
        self.address = address
        self.continuation = continuation
    }

    func start(timeout: Duration) {
        do {
            let (socket, connected) = try TCPSocket.startConnect(to: address)
            if connected { return finish(.success(socket)) }
            self.socket = socket
            registration = try loop.register(fd: socket.fd, interest: .write) { [self] _ in completed() }
            timer = loop.scheduleLocal(after: timeout) { [self] in
                finish(.failure(SystemError(errno: ETIMEDOUT, call: "connect", path: address.description)))
            }
        } catch {
            finish(.failure(error))
        }
    }

    /// The loop shut down with the connect still pending: fail it rather than leave the caller waiting.
    deinit {
        continuation?.resume(
            returning: .failure(SystemError(errno: ECANCELED, call: "connect", path: address.description)))
    }

    private func completed() {
        guard let socket else { return }
        do {
            let code = try socket.pendingError()
            if code == 0 { return finish(.success(socket)) }
            finish(.failure(SystemError(errno: code, call: "connect", path: address.description)))
        } catch {
            finish(.failure(error))
        }
    }

    private func finish(_ result: Result<TCPSocket, SystemError>) {
        guard let continuation else { return }
        self.continuation = nil
        timer?.cancel()
        if let registration, let socket { loop.unregister(fd: socket.fd, registration: registration) }
        registration = nil
        socket = nil  // on failure this closes the descriptor
        continuation.resume(returning: result)
    }
}
