import Foundation
import SimpleXCrypto
import SimpleXProtocol
import Testing
import TestSupport

@testable import SimpleXChat

/// The records of messages done with are deleted after `messageRecordsTTL`, so the agent
/// database does not grow with every message for good; nothing waiting to leave goes, and the
/// connection goes on as before. Two agents in this process, a real relay.
@Suite struct AgentExpiryTests {
    @Test func recordsOfMessagesDoneWithAreDeletedAndNothingWaitingIsLost() async throws {
        let port = try freeLoopbackPort()
        var relay = try await RelayProcess(extraConfig: ["port": "\(port)"])
        let directory = try TemporaryDirectory("agent-expiry")
        let address = try SMPServerAddress(relay.address)
        // Kept for no time: every record of a message done with is old enough. (A short retry,
        // for the relay restart below.)
        var pair = try await AgentPair.connected(in: directory) {
            AgentConfig(
                databasePath: $0, servers: [address],
                retry: SMPBackoff(initial: .milliseconds(50), maximum: .milliseconds(200)), messageRecordsTTL: .zero)
        }
        let (alice, bob, aliceID) = (pair.alice, pair.bob, pair.aliceID)

        func rows(_ agent: Agent, _ table: String) async throws -> Int {
            try await agent.countRows(table)
        }
        func receive(_ count: Int) async throws -> [String] {
            var texts: [String] = []
            while texts.count < count, let event = await pair.bobEvents.next() {
                guard case .message(let id, let message) = event else { continue }
                texts.append(String(decoding: message.body, as: UTF8.self))
                try await bob.ackMessage(id, agentMsgID: message.agentMsgID, receipt: true)
            }
            return texts
        }

        // Three messages, each acknowledged with a receipt: alice learns each was delivered.
        for n in 1...3 { try await alice.sendMessage(aliceID, body: Array("m\(n)".utf8)) }
        #expect(try await receive(3) == ["m1", "m2", "m3"])
        var delivered = 0
        while delivered < 3, let event = await pair.aliceEvents.next() { if case .delivered = event { delivered += 1 } }
        try await Task.sleep(for: .milliseconds(100))  // the ACKs' bookkeeping is written a little later
        #expect(try await rows(bob, "rcv_messages") >= 3)
        #expect(try await rows(alice, "snd_messages") >= 3)

        let bobDeleted = try await bob.deleteExpiredRecords()
        let aliceDeleted = try await alice.deleteExpiredRecords()
        #expect(bobDeleted.received >= 3)
        #expect(aliceDeleted.sent >= 3)
        #expect(try await rows(bob, "rcv_messages") == 0)

        // A message that cannot leave (the relay is down) stays through an expiry pass and
        // goes when the relay is back; the hash chain and ids go on where they were.
        try await relay.kill()
        try await alice.sendMessage(aliceID, body: Array("m4".utf8))
        try await Task.sleep(for: .milliseconds(20))  // older than the pass's cutoff, to the millisecond
        _ = try await alice.deleteExpiredRecords()
        #expect(try await rows(alice, "snd_messages") >= 1, "the message waiting to leave was deleted")
        relay = try await RelayProcess(directory: relay.directory)
        try await alice.sendMessage(aliceID, body: Array("m5".utf8))
        let watchdog = Task {
            try await Task.sleep(for: .seconds(60))
            await bob.stop()  // ends bob's events: `receive` returns with what came
        }
        let rest = try await receive(2)
        watchdog.cancel()
        #expect(rest == ["m4", "m5"])
        await alice.stop()
        await bob.stop()
    }
}

extension Agent {
    /// Rows in a table of the agent database (tests).
    func countRows(_ table: String) throws -> Int {
        try store.database.fetchValue(Int.self, "SELECT count(*) FROM \(table)") ?? 0
    }
}
