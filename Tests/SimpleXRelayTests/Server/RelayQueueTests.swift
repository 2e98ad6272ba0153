import Foundation
import SimpleXCrypto
import SimpleXProtocol
import Testing
import TestSupport

/// The real smp-server process on loopback, driven over the SMP transport.
@Suite struct RelayQueueTests {
    func text(_ body: ReceivedMessageBody) -> String? {
        guard case .message(_, let bytes) = body.content else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func queueLifecycleDeliveryAndACK() async throws {
        let relay = try await RelayProcess()
        let recipient = try await RawRelayClient.connected(to: relay)
        let sender = try await RawRelayClient.connected(to: relay)
        let queue = try await TestQueue.create(on: recipient)

        // The sender secures the queue with its key (SKEY), then sends signed messages.
        let senderKey = try TestQueueKey.x25519()
        #expect(try await sender.command(.skey(senderKey: senderKey.publicKey), entity: queue.senderID, key: senderKey) == .ok)
        for text in ["hello", "second", "third"] {
            let reply = try await sender.command(
                .send(flags: .noFlags, body: Array(text.utf8)), entity: queue.senderID, key: senderKey)
            #expect(reply == .ok)
        }
        // Unsigned SENDs to a secured queue, and SENDs signed by another key, are refused.
        #expect(try await sender.command(.send(flags: .noFlags, body: [1]), entity: queue.senderID) == .err(.auth))
        #expect(
            try await sender.command(.send(flags: .noFlags, body: [1]), entity: queue.senderID, key: try TestQueueKey.x25519())
                == .err(.auth))

        // One message outstanding: the first arrives as an event, the next as the ACK's reply.
        let (entity, first) = try await recipient.event()
        #expect(entity == queue.recipientID)
        #expect(text(try queue.open(first)) == "hello")
        var received = ["hello"]
        var last = first
        while received.count < 3 {
            let next = try await recipient.command(.ack(messageID: try queue.messageID(last)), entity: queue.recipientID, key: queue.recipientKey)
            received.append(try #require(text(try queue.open(next))))
            last = next
        }
        #expect(received == ["hello", "second", "third"])
        #expect(try await recipient.command(.ack(messageID: try queue.messageID(last)), entity: queue.recipientID, key: queue.recipientKey) == .ok)
        // An ACK of a message that is gone is NO_MSG.
        #expect(try await recipient.command(.ack(messageID: try queue.messageID(last)), entity: queue.recipientID, key: queue.recipientKey) == .err(.noMsg))

        // OFF: the sender is refused; DEL: the queue is gone for both.
        #expect(try await recipient.command(.off, entity: queue.recipientID, key: queue.recipientKey) == .ok)
        #expect(try await sender.command(.send(flags: .noFlags, body: [1]), entity: queue.senderID, key: senderKey) == .err(.auth))
        #expect(try await recipient.command(.del, entity: queue.recipientID, key: queue.recipientKey) == .ok)
        #expect(try await recipient.command(.sub, entity: queue.recipientID, key: queue.recipientKey) == .err(.auth))
        #expect(try await recipient.command(.ping) == .pong)
    }

    @Test func aSecondSubscriberEndsTheFirstAndGetNeverDoes() async throws {
        let relay = try await RelayProcess()
        let first = try await RawRelayClient.connected(to: relay)
        let queue = try await TestQueue.create(on: first, key: try TestQueueKey.x25519())
        let sender = try await RawRelayClient.connected(to: relay)
        #expect(try await sender.command(.send(flags: .noFlags, body: Array("m1".utf8)), entity: queue.senderID) == .ok)
        let (_, delivered) = try await first.event()
        #expect(text(try queue.open(delivered)) == "m1")

        // GET from another connection: the message, and no END for the subscriber.
        let getter = try await RawRelayClient.connected(to: relay)
        let got = try await getter.command(.get, entity: queue.recipientID, key: queue.recipientKey)
        #expect(text(try queue.open(got)) == "m1")
        #expect(try await first.command(.ping) == .pong)
        #expect(first.backlog.isEmpty)

        // SUB from a new connection: it gets the outstanding message again; the first gets END.
        let second = try await RawRelayClient.connected(to: relay)
        let resubscribed = try await second.command(.sub, entity: queue.recipientID, key: queue.recipientKey)
        #expect(text(try queue.open(resubscribed)) == "m1")
        let (endEntity, end) = try await first.event()
        #expect(endEntity == queue.recipientID)
        #expect(end == .end)

        // Deliveries now go to the second connection only.
        #expect(try await second.command(.ack(messageID: try queue.messageID(resubscribed)), entity: queue.recipientID, key: queue.recipientKey) == .ok)
        #expect(try await sender.command(.send(flags: .noFlags, body: Array("m2".utf8)), entity: queue.senderID) == .ok)
        let (_, next) = try await second.event()
        #expect(text(try queue.open(next)) == "m2")
        #expect(try await first.command(.ping) == .pong)
        #expect(first.backlog.isEmpty)
    }

    @Test func quotaRefusesThenMarksThenRecovers() async throws {
        let relay = try await RelayProcess(extraConfig: ["queue_quota": "3"])
        let recipient = try await RawRelayClient.connected(to: relay)
        let queue = try await TestQueue.create(on: recipient, subscribe: false)
        let sender = try await RawRelayClient.connected(to: relay)
        for n in 1...3 {
            #expect(try await sender.command(.send(flags: .noFlags, body: Array("m\(n)".utf8)), entity: queue.senderID) == .ok)
        }
        #expect(try await sender.command(.send(flags: .noFlags, body: Array("m4".utf8)), entity: queue.senderID) == .err(.quota))
        #expect(try await sender.command(.send(flags: .noFlags, body: Array("m5".utf8)), entity: queue.senderID) == .err(.quota))

        var texts: [String] = []
        var response = try await recipient.command(.sub, entity: queue.recipientID, key: queue.recipientKey)
        while case .msg = response {
            let body = try queue.open(response)
            texts.append(text(body) ?? (body.content == .quota ? "QUOTA" : "?"))
            response = try await recipient.command(.ack(messageID: try queue.messageID(response)), entity: queue.recipientID, key: queue.recipientKey)
        }
        #expect(texts == ["m1", "m2", "m3", "QUOTA"])
        #expect(response == .ok)
        // Drained: the sender may continue.
        #expect(try await sender.command(.send(flags: .noFlags, body: Array("m6".utf8)), entity: queue.senderID) == .ok)
        let (_, after) = try await recipient.event()
        #expect(text(try queue.open(after)) == "m6")
    }

    @Test func contactQueuesCannotBeSecuredAndTakeAnyonesMessages() async throws {
        let relay = try await RelayProcess()
        let owner = try await RawRelayClient.connected(to: relay)
        let queue = try await TestQueue.create(on: owner, mode: .contact)
        let stranger = try await RawRelayClient.connected(to: relay)
        let key = try TestQueueKey.ed25519()
        #expect(try await stranger.command(.skey(senderKey: key.publicKey), entity: queue.senderID, key: key) == .err(.auth))
        #expect(try await stranger.command(.send(flags: .noFlags, body: Array("hi".utf8)), entity: queue.senderID) == .ok)
        let (_, message) = try await owner.event()
        #expect(text(try queue.open(message)) == "hi")
    }
}
