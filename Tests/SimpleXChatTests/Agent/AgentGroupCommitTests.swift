import Foundation
import SimpleXCrypto
import SimpleXProtocol
import Testing
import TestSupport

@_spi(Testing) @testable import SimpleXChat

/// Received messages are committed together (`AgentStore.batched`); what they lead to waits for
/// that commit. Two agents in this process, a real relay.
@Suite struct AgentGroupCommitTests {
    @Test func messagesWhoseCommitFailedAreNeitherShownNorSentAndComeOnceLater() async throws {
        let relay = try await RelayProcess()
        let directory = try TemporaryDirectory("agent-group-commit")
        let address = try SMPServerAddress(relay.address)
        let keys = try ["alice", "bob"].map { _ in try AgentSecrets(key: SecureBytes.random(count: 32)) }
        func open(_ index: Int) async throws -> Agent {
            try await Agent.open(
                config: AgentConfig(
                    databasePath: directory.appending("agent\(index).db"), servers: [address]),
                secrets: keys[index])
        }
        let alice = try await open(0)
        var bob = try await open(1)
        var aliceEvents = alice.events.makeAsyncIterator()
        var bobEvents = bob.events.makeAsyncIterator()
        await alice.start()
        await bob.start()
        var connections: [AgentConnectionID] = []
        var bobConnections: [AgentConnectionID] = []
        for _ in 0..<3 {
            let (id, bobID) = try await connectAgents(
                alice, bob, inviterEvents: &aliceEvents, joinerEvents: &bobEvents)
            connections.append(id)
            bobConnections.append(bobID)
        }
        await bob.stop()

        // Three messages on each connection wait on the relay; bob's first commit of what
        // arrives (one or more of the queues' first messages, which come with the subscriptions,
        // as they come) fails.
        for round in 1...3 {
            for (index, id) in connections.enumerated() {
                try await alice.sendMessage(id, body: Array("\(index)-\(round)".utf8))
            }
        }
        var sent = 0
        while sent < 9, let event = await aliceEvents.next() { if case .sent = event { sent += 1 } }

        var received: [AgentConnectionID: [String]] = [:]
        func receive(_ agent: Agent, for duration: Duration) async {
            let events = agent.events
            let collected = await withTaskGroup(of: [(AgentConnectionID, String)].self) { group in
                group.addTask {
                    var got: [(AgentConnectionID, String)] = []
                    for await event in events {
                        guard case .message(let id, let message) = event else { continue }
                        got.append((id, String(decoding: message.body, as: UTF8.self)))
                        try? await agent.ackMessage(id, agentMsgID: message.agentMsgID)
                    }
                    return got
                }
                try? await Task.sleep(for: duration)
                await agent.stop()  // ends the stream
                return await group.next() ?? []
            }
            for (id, text) in collected { received[id, default: []].append(text) }
        }

        bob = try await open(1)
        await bob.failNextGroupCommit()
        await bob.start()
        await receive(bob, for: .seconds(5))
        // A message of the failed commit is not shown, nor ACKed: its queue gives nothing more
        // in this run. The other queues go on.
        let stalled = bobConnections.filter { received[$0] == nil }
        #expect(!stalled.isEmpty, "messages whose commit failed reached the app: \(received)")
        for id in bobConnections where !stalled.contains(id) {
            #expect(received[id]?.count == 3, "a queue without a failed commit: \(received)")
        }

        // The next run: the failed ones come, and every message has been shown once, in order.
        bob = try await open(1)
        await bob.start()
        await receive(bob, for: .seconds(6))
        for (index, id) in bobConnections.enumerated() {
            #expect(received[id] == ["\(index)-1", "\(index)-2", "\(index)-3"], "connection \(index)")
        }

        // A send whose commit fails is an error, and nothing of it is left to go out: the next
        // message takes its place (its id, its ratchet step) and arrives alone.
        await alice.failNextGroupCommit()
        await #expect(throws: AgentError.self) {
            try await alice.sendMessage(connections[0], body: Array("lost".utf8))
        }
        let next = try await alice.sendMessage(connections[0], body: Array("0-4".utf8))
        #expect(next == 4)
        received = [:]
        bob = try await open(1)
        await bob.start()
        await receive(bob, for: .seconds(5))
        #expect(received == [bobConnections[0]: ["0-4"]])
        await alice.stop()
    }
}
