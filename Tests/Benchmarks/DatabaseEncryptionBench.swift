// Encrypted against plain SQLite in the same run (issue 25): the same rows written and read
// through `Database`, once plain and once through the encrypting VFS, and the one-time upgrade.
import Foundation
import SimpleXChat
import SimpleXCrypto
import SimpleXProtocol
import TestSupport

func databaseEncryptionBenchmarkLines() throws -> [String] {
    let directory = try TemporaryDirectory("bench-crypt")
    let rows = 50_000
    let body = String(repeating: "message text ", count: 20)  // ~260 bytes, a chat item's size
    var lines: [String] = []
    typealias Rates = (insert: Double, scan: Double, point: Double)
    var measured: [String: [Rates]] = [:]
    let key = DatabaseKey.random()
    // Plain and encrypted in alternate rounds, on fresh files: a busy machine weighs on both alike.
    for round in 0..<3 {
        for (label, key) in [("plain", nil), ("encrypted", key)] as [(String, DatabaseKey?)] {
            let path = directory.appending("\(label)-\(round).db")
            let clock = ContinuousClock()
            // Each connection in a function of its own: it closes (with its statements) on return.
            let insertRate = try { () throws -> Double in
                let database = try Database(path: path, key: key)
                try database.execute(
                    "CREATE TABLE items (id INTEGER PRIMARY KEY, chat INTEGER NOT NULL, text TEXT NOT NULL)")
                try database.execute("CREATE INDEX idx_items_chat ON items (chat, id)")
                let insert = try database.makeStatement("INSERT INTO items (chat, text) VALUES (?, ?)")
                let started = clock.now
                // 100 rows a transaction: the receive pipeline's batches.
                for batch in 0..<(rows / 100) {
                    try database.transaction {
                        for n in 0..<100 { try insert.execute(arguments: [(batch * 100 + n) % 97, body]) }
                    }
                }
                return Double(rows) / (clock.now - started).seconds
            }()

            // Read back on a new connection with a small cache: pages come from the file.
            let (scanRate, pointRate) = try { () throws -> (Double, Double) in
                let reader = try Database(path: path, key: key)
                try reader.execute("PRAGMA cache_size = -2000")
                let scanStart = clock.now
                let count =
                    try reader.fetchValue(Int.self, "SELECT count(*) FROM items WHERE length(text) > 0") ?? 0
                let scanRate = Double(count) / (clock.now - scanStart).seconds
                let page = try reader.makeStatement(
                    "SELECT id, text FROM items WHERE chat = ? ORDER BY id DESC LIMIT 50")
                var chat = 0
                let pointRate = try operationsPerSecond(batch: 20) {
                    chat = (chat + 31) % 97
                    _ = try page.fetchAll(arguments: [chat])
                }
                return (scanRate, pointRate)
            }()
            measured[label, default: []].append((insertRate, scanRate, pointRate))
        }
    }
    func median(_ label: String, _ metric: (Rates) -> Double) -> Double {
        let values = (measured[label] ?? []).map(metric).sorted()
        return values.isEmpty ? 0 : values[values.count / 2]
    }
    for label in ["plain", "encrypted"] {
        lines.append(
            "\(label): insert \(grouped(median(label, \.insert))) rows/s (100 a transaction), scan "
                + "\(grouped(median(label, \.scan))) rows/s, newest 50 of a chat \(grouped(median(label, \.point)))/s "
                + "(median of 3)")
    }
    lines.append(
        "encrypted / plain: insert \(format(median("encrypted", \.insert) / median("plain", \.insert), 2)), scan "
            + "\(format(median("encrypted", \.scan) / median("plain", \.scan), 2)), newest 50 "
            + "\(format(median("encrypted", \.point) / median("plain", \.point), 2))")
    // The one-time upgrade of the plain file written above.
    let plainPath = directory.appending("plain-0.db")
    let size =
        (try FileManager.default.attributesOfItem(atPath: plainPath)[.size] as? NSNumber)?.intValue ?? 0
    let clock = ContinuousClock()
    let started = clock.now
    try DatabaseEncryption.encryptIfPlain(path: plainPath, key: .random())
    lines.append(
        "upgrade of the plain file (\(rows) rows, \(format(Double(size) / 1e6, 1)) MB): "
            + "\(format((clock.now - started).seconds * 1000, 0)) ms")
    return lines
}

/// Issue 25's figures through the chat core, encrypted against plain in the same run: opening a
/// chat and the chat list in the million-item database, its one-time upgrade, and the receive
/// pipeline. SIMPLEX_BENCH_CRYPT_ITEMS makes the database smaller (profiling).
func encryptedChatComparisonLines() async throws -> [String] {
    let items = ProcessInfo.processInfo.environment["SIMPLEX_BENCH_CRYPT_ITEMS"].flatMap { Int($0) } ?? 1_000_000
    let contacts = 1_000
    let plainDirectory = try RelayBench.temporaryDirectory("crypt-plain")
    let encryptedDirectory = try RelayBench.temporaryDirectory("crypt-encrypted")
    defer {
        try? FileManager.default.removeItem(atPath: plainDirectory)
        try? FileManager.default.removeItem(atPath: encryptedDirectory)
    }
    let clock = ContinuousClock()
    let built = try ChatDatabaseBuilder.build(in: plainDirectory, contacts: contacts, items: items)
    let plainPath = plainDirectory + "/simplex_v1_chat.db"
    let size = ((try? FileManager.default.attributesOfItem(atPath: plainPath)[.size] as? Int) ?? 0) / 1_000_000
    try FileManager.default.copyItem(atPath: plainPath, toPath: encryptedDirectory + "/simplex_v1_chat.db")
    let key = DatabaseKey.random()
    let upgradeStart = clock.now
    try ChatController.encryptDatabases(groupDirectory: encryptedDirectory, key: key)
    var lines = [
        "one-time upgrade of the \(grouped(Double(items)))-item database (\(size) MB, every page rewritten, crash-safe): "
            + "\(format((clock.now - upgradeStart).seconds, 1)) s"
    ]
    let plain = try await ChatController.open(
        groupDirectory: plainDirectory, secrets: try AgentSecrets(key: SecureBytes.random(count: 32)))
    let encrypted = try await ChatController.open(
        groupDirectory: encryptedDirectory, secrets: try AgentSecrets(key: SecureBytes.random(count: 32)),
        databaseKey: key)
    let chats = (0..<1_050).map { _ in built.contactIds.randomElement() ?? built.contactIds[0] }
    // Every page each side reads, read once first: both find the file in the OS cache.
    for chat in [plain, encrypted] {
        for id in Set(chats) { _ = try await chat.chatItems(contactId: id, .last(count: 50)) }
    }
    var open: [String: [Latencies]] = [:]
    var list: [String: [Latencies]] = [:]
    // Alternate rounds: a busy moment of the machine weighs on both.
    for _ in 0..<3 {
        for (label, chat) in [("plain", plain), ("encrypted", encrypted)] {
            open[label, default: []].append(
                try await latencies(runs: 1_000) { index in
                    let page = try await chat.chatItems(contactId: chats[index], .last(count: 50))
                    precondition(!page.isEmpty)
                })
            list[label, default: []].append(
                try await latencies(runs: 100, warmup: 5) { _ in
                    let previews = try await chat.chatList()
                    precondition(previews.count == contacts)
                })
        }
    }
    func median(_ rounds: [Latencies]?, _ metric: (Latencies) -> Double) -> Double {
        let values = (rounds ?? []).map(metric).sorted()
        return values.isEmpty ? 0 : values[values.count / 2]
    }
    let openPlain = (median(open["plain"], \.p50), median(open["plain"], \.p99))
    let openEncrypted = (median(open["encrypted"], \.p50), median(open["encrypted"], \.p99))
    lines.append(
        "open a chat (last 50 items, random chats of \(grouped(Double(contacts)))): encrypted p50 \(microseconds(openEncrypted.0)), "
            + "p99 \(microseconds(openEncrypted.1)); plain p50 \(microseconds(openPlain.0)), p99 \(microseconds(openPlain.1)); "
            + "ratio p99 \(format(openEncrypted.1 / openPlain.1, 2))× (goal p99 ≤ 2 ms and ≤ 1.3×; median of 3 alternating rounds)")
    let listPlain = median(list["plain"], \.p50)
    let listEncrypted = median(list["encrypted"], \.p50)
    lines.append(
        "chat list of \(grouped(Double(contacts))) chats: encrypted p50 \(microseconds(listEncrypted)), plain p50 "
            + "\(microseconds(listPlain)); ratio \(format(listEncrypted / listPlain, 2))× (goal ≤ 1.3×)")
    await plain.stop()
    await encrypted.stop()
    lines += try await encryptedReceiveLines()
    return lines
}

/// The receive pipeline with both users' databases encrypted against both plain, alternating.
private func encryptedReceiveLines() async throws -> [String] {
    guard let serverPath = RelayBench.serverPath else {
        return ["receive pipeline: not measured (no release smp-server beside simplex-bench)"]
    }
    let connections = 40
    let perConnection = 120
    let total = connections * perConnection
    let directory = try TemporaryDirectory("crypt-receive-bench")
    let relay = try RelayChild.initializedAndStarted(server: serverPath, config: directory.appending("relay"))
    defer { relay.process.signal(SIGTERM) }
    let address = try SMPServerAddress(keyHash: relay.keyHash, hosts: ["127.0.0.1"], port: relay.port)
    struct Side {
        let directory: String
        let key: DatabaseKey?
        let secrets: AgentSecrets
    }
    var sides: [String: Side] = [:]
    for mode in ["plain", "encrypted"] {
        let key: DatabaseKey? = mode == "plain" ? nil : .random()
        for name in ["alice", "bob"] {
            let groupDirectory = directory.appending("\(mode)-\(name)")
            try FileManager.default.createDirectory(atPath: groupDirectory, withIntermediateDirectories: true)
            _ = try ChatController.createUser(
                groupDirectory: groupDirectory, profile: Profile(displayName: name, fullName: ""), databaseKey: key)
            try ChatController.setServers(groupDirectory: groupDirectory, [address], databaseKey: key)
            sides["\(mode)-\(name)"] = Side(
                directory: groupDirectory, key: key, secrets: try AgentSecrets(key: SecureBytes.random(count: 32)))
        }
    }
    func open(_ name: String) async throws -> (ChatController, EventCounter<ChatEvent>) {
        let side = sides[name]!
        let chat = try await ChatController.open(groupDirectory: side.directory, secrets: side.secrets, databaseKey: side.key)
        return (chat, EventCounter(chat.events))
    }
    for mode in ["plain", "encrypted"] {
        let (alice, aliceEvents) = try await open("\(mode)-alice")
        let (bob, bobEvents) = try await open("\(mode)-bob")
        await alice.start()
        await bob.start()
        for _ in 0..<connections { try await bob.connect(link: try await alice.createInvitation()) }
        for events in [aliceEvents, bobEvents] {
            let connected = try await events.wait(for: connections, idle: .seconds(20)) {
                if case .contactConnected = $0 { true } else { false }
            }
            guard connected == connections else { throw RelayBenchError("only \(connected) of \(connections) connections") }
        }
        // As SimpleX sends them by default: a delivery receipt back for each message.
        await bob.stop()
        await alice.stop()
    }
    func receiveAll(_ mode: String) async throws -> Double {
        let (alice, aliceEvents) = try await open("\(mode)-alice")
        await alice.start()
        let names = try await alice.contacts().map(\.localDisplayName)
        let text = String(repeating: "a message of about a hundred bytes, as chat messages mostly are. ", count: 2)
        for round in 0..<perConnection {
            for name in names { _ = try await alice.send(to: name, .text("\(round) \(text)")) }
        }
        try await aliceEvents.wait(for: total, idle: .seconds(3)) { event in
            if case .itemStatus(_, let item) = event, item.status == .sndSent { true } else { false }
        }
        await alice.stop()
        let (bob, bobEvents) = try await open("\(mode)-bob")
        let start = ContinuousClock.now
        await bob.start()
        let received = try await bobEvents.wait(for: total, idle: .seconds(10)) {
            if case .newItem = $0 { true } else { false }
        }
        let seconds = ((bobEvents.lastMatch ?? .now) - start).seconds
        await bob.stop()
        return Double(received) / seconds
    }
    var rates: [String: [Double]] = [:]
    for _ in 0..<3 {
        for mode in ["plain", "encrypted"] { rates[mode, default: []].append(try await receiveAll(mode)) }
    }
    func median(_ mode: String) -> Double {
        let sorted = (rates[mode] ?? []).sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
    let all = ["plain", "encrypted"].map { mode in
        "\(mode) " + (rates[mode] ?? []).map { grouped($0) }.joined(separator: ", ")
    }.joined(separator: "; ")
    return [
        "receive pipeline (\(connections) connections, ~140-byte texts, delivery receipts on): encrypted "
            + "\(grouped(median("encrypted"))) msg/s, plain \(grouped(median("plain"))) msg/s; ratio "
            + "\(format(median("encrypted") / median("plain"), 2)) (goal ≥ 0.85; median of 3 alternating runs: \(all))"
    ]
}
