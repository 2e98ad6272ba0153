import SimpleXProtocol

/// The relay's block handling without sockets or encryption: the code `RelayServer` runs for
/// every decrypted block (batch decoding, transmission decoding, commands against the durable
/// store, group commit, replies), driven with plaintext blocks. For fuzzers and benchmarks that
/// need millions of inputs; the socket path adds only the block cipher and the event loop.
///
/// Not thread-safe: use it from one task or thread.
public final class InProcessRelay {
    /// One client connection: both ends of an in-memory handshake.
    public final class Connection {
        /// The client's end; its session id is what commands sign.
        public let client: TransportSession
        let server: TransportSession
        let session: RelaySession

        init(client: TransportSession, server: TransportSession, session: RelaySession) {
            self.client = client
            self.server = server
            self.session = session
        }
    }

    public let identity: ServerIdentity
    let core: RelayCore
    private var nextSessionID = 0

    /// Opens (or creates) the store in `storeDirectory`, which must exist. The journal is
    /// fsync'd at most once a second (as a relay configured with fsync_interval_ms = 1000).
    public init(
        storeDirectory: String, configuration: QueueStoreConfiguration = .init(),
        environment: StoreEnvironment = .live, identity: ServerIdentity = .generate()
    ) throws(QueueStoreError) {
        self.identity = identity
        core = RelayCore(
            store: try DurableQueueStore(
                directory: storeDirectory, configuration: configuration, environment: environment,
                options: .init(syncPolicy: .interval(milliseconds: 1000))))
    }

    /// A new connection, after the same handshake a socket connection performs.
    public func connect() throws(TransportError) -> Connection {
        let handshake = ServerHandshake(identity: identity)
        let (hello, client) = try ClientHandshake(expectedKeyHash: identity.fingerprint).receive(handshake.hello())
        let server = try handshake.receive(hello)
        nextSessionID += 1
        let session = RelaySession(id: nextSessionID, connection: nil, handshake: handshake)
        session.state = .active(server)
        return Connection(client: client, server: server, session: session)
    }

    /// Handles one decrypted block (`TransportBlock.encryptedPayloadSize` bytes, valid or not)
    /// from `connection` as the server does, commits the store, and returns the transmissions
    /// now waiting for `connection`: a reply per transmission (or one ERR BLOCK) and any events.
    /// Events for other connections wait for `take(for:)`.
    public func receive(_ padded: [UInt8], from connection: Connection) throws(QueueStoreError) -> [[UInt8]] {
        core.receive(padded, on: connection.session, transport: connection.server)
        try core.store.commit()
        return take(for: connection)
    }

    /// The transmissions waiting for `connection` (events caused by other connections' commands).
    public func take(for connection: Connection) -> [[UInt8]] {
        defer { connection.session.pending.removeAll(keepingCapacity: true) }
        return connection.session.pending
    }

    /// Ends a connection: it is nobody's subscriber any more.
    public func close(_ connection: Connection) {
        core.closed(connection.session)
    }

    /// Live queues in the store.
    public var queueCount: Int { core.store.store.queueCount }

    /// Commits, syncs and releases the store.
    public func shutdown() throws(QueueStoreError) {
        try core.store.close()
    }
}
