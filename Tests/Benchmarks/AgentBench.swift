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
    for connections in phases {
        let (messages, seconds, cpu, syncs) = try await agentThroughput(
            serverPath: serverPath, connections: connections, messages: count)
        lines.append(
            "agent → relay → agent over \(connections) connection\(connections == 1 ? "" : "s"), 1 KB messages, each committed by the receiver "
                + "before its ACK: \(grouped(Double(messages) / seconds)) msg/s (\(messages) in \(format(seconds, 2)) s; goal ≥ 2,000); "
                + "CPU per message: both agents \(grouped(cpu.agents * 1e6 / Double(messages))) µs, relay \(grouped(cpu.relay * 1e6 / Double(messages))) µs; "
                + "WAL syncs per message: sender \(format(Double(syncs.sender) / Double(messages), 2)), receiver \(format(Double(syncs.receiver) / Double(messages), 2))"
        )
    }
    return lines
}

/// Alice sends `messages` 1 KB messages to Bob, spread over `connections` connections; Bob's
/// app acknowledges each as it arrives. The relay runs in its own process, as users run it.
private func agentThroughput(serverPath: String, connections: Int, messages: Int) async throws
    -> (Int, Double, (agents: Double, relay: Double), syncs: (sender: Int, receiver: Int))
{
    let directory = try TemporaryDirectory("agent-bench")
    let relay = try RelayChild.initializedAndStarted(server: serverPath, config: directory.appending("relay"))
    defer { relay.process.terminate() }
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

    let startSyncs = (await alice.durableSyncs, await bob.durableSyncs)
    let start = ContinuousClock.now
    let startCPU = BenchClock.now(serverPID: relay.process.processIdentifier)
    if connections == 16 { PerfControl.enable() }
    let receiver = Task {
        var count = 0
        while count < messages, let event = await bobEvents.next() {
            guard case .message(let id, let message) = event else { continue }
            try await bob.ackMessage(id, agentMsgID: message.agentMsgID)
            count += 1
        }
        return ContinuousClock.now
    }
    let body = [UInt8](repeating: 0x61, count: 1_024)
    // One sending task per connection, as an app writes in several chats at once.
    try await withThrowingTaskGroup(of: Void.self) { group in
        for (index, id) in aliceIDs.enumerated() {
            let count = messages / connections + (index < messages % connections ? 1 : 0)
            group.addTask { for _ in 0..<count { try await alice.sendMessage(id, body: body) } }
        }
        try await group.waitForAll()
    }
    let end = try await receiver.value
    PerfControl.disable()
    let endCPU = BenchClock.now(serverPID: relay.process.processIdentifier)
    let syncs = (await alice.durableSyncs - startSyncs.0, await bob.durableSyncs - startSyncs.1)
    await alice.stop()
    await bob.stop()
    return (
        messages, (end - start).seconds, (endCPU.process - startCPU.process, endCPU.server - startCPU.server), syncs
    )
}
