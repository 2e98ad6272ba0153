import SimpleXNetwork
import SimpleXProtocol

/// One client connection to the relay: the handshake, then the encrypted block stream.
/// Confined to the relay's loop thread, like everything the relay owns.
final class RelaySession {
    enum State {
        case awaitingClientHello(ServerHandshake)
        case active(TransportSession)
        case closed
    }

    let id: Int
    /// nil for a connection driven in process (`InProcessRelay`), whose blocks are plaintext.
    let connection: BlockConnection?
    var state: State
    /// Queues this connection is subscribed to (the relay's `subscribers` is the other side).
    var subscriptions: Set<QueueID> = []
    /// Replies and events waiting for the end of this loop turn (after the store commit).
    var pending: [[UInt8]] = []
    /// X25519 authenticator keys for this session, by the queue's public auth key: one DH per
    /// queue per session instead of one per command.
    var authenticatorKeys: [Key32: QueueAuthenticatorKey] = [:]

    init(id: Int, connection: BlockConnection?, handshake: ServerHandshake) {
        self.id = id
        self.connection = connection
        state = .awaitingClientHello(handshake)
    }

    var transport: TransportSession? {
        if case .active(let session) = state { return session }
        return nil
    }

    /// Queues a reply or event transmission for this turn's flush.
    func enqueue(_ response: SMPResponse, correlationID: CorrelationID, entityID: EntityID) {
        guard let transmission = try? SMPTransmission.response(response, correlationID: correlationID, entityID: entityID),
            let bytes = try? transmission.encode()
        else { return }
        pending.append(bytes)
    }

    /// Seals the pending transmissions into as few blocks as they fit and sends them.
    func flush() {
        guard !pending.isEmpty, case .active(var session) = state else { return }
        // Out of the state while it advances: the chain buffer stays uniquely referenced and is
        // rewritten in place, not copied (copy-on-write).
        state = .closed
        let transmissions = pending
        pending.removeAll(keepingCapacity: true)
        for batch in TransportBlock.batch(transmissions) {
            do {
                let padded = try TransportBlock.encode(batch)
                try padded.withUnsafeBytes { padded throws in
                    try connection?.send { (block) throws(TransportError) in try session.sealBlock(padded, into: block) }
                }
            } catch {
                // Only a transmission too large for any block lands here; it is dropped, not sent.
                continue
            }
        }
        state = .active(session)
    }
}
