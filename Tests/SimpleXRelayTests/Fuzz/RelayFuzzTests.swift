import Foundation
import SimpleXCrypto
import SimpleXProtocol
import SimpleXRelay
import Testing
import TestSupport

/// 100k mutated and random blocks through the relay's block handling (the code the server runs
/// on each decrypted block, driven in process): every block is answered, and a bystander's queue
/// on other connections sees nothing of it and still delivers exactly. `make bench` runs 10M.
@Suite struct RelayFuzzTests {
    /// A queue on its own two connections, secured with its sender's key.
    struct Bystander {
        let relay: InProcessRelay
        let recipient: InProcessRelay.Connection
        let sender: InProcessRelay.Connection
        let recipientKey = try! TestQueueKey.ed25519()
        let senderKey = try! TestQueueKey.ed25519()
        let dh = X25519.generateKeyPair()
        var recipientID = EntityID.empty
        var senderID = EntityID.empty
        var messageKey: CryptoBox.SharedKey?

        init(_ relay: InProcessRelay) throws {
            self.relay = relay
            recipient = try relay.connect()
            sender = try relay.connect()
            let reply = try command(
                .new(recipientAuthKey: recipientKey.publicKey, recipientDHKey: dh.publicKey, subscriptionMode: .subscribe, queueMode: .messaging),
                on: recipient, key: recipientKey)
            guard case .ids(let rid, let sid, let serverDH, _) = reply else { throw TestSupportError("NEW answered \(reply)") }
            (recipientID, senderID) = (rid, sid)
            messageKey = try CryptoBox.SharedKey(publicKey: serverDH, privateKey: dh.privateKey)
            let secured = try command(.key(senderKey: senderKey.publicKey), entity: recipientID, on: recipient, key: recipientKey)
            guard secured == .ok else { throw TestSupportError("KEY answered \(secured)") }
        }

        /// One command in its own block; its reply (events for the connection must not be there).
        func command(_ command: SMPCommand, entity: EntityID = .empty, on connection: InProcessRelay.Connection, key: TestQueueKey?) throws -> SMPResponse {
            let correlationID = CorrelationID.random()
            let session = connection.client
            let transmission =
                try key.map { key in
                    try SMPTransmission.command(command, correlationID: correlationID, entityID: entity, sessionID: session.sessionID) {
                        try key.authorize($0, correlationID: correlationID, session: session)
                    }
                } ?? SMPTransmission.command(command, correlationID: correlationID, entityID: entity)
            let replies = try relay.receive(TransportBlock.encode([transmission.encode()]), from: connection)
                .map { try SMPTransmission.decode($0) }
            guard replies.count == 1, replies[0].correlationID == correlationID else {
                throw TestSupportError("expected one reply to \(command), got \(replies)")
            }
            return try replies[0].decodeResponse()
        }

        /// SEND signed by the sender, the MSG event on the recipient's connection with the same body, ACK.
        func deliversExactly(_ text: String) throws -> Bool {
            guard try command(.send(flags: .noFlags, body: Array(text.utf8)), entity: senderID, on: sender, key: senderKey) == .ok
            else { return false }
            let events = try relay.take(for: recipient).map { try SMPTransmission.decode($0) }
            guard events.count == 1, events[0].correlationID.isEmpty, events[0].entityID == recipientID,
                case .msg(let messageID, let encrypted) = try events[0].decodeResponse(), let messageKey
            else { return false }
            let body = try MessageEncryption.open(encrypted, messageID: messageID, sharedKey: messageKey)
            guard case .message(_, let bytes) = body.content, bytes == Array(text.utf8) else { return false }
            return try command(.ack(messageID: messageID), entity: recipientID, on: recipient, key: recipientKey) == .ok
        }
    }

    @Test func mutatedAndRandomBlocksAreAllAnsweredAndABystanderIsUntouched() throws {
        let directory = try TemporaryDirectory("relay-fuzz")
        let relay = try InProcessRelay(storeDirectory: directory.path)
        let bystander = try Bystander(relay)
        #expect(try bystander.deliversExactly("before the fuzz"))

        // SIMPLEX_FUZZ_SEED repeats a run; the seed is in every failure message.
        let seed = ProcessInfo.processInfo.environment["SIMPLEX_FUZZ_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64.max)
        let fuzzer = try RelayFuzzer(relay: relay, seed: seed)
        var bystanderEvents = 0
        let count = ProcessInfo.processInfo.environment["SIMPLEX_FUZZ_COUNT"].flatMap { Int($0) } ?? 100_000
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<count {
            try fuzzer.step()
            bystanderEvents += relay.take(for: bystander.recipient).count + relay.take(for: bystander.sender).count
        }
        print("relay fuzz: \(count) blocks in \(clock.now - start) (seed \(seed)): \(fuzzer.counts), replies \(fuzzer.replyKinds)")
        #expect(fuzzer.unanswered == 0, "blocks not answered per the protocol (seed \(seed))")
        #expect(bystanderEvents == 0, "the bystander's connections got events from the fuzz (seed \(seed))")
        // The inputs reached command handling, not only the decoders.
        for kind in ["IDS", "MSG", "OK", "PONG", "ERR AUTH", "ERR BLOCK"] {
            #expect((fuzzer.replyKinds[kind] ?? 0) > 0, "no \(kind) reply in the fuzz (seed \(seed)): \(fuzzer.replyKinds)")
        }

        // Nothing spurious in the bystander's queue, and it delivers exactly.
        #expect(try bystander.command(.get, entity: bystander.recipientID, on: bystander.recipient, key: bystander.recipientKey) == .ok)
        #expect(try bystander.deliversExactly("after the fuzz"), "seed \(seed)")
        #expect(try bystander.command(.ping, on: bystander.sender, key: nil) == .pong)

        // The journal of it all replays: the same queues come back after a restart.
        let queues = relay.queueCount
        try relay.shutdown()
        let reopened = try InProcessRelay(storeDirectory: directory.path)
        #expect(reopened.queueCount == queues, "seed \(seed)")
        try reopened.shutdown()
    }
}
