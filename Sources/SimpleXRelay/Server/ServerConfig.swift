import Foundation

/// The relay's settings, kept in `smp-server.ini` in the config directory (`key = value` lines
/// under `[sections]`, `#` comments), written by `smp-server init` and read by `start`.
public struct ServerConfig: Equatable, Sendable {
    public var host = "127.0.0.1"
    public var port: UInt16 = 5223
    /// The local address to listen on (0.0.0.0 for every interface of a public relay).
    public var listen = "127.0.0.1"
    /// Where queues and messages are kept; relative paths are inside the config directory.
    public var storePath = "store"
    /// How often the journal is fsync'd (see `FsyncPolicy`); 0 = on every commit.
    public var fsyncIntervalMilliseconds = 10
    public var queueQuota = 128
    public var messageExpiryDays = 21
    public var maxConnections = 10_000
    /// A connection that sends nothing (not even PING) for this long is closed.
    public var idleTimeoutSeconds = 3600
    /// Seconds between statistics lines in the log (0 = none).
    public var statisticsInterval = 3600

    public init() {}

    /// The file text, with comments that explain each setting.
    public var text: String {
        """
        # smp-server configuration; `smp-server start` reads it.
        [server]
        # Host name or address clients use to reach this server; it is part of the address.
        host = \(host)
        port = \(port)
        # The local address to listen on: 0.0.0.0 to serve on every interface.
        listen = \(listen)

        [store]
        # Queues and undelivered messages; relative to this directory.
        path = \(storePath)
        # A SEND is answered OK only after its record is written (it survives kill -9);
        # the journal is fsync'd at most this many milliseconds later (0 = before every OK).
        fsync_interval_ms = \(fsyncIntervalMilliseconds)

        [limits]
        queue_quota = \(queueQuota)
        message_expiry_days = \(messageExpiryDays)
        max_connections = \(maxConnections)
        # Connections silent for this long (no command, no PING) are closed.
        idle_timeout_s = \(idleTimeoutSeconds)

        [log]
        statistics_interval_s = \(statisticsInterval)

        """
    }

    /// Parses the file text; unknown keys and bad values are one-line errors naming the line.
    public init(text: String) throws(ServerConfigError) {
        var section = ""
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
                continue
            }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[1].isEmpty else {
                throw ServerConfigError(line: number + 1, "expected `key = value`")
            }
            try set("\(section).\(parts[0])", parts[1], line: number + 1)
        }
    }

    private mutating func set(_ key: String, _ value: String, line: Int) throws(ServerConfigError) {
        func integer(_ range: ClosedRange<Int>) throws(ServerConfigError) -> Int {
            guard let number = Int(value), range.contains(number) else {
                throw ServerConfigError(line: line, "\(key) must be a whole number in \(range.lowerBound)...\(range.upperBound)")
            }
            return number
        }
        switch key {
        case "server.host": host = value
        case "server.port": port = UInt16(try integer(0...65_535))
        case "server.listen": listen = value
        case "store.path": storePath = value
        case "store.fsync_interval_ms": fsyncIntervalMilliseconds = try integer(0...60_000)
        case "limits.queue_quota": queueQuota = try integer(1...65_535)
        case "limits.message_expiry_days": messageExpiryDays = try integer(1...3650)
        case "limits.max_connections": maxConnections = try integer(1...1_000_000)
        case "limits.idle_timeout_s": idleTimeoutSeconds = try integer(10...86_400)
        case "log.statistics_interval_s": statisticsInterval = try integer(0...86_400)
        default: throw ServerConfigError(line: line, "unknown setting \(key)")
        }
    }
}

/// A mistake in `smp-server.ini`.
public struct ServerConfigError: Error, Equatable, CustomStringConvertible {
    public let line: Int
    public let message: String
    init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }
    public var description: String { "smp-server.ini line \(line): \(message)" }
}
