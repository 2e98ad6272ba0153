import SimpleXCrypto
import SimpleXNetwork
import SimpleXProtocol
import Synchronization
import Testing
import TestSupport

@testable import SimpleXChat

/// A small scripted SMP peer on 127.0.0.1 (port 0) that does the server side of the handshake
/// and hands every command to a script. It tests the client's transport mechanics; it is not the relay.
final class ScriptedRelay: Sendable {
    /// A command as the peer received it.
    struct Received: Sendable {
        let transmission: SMPTransmission
        let command: SMPCommand
        /// Which accepted connection (0 for the first) and which block on it.
        let connection: Int
        let block: Int
    }

    typealias Script = @Sendable (PeerConnection, Received) -> Void

    let identity: ServerIdentity
    let group: EventLoopGroup
    let server: BlockServer
    private let state = Mutex<(received: [Received], connections: Int)>(([], 0))

    /// Starts the peer; the connections numbered in `refuse` are dropped as soon as they are
    /// accepted, and a peer that is not `sendingHello` accepts connections and says nothing.
    init(
        identity: ServerIdentity = .generate(), refuse: Set<Int> = [], sendingHello: Bool = true,
        script: @escaping Script
    ) throws {
        self.identity = identity
        group = try EventLoopGroup(loopCount: 1, name: "peer")
        let handshakeIdentity = identity
        let box = WeakRelay()
        server = try BlockServer(port: 0, blockSize: TransportSession.blockSize, group: group) { connection in
            guard let relay = box.relay else { return connection.close() }
            let index = relay.state.withLock { state in
                defer { state.connections += 1 }
                return state.connections
            }
            if refuse.contains(index) { return connection.close() }
            guard sendingHello else {
                return connection.start(onBlock: { _, _ in }, onClose: { _, _ in })
            }
            PeerConnection(connection, index: index, handshake: ServerHandshake(identity: handshakeIdentity))
            {
                peer, received in
                relay.state.withLock { $0.received.append(received) }
                script(peer, received)
            }.start()
        }
        box.relay = self
    }

    /// The address with this peer's fingerprint.
    var address: SMPServerAddress {
        get throws {
            try SMPServerAddress(keyHash: identity.fingerprint, hosts: ["127.0.0.1"], port: server.port)
        }
    }

    /// Every command received so far, in order.
    var received: [Received] { state.withLock { $0.received } }
    /// Connections accepted so far (refused ones included).
    var connectionCount: Int { state.withLock { $0.connections } }

    func stop() {
        server.close()
        group.shutdown()
    }
}

/// Lets the accept handler reach the relay without a retain cycle.
private final class WeakRelay: @unchecked Sendable {
    // @unchecked Sendable: written once before the server can accept (BlockServer registers on its
    // loop via `execute`, whose inbox Mutex orders that write before any read).
    weak var relay: ScriptedRelay?
}

/// The peer's side of one connection, confined to the peer's loop; the script runs there too.
final class PeerConnection: @unchecked Sendable {
    // @unchecked Sendable: used only on `connection.loop`'s thread (scripts run there).
    let connection: BlockConnection
    let index: Int
    private let handshake: ServerHandshake
    private let onCommand: (PeerConnection, ScriptedRelay.Received) -> Void
    private(set) var session: TransportSession?
    private var blocks = 0
    /// Commands a script has put aside to answer later.
    var held: [SMPTransmission] = []

    init(
        _ connection: BlockConnection, index: Int, handshake: ServerHandshake,
        onCommand: @escaping (PeerConnection, ScriptedRelay.Received) -> Void
    ) {
        self.connection = connection
        self.index = index
        self.handshake = handshake
        self.onCommand = onCommand
    }

    func start() {
        connection.start(onBlock: { [self] _, block in received(Array(block)) }, onClose: { _, _ in })
        // The tests build only well-formed hellos.
        connection.send(try! handshake.hello().encode())
    }

    private func received(_ block: [UInt8]) {
        guard session != nil else {
            do {
                session = try handshake.receive(ClientHello.decode(block))
            } catch {
                connection.close()
            }
            return
        }
        guard let padded = try? session!.openBlock(block),
            let transmissions = try? TransportBlock.decode(padded)
        else { return connection.close() }
        let blockIndex = blocks
        blocks += 1
        for bytes in transmissions {
            guard let transmission = try? SMPTransmission.decode(bytes),
                case .success(let command) = transmission.decodeCommand()
            else { continue }
            onCommand(
                self,
                .init(transmission: transmission, command: command, connection: index, block: blockIndex))
        }
    }

    /// Answers a command.
    func reply(_ response: SMPResponse, to transmission: SMPTransmission) {
        sendBlock([(response, transmission.correlationID, transmission.entityID)])
    }

    /// Sends a server event (empty correlation id) about `entityID`.
    func event(_ response: SMPResponse, entityID: EntityID) {
        sendBlock([(response, .empty, entityID)])
    }

    /// Sends several responses in one block.
    func sendBlock(_ responses: [(SMPResponse, CorrelationID, EntityID)]) {
        guard var session else { return }
        let transmissions = responses.map { response, correlationID, entityID in
            try! SMPTransmission.response(response, correlationID: correlationID, entityID: entityID).encode()
        }
        connection.send(try! session.sealBlock(TransportBlock.encode(transmissions)))
        self.session = session
    }

    /// Closes the connection as a crashing server would.
    func drop() { connection.close() }

    /// Whether `transmission` carries a valid authorization by `key` for this session.
    func isAuthorized(_ transmission: SMPTransmission, by key: AuthPublicKey) -> Bool {
        guard let session else { return false }
        let signed = transmission.signedBytes(sessionID: session.sessionID)
        switch key.algorithm {
        case .ed25519:
            return CommandAuthorization.verify(
                transmission.authorization, signedBytes: signed, publicKey: key.raw)
        case .x25519:
            guard let shared = try? QueueAuthenticatorKey(session: session, queueAuthPublicKey: key.raw)
            else {
                return false
            }
            return CommandAuthorization.verify(
                transmission.authorization, signedBytes: signed,
                correlationID: transmission.correlationID.bytes,
                key: shared)
        }
    }
}

/// A value behind a `Mutex`, shareable between tasks and closures.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    var value: Value { mutex.withLock { $0 } }
    func update<T>(_ body: (inout Value) -> T) -> T { mutex.withLock { body(&$0) } }
}

/// Collects a client's events in the background, for `eventually` checks.
final class EventLog: Sendable {
    private let log = Locked<(events: [SMPServerEvent], finished: Bool)>(([], false))

    init(_ client: SMPClient) {
        let (log, events) = (log, client.events)
        Task {
            for await event in events { log.update { $0.events.append(event) } }
            log.update { $0.finished = true }
        }
    }

    var events: [SMPServerEvent] { log.value.events }
    var finished: Bool { log.value.finished }
}

/// Records backoff sleeps and sleeps a millisecond instead, with jitter fixed at `random`.
final class RecordedSleeps: Sendable {
    private let delays = Locked<[Duration]>([])
    let random: Double

    init(random: Double = 0.5) { self.random = random }

    var recorded: [Duration] { delays.value }

    var environment: SMPClientEnvironment {
        SMPClientEnvironment(random: { [random] in random }) { [delays] delay in
            delays.update { $0.append(delay) }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
