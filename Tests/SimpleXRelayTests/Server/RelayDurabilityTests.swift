import Foundation
import SimpleXCrypto
import SimpleXProtocol
import Synchronization
import Testing
import TestSupport

@testable import SimpleXRelay

/// Queues and messages across restarts and crashes of the relay process.
@Suite struct RelayDurabilityTests {
    func text(_ body: ReceivedMessageBody) -> String {
        guard case .message(_, let bytes) = body.content else { return "QUOTA" }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// SUB, then ACK through the queue; the texts in order.
    func drain(_ queue: TestQueue, on client: RawRelayClient, limit: Int = 1000) async throws -> [String] {
        var texts: [String] = []
        var response = try await client.command(.sub, entity: queue.recipientID, key: queue.recipientKey)
        while case .msg = response, texts.count < limit {
            texts.append(text(try queue.open(response)))
            response = try await client.command(
                .ack(messageID: try queue.messageID(response)), entity: queue.recipientID, key: queue.recipientKey)
        }
        return texts
    }

    @Test func queuesAndUndeliveredMessagesSurviveARestart() async throws {
        let relay = try await RelayProcess()
        let client = try await RawRelayClient.connected(to: relay)
        let queue = try await TestQueue.create(on: client, subscribe: false)
        for n in 1...5 {
            #expect(try await client.command(.send(flags: .noFlags, body: Array("m\(n)".utf8)), entity: queue.senderID) == .ok)
        }
        #expect(try await relay.stop() == 0)

        let restarted = try await RelayProcess(directory: relay.directory)
        #expect(restarted.address.hasPrefix(relay.address.split(separator: "@")[0] + "@"))
        let again = try await RawRelayClient.connected(to: restarted)
        #expect(try await drain(queue, on: again) == ["m1", "m2", "m3", "m4", "m5"])
    }

    @Test func aSendAnsweredOKSurvivesKill9AndAnACKedMessageNeverReturns() async throws {
        let relay = try await RelayProcess()
        let setup = try await RawRelayClient.connected(to: relay)
        let queue = try await TestQueue.create(on: setup, subscribe: false)

        // A sender that keeps sending; the relay is killed while it does.
        let acknowledged = Mutex<[String]>([])
        let sender = try await RawRelayClient.connected(to: relay)
        let sending = Task {
            for n in 1...100_000 {
                let reply = try? await sender.command(.send(flags: .noFlags, body: Array("m\(n)".utf8)), entity: queue.senderID)
                guard reply == .ok else { return }
                acknowledged.withLock { $0.append("m\(n)") }
            }
        }
        while acknowledged.withLock({ $0.count }) < 60 { try await Task.sleep(for: .milliseconds(5)) }
        try await relay.kill()
        await sending.value
        let okd = acknowledged.withLock { $0 }
        #expect(okd.count >= 60)

        // Every OK'd message is there, in order, once; a message sent but not yet answered may be too.
        let restarted = try await RelayProcess(directory: relay.directory)
        let recipient = try await RawRelayClient.connected(to: restarted)
        var texts: [String] = []
        var response = try await recipient.command(.sub, entity: queue.recipientID, key: queue.recipientKey)
        // ACK the first 30, then crash again right after the last ACK's reply.
        while case .msg = response, texts.count < 30 {
            texts.append(text(try queue.open(response)))
            response = try await recipient.command(
                .ack(messageID: try queue.messageID(response)), entity: queue.recipientID, key: queue.recipientKey)
        }
        try await restarted.kill()

        let third = try await RelayProcess(directory: relay.directory)
        let after = try await RawRelayClient.connected(to: third)
        let rest = try await drain(queue, on: after, limit: 200)
        let all = texts + rest
        #expect(Array(all.prefix(okd.count)) == okd)
        #expect(all.count <= okd.count + 1)
        #expect(Set(all).count == all.count)
        // The ACKed ones did not come back.
        #expect(rest.first == all[30])
    }

    @Test func messagesExpireAfterTheConfiguredTime() async throws {
        let tmp = try TemporaryDirectory("relay-expiry")
        let files = RelayFiles(directory: tmp.appending("config"))
        _ = try files.initialize(host: nil, port: 0)
        var config = try files.loadConfig()
        config.messageExpiryDays = 2
        let clock = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        let environment = StoreEnvironment(now: { clock.withLock { $0 } }, randomID: StoreEnvironment.live.randomID)
        let server = try RelayServer(
            files: files, config: config, identity: try files.loadIdentity(), port: 0, environment: environment, log: { _ in })
        defer { server.stop() }
        let client = try await RawRelayClient.connected(port: server.port, address: server.address.description)
        let queue = try await TestQueue.create(on: client, subscribe: false)
        #expect(try await client.command(.send(flags: .noFlags, body: Array("old".utf8)), entity: queue.senderID) == .ok)
        clock.withLock { $0 += 86_400 }
        #expect(try await client.command(.send(flags: .noFlags, body: Array("new".utf8)), entity: queue.senderID) == .ok)
        clock.withLock { $0 += 86_400 + 60 }
        // "old" is now older than 2 days; "new" is not.
        #expect(try await drain(queue, on: client) == ["new"])
    }
}
