import SimpleXProtocol

/// The relay's state (the store, which connection is subscribed to which queue, the statistics)
/// and its handling of decrypted blocks, apart from sockets and the event loop: `RelayServer`
/// drives it from its loop, and `InProcessRelay` drives the same code with plaintext blocks so
/// fuzzers and benchmarks reach command handling without the transport.
///
/// Confined to one thread (the server's loop), like everything the relay owns.
final class RelayCore {
    let store: DurableQueueStore
    /// The one connection subscribed to each queue (SMP: a new SUB ends the previous one).
    var subscribers: [QueueID: RelaySession] = [:]
    var statistics = RelayStatistics()

    init(store: DurableQueueStore) {
        self.store = store
    }

    /// One decrypted block from `session`: each transmission's reply, or one ERR BLOCK for a
    /// block that is not a batch, goes to the session's pending list (deliveries and END to
    /// other sessions' lists); the caller commits the store and then sends them.
    func receive(_ padded: [UInt8], on session: RelaySession, transport: TransportSession) {
        guard let transmissions = try? TransportBlock.decode(padded) else {
            statistics.badBlocks += 1
            session.enqueue(.err(.block), correlationID: .empty, entityID: .empty)
            return
        }
        for bytes in transmissions { process(bytes, on: session, transport: transport) }
    }

    /// A connection ended: it is nobody's subscriber any more.
    func closed(_ session: RelaySession) {
        session.state = .closed
        for queue in session.subscriptions where subscribers[queue] === session { subscribers[queue] = nil }
        session.subscriptions.removeAll()
    }
}
