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
        let pair = try await AgentPair.connected(in: directory) {
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

        // Bob is away: the relay takes three messages, then the queue is full and the next gets
        // ERR QUOTA.
        await bob.stop()
        let texts = (1...10).map { "message \($0)" }
        for text in texts { try await alice.sendMessage(aliceID, body: Array(text.utf8)) }
        try await Task.sleep(for: .seconds(1))
        // (The last message of the handshake may still be waiting there, taking one place.)
        let taken = await sent.value
        #expect((2...3).contains(taken), "the relay took \(taken) messages, not its quota of three")

        // Bob comes back and acknowledges each message as it comes: after each drained queue,
        // alice's held-back messages follow at once (not after her hours-long retry), each once,
        // in order.
        let bobAgain = try await pair.reopen("bob")
        var bobAgainEvents = bobAgain.events.makeAsyncIterator()
        await bobAgain.start()
        let watchdog = Task {
            try await Task.sleep(for: .seconds(60))
            await bobAgain.stop()  // ends bob's events: the loop below stops with what came
        }
        var received: [String] = []
        while received.count < texts.count, let event = await bobAgainEvents.next() {
            guard case .message(let id, let message) = event else { continue }
            received.append(String(decoding: message.body, as: UTF8.self))
            try await bobAgain.ackMessage(id, agentMsgID: message.agentMsgID)
        }
        watchdog.cancel()
        #expect(
            received == texts, "alice stayed held back after bob drained the queue, or messages were lost")
        // The relay's OK to alice's last SEND may reach her after bob has the message.
        let deadline = ContinuousClock.now + .seconds(10)
        while await sent.value < texts.count && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(await sent.value == texts.count)
        aliceWatcher.cancel()
        await alice.stop()
        await bobAgain.stop()
    }
}

private actor Counter {
    private(set) var value = 0
    func increment() { value += 1 }
}
