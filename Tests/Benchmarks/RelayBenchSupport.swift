import Foundation
import SimpleXProtocol
import TestSupport

/// An `smp-server` child process: its pid for VmRSS, its port and key hash from what it prints.
final class RelayChild {
    let process: SpawnedProcess
    private let output: FileHandle
    private var buffered: [UInt8] = []
    private(set) var port: UInt16 = 0
    private(set) var keyHash: [UInt8] = []

    init(server: String, arguments: [String]) throws {
        let (read, write) = try SpawnedProcess.pipe()
        defer { close(write) }
        do {
            process = try SpawnedProcess(
                server, arguments, environment: ProcessInfo.processInfo.environment, streams: [-1, write, -1])
        } catch {
            close(read)
            throw error
        }
        output = FileHandle(fileDescriptor: read, closeOnDealloc: true)
    }

    static func initialize(server: String, config: String) throws {
        let child = try RelayChild(server: server, arguments: ["init", "--config", config, "--port", "0"])
        guard child.process.waitUntilExit() == 0 else { throw RelayBenchError("smp-server init failed") }
    }

    static func initializedAndStarted(server: String, config: String) throws -> RelayChild {
        try initialize(server: server, config: config)
        let relay = try RelayChild(server: server, arguments: ["start", "--config", config])
        try relay.waitUntilListening(timeout: .seconds(30))
        return relay
    }

    /// The store directory smp-server.ini names (relative paths are inside the config directory).
    static func storeDirectory(config: String) throws -> String {
        let text = try String(contentsOfFile: "\(config)/smp-server.ini", encoding: .utf8)
        var section = ""
        for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("[") { section = line }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if section == "[store]", parts.count == 2, parts[0] == "path" {
                return parts[1].hasPrefix("/") ? parts[1] : "\(config)/\(parts[1])"
            }
        }
        return "\(config)/store"
    }

    /// Reads "listening on host:port" and "address: smp://…".
    func waitUntilListening(timeout: Duration) throws {
        let listening = try line(prefix: "listening on ", timeout: timeout)
        guard let text = listening.split(separator: ":").last, let port = UInt16(text) else {
            throw RelayBenchError("smp-server printed \(listening)")
        }
        self.port = port
        let address = try line(prefix: "address: ", timeout: .seconds(5))
        keyHash = try SMPServerAddress(address.dropFirst("address: ".count)).keyHash
    }

    private func line(prefix: String, timeout: Duration) throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                if line.hasPrefix(prefix) { return line }
                continue
            }
            let left = deadline - .now
            guard left > .zero else { throw RelayBenchError("smp-server did not print \(prefix)") }
            var poll = pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = Glibc.poll(&poll, 1, Int32(min(left.seconds * 1000, 1000)))
            var chunk = [UInt8](repeating: 0, count: 4096)
            if poll.revents != 0 {
                let n = read(output.fileDescriptor, &chunk, chunk.count)
                guard n > 0 else { throw RelayBenchError("smp-server exited before printing \(prefix)") }
                buffered.append(contentsOf: chunk[..<n])
            }
        }
    }

    /// VmRSS from /proc/<pid>/status, in bytes.
    func residentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap({ Int($0) })
        else { throw RelayBenchError("no VmRSS for \(process.pid)") }
        return kilobytes * 1024
    }

    /// SIGINT, then SIGKILL if it has not exited within 10 s (logged: a clean stop that hangs is
    /// a finding, but must not hang the benchmarks).
    func stop() {
        guard process.isRunning else { return }
        process.signal(SIGINT)
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning && ContinuousClock.now < deadline { usleep(20_000) }
        if process.isRunning {
            print("  (smp-server \(process.pid) did not exit 10 s after SIGINT: killed)")
            process.signal(SIGKILL)
        }
        process.waitUntilExit()
    }
}

/// A minimal blocking SMP client for the benchmarks: the handshake, sealed blocks, batches.
final class BenchRelayClient {
    private let fd: Int32
    var session: TransportSession

    /// Connects and, with `keyHash`, completes the handshake; without, only connects (the caller
    /// speaks the handshake, or garbage).
    init(port: UInt16, keyHash: [UInt8]?) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw RelayBenchError("connect to 127.0.0.1:\(port): errno \(errno)")
        }
        self.fd = fd
        // A throwaway session for a client that does not complete the handshake.
        let identity = ServerIdentity.generate()
        let handshake = ServerHandshake(identity: identity)
        session = try ClientHandshake(expectedKeyHash: identity.fingerprint).receive(handshake.hello()).1
        if let keyHash {
            let hello = try ServerHello.decode(try readBlock())
            let (clientHello, established) = try ClientHandshake(expectedKeyHash: keyHash).receive(hello)
            try writeBlock(clientHello.encode())
            session = established
        }
    }

    deinit { close(fd) }

    func writeBlock(_ block: [UInt8]) throws {
        var offset = 0
        while offset < block.count {
            let n = block.withUnsafeBytes { write(fd, $0.baseAddress! + offset, block.count - offset) }
            guard n > 0 else { throw RelayBenchError("write: errno \(errno)") }
            offset += n
        }
    }

    /// The next block; nil when the relay closed the connection.
    func readBlockOrClose() throws -> [UInt8]? {
        var block = [UInt8](repeating: 0, count: TransportBlock.size)
        var offset = 0
        while offset < block.count {
            let n = block.withUnsafeMutableBytes { read(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n == 0 || (n < 0 && errno == ECONNRESET) { return nil }
            guard n > 0 else { throw RelayBenchError("read: errno \(errno)") }
            offset += n
        }
        return block
    }

    func readBlock() throws -> [UInt8] {
        guard let block = try readBlockOrClose() else { throw RelayBenchError("the relay closed the connection") }
        return block
    }

    /// Whether the relay closes the connection (within the 30 s read timeout).
    func isClosedByRelay() -> Bool {
        while true {
            do {
                if try readBlockOrClose() == nil { return true }
            } catch {
                return false
            }
        }
    }

    /// The transmissions, in as few sealed blocks as they fit.
    func send(_ transmissions: [[UInt8]]) throws {
        for batch in TransportBlock.batch(transmissions) {
            try writeBlock(session.sealBlock(TransportBlock.encode(batch)))
        }
    }

    func receive() throws -> [SMPTransmission] {
        let padded = try session.openBlock(try readBlock())
        return try TransportBlock.decode(padded).map { try SMPTransmission.decode($0) }
    }

    /// One transmission and its reply.
    func command(_ transmission: SMPTransmission) throws -> SMPResponse {
        try send([transmission.encode()])
        while true {
            if let reply = try receive().first(where: { $0.correlationID == transmission.correlationID }) {
                return try reply.decodeResponse()
            }
        }
    }
}
