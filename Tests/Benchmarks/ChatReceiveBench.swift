// The receive pipeline of the chat core, measured whole: messages wait on a local relay (its own
// process) while the receiver is stopped; the receiver starts and each message is delivered,
// opened (per-queue box, double ratchet), committed by the agent, decoded and stored as a chat
// item, and acknowledged to the relay with a delivery receipt (as SimpleX does by default; measured
// again with the receipts turned off), which brings the next one.
import Foundation
import SimpleXChat
import SimpleXCrypto
import SimpleXProtocol
import Synchronization
import TestSupport

func chatReceiveLines() async throws -> [String] {
    guard let serverPath = RelayBench.serverPath else {
        return ["receive pipeline: not measured (no release smp-server beside simplex-bench)"]
    }
    // A relay gives one message of a queue at a time (the next after the ACK), so the rate also
    // depends on how many queues have messages waiting: 40 by default;
    // SIMPLEX_BENCH_RECEIVE_CONNECTIONS=100 keeps the two cores busier.
    let connections = ProcessInfo.processInfo.environment["SIMPLEX_BENCH_RECEIVE_CONNECTIONS"]
        .flatMap { Int($0) }.map { max(1, $0) } ?? 40
    let perConnection = 120  // under the relay's 128-message queue quota
    let total = connections * perConnection
    let directory = try TemporaryDirectory("chat-receive-bench")
    let relay = try RelayChild.initializedAndStarted(server: serverPath, config: directory.appending("relay"))
    defer { relay.process.signal(SIGTERM) }
    let address = try SMPServerAddress(keyHash: relay.keyHash, hosts: ["127.0.0.1"], port: relay.port)
    var secrets: [String: AgentSecrets] = [:]
    for name in ["alice", "bob"] {
        let groupDirectory = directory.appending(name)
        try FileManager.default.createDirectory(atPath: groupDirectory, withIntermediateDirectories: true)
        _ = try ChatController.createUser(
            groupDirectory: groupDirectory, profile: Profile(displayName: name, fullName: ""))
        try ChatController.setServers(groupDirectory: groupDirectory, [address])
        secrets[name] = try AgentSecrets(key: SecureBytes.random(count: 32))
    }
    func open(_ name: String) async throws -> (ChatController, EventCounter<ChatEvent>) {
        let chat = try await ChatController.open(
            groupDirectory: directory.appending(name), secrets: secrets[name]!)
        return (chat, EventCounter(chat.events))
    }

    let (alice, aliceEvents) = try await open("alice")
    let (bob, bobEvents) = try await open("bob")
    await alice.start()
    await bob.start()
    for _ in 0..<connections { try await bob.connect(link: try await alice.createInvitation()) }
    for events in [aliceEvents, bobEvents] {
        let connected = try await events.wait(for: connections, idle: .seconds(20)) {
            if case .contactConnected = $0 { true } else { false }
        }
        guard connected == connections else {
            throw RelayBenchError("only \(connected) of \(connections) connections were made")
        }
    }
    await bob.stop()
    await alice.stop()

    /// Alice sends `perConnection` messages on each connection while Bob is away; Bob starts and
    /// receives them all: how many arrived, in how many seconds.
    func receiveAll(profiled: Bool) async throws -> (Int, Double, cpu: (bob: Double, relay: Double)) {
        let (alice, aliceEvents) = try await open("alice")
        await alice.start()
        let names = try await alice.contacts().map(\.localDisplayName)
        let text = String(
            repeating: "a message of about a hundred bytes, as chat messages mostly are. ", count: 2)
        for round in 0..<perConnection {
            for name in names { _ = try await alice.send(to: name, .text("\(round) \(text)")) }
        }
        // Sent to the relay: the SENT statuses stop coming (one may be missed when it overtakes
        // the item's insert, so the wait ends on silence rather than on the exact count).
        try await aliceEvents.wait(for: total, idle: .seconds(3)) { event in
            if case .itemStatus(_, let item) = event, item.status == .sndSent { true } else { false }
        }
        await alice.stop()

        let (bob, bobEvents) = try await open("bob")
        let start = ContinuousClock.now
        let startCPU = BenchClock.now(serverPID: relay.process.pid)
        if profiled { PerfControl.enable() }
        await bob.start()
        let received = try await bobEvents.wait(for: total, idle: .seconds(10)) {
            if case .newItem = $0 { true } else { false }
        }
        PerfControl.disable()
        let endCPU = BenchClock.now(serverPID: relay.process.pid)
        let seconds = ((bobEvents.lastMatch ?? .now) - start).seconds
        await bob.stop()
        return (received, seconds, (endCPU.process - startCPU.process, endCPU.server - startCPU.server))
    }
    /// Bob's delivery receipts to contacts on (SimpleX's default) or off (`/set receipts contacts`).
    func setReceipts(_ enable: Bool) async throws {
        let (bob, _) = try await open("bob")
        guard case .cmdOk = await bob.execute(.setUserContactReceipts(enable: enable, clearOverrides: true))
        else { throw RelayBenchError("cannot turn receipts \(enable ? "on" : "off")") }
        await bob.stop()
    }
    /// `benchRounds` runs of `receiveAll`: the median run by rate, and every rate, for one line.
    let rounds = benchRounds
    func measured(profiled: Bool) async throws -> (Int, Double, cpu: (bob: Double, relay: Double), rates: String) {
        var runs: [(Int, Double, cpu: (bob: Double, relay: Double))] = []
        for round in 0..<rounds { runs.append(try await receiveAll(profiled: profiled && round == 0)) }
        let (median, rates) = medianRound(runs) { Double($0.0) / $0.1 }
        return (median.0, median.1, median.cpu, rates)
    }
    // Receipts off first: decrypt, store, ACK. (Bob may stop with receipts still queued, which
    // would be sent during the next run.)
    try await setReceipts(false)
    let (receivedQuietly, secondsQuietly, cpuQuietly, ratesQuietly) = try await measured(profiled: true)
    // As SimpleX sends them by default: a delivery receipt back for each new message.
    try await setReceipts(true)
    let (received, seconds, cpu, rates) = try await measured(profiled: false)
    let (agentReceived, agentSeconds) = try await agentReceiveThroughput(
        serverPath: serverPath, connections: connections, perConnection: perConnection)
    let commits = try durableCommitsPerSecond(in: directory.path)
    return [
        "receive pipeline, whole (relay delivery → per-queue decrypt → ratchet decrypt → agent commit → chat decode → chat item "
            + "stored → ACK with receipt), \(connections) connections, ~140-byte texts, durable commits (synchronous=FULL): "
            + "\(grouped(Double(received) / seconds)) msg/s, median of \(rounds) runs (\(rates); \(received) of \(total) in "
            + "\(format(seconds, 2)) s in the median run, from start() including reconnecting; goal ≥ 5,000); \(cpuPerMessage(cpu, received))",
        "  the same with the receiver's delivery receipts off (decrypt, store, ACK only): "
            + "\(grouped(Double(receivedQuietly) / secondsQuietly)) msg/s, median of \(rounds) runs (\(ratesQuietly); "
            + "\(receivedQuietly) of \(total) in \(format(secondsQuietly, 2)) s in the median run; goal ≥ 5,000); "
            + "\(cpuPerMessage(cpuQuietly, receivedQuietly))",
        "  the agent alone in the same setup, its app acknowledging each message with a receipt: "
            + "\(grouped(Double(agentReceived) / agentSeconds)) msg/s (\(agentReceived) in \(format(agentSeconds, 2)) s); "
            + "this disk: \(grouped(commits)) durable commits/s, and a received message takes several (agent receive, chat item, "
            + "receipt queued, ACK recorded)",
    ]
}

/// CPU a message of the receiving process (its whole chat core and agent; the bench's waiting
/// costs a little) and of the relay, over the receive phase.
private func cpuPerMessage(_ cpu: (bob: Double, relay: Double), _ messages: Int) -> String {
    let count = Double(max(messages, 1))
    return "CPU per message: receiver \(grouped(cpu.bob * 1e6 / count)) µs, relay \(grouped(cpu.relay * 1e6 / count)) µs"
}

/// The agent's share of the pipeline: the same connections and preloaded queues, with the app
/// only acknowledging (with a receipt) instead of storing chat items.
private func agentReceiveThroughput(serverPath: String, connections: Int, perConnection: Int) async throws
    -> (Int, Double)
{
    let total = connections * perConnection
    let directory = try TemporaryDirectory("agent-receive-bench")
    let relay = try RelayChild.initializedAndStarted(server: serverPath, config: directory.appending("relay"))
    defer { relay.process.signal(SIGTERM) }
    let address = try SMPServerAddress(keyHash: relay.keyHash, hosts: ["127.0.0.1"], port: relay.port)
    let secrets = try ["alice", "bob"].map { _ in try AgentSecrets(key: SecureBytes.random(count: 32)) }
    func open(_ index: Int) async throws -> Agent {
        let config = AgentConfig(databasePath: directory.appending("agent\(index).db"), servers: [address])
        return try await Agent.open(config: config, secrets: secrets[index])
    }
    let alice = try await open(0)
    var bob = try await open(1)
    let aliceEvents = EventCounter(alice.events)
    var bobEvents = EventCounter(bob.events)
    await alice.start()
    await bob.start()
    var ids: [AgentConnectionID] = []
    for _ in 0..<connections {
        let (id, link) = try await alice.createInvitation()
        _ = try await bob.joinConnection(link, connInfo: Array("bob".utf8))
        try await aliceEvents.wait(for: 1, idle: .seconds(20)) {
            if case .confirmation = $0 { true } else { false }
        }
        try await alice.allowConnection(id, connInfo: Array("alice".utf8))
        try await bobEvents.wait(for: 1, idle: .seconds(20)) {
            if case .connected = $0 { true } else { false }
        }
        ids.append(id)
    }
    await bob.stop()
    let body = [UInt8](repeating: 0x61, count: 200)
    for _ in 0..<perConnection {
        for id in ids { _ = try await alice.sendMessage(id, body: body) }
    }
    try await aliceEvents.wait(for: total, idle: .seconds(3)) { if case .sent = $0 { true } else { false } }
    await alice.stop()

    bob = try await open(1)
    let receiver = bob
    bobEvents = EventCounter(bob.events) { event in
        if case .message(let id, let message) = event {
            try? await receiver.ackMessage(id, agentMsgID: message.agentMsgID, receipt: true)
        }
    }
    let start = ContinuousClock.now
    await bob.start()
    let received = try await bobEvents.wait(for: total, idle: .seconds(10)) {
        if case .message = $0 { true } else { false }
    }
    let seconds = ((bobEvents.lastMatch ?? .now) - start).seconds
    await bob.stop()
    return (received, seconds)
}

/// Single-row commits per second in WAL with synchronous=FULL, as both stores write.
private func durableCommitsPerSecond(in directory: String) throws -> Double {
    let database = try Database(path: directory + "/commits.db")
    try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB)")
    let insert = try database.makeStatement("INSERT INTO t (body) VALUES (?)")
    let body = [UInt8](repeating: 1, count: 200)
    let start = ContinuousClock.now
    var count = 0
    while ContinuousClock.now - start < .seconds(1) {
        try insert.execute(arguments: [body])
        count += 1
    }
    return Double(count) / (ContinuousClock.now - start).seconds
}

/// Counts events as they come, so a wait can end on a count or on silence; `handle` runs on each
/// event first (the agent bench acknowledges messages there, as an app does).
final class EventCounter<Event: Sendable>: Sendable {
    private struct State {
        var events: [Event] = []
        var matched = 0
        var lastMatch: ContinuousClock.Instant?
    }
    private final class Shared: Sendable {
        let mutex = Mutex(State())
    }
    private let shared = Shared()
    private let reader: Task<Void, Never>

    init(_ events: AsyncStream<Event>, handle: (@Sendable (Event) async -> Void)? = nil) {
        let shared = self.shared
        reader = Task {
            for await event in events {
                await handle?(event)
                shared.mutex.withLock { $0.events.append(event) }
            }
        }
    }

    deinit { reader.cancel() }

    var lastMatch: ContinuousClock.Instant? { shared.mutex.withLock { $0.lastMatch } }

    /// Waits until `count` events match, or until none has matched for `idle`; returns how many
    /// matched (fewer than `count` after a silence). Matched and unmatched events are consumed.
    @discardableResult
    func wait(for count: Int, idle: Duration, _ matches: (Event) -> Bool) async throws -> Int {
        shared.mutex.withLock { $0.matched = 0 }
        var quietSince = ContinuousClock.now
        while true {
            let pending = shared.mutex.withLock { state -> [Event] in
                defer { state.events.removeAll() }
                return state.events
            }
            var matchedNow = 0
            for event in pending where matches(event) { matchedNow += 1 }
            let matched = shared.mutex.withLock { state -> Int in
                if matchedNow > 0 { state.lastMatch = .now }
                state.matched += matchedNow
                return state.matched
            }
            if matched >= count { return matched }
            if matchedNow > 0 { quietSince = .now }
            if ContinuousClock.now - quietSince > idle { return matched }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
