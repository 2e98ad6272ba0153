import Foundation
import SimpleXCrypto
import SimpleXProtocol
import TestSupport

/// A deliberately small SMP client for the relay's tests, over a blocking socket: it speaks the
/// handshake and the block chain, and can also send what a real client never would (garbage,
/// bad signatures, malformed transmissions) to check the relay's answers.
final class RawRelayClient: @unchecked Sendable {
    // @unchecked Sendable: used by one test task at a time; blocking calls run on a dispatch queue.
    private let fd: Int32
    private(set) var session: TransportSession?
    /// Events and replies read while waiting for another correlation id.
    private(set) var backlog: [SMPTransmission] = []

    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw TestSupportError("connect to 127.0.0.1:\(port): errno \(errno)") }
    }

    deinit { close(fd) }

    static func connected(to relay: RelayProcess) async throws -> RawRelayClient {
        try await connected(port: relay.port, address: relay.address)
    }

    static func connected(port: UInt16, address: String) async throws -> RawRelayClient {
        let client = try RawRelayClient(port: port)
        try await client.handshake(keyHash: SMPServerAddress(address).keyHash)
        return client
    }

    /// The handshake; `extensionBytes` follow the client hello's fields, as a later version's would.
    func handshake(keyHash: [UInt8], extensionBytes: [UInt8] = []) async throws {
        let hello = try ServerHello.decode(try await readBlock())
        let (clientHello, session) = try ClientHandshake(expectedKeyHash: keyHash, versionRange: .supported).receive(hello)
        let fields = try Padding.unpad(clientHello.encode())
        try await writeBlock(Padding.pad(fields + extensionBytes, to: TransportBlock.size))
        self.session = session
    }

    // MARK: Blocks

    func writeBlock(_ block: [UInt8]) async throws {
        try await blocking { [fd] in
            var offset = 0
            while offset < block.count {
                let n = block.withUnsafeBytes { write(fd, $0.baseAddress! + offset, block.count - offset) }
                guard n > 0 else { throw TestSupportError("write: errno \(errno)") }
                offset += n
            }
        }
    }

    func readBlock() async throws -> [UInt8] {
        try await blocking { [fd] in
            var block = [UInt8](repeating: 0, count: TransportBlock.size)
            var offset = 0
            while offset < block.count {
                let n = block.withUnsafeMutableBytes { read(fd, $0.baseAddress! + offset, $0.count - offset) }
                if n == 0 { throw RelayClosedConnection() }
                guard n > 0 else { throw TestSupportError("read: errno \(errno)") }
                offset += n
            }
            return block
        }
    }

    /// Whether the relay has closed the connection (reads end), waiting up to 10 s.
    func isClosedByRelay() async -> Bool {
        do {
            while true { _ = try await readBlock() }
        } catch is RelayClosedConnection {
            return true
        } catch {
            return false
        }
    }

    /// Seals transmissions into one block and sends it.
    func send(_ transmissions: [SMPTransmission]) async throws {
        try await sendPlain(TransportBlock.encode(transmissions.map { try $0.encode() }))
    }

    /// Seals any 16,368-byte plaintext (valid or not as a batch) and sends it.
    func sendPlain(_ padded: [UInt8]) async throws {
        guard var session else { throw TestSupportError("no session") }
        let block = try session.sealBlock(padded)
        self.session = session
        try await writeBlock(block)
    }

    /// The next block's transmissions.
    func receive() async throws -> [SMPTransmission] {
        guard var session else { throw TestSupportError("no session") }
        let padded = try session.openBlock(try await readBlock())
        self.session = session
        return try TransportBlock.decode(padded).map { try SMPTransmission.decode($0) }
    }

    // MARK: Commands

    /// Sends `command` signed by `key` (if any) and returns the reply with its correlation id;
    /// other transmissions that arrive meanwhile go to `backlog`.
    func command(_ command: SMPCommand, entity: EntityID = .empty, key: TestQueueKey? = nil) async throws -> SMPResponse {
        let correlationID = CorrelationID.random()
        try await send([try transmission(command, correlationID: correlationID, entity: entity, key: key)])
        return try await reply(to: correlationID)
    }

    func transmission(
        _ command: SMPCommand, correlationID: CorrelationID, entity: EntityID, key: TestQueueKey?
    ) throws -> SMPTransmission {
        guard let session else { throw TestSupportError("no session") }
        guard let key else { return try SMPTransmission.command(command, correlationID: correlationID, entityID: entity) }
        return try SMPTransmission.command(
            command, correlationID: correlationID, entityID: entity, sessionID: session.sessionID
        ) { signed in try key.authorize(signed, correlationID: correlationID, session: session) }
    }

    func reply(to correlationID: CorrelationID) async throws -> SMPResponse {
        if let index = backlog.firstIndex(where: { $0.correlationID == correlationID }) {
            return try backlog.remove(at: index).decodeResponse()
        }
        while true {
            var found: SMPTransmission?
            for transmission in try await receive() {
                // Keep everything else in the block for later calls.
                if found == nil, transmission.correlationID == correlationID {
                    found = transmission
                } else {
                    backlog.append(transmission)
                }
            }
            if let found { return try found.decodeResponse() }
        }
    }

    /// The next server event (empty correlation id), from the backlog or the wire.
    func event() async throws -> (EntityID, SMPResponse) {
        if let index = backlog.firstIndex(where: { $0.correlationID.isEmpty }) {
            let transmission = backlog.remove(at: index)
            return (transmission.entityID, try transmission.decodeResponse())
        }
        while true {
            let transmissions = try await receive()
            var found: (EntityID, SMPResponse)?
            for transmission in transmissions {
                if found == nil, transmission.correlationID.isEmpty {
                    found = (transmission.entityID, try transmission.decodeResponse())
                } else {
                    backlog.append(transmission)
                }
            }
            if let found { return found }
        }
    }

    private func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }
}

struct RelayClosedConnection: Error {}

/// A recipient's view of one queue: its keys, ids and the key to decrypt MSG bodies.
struct TestQueue {
    let recipientKey: TestQueueKey
    let dh: X25519.KeyPair
    let recipientID: EntityID
    let senderID: EntityID
    let messageKey: CryptoBox.SharedKey

    /// NEW on `client` (subscribed by default).
    static func create(
        on client: RawRelayClient, key: TestQueueKey? = nil, subscribe: Bool = true, mode: SMPQueueMode = .messaging
    ) async throws -> TestQueue {
        let recipientKey = try key ?? TestQueueKey.ed25519()
        let dh = X25519.generateKeyPair()
        let reply = try await client.command(
            .new(
                recipientAuthKey: recipientKey.publicKey, recipientDHKey: dh.publicKey,
                subscriptionMode: subscribe ? .subscribe : .onlyCreate, queueMode: mode),
            key: recipientKey)
        guard case .ids(let recipientID, let senderID, let serverDHKey, _) = reply else {
            throw TestSupportError("NEW answered \(reply)")
        }
        return TestQueue(
            recipientKey: recipientKey, dh: dh, recipientID: recipientID, senderID: senderID,
            messageKey: try CryptoBox.SharedKey(publicKey: serverDHKey, privateKey: dh.privateKey))
    }

    /// The plaintext of a MSG for this queue.
    func open(_ response: SMPResponse) throws -> ReceivedMessageBody {
        guard case .msg(let messageID, let body) = response else { throw TestSupportError("expected MSG, got \(response)") }
        return try MessageEncryption.open(body, messageID: messageID, sharedKey: messageKey)
    }

    func messageID(_ response: SMPResponse) throws -> [UInt8] {
        guard case .msg(let messageID, _) = response else { throw TestSupportError("expected MSG, got \(response)") }
        return messageID
    }
}
