import Foundation
import SimpleXCrypto
import SimpleXProtocol
import SimpleXRelay
import TestSupport

/// The relay issue's figures: resident memory per idle subscribed queue, restart time with 1M
/// stored queues, and the fuzz rate (in process, and over the real transport).
func relayStoreBenchmarkLines() async throws -> [String] {
    var lines: [String] = []
    guard let server = RelayBench.serverPath else {
        lines.append("smp-server is not next to simplex-bench: build it (`swift build -c release --product smp-server`)")
        lines.append(contentsOf: try RelayBench.fuzzInProcess())
        return lines
    }
    lines.append(contentsOf: try RelayBench.memoryPerQueue(server: server))
    lines.append(contentsOf: try RelayBench.restartTime(server: server, queues: 1_000_000))
    lines.append(contentsOf: try RelayBench.fuzzInProcess())
    lines.append(contentsOf: try RelayBench.fuzzTransport(server: server))
    return lines
}

enum RelayBench {
    /// `smp-server` beside this executable (swift build puts every product in one directory).
    static var serverPath: String? {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let path = (exe as NSString).deletingLastPathComponent + "/smp-server"
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    static func temporaryDirectory(_ label: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.path + "/simplex-bench-\(label)-\(getpid())"
        try? FileManager.default.removeItem(atPath: path)
        // 0700: a group directory others can read is refused (the TUI bench uses one of these).
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }

    // MARK: Memory

    /// NEW (subscribe mode) over 4 connections, 10k then 100k queues; VmRSS before and after.
    static func memoryPerQueue(server: String) throws -> [String] {
        let directory = try temporaryDirectory("memory")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let relay = try RelayChild.initializedAndStarted(server: server, config: "\(directory)/config")
        defer { relay.stop() }
        let clients = try (0..<4).map { _ in try BenchRelayClient(port: relay.port, keyHash: relay.keyHash) }
        for client in clients { _ = try client.command(SMPTransmission.command(.ping, correlationID: .random(), entityID: .empty)) }
        let baseline = try relay.residentBytes()
        let key = try TestQueueKey.ed25519()
        let dh = X25519.generateKeyPair()
        var created = 0
        var lines: [String] = []
        let clock = ContinuousClock()
        let start = clock.now
        for target in [10_000, 100_000] {
            while created < target {
                // One block of NEWs per connection, then every connection's replies.
                var sent: [Int] = []
                for client in clients {
                    let count = min(100, target - created - sent.reduce(0, +))
                    guard count > 0 else { break }
                    let transmissions = try (0..<count).map { _ in
                        let correlationID = CorrelationID.random()
                        let session = client.session
                        return try SMPTransmission.command(
                            .new(recipientAuthKey: key.publicKey, recipientDHKey: dh.publicKey, subscriptionMode: .subscribe, queueMode: .messaging),
                            correlationID: correlationID, entityID: .empty, sessionID: session.sessionID
                        ) { try key.authorize($0, correlationID: correlationID, session: session) }.encode()
                    }
                    try client.send(transmissions)
                    sent.append(count)
                }
                for (client, count) in zip(clients, sent) {
                    var replies = 0
                    while replies < count {
                        for transmission in try client.receive() {
                            guard case .ids = try transmission.decodeResponse() else {
                                throw RelayBenchError("NEW answered \(try transmission.decodeResponse())")
                            }
                            replies += 1
                        }
                    }
                    created += count
                }
            }
            let resident = try relay.residentBytes()
            let perQueue = Double(resident - baseline) / Double(created)
            lines.append(
                "relay RSS per idle subscribed queue at \(grouped(Double(created))) queues: \(grouped(perQueue)) bytes "
                    + "(VmRSS \(resident >> 20) MiB, \(baseline >> 20) MiB before any queue; goal ≤ 1,024, flat)")
        }
        let rate = Double(created) / (clock.now - start).seconds
        lines.append("  (NEW+subscribe over 4 connections, 100 per block: \(grouped(rate)) queues/s)")
        return lines
    }

    // MARK: Restart

    /// A store of `queues` queues written through the store API as a snapshot, then the time from
    /// `smp-server start` to "listening on" and to the first PONG.
    static func restartTime(server: String, queues: Int) throws -> [String] {
        let directory = try temporaryDirectory("restart")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = "\(directory)/config"
        try RelayChild.initialize(server: server, config: config)
        let storeDirectory = try RelayChild.storeDirectory(config: config)
        let clock = ContinuousClock()
        var start = clock.now
        do {
            let store = try DurableQueueStore(
                directory: storeDirectory, options: .init(syncPolicy: .interval(milliseconds: 60_000), autoCompact: false))
            var random = FuzzRandom(seed: 1)
            func key() -> Key32 { Key32(w0: random.next(), w1: random.next(), w2: random.next(), w3: random.next()) }
            for batch in stride(from: 0, to: queues, by: 10_000) {
                try store.update { state in
                    for _ in batch..<min(queues, batch + 10_000) {
                        _ = state.createQueue(recipientKey: AuthKey(algorithm: .ed25519, key: key()), recipientDHSecret: key(), mode: .messaging)
                    }
                }
            }
            try store.compact()
            try store.close()
        }
        let snapshotSize = (try? FileManager.default.attributesOfItem(atPath: "\(storeDirectory)/queues.snapshot")[.size] as? Int) ?? 0
        let built = (clock.now - start).seconds
        start = clock.now
        let relay = try RelayChild(server: server, arguments: ["start", "--config", config])
        defer { relay.stop() }
        try relay.waitUntilListening(timeout: .seconds(120))
        let listening = (clock.now - start).seconds
        let client = try BenchRelayClient(port: relay.port, keyHash: relay.keyHash)
        let pong = try client.command(SMPTransmission.command(.ping, correlationID: .random(), entityID: .empty))
        let served = (clock.now - start).seconds
        guard pong == .pong else { throw RelayBenchError("PING answered \(pong)") }
        let resident = try relay.residentBytes()
        return [
            "relay restart with \(grouped(Double(queues))) stored queues (snapshot \(snapshotSize >> 20) MiB, built in "
                + String(format: "%.1f s", built) + "): listening after " + String(format: "%.2f s", listening)
                + ", first PONG after " + String(format: "%.2f s", served) + " (goal ≤ 5 s); VmRSS then \(resident >> 20) MiB"
        ]
    }

    // MARK: Fuzz

    /// SIMPLEX_BENCH_FUZZ_COUNT (default 10M) mutated and random blocks through the relay's block
    /// handling in process, and a bystander's queue checked after.
    static func fuzzInProcess() throws -> [String] {
        let count = ProcessInfo.processInfo.environment["SIMPLEX_BENCH_FUZZ_COUNT"].flatMap { Int($0) } ?? 10_000_000
        let directory = try temporaryDirectory("fuzz")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let relay = try InProcessRelay(storeDirectory: directory)
        let seed = UInt64.random(in: 1...UInt64.max)
        let fuzzer = try RelayFuzzer(relay: relay, seed: seed)
        let bystander = try relay.connect()
        let clock = ContinuousClock()
        let start = clock.now
        var bystanderEvents = 0
        for index in 0..<count {
            try fuzzer.step()
            if index % 1024 == 0 { bystanderEvents += relay.take(for: bystander).count }
        }
        let elapsed = (clock.now - start).seconds
        let ping = try relay.receive(
            TransportBlock.encode([SMPTransmission.command(.ping, correlationID: .random(), entityID: .empty).encode()]),
            from: bystander)
        let alive = try ping.count == 1 && SMPTransmission.decode(ping[0]).decodeResponse() == .pong
        let kinds = RelayFuzzer.Kind.allCases.map { "\($0) \(grouped(Double(fuzzer.counts[$0] ?? 0)))" }.joined(separator: ", ")
        let replies = fuzzer.replyKinds.sorted { $0.value > $1.value }.map { "\($0.key) \(grouped(Double($0.value)))" }
            .joined(separator: ", ")
        return [
            "relay fuzz in process: \(grouped(Double(count))) blocks in " + String(format: "%.1f s", elapsed)
                + " = \(grouped(Double(count) / elapsed)) blocks/s; no crash; \(fuzzer.unanswered) blocks not answered per the protocol; "
                + "bystander events \(bystanderEvents), bystander PING \(alive ? "PONG" : "FAILED") (seed \(seed))",
            "  inputs: \(kinds)",
            "  replies: \(replies)",
            "  queues in the store after: \(grouped(Double(relay.queueCount)))",
        ]
    }

    /// Random and mutated blocks over real connections: the relay must close each of them, and
    /// keep serving another connection.
    static func fuzzTransport(server: String, connections: Int = 2_000) throws -> [String] {
        let directory = try temporaryDirectory("fuzz-transport")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let relay = try RelayChild.initializedAndStarted(server: server, config: "\(directory)/config")
        defer { relay.stop() }
        let bystander = try BenchRelayClient(port: relay.port, keyHash: relay.keyHash)
        var random = FuzzRandom(seed: UInt64.random(in: 1...UInt64.max))
        var closed = 0
        var handshakeClosed = 0
        let clock = ContinuousClock()
        let start = clock.now
        for index in 0..<connections {
            if index % 10 == 0 {
                // Garbage in place of the client hello.
                let raw = try BenchRelayClient(port: relay.port, keyHash: nil)
                _ = try raw.readBlock()
                try raw.writeBlock(random.bytes(TransportBlock.size))
                if raw.isClosedByRelay() { handshakeClosed += 1 }
                continue
            }
            let client = try BenchRelayClient(port: relay.port, keyHash: relay.keyHash)
            let valid = try TransportBlock.encode([SMPTransmission.command(.ping, correlationID: .random(), entityID: .empty).encode()])
            var block: [UInt8]
            switch index % 3 {
            case 0: block = random.bytes(TransportBlock.size)
            case 1:
                // A sealed valid block with 1–4 bytes changed anywhere (ciphertext or tag).
                block = try client.session.sealBlock(valid)
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    block[Int.random(in: 0..<block.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
                }
            default:
                // A block sealed one chain step ahead (a replayed or dropped block).
                var ahead = client.session
                _ = try ahead.sealBlock(valid)
                block = try ahead.sealBlock(valid)
            }
            try client.writeBlock(block)
            if client.isClosedByRelay() { closed += 1 }
        }
        let elapsed = (clock.now - start).seconds
        let pong = try bystander.command(SMPTransmission.command(.ping, correlationID: .random(), entityID: .empty))
        let bad = connections - connections / 10
        return [
            "relay fuzz over the transport: \(grouped(Double(connections))) connections in " + String(format: "%.1f s", elapsed)
                + ": \(closed)/\(bad) with a random or mutated block closed, \(handshakeClosed)/\(connections / 10) with a garbage hello closed; "
                + "bystander PING \(pong == .pong ? "PONG" : "FAILED")"
        ]
    }
}

struct RelayBenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
