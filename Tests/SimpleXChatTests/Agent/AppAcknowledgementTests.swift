import Foundation
import SimpleXCrypto
import SimpleXProtocol
import Testing
import TestSupport

@testable import SimpleXChat

/// The agent acknowledges a message on the relay once it has committed it, so the relay sends
/// the next one without waiting for the app; what the app has not acknowledged is given to it
/// again, from the agent's store, each time the agent starts, until it is acknowledged. Two
/// agents in this process and a real relay.
@Suite struct AppAcknowledgementTests {
    @Test func theRelayDoesNotWaitForTheAppAndWhatTheAppLeftComesAgainAtStartOnce() async throws {
        let relay = try await RelayProcess()
        let directory = try TemporaryDirectory("app-ack")
        let address = try SMPServerAddress(relay.address)
        var pair = try await AgentPair.connected(in: directory) {
            AgentConfig(databasePath: $0, servers: [address])
        }
        let (alice, aliceID, bobID) = (pair.alice, pair.aliceID, pair.bobID)
        var bob = pair.bob

        /// Bob's messages (text and agent id) as they come, collected apart from the test.
        func collect(_ agent: Agent) -> Inbox {
            let inbox = Inbox()
            let stream = agent.events
            Task {
                for await event in stream {
                    if case .message(let id, let message) = event, id == bobID {
                        await inbox.add(String(decoding: message.body, as: UTF8.self), message.agentMsgID)
                    }
                }
            }
            return inbox
        }
        var inbox = collect(bob)

        // Bob's app acknowledges nothing, yet all five arrive: the relay was told as each was
        // committed, not when the app was done with it.
        let texts = (1...5).map { "message \($0)" }
        for text in texts { try await alice.sendMessage(aliceID, body: Array(text.utf8)) }
        let first = await inbox.wait(for: texts.count)
        #expect(first.map(\.text) == texts)

        // Bob stops with none acknowledged: next time all five come again, in order, once, though
        // the relay no longer has them.
        await bob.stop()
        bob = try await pair.reopen("bob")
        inbox = collect(bob)
        await bob.start()
        let second = await inbox.wait(for: texts.count + 1, seconds: 2)
        #expect(second.map(\.text) == texts)

        // The app acknowledges the first three: only the last two come the time after.
        for message in second.prefix(3) { try await bob.ackMessage(bobID, agentMsgID: message.id) }
        await bob.stop()
        bob = try await pair.reopen("bob")
        inbox = collect(bob)
        await bob.start()
        let third = await inbox.wait(for: 3, seconds: 2)
        #expect(third.map(\.text) == Array(texts.suffix(2)))

        // Acknowledged too, with a receipt: nothing comes again, and alice learns of the delivery.
        try await bob.ackMessages(third.map { (bobID, $0.id, true) })
        await bob.stop()
        bob = try await pair.reopen("bob")
        inbox = collect(bob)
        await bob.start()
        #expect(await inbox.wait(for: 1, seconds: 2).isEmpty)
        var delivered: Set<Int64> = []
        let deadline = Task {
            try await Task.sleep(for: .seconds(10))
            await alice.stop()
        }
        while delivered.count < 2, let event = await pair.aliceEvents.next() {
            if case .delivered(let id, let agentMsgID, true) = event, id == aliceID {
                delivered.insert(agentMsgID)
            }
        }
        deadline.cancel()
        #expect(delivered.count == 2)
        await alice.stop()
        await bob.stop()
    }

    /// Receipts the app asks for one message at a time are gathered a moment and go to the
    /// sender together: one A_RCVD for a run of messages from one contact, and every message
    /// is marked delivered.
    @Test func receiptsForARunOfMessagesGoInOneMessage() async throws {
        let relay = try await RelayProcess()
        let directory = try TemporaryDirectory("app-ack-receipts")
        let address = try SMPServerAddress(relay.address)
        var pair = try await AgentPair.connected(in: directory) {
            // A window longer than six acknowledgements take on a loaded machine (100 ms by default).
            AgentConfig(databasePath: $0, servers: [address], receiptsGathering: .seconds(2))
        }
        let (alice, bob, aliceID, bobID) = (pair.alice, pair.bob, pair.aliceID, pair.bobID)
        let count = 6
        var sent: [Int64] = []
        for i in 1...count { sent.append(try await alice.sendMessage(aliceID, body: Array("m\(i)".utf8))) }
        var received: [Int64] = []
        while received.count < count, let event = await pair.bobEvents.next() {
            guard case .message(let id, let message) = event, id == bobID else { continue }
            received.append(message.agentMsgID)
        }
        // Acknowledged one call at a time (as the app does for messages handled on their own).
        for agentMsgID in received { try await bob.ackMessage(bobID, agentMsgID: agentMsgID, receipt: true) }
        var delivered: [Int64] = []
        let deadline = Task {
            try await Task.sleep(for: .seconds(30))
            await alice.stop()
        }
        while delivered.count < count, let event = await pair.aliceEvents.next() {
            if case .delivered(let id, let agentMsgID, true) = event, id == aliceID {
                delivered.append(agentMsgID)
            }
        }
        deadline.cancel()
        #expect(delivered.sorted() == sent.sorted())
        let database = try Database(path: directory.appending("bob.db"))
        #expect(
            try database.fetchValue(Int.self, "SELECT count(*) FROM snd_messages WHERE kind = 'receipt'") == 1
        )
        try database.close()
        await alice.stop()
        await bob.stop()
    }
}

/// What a collecting task has received so far.
private actor Inbox {
    private var messages: [(text: String, id: Int64)] = []

    func add(_ text: String, _ id: Int64) { messages.append((text, id)) }

    /// The messages once `count` have come, or what came within `seconds`.
    func wait(for count: Int, seconds: Double = 10) async -> [(text: String, id: Int64)] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while messages.count < count && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return messages
    }
}
