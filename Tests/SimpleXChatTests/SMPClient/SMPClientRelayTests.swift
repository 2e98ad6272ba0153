import Foundation
import SimpleXCrypto
import SimpleXNetwork
import SimpleXProtocol
import TestSupport
import Testing

@testable import SimpleXChat

/// The client against the real relay: the built `smp-server` run as a process on loopback.
@Suite struct SMPClientRelayTests {
    @Test func queueLifecycleFromCreationToDeletion() async throws {
        let relay = try await RelayProcess()
        defer { Task { try? await relay.kill() } }
        let address = try SMPServerAddress(relay.address)
        let loops = try EventLoopGroup(loopCount: 2, name: "smp-clients")
        defer { loops.shutdown() }
        let recipient = try await SMPClient.connect(to: address, loop: loops.loops[0])
        defer { recipient.close() }
        let sender = try await SMPClient.connect(to: address, loop: loops.loops[1])
        defer { sender.close() }
        let events = EventLog(recipient)

        // NEW (subscribed), KEY with an X25519 sender key; the recipient signs with Ed25519.
        let recipientKey = QueueAuthKey.generate(.ed25519)
        let dh = X25519.generateKeyPair()
        let queue = try await recipient.createQueue(recipientKey: recipientKey, recipientDHKey: dh.publicKey)
        let messageKey = try SMPClient.messageKey(
            serverDHKey: queue.serverDHKey, recipientDHPrivateKey: dh.privateKey)
        let senderKey = QueueAuthKey.generate(.x25519)
        // Before KEY anyone with the sender id may send; after it, only the sender key's holder.
        try await recipient.secure(
            recipientID: queue.recipientID, key: recipientKey, senderKey: senderKey.publicKey)
        await #expect(throws: SMPClientError.server(.auth)) {
            try await sender.sendMessage(senderID: queue.senderID, key: nil, body: Array("sneaky".utf8))
        }

        // SEND → MSG to the subscriber as an event; ACK, and the next waiting message is ACK's reply.
        try await sender.sendMessage(senderID: queue.senderID, key: senderKey, body: Array("one".utf8))
        try await sender.sendMessage(senderID: queue.senderID, key: senderKey, body: Array("two".utf8))
        #expect(await eventually { !events.events.isEmpty })
        guard case .message(let queueID, let firstID, let firstBody) = try #require(events.events.first)
        else {
            Issue.record("expected a message, got \(events.events)")
            return
        }
        #expect(queueID == queue.recipientID)
        #expect(try body(of: firstBody, id: firstID, key: messageKey) == Array("one".utf8))
        let second = try #require(
            try await recipient.ack(recipientID: queue.recipientID, key: recipientKey, messageID: firstID))
        #expect(
            try body(of: second.encryptedBody, id: second.messageID, key: messageKey) == Array("two".utf8))
        #expect(
            try await recipient.ack(
                recipientID: queue.recipientID, key: recipientKey, messageID: second.messageID) == nil)
        #expect(events.events.count == 1)

        // OFF: the sender is refused; DEL: the queue is gone for the recipient too.
        try await recipient.suspend(recipientID: queue.recipientID, key: recipientKey)
        await #expect(throws: SMPClientError.server(.auth)) {
            try await sender.sendMessage(senderID: queue.senderID, key: senderKey, body: [1])
        }
        try await recipient.delete(recipientID: queue.recipientID, key: recipientKey)
        await #expect(throws: SMPClientError.server(.auth)) {
            _ = try await recipient.subscribe(recipientID: queue.recipientID, key: recipientKey)
        }
    }

    @Test func getFetchesFromAnUnsubscribedQueue() async throws {
        let relay = try await RelayProcess()
        defer { Task { try? await relay.kill() } }
        let loop = try EventLoop(name: "smp-client")
        defer { loop.shutdown() }
        let client = try await SMPClient.connect(to: SMPServerAddress(relay.address), loop: loop)
        defer { client.close() }
        let key = QueueAuthKey.generate(.x25519)
        let dh = X25519.generateKeyPair()
        let queue = try await client.createQueue(
            recipientKey: key, recipientDHKey: dh.publicKey, subscriptionMode: .onlyCreate)
        let messageKey = try SMPClient.messageKey(
            serverDHKey: queue.serverDHKey, recipientDHPrivateKey: dh.privateKey)
        #expect(try await client.get(recipientID: queue.recipientID, key: key) == nil)
        // The sender secures the queue itself (SKEY), then sends.
        let senderKey = QueueAuthKey.generate(.ed25519)
        try await client.secureBySender(senderID: queue.senderID, senderKey: senderKey)
        try await client.sendMessage(senderID: queue.senderID, key: senderKey, body: Array("got".utf8))
        let message = try #require(try await client.get(recipientID: queue.recipientID, key: key))
        #expect(
            try body(of: message.encryptedBody, id: message.messageID, key: messageKey) == Array("got".utf8))
        #expect(
            try await client.ack(recipientID: queue.recipientID, key: key, messageID: message.messageID)
                == nil)
        #expect(try await client.get(recipientID: queue.recipientID, key: key) == nil)
    }

    @Test func aSecondSubscriberEndsTheFirstAndDeletionIsAnnounced() async throws {
        let relay = try await RelayProcess()
        defer { Task { try? await relay.kill() } }
        let address = try SMPServerAddress(relay.address)
        let loop = try EventLoop(name: "smp-clients")
        defer { loop.shutdown() }
        let first = try await SMPClient.connect(to: address, loop: loop)
        defer { first.close() }
        let second = try await SMPClient.connect(to: address, loop: loop)
        defer { second.close() }
        let firstEvents = EventLog(first)
        let secondEvents = EventLog(second)

        let key = QueueAuthKey.generate(.ed25519)
        let queue = try await first.createQueue(
            recipientKey: key, recipientDHKey: X25519.generateKeyPair().publicKey)
        #expect(try await second.subscribe(recipientID: queue.recipientID, key: key) == nil)
        #expect(await eventually { firstEvents.events == [.end(recipientID: queue.recipientID)] })
        #expect(try await first.subscribe(recipientID: queue.recipientID, key: key) == nil)
        #expect(await eventually { secondEvents.events == [.end(recipientID: queue.recipientID)] })
        try await second.delete(recipientID: queue.recipientID, key: key)
        #expect(
            await eventually {
                firstEvents.events == [
                    .end(recipientID: queue.recipientID), .deleted(recipientID: queue.recipientID),
                ]
            })
    }

    @Test func reconnectsAfterTheRelayIsKilledAndRestarted() async throws {
        let relay = try await RelayProcess()
        let address = try SMPServerAddress(relay.address)
        let loop = try EventLoop(name: "smp-client")
        defer { loop.shutdown() }
        let sleeps = RecordedSleeps(random: 1)
        let options = SMPClientOptions(
            backoff: SMPBackoff(initial: .milliseconds(20), maximum: .milliseconds(200)))
        let client = try await SMPClient.connect(
            to: address, loop: loop, options: options, environment: sleeps.environment)
        defer { client.close() }
        let events = EventLog(client)
        let key = QueueAuthKey.generate(.ed25519)
        let dh = X25519.generateKeyPair()
        let queue = try await client.createQueue(recipientKey: key, recipientDHKey: dh.publicKey)
        let messageKey = try SMPClient.messageKey(
            serverDHKey: queue.serverDHKey, recipientDHPrivateKey: dh.privateKey)

        try await relay.kill()
        #expect(await eventually { events.events.count == 1 })
        #expect(events.events == [.disconnected(reason: .connectionClosed(.peerClosed))])
        // Refused attempts while the relay is down back off (jitter fixed at 1: the caps).
        #expect(await eventually { sleeps.recorded.count >= 3 })
        await #expect(throws: SMPClientError.disconnected) { try await client.ping() }

        let restarted = try await RestartedRelay(relay, port: address.port)
        defer { restarted.process.kill() }
        #expect(await eventually { events.events.count == 2 })
        #expect(events.events.last == .reconnected)
        #expect(sleeps.recorded.prefix(3).map(\.milliseconds) == [20, 40, 80])

        // The queue survived (the relay's store is durable); the agent resubscribes and receives.
        #expect(try await client.subscribe(recipientID: queue.recipientID, key: key) == nil)
        try await client.sendMessage(senderID: queue.senderID, key: nil, body: Array("after".utf8))
        #expect(await eventually { events.events.count == 3 })
        guard case .message(_, let messageID, let encrypted) = events.events[2] else {
            Issue.record("expected a message, got \(events.events)")
            return
        }
        #expect(try body(of: encrypted, id: messageID, key: messageKey) == Array("after".utf8))
    }

    private func body(of encrypted: [UInt8], id: [UInt8], key: CryptoBox.SharedKey) throws -> [UInt8] {
        let received = try SMPClient.decryptMessage(encrypted, messageID: id, sharedKey: key)
        guard case .message(_, let body) = received.content else {
            throw TestSupportError("expected a message, got \(received.content)")
        }
        return body
    }
}

/// The relay started again on its old directory and its old port (clients keep the address).
private struct RestartedRelay {
    let process: ChildProcess

    init(_ relay: RelayProcess, port: UInt16) async throws {
        process = try ChildProcess(
            try BuiltProducts.path("smp-server"),
            ["start", "--config", relay.configDirectory, "--port", "\(port)"])
        _ = try await process.line(timeout: .seconds(20)) { $0.hasPrefix("listening on ") }
    }
}
