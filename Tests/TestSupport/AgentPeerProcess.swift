import Foundation

/// One user's agent in its own `simplex-test-peer agent` process, with its own group directory;
/// restartable on that directory (after `kill`, as a crash).
public final class AgentPeerProcess: Sendable {
    public let directory: TemporaryDirectory
    public let servers: String
    private let process: ChildProcess

    /// Starts an agent with a fresh group directory using the relays `servers` (comma-separated).
    public convenience init(servers: String) async throws {
        let directory = try TemporaryDirectory("agent")
        try await self.init(directory: directory, servers: servers)
    }

    /// Starts (or restarts) the agent on `directory`.
    public init(directory: TemporaryDirectory, servers: String) async throws {
        self.directory = directory
        self.servers = servers
        StrayChildren.reapOnce()
        process = try ChildProcess(try BuiltProducts.path("simplex-test-peer"), ["agent", directory.path, servers])
        _ = try await process.line(timeout: .seconds(30)) { $0 == "ready" }
    }

    /// Sends a command line.
    public func send(_ command: String) { process.send(command) }

    /// Waits for the next output line starting with `prefix` (earlier lines are consumed); a
    /// line starting with "error" fails the wait at once.
    @discardableResult
    public func expect(_ prefix: String, timeout: Duration = .seconds(60)) async throws -> String {
        let line = try await process.line(timeout: timeout) { $0.hasPrefix(prefix) || $0.hasPrefix("error") }
        guard line.hasPrefix(prefix) else { throw TestSupportError("waiting for \(prefix.debugDescription), got \(line.debugDescription)") }
        return line
    }

    /// The words of the next line starting with `prefix`.
    public func expectWords(_ prefix: String, timeout: Duration = .seconds(60)) async throws -> [String] {
        try await expect(prefix, timeout: timeout).split(separator: " ").map(String.init)
    }

    /// Every output line so far.
    public var output: [String] { process.allOutput }

    /// What the "app" committed: `<conn> <msgId> <integrity> <text>` per received message.
    public func receivedLog() throws -> [String] {
        let path = directory.appending("received.log")
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// SIGKILL: a crash at whatever moment it is in.
    public func kill() async throws {
        process.kill(SIGKILL)
        try await process.wait()
    }

    /// A clean stop.
    public func quit() async throws {
        process.send("quit")
        try await process.wait()
    }
}

/// A TCP port on loopback that was free a moment ago (for a relay that must keep its port
/// across a restart, since the port is part of its address).
public func freeLoopbackPort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw TestSupportError("socket: errno \(errno)") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    guard bound else { throw TestSupportError("bind: errno \(errno)") }
    return UInt16(bigEndian: address.sin_port)
}
