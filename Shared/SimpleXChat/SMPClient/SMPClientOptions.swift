import Foundation

/// Timeouts, keep-alive and reconnection settings of an `SMPClient`.
public struct SMPClientOptions: Sendable {
    /// Limit for the TCP connect plus the server hello.
    public var connectTimeout: Duration
    /// How long a command waits for its reply before failing with `.timeout`.
    public var commandTimeout: Duration
    /// Send PING after this long without sending anything, so the relay and NATs keep the connection.
    public var pingInterval: Duration
    /// How long PING waits for PONG before the connection is dropped and re-established.
    public var pingTimeout: Duration
    /// Delays between reconnection attempts.
    public var backoff: SMPBackoff

    /// Defaults: 15 s connect, 30 s per command, PING after 60 s idle with 15 s for PONG (the
    /// relay closes connections idle for 15 min), reconnect backoff 1 s doubling up to 60 s.
    public init(
        connectTimeout: Duration = .seconds(15), commandTimeout: Duration = .seconds(30),
        pingInterval: Duration = .seconds(60), pingTimeout: Duration = .seconds(15),
        backoff: SMPBackoff = SMPBackoff()
    ) {
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
        self.pingInterval = pingInterval
        self.pingTimeout = pingTimeout
        self.backoff = backoff
    }
}

/// Exponential backoff with full jitter: attempt n waits a uniform random time in
/// `0 ... min(maximum, initial × multiplierⁿ)`, so clients cut off together do not return together.
public struct SMPBackoff: Sendable, Equatable {
    /// The cap of the first attempt's delay.
    public var initial: Duration
    /// The largest cap.
    public var maximum: Duration
    /// How much the cap grows per failed attempt.
    public var multiplier: Double

    /// Defaults: 1 s, doubling, up to 60 s.
    public init(initial: Duration = .seconds(1), maximum: Duration = .seconds(60), multiplier: Double = 2) {
        self.initial = initial
        self.maximum = maximum
        self.multiplier = multiplier
    }

    /// The cap for attempt `attempt` (0 for the first reconnection).
    public func cap(attempt: Int) -> Duration {
        let growth = Foundation.pow(max(1, multiplier), Double(min(attempt, 64)))
        let seconds = initial.seconds * growth
        return seconds >= maximum.seconds ? maximum : .seconds(seconds)
    }

    /// The delay before attempt `attempt`, for `random` uniform in `0..<1` (clamped into it).
    public func delay(attempt: Int, random: Double) -> Duration {
        .seconds(cap(attempt: attempt).seconds * min(max(random, 0), 1))
    }
}

/// The effects a client needs that tests control: jitter randomness and sleeping between reconnects.
public struct SMPClientEnvironment: Sendable {
    /// A uniform random number in `0..<1`.
    public var random: @Sendable () -> Double
    /// Suspends for a backoff delay; throws when cancelled (on `close()`).
    public var sleep: @Sendable (Duration) async throws -> Void

    /// Wraps the two effects.
    public init(
        random: @escaping @Sendable () -> Double, sleep: @escaping @Sendable (Duration) async throws -> Void
    ) {
        self.random = random
        self.sleep = sleep
    }

    /// The system random generator and `Task.sleep`.
    public static let live = SMPClientEnvironment(
        random: { Double.random(in: 0..<1) }, sleep: { try await Task.sleep(for: $0) })
}

extension Duration {
    /// The duration in seconds as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
