import Foundation
import SimpleXCrypto
import SimpleXProtocol
import Testing
import TestSupport

@testable import SimpleXChat

/// A full queue (ERR QUOTA) holds the sender back until the recipient has drained it; the
/// recipient's agent then says so (A_QCONT) and the sender goes on at once, losing nothing.
/// Two agents in this process, a real relay with a quota of 3 messages.
@Suite struct AgentQuotaTests {
    @Test func aSenderHeldBackByAFullQueueGoesOnWhenTheRecipientHasDrainedIt() async throws {
        let relay = try await RelayProcess(extraConfig: ["queue_quota": "3"])
        let directory = try TemporaryDirectory("agent-quota")
        let address = try SMPServerAddress(relay.address)
        // After ERR QUOTA the sender's own retry would come after hours (full jitter: at random
        // up to ten hours): within this test only A_QCONT can send it on.
        let retry = SMPBackoff(initial: .seconds(36_000), maximum: .seconds(36_000))
        var pair = try await AgentPair.connected(in: directory) {
            AgentConfig(databasePath: $0, servers: [address], retry: retry)
        }
        let (alice, bob, aliceID) = (pair.alice, pair.bob, pair.aliceID)
        let sent = Counter()
        let aliceStream = alice.events  // the handshake's events are taken; the rest come here
        let aliceWatcher = Task {
            for await event in aliceStream {
                if case .sent(let id, _) = event, id == aliceID { await sent.increment() }
            }
        }

        // Bob holds the first message without acknowledging it: the relay takes two more, then
        // the queue is full and the fourth gets ERR QUOTA.
        let texts = (1...10).map { "message \($0)" }
        for text in texts { try await alice.sendMessage(aliceID, body: Array(text.utf8)) }
        var received: [String] = []
        var held: (connection: AgentConnectionID, message: AgentReceivedMessage)?
        while held == nil, let event = await pair.bobEvents.next() {
            if case .message(let id, let message) = event { held = (id, message) }
        }
        let (bobID, first) = try #require(held)
        received.append(String(decoding: first.body, as: UTF8.self))
        try await Task.sleep(for: .seconds(1))
        #expect(await sent.value == 3, "the relay took other than its quota of three messages")

        // Bob acknowledges each message as it comes: after each drained queue, alice's held-back
        // messages follow at once (not after her hours-long retry), each once, in order.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(60))
            await bob.stop()  // ends bob's events: the loop below stops with what came
        }
        try await bob.ackMessage(bobID, agentMsgID: first.agentMsgID)
        while received.count < texts.count, let event = await pair.bobEvents.next() {
            guard case .message(let id, let message) = event else { continue }
            received.append(String(decoding: message.body, as: UTF8.self))
            try await bob.ackMessage(id, agentMsgID: message.agentMsgID)
        }
        watchdog.cancel()
        #expect(received == texts, "alice stayed held back after bob drained the queue, or messages were lost")
        // The relay's OK to alice's last SEND may reach her after bob has the message.
        let deadline = ContinuousClock.now + .seconds(10)
        while await sent.value < texts.count && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(await sent.value == texts.count)
        aliceWatcher.cancel()
        await alice.stop()
        await bob.stop()
    }
}

private actor Counter {
    private(set) var value = 0
    func increment() { value += 1 }
}
