import Foundation

/// A real `smp-server` process on loopback with its own config directory (port 0: the server
/// picks a free port and prints it). Restartable on the same directory, like a host reboot.
public final class RelayProcess: Sendable {
    public let directory: TemporaryDirectory
    public let configDirectory: String
    private let process: ChildProcess
    /// The port this run listens on.
    public let port: UInt16
    /// The address this run printed (`smp://<fingerprint>@127.0.0.1:<port>`).
    public let address: String

    /// Initializes a new relay (`extraConfig` lines are appended to smp-server.ini) and starts it.
    public convenience init(extraConfig: [String: String] = [:]) async throws {
        let directory = try TemporaryDirectory("relay")
        let config = directory.appending("config")
        let initialize = try ChildProcess(try BuiltProducts.path("smp-server"), ["init", "--config", config, "--port", "0"])
        guard try await initialize.wait() == 0 else {
            throw TestSupportError("smp-server init failed: \(initialize.allErrors)")
        }
        if !extraConfig.isEmpty {
            var text = try String(contentsOfFile: "\(config)/smp-server.ini", encoding: .utf8)
            for (key, value) in extraConfig {
                // Replace `key = ...` in place.
                text = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                    line.hasPrefix("\(key) =") ? "\(key) = \(value)" : String(line)
                }.joined(separator: "\n")
            }
            try text.write(toFile: "\(config)/smp-server.ini", atomically: true, encoding: .utf8)
        }
        try await self.init(directory: directory)
    }

    /// Starts a relay on an existing directory (a restart).
    public init(directory: TemporaryDirectory) async throws {
        self.directory = directory
        configDirectory = directory.appending("config")
        StrayChildren.reapOnce()
        process = try ChildProcess(try BuiltProducts.path("smp-server"), ["start", "--config", configDirectory])
        let listening = try await process.line(timeout: .seconds(20)) { $0.hasPrefix("listening on ") }
        guard let portText = listening.split(separator: ":").last, let port = UInt16(portText) else {
            throw TestSupportError("smp-server printed no port: \(listening)")
        }
        self.port = port
        let addressLine = try await process.line(timeout: .seconds(5)) { $0.hasPrefix("address: ") }
        address = String(addressLine.dropFirst("address: ".count))
    }

    /// SIGKILL, as a crash or power cut of the process.
    public func kill() async throws {
        process.kill(SIGKILL)
        try await process.wait()
    }

    /// A clean stop (SIGINT: SIGTERM is blocked in the test runner's children).
    public func stop() async throws -> Int32 {
        process.kill(SIGINT)
        return try await process.wait()
    }

    /// SIGSTOP: the relay stops answering but keeps its port (no other test's server can take
    /// the port and get this relay's clients); `resume` goes on.
    public func pause() { process.kill(SIGSTOP) }

    public func resume() { process.kill(SIGCONT) }

    /// What the server logged.
    public var log: [String] { process.allErrors }

    /// Asks for a statistics line.
    public func requestStatistics() { process.kill(SIGUSR1) }
}
