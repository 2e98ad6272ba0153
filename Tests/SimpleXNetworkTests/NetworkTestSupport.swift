import Glibc
@testable import SimpleXNetwork
import Synchronization
import Testing

/// What one connection saw: blocks received, in order, and how it closed.
final class ConnectionLog: Sendable {
    private let state = Mutex<(blocks: [[UInt8]], closes: [CloseReason])>(([], []))
    var blocks: [[UInt8]] { state.withLock { $0.blocks } }
    var closes: [CloseReason] { state.withLock { $0.closes } }
    func record(_ block: UnsafeRawBufferPointer) { state.withLock { $0.blocks.append(Array(block)) } }
    func record(_ reason: CloseReason) { state.withLock { $0.closes.append(reason) } }
}

/// An echo server on 127.0.0.1, port 0, with its own loops; logs every server-side close.
struct EchoServer {
    let group: EventLoopGroup
    let server: BlockServer
    let closes = ConnectionLog()
    var port: UInt16 { server.port }

    init(blockSize: Int, limits: BlockConnectionLimits = .init(), loops: Int = 2) throws {
        group = try EventLoopGroup(loopCount: loops, name: "echo")
        let closes = closes
        server = try BlockServer(port: 0, blockSize: blockSize, group: group, limits: limits) { connection in
            connection.start(
                onBlock: { connection, block in connection.send(block) },
                onClose: { _, reason in closes.record(reason) })
        }
    }

    func stop() {
        server.close()
        group.shutdown()
    }
}

/// A started client connection and its log.
struct TestClient {
    let connection: BlockConnection
    let log = ConnectionLog()

    init(
        port: UInt16, blockSize: Int, loop: EventLoop, limits: BlockConnectionLimits = .init(),
        host: String = "127.0.0.1"
    ) async throws {
        connection = try await BlockConnection.connect(
            host: host, port: port, blockSize: blockSize, on: loop, timeout: .seconds(10), limits: limits)
        let (connection, log) = (connection, log)
        await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
            loop.execute {
                connection.start(
                    onBlock: { _, block in log.record(block) }, onClose: { _, reason in log.record(reason) })
                started.resume()
            }
        }
    }
}

/// Random bytes, made once per size: debug builds are too slow to generate every block byte by byte.
private let randomBases = Mutex<[Int: [UInt8]]>([:])

/// A block of random bytes stamped with `seed` at both ends, so a misplaced, mixed-up or corrupted block is caught.
func patternBlock(size: Int, seed: Int) -> [UInt8] {
    var block = randomBases.withLock { bases in
        if let base = bases[size] { return base }
        var generator = SystemRandomNumberGenerator()
        let base = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bases[size] = base
        return base
    }
    withUnsafeBytes(of: UInt64(seed).littleEndian) { stamp in
        block.replaceSubrange(0..<8, with: stamp)
        block.replaceSubrange((size - 8)..<size, with: stamp)
    }
    return block
}

/// A plain blocking loopback socket for tests that need control over each write; reads time out after 10 s.
final class RawClient {
    let fd: Int32

    init(port: UInt16, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var noDelay: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, 4)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, 4) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(result == 0)
    }

    deinit { Glibc.close(fd) }

    func write(_ bytes: some Collection<UInt8>) throws {
        let bytes = Array(bytes)
        let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        try #require(written == bytes.count)
    }

    /// Reads exactly `count` bytes (or fewer if the peer closes or the read times out).
    func read(count: Int) -> [UInt8] { Self.read(fd, count: count) }

    /// The same on a bare descriptor, for reading from a thread of the test's own.
    static func read(_ fd: Int32, count: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = buffer.withUnsafeMutableBytes {
                Glibc.read(fd, $0.baseAddress! + filled, count - filled)
            }
            if got <= 0 { break }
            filled += got
        }
        return Array(buffer[0..<filled])
    }
}

/// A value shared between test code and loop threads.
final class Shared<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func withLock<T: Sendable>(_ body: (inout Value) -> T) -> T { value.withLock { body(&$0) } }
}
