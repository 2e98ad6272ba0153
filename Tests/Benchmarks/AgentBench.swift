// Agent end to end: messages per second from one agent to another through a local relay (one
// sending task per connection), each committed by the receiving agent (and acknowledged by its
// app) before the relay is ACKed.
import Foundation
import SimpleXChat
import SimpleXCrypto
import SimpleXProtocol
import TestSupport

func agentBenchmarkLines() async throws -> [String] {
    guard let serverPath = RelayBench.serverPath else {
        return ["agent: not measured (no release smp-server beside simplex-bench)"]
    }
    var lines: [String] = []
    // SIMPLEX_BENCH_AGENT_CONNECTIONS=16,64 and SIMPLEX_BENCH_AGENT_MESSAGES=8000 override the
    // phases and the messages each sends (more than a queue's quota of 128 on each connection up
    // to 16: the sender is held back until the recipient drains a queue, as a user's burst is).
    let environment = ProcessInfo.processInfo.environment
    let phases = environment["SIMPLEX_BENCH_AGENT_CONNECTIONS"].map { $0.split(separator: ",").compactMap { Int($0) } }
        ?? [1, 4, 16, 64]
    let count = environment["SIMPLEX_BENCH_AGENT_MESSAGES"].flatMap { Int($0) } ?? 4_000
    // Each phase is measured in `benchRounds` rounds over the same connections.
    for connections in phases {
        let measured = try await agentThroughput(
            serverPath: serverPath, connections: connections, messages: count, rounds: benchRounds)
        let (median, all) = medianRound(measured, rate: \.rate)
        lines.append(
            "agent → relay → agent over \(connections) connection\(connections == 1 ? "" : "s"), 1 KB messages, each committed by the receiver "
                + "before its ACK: \(grouped(median.rate)) msg/s, median of \(measured.count) rounds of \(count) (\(all)); goal ≥ 2,000; "
                + "in the median round, CPU per message: both agents \(grouped(median.agentsCPU)) µs, relay \(grouped(median.relayCPU)) µs; "
                + "WAL syncs per message: sender \(format(median.senderSyncs, 2)), receiver \(format(median.receiverSyncs, 2))"
        )
    }
    return lines
}

/// One round of the agent bench.
private struct AgentRound {
    /// Messages a second, and per message: the CPU (µs) of both agents and of the relay, and
    /// the WAL syncs of each agent.
    let rate: Double
    let agentsCPU: Double
    let relayCPU: Double
    let senderSyncs: Double
    let receiverSyncs: Double
}

/// Alice sends `messages` 1 KB messages to Bob, spread over `connections` connections, in each
/// of `rounds` rounds; Bob's app acknowledges each as it arrives. The relay runs in its own
/// process, as users run it.
private func agentThroughput(serverPath: String, connections: Int, messages: Int, rounds: Int) async throws
    -> [AgentRound]
{
    let directory = try TemporaryDirectory("agent-bench")
    let relay = try RelayChild.initializedAndStarted(server: serverPath, config: directory.appending("relay"))
    defer { relay.process.signal(SIGTERM) }
    let address = try SMPServerAddress(keyHash: relay.keyHash, hosts: ["127.0.0.1"], port: relay.port)
    func open(_ name: String) async throws -> Agent {
        let config = AgentConfig(databasePath: directory.appending("\(name).db"), servers: [address])
        return try await Agent.open(
            config: config, secrets: try AgentSecrets(key: SecureBytes.random(count: 32)))
    }
    let alice = try await open("alice")
    let bob = try await open("bob")
    await alice.start()
    await bob.start()
    var aliceEvents = alice.events.makeAsyncIterator()
    var bobEvents = bob.events.makeAsyncIterator()

    var aliceIDs: [AgentConnectionID] = []
    for _ in 0..<connections {
        aliceIDs.append(
            try await connectAgents(alice, bob, inviterEvents: &aliceEvents, joinerEvents: &bobEvents).inviter)
    }

    // Bob's app: acknowledges each message as it arrives, and marks the end of each round.
    let (roundEnds, roundEnded) = AsyncStream<ContinuousClock.Instant>.makeStream()
    let receiver = Task {
        // A failed acknowledgement ends the rounds (the wait below then throws), never hangs them.
        defer { roundEnded.finish() }
        var count = 0
        while let event = await bobEvents.next() {
            guard case .message(let id, let message) = event else { continue }
            guard (try? await bob.ackMessage(id, agentMsgID: message.agentMsgID)) != nil else { return }
            count += 1
            if count % messages == 0 { roundEnded.yield(.now) }
        }
    }
    defer { receiver.cancel() }
    var ends = roundEnds.makeAsyncIterator()
    let body = [UInt8](repeating: 0x61, count: 1_024)
    var results: [AgentRound] = []
    for round in 0..<rounds {
        let startSyncs = (await alice.durableSyncs, await bob.durableSyncs)
        let start = ContinuousClock.now
        let startCPU = BenchClock.now(serverPID: relay.process.pid)
        if connections == 16 && round == 0 { PerfControl.enable() }
        // One sending task per connection, as an app writes in several chats at once.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, id) in aliceIDs.enumerated() {
                let count = messages / connections + (index < messages % connections ? 1 : 0)
                group.addTask { for _ in 0..<count { try await alice.sendMessage(id, body: body) } }
            }
            try await group.waitForAll()
        }
        guard let end = await ends.next() else { throw RelayBenchError("bob's events ended") }
        PerfControl.disable()
        let endCPU = BenchClock.now(serverPID: relay.process.pid)
        let count = Double(messages)
        results.append(
            AgentRound(
                rate: count / (end - start).seconds,
                agentsCPU: (endCPU.process - startCPU.process) * 1e6 / count,
                relayCPU: (endCPU.server - startCPU.server) * 1e6 / count,
                senderSyncs: Double(await alice.durableSyncs - startSyncs.0) / count,
                receiverSyncs: Double(await bob.durableSyncs - startSyncs.1) / count))
    }
    await alice.stop()
    await bob.stop()
    return results
}
