import SimpleXSystem

/// Why a `BlockConnection` closed.
public enum CloseReason: Equatable, Sendable {
    /// The peer closed its side (a read returned end of stream).
    case peerClosed
    /// A read, write or registration failed.
    case error(SystemError)
    /// No block arrived for `idleTimeout`.
    case idleTimeout
    /// The peer did not read what we sent: the outbound queue stayed full for `slowConsumerTimeout`.
    case slowConsumer
    /// `close()` was called (or the server is at its connection limit).
    case local
}

/// Per-connection limits that protect a relay from slow and idle clients.
public struct BlockConnectionLimits: Sendable {
    /// Outbound bytes queued before we stop reading the peer's input (backpressure).
    public var maxQueuedBytes: Int
    /// How long the queue may stay full before the connection closes as `.slowConsumer`.
    public var slowConsumerTimeout: Duration
    /// Close when no block arrives for this long; nil never closes an idle connection.
    public var idleTimeout: Duration?

    /// Defaults: 1 MiB (64 SMP blocks) queued, 30 s to drain it, 15 min idle (SMP clients ping more often).
    public init(
        maxQueuedBytes: Int = 1 << 20, slowConsumerTimeout: Duration = .seconds(30),
        idleTimeout: Duration? = .seconds(15 * 60)
    ) {
        self.maxQueuedBytes = maxQueuedBytes
        self.slowConsumerTimeout = slowConsumerTimeout
        self.idleTimeout = idleTimeout
    }
}
