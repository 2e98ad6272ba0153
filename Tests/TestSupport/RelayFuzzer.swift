// Kept identical in Tests/SimpleXRelayTests/Fuzz/RelayFuzzer.swift and
// Tests/Benchmarks/RelayFuzzer.swift (the benchmark target cannot import test code).
import SimpleXCrypto
import SimpleXProtocol
import SimpleXRelay

/// A seeded generator (SplitMix64), so a failing fuzz run can be repeated from its seed.
public struct FuzzRandom: RandomNumberGenerator {
    var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    public mutating func bytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: (count + 7) & ~7)
        bytes.withUnsafeMutableBytes { raw in
            for offset in stride(from: 0, to: raw.count, by: 8) { raw.storeBytes(of: next(), toByteOffset: offset, as: UInt64.self) }
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }
}

/// Feeds an `InProcessRelay` blocks built from valid, really signed commands on queues it owns
/// (NEW SUB KEY SKEY SEND ACK GET OFF DEL PING), mutated at the command or the block level, and
/// random blocks; checks that every block is answered (a reply per transmission, or ERR BLOCK).
public final class RelayFuzzer {
    /// What kind of input a step fed.
    public enum Kind: CaseIterable { case valid, mutatedTransmissions, mutatedBlock, randomTransmissions, randomBlock }

    /// A queue the fuzzer created, with what it needs to sign for it.
    struct Queue {
        let recipientKey: TestQueueKey
        let recipientID: EntityID
        let senderID: EntityID
        let senderKey: TestQueueKey
        var lastMessageID: [UInt8]?
    }

    let relay: InProcessRelay
    let connection: InProcessRelay.Connection
    var random: FuzzRandom
    private(set) var queues: [Queue] = []
    private var pool: [[UInt8]] = []
    /// NEWs in the pool by correlation id: their IDS replies become queues.
    private var newKeys: [CorrelationID: TestQueueKey] = [:]
    private var keys: [TestQueueKey]
    private let dh = X25519.generateKeyPair()
    private var stepsSincePool = 0
    /// Blocks that were not answered as the protocol requires.
    public private(set) var unanswered = 0
    public private(set) var counts: [Kind: Int] = [:]
    /// Replies by their first bytes of command (OK, ERR ..., MSG, IDS ...), to show the depth reached.
    public private(set) var replyKinds: [String: Int] = [:]

    public init(relay: InProcessRelay, seed: UInt64) throws {
        self.relay = relay
        connection = try relay.connect()
        random = FuzzRandom(seed: seed)
        keys = [try .ed25519(), try .ed25519(), try .x25519()]
        for _ in 0..<3 { try refillPool() }
    }

    /// One input: builds it, feeds it, checks the answer. Returns the kind it fed.
    @discardableResult
    public func step() throws -> Kind {
        stepsSincePool += 1
        if stepsSincePool >= 500 || pool.isEmpty { try refillPool() }
        let roll = Int.random(in: 0..<100, using: &random)
        let kind: Kind =
            roll < 25 ? .valid : roll < 60 ? .mutatedTransmissions : roll < 80 ? .mutatedBlock
            : roll < 90 ? .randomTransmissions : .randomBlock
        let block: [UInt8]
        switch kind {
        case .valid: block = try frame(pick())
        case .mutatedTransmissions:
            var transmissions = pick()
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let index = Int.random(in: 0..<transmissions.count, using: &random)
                mutate(&transmissions[index], resizable: true)
            }
            if Int.random(in: 0..<8, using: &random) == 0 { transmissions.shuffle(using: &random) }
            // A mutation that grew the batch past a block: the first transmission alone.
            if let framed = try? TransportBlock.encode(transmissions) {
                block = framed
            } else {
                block = try frame([transmissions[0]])
            }
        case .mutatedBlock:
            var padded = try frame(pick())
            let used = Int(padded[0]) << 8 | Int(padded[1])
            mutate(&padded, resizable: false, within: min(padded.count, used + 8))
            block = padded
        case .randomTransmissions:
            let transmissions = (0..<Int.random(in: 1...6, using: &random)).map { _ in
                random.bytes(Int.random(in: 0...200, using: &random))
            }
            block = try TransportBlock.encode(transmissions)
        case .randomBlock:
            block = random.bytes(TransportBlock.encryptedPayloadSize)
        }
        counts[kind, default: 0] += 1
        let replies = try relay.receive(block, from: connection)
        if !answered(block, replies) { unanswered += 1 }
        learn(from: replies)
        return kind
    }

    /// Every transmission got a reply with its correlation id, or the block got ERR BLOCK.
    private func answered(_ block: [UInt8], _ replies: [[UInt8]]) -> Bool {
        let decoded = replies.compactMap { try? SMPTransmission.decode($0) }
        guard decoded.count == replies.count else { return false }
        guard let transmissions = try? TransportBlock.decode(block) else {
            return decoded.contains { $0.correlationID.isEmpty && (try? $0.decodeResponse()) == .err(.block) }
        }
        var expected: [CorrelationID: Int] = [:]
        for bytes in transmissions {
            expected[(try? SMPTransmission.decode(bytes))?.correlationID ?? .empty, default: 0] += 1
        }
        for reply in decoded {
            if let remaining = expected[reply.correlationID] {
                expected[reply.correlationID] = remaining > 1 ? remaining - 1 : nil
            }
        }
        return expected.isEmpty
    }

    /// New queues from IDS, message ids from MSG (for ACKs), and the reply mix.
    private func learn(from replies: [[UInt8]]) {
        for bytes in replies {
            guard let transmission = try? SMPTransmission.decode(bytes), let response = try? transmission.decodeResponse()
            else { continue }
            replyKinds[Self.name(response), default: 0] += 1
            switch response {
            case .ids(let recipientID, let senderID, _, _):
                guard let key = newKeys[transmission.correlationID] else { continue }
                queues.append(
                    Queue(
                        recipientKey: key, recipientID: recipientID, senderID: senderID,
                        senderKey: keys[queues.count % keys.count], lastMessageID: nil))
                if queues.count > 12 { queues.removeFirst(queues.count - 12) }
            case .msg(let messageID, _):
                if let index = queues.lastIndex(where: { $0.recipientID == transmission.entityID }) {
                    queues[index].lastMessageID = messageID
                }
            default: break
            }
        }
    }

    static func name(_ response: SMPResponse) -> String {
        switch response {
        case .ids: "IDS"
        case .msg: "MSG"
        case .ok: "OK"
        case .end: "END"
        case .deld: "DELD"
        case .pong: "PONG"
        case .err(let error): "ERR \(error)"
        }
    }

    // MARK: Inputs

    /// 1–8 transmissions from the pool (mostly 1–3).
    private func pick() -> [[UInt8]] {
        let count = Int.random(in: 0..<4, using: &random) == 0 ? Int.random(in: 1...8, using: &random) : Int.random(in: 1...3, using: &random)
        return (0..<count).map { _ in pool[Int.random(in: 0..<pool.count, using: &random)] }
    }

    private func frame(_ transmissions: [[UInt8]]) throws -> [UInt8] {
        try TransportBlock.encode(TransportBlock.batch(transmissions)[0])
    }

    /// Fresh valid transmissions on the current queues (message ids change, queues come and go).
    private func refillPool() throws {
        stepsSincePool = 0
        pool.removeAll(keepingCapacity: true)
        newKeys.removeAll(keepingCapacity: true)
        // NEW, so there are always queues to reach: one of each key type, subscribed or not.
        for (index, key) in keys.enumerated() {
            let correlationID = correlation()
            let mode: SubscriptionMode = index == 0 ? .onlyCreate : .subscribe
            pool.append(
                try signed(
                    .new(recipientAuthKey: key.publicKey, recipientDHKey: dh.publicKey, subscriptionMode: mode, queueMode: .messaging),
                    correlationID, .empty, key))
            newKeys[correlationID] = key
        }
        pool.append(try SMPTransmission.command(.ping, correlationID: correlation(), entityID: .empty).encode())
        for (index, queue) in queues.enumerated() {
            let r = queue.recipientID
            pool.append(try signed(.sub, correlation(), r, queue.recipientKey))
            pool.append(try signed(.get, correlation(), r, queue.recipientKey))
            pool.append(try signed(.key(senderKey: queue.senderKey.publicKey), correlation(), r, queue.recipientKey))
            pool.append(try signed(.skey(senderKey: queue.senderKey.publicKey), correlation(), queue.senderID, queue.senderKey))
            let body = random.bytes(Int.random(in: 0...64, using: &random))
            pool.append(try signed(.send(flags: .noFlags, body: body), correlation(), queue.senderID, queue.senderKey))
            pool.append(try SMPTransmission.command(.send(flags: .noFlags, body: body), correlationID: correlation(), entityID: queue.senderID).encode())
            pool.append(try signed(.ack(messageID: queue.lastMessageID ?? random.bytes(24)), correlation(), r, queue.recipientKey))
            // OFF and DEL end a queue's usefulness: only for the oldest queues.
            if index == 0 && queues.count > 6 {
                pool.append(try signed(.off, correlation(), r, queue.recipientKey))
                pool.append(try signed(.del, correlation(), r, queue.recipientKey))
            }
        }
    }

    private func correlation() -> CorrelationID { CorrelationID(random.bytes(CorrelationID.count)) }

    private func signed(_ command: SMPCommand, _ correlationID: CorrelationID, _ entity: EntityID, _ key: TestQueueKey) throws -> [UInt8] {
        let session = connection.client
        return try SMPTransmission.command(command, correlationID: correlationID, entityID: entity, sessionID: session.sessionID) {
            try key.authorize($0, correlationID: correlationID, session: session)
        }.encode()
    }

    /// 1–4 edits inside `bytes[0..<within]`: bit flips, random and boundary bytes, and (when
    /// `resizable`) truncation, insertion and duplication, which shift every length after them.
    private func mutate(_ bytes: inout [UInt8], resizable: Bool, within limit: Int? = nil) {
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let end = min(limit ?? bytes.count, bytes.count)
            guard end > 0 else {
                bytes.append(UInt8.random(in: 0...255, using: &random))
                continue
            }
            let at = Int.random(in: 0..<end, using: &random)
            switch Int.random(in: 0..<(resizable ? 7 : 4), using: &random) {
            case 0: bytes[at] ^= 1 << UInt8.random(in: 0..<8, using: &random)
            case 1: bytes[at] = UInt8.random(in: 0...255, using: &random)
            case 2: bytes[at] = [0, 1, 0x7F, 0x80, 0xFF, 0x20, 0x23][Int.random(in: 0..<7, using: &random)]
            case 3: bytes[at] = bytes[at] &+ UInt8.random(in: 1...3, using: &random)
            case 4: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...32, using: &random)))
            case 5: bytes.insert(contentsOf: random.bytes(Int.random(in: 1...8, using: &random)), at: at)
            default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 16)], at: at)
            }
        }
    }
}

/// A queue authorization key for tests and benchmarks: Ed25519 (signatures) or X25519
/// (authenticators).
public struct TestQueueKey: @unchecked Sendable {
    // @unchecked Sendable: immutable after init.
    public let publicKey: AuthPublicKey
    private let ed25519: Ed25519.KeyPair?
    private let x25519: X25519.KeyPair?

    public static func ed25519() throws -> TestQueueKey {
        let pair = Ed25519.generateKeyPair()
        return TestQueueKey(publicKey: try AuthPublicKey(algorithm: .ed25519, raw: pair.publicKey), ed25519: pair, x25519: nil)
    }

    public static func x25519() throws -> TestQueueKey {
        let pair = X25519.generateKeyPair()
        return TestQueueKey(publicKey: try AuthPublicKey(algorithm: .x25519, raw: pair.publicKey), ed25519: nil, x25519: pair)
    }

    public func authorize(_ signed: [UInt8], correlationID: CorrelationID, session: TransportSession) throws -> [UInt8] {
        if let ed25519 { return try CommandAuthorization.sign(signed, secretKey: ed25519.secretKey) }
        guard let x25519 else { return [] }
        let key = try QueueAuthenticatorKey(queueAuthPrivateKey: x25519.privateKey, session: session)
        return try CommandAuthorization.authenticate(signed, correlationID: correlationID.bytes, key: key)
    }
}
