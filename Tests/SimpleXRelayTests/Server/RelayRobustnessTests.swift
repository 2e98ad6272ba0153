import Foundation
import SimpleXCrypto
import SimpleXProtocol
import Testing
import TestSupport

/// Bad input: answered per the protocol or the connection closed; never a crash, never another
/// user's queue affected.
@Suite struct RelayRobustnessTests {
    /// A working queue on its own connections, checked after each abuse.
    struct Bystander {
        let recipient: RawRelayClient
        let sender: RawRelayClient
        let queue: TestQueue

        init(_ relay: RelayProcess) async throws {
            recipient = try await RawRelayClient.connected(to: relay)
            sender = try await RawRelayClient.connected(to: relay)
            queue = try await TestQueue.create(on: recipient)
        }

        func stillWorks(_ text: String) async throws -> Bool {
            guard try await sender.command(.send(flags: .noFlags, body: Array(text.utf8)), entity: queue.senderID) == .ok
            else { return false }
            let (_, message) = try await recipient.event()
            guard case .message(_, let body) = try queue.open(message).content, String(decoding: body, as: UTF8.self) == text
            else { return false }
            return try await recipient.command(
                .ack(messageID: try queue.messageID(message)), entity: queue.recipientID, key: queue.recipientKey) == .ok
        }
    }

    @Test func garbageInPlaceOfAHandshakeClosesOnlyThatConnection() async throws {
        let relay = try await RelayProcess()
        let bystander = try await Bystander(relay)

        let garbage = try RawRelayClient(port: relay.port)
        _ = try await garbage.readBlock()  // the server hello
        try await garbage.writeBlock(Random.bytes(count: TransportBlock.size))
        #expect(await garbage.isClosedByRelay())

        // A client hello for another server (wrong key hash) is refused too.
        let impostor = try RawRelayClient(port: relay.port)
        _ = try await impostor.readBlock()
        let hello = ClientHello(version: 1, keyHash: Random.bytes(count: 32), clientKey: X25519.generateKeyPair().publicKey)
        try await impostor.writeBlock(try hello.encode())
        #expect(await impostor.isClosedByRelay())

        #expect(try await bystander.stillWorks("after bad handshakes"))
    }

    @Test func aBrokenBlockChainClosesTheConnection() async throws {
        let relay = try await RelayProcess()
        let bystander = try await Bystander(relay)
        let client = try await RawRelayClient.connected(to: relay)
        try await client.writeBlock(Random.bytes(count: TransportBlock.size))
        #expect(await client.isClosedByRelay())
        #expect(try await bystander.stillWorks("after a forged block"))
    }

    @Test func malformedCommandsGetErrorsAndTheConnectionGoesOn() async throws {
        let relay = try await RelayProcess()
        let bystander = try await Bystander(relay)
        let client = try await RawRelayClient.connected(to: relay)

        // A batch that is not a batch: ERR BLOCK.
        try await client.sendPlain(Random.bytes(count: TransportBlock.encryptedPayloadSize))
        let errors = try await client.receive()
        #expect(try errors.map { try $0.decodeResponse() } == [.err(.block)])

        // An unknown command, a syntax error, a missing entity.
        let unknown = SMPTransmission(authorization: [], correlationID: .random(), entityID: .empty, command: Array("FROB".utf8))
        let bad = SMPTransmission(authorization: [], correlationID: .random(), entityID: .random(), command: Array("ACK".utf8))
        try await client.send([unknown, bad])
        #expect(try await client.reply(to: unknown.correlationID) == .err(.cmd(.unknown)))
        #expect(try await client.reply(to: bad.correlationID) == .err(.cmd(.syntax)))

        // Another user's queue: a SUB signed by the wrong key, a SEND to a made-up queue.
        let stranger = try TestQueueKey.ed25519()
        #expect(try await client.command(.sub, entity: bystander.queue.recipientID, key: stranger) == .err(.auth))
        #expect(try await client.command(.send(flags: .noFlags, body: [1]), entity: .random()) == .err(.auth))
        // A body over the limit.
        let large = [UInt8](repeating: 7, count: ReceivedMessageBody.maxBodySize + 1)
        #expect(try await client.command(.send(flags: .noFlags, body: large), entity: bystander.queue.senderID) == .err(.largeMsg))

        #expect(try await client.command(.ping) == .pong)
        #expect(try await bystander.stillWorks("after malformed commands"))
    }

    @Test func mutatedBlocksNeverCrashTheRelay() async throws {
        let relay = try await RelayProcess()
        let bystander = try await Bystander(relay)
        let client = try await RawRelayClient.connected(to: relay)
        var generator = SystemRandomNumberGenerator()
        // Valid encryption around mutated batches of real commands: every one is answered.
        let key = try TestQueueKey.ed25519()
        for round in 0..<300 {
            let command: SMPCommand = [.ping, .sub, .get, .send(flags: .noFlags, body: Array("x\(round)".utf8))][round % 4]
            let transmission = try client.transmission(command, correlationID: .random(), entity: bystander.queue.recipientID, key: key)
            var plain = try TransportBlock.encode([try transmission.encode()])
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                plain[Int.random(in: 0..<min(plain.count, 400), using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            try await client.sendPlain(plain)
            _ = try await client.receive()
        }
        #expect(try await client.command(.ping) == .pong)
        #expect(try await bystander.stillWorks("after mutated blocks"))
        relay.requestStatistics()
        try await Task.sleep(for: .milliseconds(200))
        #expect(relay.log.contains { $0.hasPrefix("stats: connections") })
    }
}
