// Relay throughput: 16 KB messages send → deliver → ACK through an in-process relay, against the
// same payload through Redis PUBLISH/SUBSCRIBE. Blocking sockets, one thread per connection side.
import Foundation
import SimpleXCrypto
import SimpleXProtocol
import SimpleXRelay
import TestSupport

/// Queue pairs, connections per side, and message counts for both systems.
private enum ThroughputShape {
    static let queues = 1_000
    static let connectionsPerSide = 4
    /// The largest SMP body (ReceivedMessageBody.maxBodySize); Redis gets the same byte count.
    static let bodySize = ReceivedMessageBody.maxBodySize
    static let warmUpMessages = 4_000
    static let measuredMessages = 30_000
    /// Messages sent but not yet received, over all senders (about one per queue).
    static let window = 1_000
}

/// Figures printed under "## Relay throughput".
func relayThroughputBenchmarkLines() async throws -> [String] {
    var lines = try perMessageCostLines()
    let relay = try runRelayThroughput(keys: .ed25519)
    let relayX25519 = try runRelayThroughput(keys: .x25519)
    lines += [
        "relay: \(ThroughputShape.queues) queue pairs, \(ThroughputShape.connectionsPerSide)+\(ThroughputShape.connectionsPerSide) connections, "
            + "\(ThroughputShape.bodySize)-byte bodies (SMP's maximum), \(ThroughputShape.measuredMessages) messages after \(ThroughputShape.warmUpMessages) warm-up",
        relay.line(label: "relay send→MSG→ACK, Ed25519 signatures"),
        relayX25519.line(label: "relay send→MSG→ACK, X25519 authenticators"),
    ]
    do {
        let redis = try runRedisThroughput()
        lines.append(redis.line(label: "redis PUBLISH→message"))
        lines.append(
            String(
                format: "relay / redis: %.2f with Ed25519, %.2f with X25519 (goal ≥ 0.3); relay goal ≥ 15,000 msg/s",
                relay.rate / redis.rate, relayX25519.rate / redis.rate))
    } catch {
        lines.append("redis: not measured (\(error)); install Debian's redis-server")
    }
    return lines
}

/// The relay's per-message crypto, the former allocating path (rebuilt here from the allocating
/// APIs, as BlockChain and `delivery` did it) beside the in-place one, in one run.
private func perMessageCostLines() throws -> [String] {
    let identity = ServerIdentity.generate()
    let serverHandshake = ServerHandshake(identity: identity)
    let (clientHello, clientSession) = try ClientHandshake(expectedKeyHash: identity.fingerprint, versionRange: .supported)
        .receive(ServerHello.decode(serverHandshake.hello().encode()))
    var sender = try serverHandshake.receive(ClientHello.decode(clientHello.encode()))
    var receiver = clientSession
    let padded = [UInt8](repeating: 0x23, count: TransportSession.paddedBlockSize)
    var block = [UInt8](repeating: 0, count: TransportSession.blockSize)
    var opened = [UInt8](repeating: 0, count: TransportSession.paddedBlockSize)

    let inPlace = try operationsPerSecond {
        try padded.withUnsafeBytes { input in
            try block.withUnsafeMutableBytes { try sender.sealBlock(input, into: $0) }
        }
        try block.withUnsafeBytes { input in
            try opened.withUnsafeMutableBytes { try receiver.openBlock(input, into: $0) }
        }
    }
    // The former BlockChain.next: extract and expand into new SecureBytes, the key into another.
    var chainKey = SecureBytes.random(count: 32)
    let stepInfo = Array("SimpleXSbChain".utf8)
    func allocatingStep() throws -> (SecureBytes, [UInt8]) {
        let prk = HKDFSHA512.extract(inputKeyMaterial: chainKey, salt: [UInt8]())
        let output = try HKDFSHA512.expand(pseudoRandomKey: prk, info: stepInfo, outputByteCount: 128)
        let key = SecureBytes(count: 32) { out in
            output.withUnsafeBytes { out.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[32..<64])) }
        }
        chainKey = SecureBytes(copying: output.withUnsafeBytes { Array($0[0..<32]) })
        return (key, output.withUnsafeBytes { Array($0[64..<88]) })
    }
    let allocating = try operationsPerSecond {
        let (sealKey, sealNonce) = try allocatingStep()
        _ = try block.withUnsafeMutableBytes { try SecretBox.seal(padded, nonce: sealNonce, key: sealKey, into: $0) }
        let (openKey, openNonce) = try allocatingStep()
        _ = try? opened.withUnsafeMutableBytes { try SecretBox.open(block, nonce: openNonce, key: openKey, into: $0) }
    }
    let secretboxOnly = try operationsPerSecond {
        let key = SecureBytes.random(count: 32)
        let nonce = [UInt8](repeating: 1, count: 24)
        _ = key
        _ = try block.withUnsafeMutableBytes { try SecretBox.seal(padded, nonce: nonce, key: key, into: $0) }
    }

    // MSG delivery: the queue's 32-byte secret from the store, a fresh 24-byte id, a full body.
    let storedSecret = Random.bytes(count: 32)
    let body = ReceivedMessageBody(
        timestamp: 1_800_000_000, content: .message(flags: .noFlags, body: [UInt8](repeating: 0x5a, count: ReceivedMessageBody.maxBodySize)))
    let messageID = MessageEncryption.newMessageID()
    let deliveryBefore = try operationsPerSecond {
        let key = try CryptoBox.SharedKey(precomputed: storedSecret)
        _ = try MessageEncryption.seal(body, messageID: messageID, sharedKey: key)
    }
    let deliveryAfter = try operationsPerSecond {
        _ = try storedSecret.withUnsafeBytes { try MessageEncryption.seal(body, messageID: messageID, precomputedKey: $0) }
    }
    // Each SEND (and each ACK) carries an Ed25519 signature over the whole transmission, which the
    // relay checks: for a SEND that is SHA-512 over ~16 KB plus the curve arithmetic.
    let signer = Ed25519.generateKeyPair()
    let signedSend = Random.bytes(count: ReceivedMessageBody.maxBodySize + 100)
    let signature = try CommandAuthorization.sign(signedSend, secretKey: signer.secretKey)
    let verifySend = operationsPerSecond {
        precondition(CommandAuthorization.verify(signature, signedBytes: signedSend, publicKey: signer.publicKey))
    }
    let signSend = try operationsPerSecond { _ = try CommandAuthorization.sign(signedSend, secretKey: signer.secretKey) }
    func micro(_ rate: Double) -> String { String(format: "%.1f µs", 1e6 / rate) }
    return [
        "per block (seal + open, 16,384 bytes): before (SecureBytes per step) \(micro(allocating / 1)) for both directions, "
            + "after (one SecureBuffer per direction) \(micro(inPlace)); one secretbox seal with a new SecureBytes key \(micro(secretboxOnly))",
        "per MSG delivery (pad + crypto_box of 16,066 bytes): before (SharedKey(precomputed:) per message) \(micro(deliveryBefore)), "
            + "after (raw key from the store) \(micro(deliveryAfter))",
        "per SEND signature over ~16 KB: relay's Ed25519 verify \(micro(verifySend)), sender's sign \(micro(signSend))",
    ]
}

/// One system's sustained figure.
private struct ThroughputResult {
    let messages: Int
    let seconds: Double
    /// CPU seconds of this process (clients, and the in-process relay) over the measured run.
    let processCPU: Double
    /// CPU seconds of the server alone: the relay's loop thread, or the redis-server process.
    let serverCPU: Double
    let errors: Int
    var rate: Double { Double(messages) / seconds }

    func line(label: String) -> String {
        String(
            format: "%@: %.0f msg/s (%d in %.2f s), server CPU %.1f µs/msg, this process %.1f µs/msg%@",
            label, rate, messages, seconds, serverCPU / Double(messages) * 1e6, processCPU / Double(messages) * 1e6,
            errors == 0 ? "" : ", \(errors) errors")
    }
}

// MARK: - Relay

/// A queue key of either kind SMP allows, with what the client needs to authorize a command.
private enum BenchKey {
    case ed25519(Ed25519.KeyPair)
    case x25519(X25519.KeyPair)

    enum Kind { case ed25519, x25519 }

    static func generate(_ kind: Kind) -> BenchKey {
        kind == .ed25519 ? .ed25519(Ed25519.generateKeyPair()) : .x25519(X25519.generateKeyPair())
    }

    func publicKey() throws -> AuthPublicKey {
        switch self {
        case .ed25519(let pair): return try AuthPublicKey(algorithm: .ed25519, raw: pair.publicKey)
        case .x25519(let pair): return try AuthPublicKey(algorithm: .x25519, raw: pair.publicKey)
        }
    }
}

private func runRelayThroughput(keys kind: BenchKey.Kind) throws -> ThroughputResult {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relay-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let files = RelayFiles(directory: directory)
    _ = try files.initialize(host: nil, port: 0)
    let server = try RelayServer(
        files: files, config: try files.loadConfig(), identity: try files.loadIdentity(), port: 0, log: { _ in })
    defer { server.stop() }
    let keyHash = server.address.keyHash

    let shape = ThroughputShape.self
    let recipients = try (0..<shape.connectionsPerSide).map { _ in try BenchSMPConnection(port: server.port, keyHash: keyHash) }
    let senders = try (0..<shape.connectionsPerSide).map { _ in try BenchSMPConnection(port: server.port, keyHash: keyHash) }

    // Queues: NEW (subscribed) on a recipient connection, then KEY with an Ed25519 sender key, so
    // every SEND and ACK carries a signature the relay verifies, as in real use.
    var queues: [BenchQueue] = []
    for index in 0..<shape.queues {
        let recipientKey = BenchKey.generate(kind)
        let senderKey = BenchKey.generate(kind)
        queues.append(BenchQueue(
            recipientKey: recipientKey, senderKey: senderKey, recipientConnection: index % shape.connectionsPerSide,
            senderConnection: (index / shape.connectionsPerSide) % shape.connectionsPerSide))
    }
    for batch in stride(from: 0, to: shape.queues, by: 40) {
        let range = batch..<min(batch + 40, shape.queues)
        for index in range {
            let queue = queues[index]
            let connection = recipients[queue.recipientConnection]
            let reply = try connection.request(
                .new(
                    recipientAuthKey: try queue.recipientKey.publicKey(),
                    recipientDHKey: X25519.generateKeyPair().publicKey, subscriptionMode: .subscribe,
                    queueMode: .messaging),
                entity: .empty, key: queue.recipientKey)
            guard case .ids(let recipientID, let senderID, _, _) = reply else { throw BenchError("NEW answered \(reply)") }
            queues[index].recipientID = recipientID
            queues[index].senderID = senderID
            let secured = try connection.request(
                .key(senderKey: try queue.senderKey.publicKey()),
                entity: recipientID, key: queue.recipientKey)
            guard secured == .ok else { throw BenchError("KEY answered \(secured)") }
        }
    }

    let total = shape.warmUpMessages + shape.measuredMessages
    let progress = BenchProgress(window: shape.window)
    let body = [UInt8](repeating: 0x5a, count: shape.bodySize)
    var threads: [Thread] = []
    for (index, connection) in recipients.enumerated() {
        let keys = Dictionary(
            uniqueKeysWithValues: queues.filter { $0.recipientConnection == index }.map { ($0.recipientID, $0.recipientKey) })
        threads.append(Thread { connection.receiveAndAcknowledge(keys: keys, progress: progress, total: total) })
    }
    for (index, connection) in senders.enumerated() {
        let mine = queues.filter { $0.senderConnection == index }
        let count = total / shape.connectionsPerSide + (index < total % shape.connectionsPerSide ? 1 : 0)
        threads.append(Thread { connection.drainReplies(count: count, progress: progress) })
        threads.append(Thread { connection.send(count: count, body: body, queues: mine, progress: progress) })
    }
    for thread in threads { thread.start() }
    progress.waitUntilReceived(shape.warmUpMessages)
    let start = BenchClock.now(relayThreadName: "smp-server")
    progress.waitUntilReceived(total)
    let end = BenchClock.now(relayThreadName: "smp-server")
    progress.waitUntilSendersDone(shape.connectionsPerSide)
    for connection in recipients + senders { connection.close() }
    return ThroughputResult(
        messages: shape.measuredMessages, seconds: end.wall - start.wall, processCPU: end.process - start.process,
        serverCPU: end.server - start.server, errors: progress.errors)
}

private struct BenchQueue {
    let recipientKey: BenchKey
    let senderKey: BenchKey
    let recipientConnection: Int
    let senderConnection: Int
    var recipientID = EntityID.empty
    var senderID = EntityID.empty
}

/// Counts shared by the client threads, and the send window.
private final class BenchProgress: @unchecked Sendable {
    // @unchecked Sendable: the counters are guarded by `condition`; `window` is a semaphore.
    private let condition = NSCondition()
    private var received = 0
    private var sendersDone = 0
    private(set) var errorCount = 0
    let window: DispatchSemaphore

    init(window: Int) { self.window = DispatchSemaphore(value: window) }

    var errors: Int { condition.withLock { errorCount } }

    func messageReceived() {
        condition.withLock {
            received += 1
            condition.broadcast()
        }
        window.signal()
    }

    func error() { condition.withLock { errorCount += 1 } }

    func senderDone() {
        condition.withLock {
            sendersDone += 1
            condition.broadcast()
        }
    }

    func waitUntilReceived(_ count: Int) {
        condition.withLock { while received < count { condition.wait() } }
    }

    func waitUntilSendersDone(_ count: Int) {
        condition.withLock { while sendersDone < count { condition.wait() } }
    }
}

/// A lean SMP client connection over a blocking socket: a sealing and an opening copy of the
/// transport session, so one thread may write while another reads.
private final class BenchSMPConnection: @unchecked Sendable {
    // @unchecked Sendable: `sendSession` is used only by the one writing thread and
    // `receiveSession` only by the one reading thread, never both by two threads.
    private let socket: BenchSocket
    private var sendSession: TransportSession
    private var receiveSession: TransportSession
    let sessionID: [UInt8]

    init(port: UInt16, keyHash: [UInt8]) throws {
        socket = try BenchSocket(port: port)
        var block = [UInt8](repeating: 0, count: TransportBlock.size)
        try socket.read(into: &block)
        let (clientHello, session) = try ClientHandshake(expectedKeyHash: keyHash, versionRange: .supported)
            .receive(ServerHello.decode(block))
        try socket.write(clientHello.encode())
        sendSession = session
        receiveSession = session
        sessionID = session.sessionID
    }

    func close() { socket.close() }

    /// X25519 authenticator keys by queue, made once per connection (one DH each); used by the
    /// one thread that writes commands at a time (setup, then the sender or the ACKing reader).
    private var authenticatorKeys: [EntityID: QueueAuthenticatorKey] = [:]

    private func transmission(_ command: SMPCommand, entity: EntityID, key: BenchKey) throws -> [UInt8] {
        let correlationID = CorrelationID.random()
        return try SMPTransmission.command(
            command, correlationID: correlationID, entityID: entity, sessionID: sessionID
        ) { signed in
            switch key {
            case .ed25519(let pair):
                return try CommandAuthorization.sign(signed, secretKey: pair.secretKey)
            case .x25519(let pair):
                let authenticatorKey: QueueAuthenticatorKey
                if let cached = authenticatorKeys[entity], !entity.isEmpty {
                    authenticatorKey = cached
                } else {
                    authenticatorKey = try QueueAuthenticatorKey(queueAuthPrivateKey: pair.privateKey, session: sendSession)
                    if !entity.isEmpty { authenticatorKeys[entity] = authenticatorKey }
                }
                return try CommandAuthorization.authenticate(
                    signed, correlationID: correlationID.bytes, key: authenticatorKey)
            }
        }.encode()
    }

    private func sendBlock(_ transmissions: [[UInt8]]) throws {
        try socket.write(try sendSession.sealBlock(TransportBlock.encode(transmissions)))
    }

    private func receiveBlock(_ block: inout [UInt8]) throws -> [SMPTransmission] {
        try socket.read(into: &block)
        return try TransportBlock.decode(receiveSession.openBlock(block)).map { try SMPTransmission.decode($0) }
    }

    /// One command and its reply, during setup (nothing else is in flight then).
    func request(_ command: SMPCommand, entity: EntityID, key: BenchKey) throws -> SMPResponse {
        try sendBlock([transmission(command, entity: entity, key: key)])
        var block = [UInt8](repeating: 0, count: TransportBlock.size)
        while true {
            for received in try receiveBlock(&block) where !received.correlationID.isEmpty {
                return try received.decodeResponse()
            }
        }
    }

    /// Sender: `count` signed SENDs round-robin over `queues`, one block each, within the window.
    func send(count: Int, body: [UInt8], queues: [BenchQueue], progress: BenchProgress) {
        do {
            for index in 0..<count {
                progress.window.wait()
                let queue = queues[index % queues.count]
                try sendBlock([transmission(.send(flags: .noFlags, body: body), entity: queue.senderID, key: queue.senderKey)])
            }
        } catch {
            progress.error()
        }
        progress.senderDone()
    }

    /// Sender: reads the OK for each SEND.
    func drainReplies(count: Int, progress: BenchProgress) {
        var block = [UInt8](repeating: 0, count: TransportBlock.size)
        var replies = 0
        do {
            while replies < count {
                for received in try receiveBlock(&block) {
                    replies += 1
                    if try received.decodeResponse() != .ok { progress.error() }
                }
            }
        } catch {
            progress.error()
        }
    }

    /// Recipient: every MSG (an event, or the reply to an ACK) is counted and ACKed; the ACKs for
    /// one block go out together in one block.
    func receiveAndAcknowledge(keys: [EntityID: BenchKey], progress: BenchProgress, total: Int) {
        var block = [UInt8](repeating: 0, count: TransportBlock.size)
        do {
            while true {
                var acks: [[UInt8]] = []
                // Every block that has already arrived is answered together: the ACKs of one
                // turn share blocks, as the SMP client library batches them.
                var transmissions = try receiveBlock(&block)
                while transmissions.count < 400 && socket.availableBytes() >= TransportBlock.size {
                    transmissions += try receiveBlock(&block)
                }
                for received in transmissions {
                    let response = try received.decodeResponse()
                    switch response {
                    case .msg(let messageID, _):
                        guard let key = keys[received.entityID] else { throw BenchError("MSG for an unknown queue") }
                        acks.append(try transmission(.ack(messageID: messageID), entity: received.entityID, key: key))
                        progress.messageReceived()
                    case .ok: break
                    default: progress.error()
                    }
                }
                // A block holds at most a few dozen ACKs; send in chunks that surely fit.
                for start in stride(from: 0, to: acks.count, by: 40) {
                    try sendBlock(Array(acks[start..<min(start + 40, acks.count)]))
                }
            }
        } catch {
            // The connection is closed at the end of the run; that read failure ends the thread.
        }
    }
}

// MARK: - Redis

private func runRedisThroughput() throws -> ThroughputResult {
    let shape = ThroughputShape.self
    let port = try freeLoopbackPort()
    let redis = try SpawnedProcess(
        "/usr/bin/redis-server",
        [
            "--port", "\(port)", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--client-output-buffer-limit", "pubsub 0 0 0",
        ], environment: ProcessInfo.processInfo.environment, streams: [-1, -1, -1])
    defer { stopRedis(redis, port: port) }
    var connected: BenchSocket?
    for _ in 0..<200 where connected == nil {
        connected = try? BenchSocket(port: port)
        if connected == nil { usleep(20_000) }
    }
    guard let probe = connected else { throw BenchError("redis-server did not start on port \(port)") }
    probe.close()

    let channels = (0..<shape.queues).map { "queue-\($0)" }
    let subscribers = try (0..<shape.connectionsPerSide).map { index -> RESPConnection in
        let connection = try RESPConnection(port: port)
        let mine = channels.indices.filter { $0 % shape.connectionsPerSide == index }.map { channels[$0] }
        try connection.command(["SUBSCRIBE"] + mine)
        for _ in mine { _ = try connection.readValue() }
        return connection
    }
    let publishers = try (0..<shape.connectionsPerSide).map { _ in try RESPConnection(port: port) }

    let total = shape.warmUpMessages + shape.measuredMessages
    let progress = BenchProgress(window: shape.window)
    let payload = [UInt8](repeating: 0x5a, count: shape.bodySize)
    var threads: [Thread] = []
    for subscriber in subscribers {
        threads.append(Thread {
            do {
                while true {
                    _ = try subscriber.readValue()
                    progress.messageReceived()
                }
            } catch {}
        })
    }
    for (index, publisher) in publishers.enumerated() {
        let mine = channels.indices.filter { ($0 / shape.connectionsPerSide) % shape.connectionsPerSide == index }.map { channels[$0] }
        let count = total / shape.connectionsPerSide + (index < total % shape.connectionsPerSide ? 1 : 0)
        threads.append(Thread {
            do {
                for _ in 0..<count { _ = try publisher.readValue() }
            } catch { progress.error() }
        })
        threads.append(Thread {
            do {
                for message in 0..<count {
                    progress.window.wait()
                    try publisher.publish(channel: mine[message % mine.count], payload: payload)
                }
            } catch { progress.error() }
            progress.senderDone()
        })
    }
    for thread in threads { thread.start() }
    progress.waitUntilReceived(shape.warmUpMessages)
    let start = BenchClock.now(serverPID: redis.pid)
    progress.waitUntilReceived(total)
    let end = BenchClock.now(serverPID: redis.pid)
    progress.waitUntilSendersDone(shape.connectionsPerSide)
    for connection in subscribers + publishers { connection.close() }
    return ThroughputResult(
        messages: shape.measuredMessages, seconds: end.wall - start.wall, processCPU: end.process - start.process,
        serverCPU: end.server - start.server, errors: progress.errors)
}

/// SHUTDOWN NOSAVE over a connection (the child may inherit a mask that blocks SIGTERM), then
/// SIGKILL if it is still running after two seconds.
private func stopRedis(_ redis: SpawnedProcess, port: UInt16) {
    if let connection = try? RESPConnection(port: port) {
        try? connection.command(["SHUTDOWN", "NOSAVE"])
        connection.close()
    }
    for _ in 0..<100 where redis.isRunning { usleep(20_000) }
    redis.signal(SIGKILL)
    redis.waitUntilExit()
}

/// A minimal RESP2 client: commands as arrays of bulk strings, replies parsed just enough to skip them.
private final class RESPConnection: @unchecked Sendable {
    // @unchecked Sendable: one thread writes and one thread reads; the buffer is the reader's.
    private let socket: BenchSocket
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)
    private var start = 0
    private var end = 0

    init(port: UInt16) throws { socket = try BenchSocket(port: port) }

    func close() { socket.close() }

    func command(_ parts: [String]) throws {
        var out = Array("*\(parts.count)\r\n".utf8)
        for part in parts {
            out += Array("$\(part.utf8.count)\r\n".utf8) + Array(part.utf8) + [13, 10]
        }
        try socket.write(out)
    }

    func publish(channel: String, payload: [UInt8]) throws {
        var out = Array("*3\r\n$7\r\nPUBLISH\r\n$\(channel.utf8.count)\r\n\(channel)\r\n$\(payload.count)\r\n".utf8)
        out.reserveCapacity(out.count + payload.count + 2)
        out += payload
        out += [13, 10]
        try socket.write(out)
    }

    /// Reads one reply or pushed message; returns the number of bulk bytes in it.
    @discardableResult
    func readValue() throws -> Int {
        let line = try readLine()
        guard let type = line.first else { throw BenchError("empty RESP line") }
        let number = Int(String(decoding: line.dropFirst(), as: UTF8.self)) ?? 0
        switch type {
        case UInt8(ascii: "*"):
            var bytes = 0
            for _ in 0..<max(number, 0) { bytes += try readValue() }
            return bytes
        case UInt8(ascii: "$"):
            guard number >= 0 else { return 0 }
            try skip(number + 2)
            return number
        case UInt8(ascii: "-"):
            throw BenchError("redis: \(String(decoding: line, as: UTF8.self))")
        default:
            return 0
        }
    }

    private func fill() throws {
        if start == end {
            start = 0
            end = 0
        } else if end == buffer.count {
            buffer.withUnsafeMutableBytes { raw in
                raw.baseAddress!.copyMemory(from: raw.baseAddress! + start, byteCount: end - start)
            }
            end -= start
            start = 0
        }
        let n = try buffer.withUnsafeMutableBytes { raw in try socket.readSome(raw.baseAddress! + end, count: raw.count - end) }
        end += n
    }

    private func readLine() throws -> ArraySlice<UInt8> {
        var scanned = start
        while true {
            while scanned + 1 < end {
                if buffer[scanned] == 13, buffer[scanned + 1] == 10 {
                    let line = buffer[start..<scanned]
                    start = scanned + 2
                    return line
                }
                scanned += 1
            }
            let offset = scanned - start
            try fill()
            scanned = start + offset
        }
    }

    private func skip(_ count: Int) throws {
        var remaining = count
        while remaining > 0 {
            if start == end { try fill() }
            let take = min(remaining, end - start)
            start += take
            remaining -= take
        }
    }
}

// MARK: - Sockets, clocks

private struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A blocking loopback TCP socket; every call retries EINTR.
private final class BenchSocket: @unchecked Sendable {
    // @unchecked Sendable: the descriptor is immutable; one thread reads and one writes.
    private let fd: Int32
    private let closed = NSLock()
    private var isClosed = false

    init(port: UInt16) throws {
        fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw BenchError("connect to 127.0.0.1:\(port): errno \(code)")
        }
    }

    deinit { close() }

    func close() {
        closed.withLock {
            guard !isClosed else { return }
            isClosed = true
            shutdown(fd, Int32(SHUT_RDWR))
            Glibc.close(fd)
        }
    }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { throw BenchError("write: errno \(errno)") }
                offset += n
            }
        }
    }

    func read(into block: inout [UInt8]) throws {
        try block.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset < raw.count { offset += try readSome(raw.baseAddress! + offset, count: raw.count - offset) }
        }
    }

    /// Bytes received and not yet read (FIONREAD): a reader drains what has arrived before it
    /// answers, as an event-loop client does in one turn.
    func availableBytes() -> Int {
        var count: Int32 = 0
        return ioctl(fd, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
    }

    func readSome(_ pointer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        while true {
            let n = Glibc.read(fd, pointer, count)
            if n < 0, errno == EINTR { continue }
            if n == 0 { throw BenchError("connection closed") }
            guard n > 0 else { throw BenchError("read: errno \(errno)") }
            return n
        }
    }
}

/// Wall time, this process's CPU time, and the server's CPU time (a thread of this process by
/// name, or another process by pid), read from /proc.
struct BenchClock {
    let wall: Double
    let process: Double
    let server: Double

    static func now(relayThreadName: String) -> BenchClock {
        var server = 0.0
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        for task in tasks {
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            if comm.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix(relayThreadName) {
                server += cpuSeconds(statPath: "/proc/self/task/\(task)/stat")
            }
        }
        return BenchClock(wall: wallSeconds(), process: processSeconds(), server: server)
    }

    static func now(serverPID: Int32) -> BenchClock {
        BenchClock(wall: wallSeconds(), process: processSeconds(), server: cpuSeconds(statPath: "/proc/\(serverPID)/stat"))
    }

    private static func wallSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private static func processSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// utime + stime (fields 14 and 15) of a /proc stat file, in seconds.
    private static func cpuSeconds(statPath: String) -> Double {
        guard let text = try? String(contentsOfFile: statPath, encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After "pid (comm)", fields[0] is the state (field 3), so utime (14) is fields[11].
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
