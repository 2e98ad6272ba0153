import SimpleXCrypto
import SimpleXProtocol
import Testing
import TestSupport

/// The handshake as docs/smp-protocol.md describes it, against the relay process.
@Suite struct RelayHandshakeTests {
    /// A later client may append fields to its hello without a version change (SimpleX's rule):
    /// the relay reads the fields it knows, ignores the rest, and the session works as any other.
    @Test func aClientHelloWithFieldsOfALaterVersionStartsAWorkingSession() async throws {
        let relay = try await RelayProcess()
        let later = try RawRelayClient(port: relay.port)
        var laterFields = ByteWriter()
        try laterFields.appendShortString(Array("a field of a later version".utf8))
        laterFields.appendWord16(0xBEEF)
        try await later.handshake(
            keyHash: SMPServerAddress(relay.address).keyHash, extensionBytes: laterFields.bytes)
        #expect(try await later.command(.ping) == .pong)

        // Both sides of a queue on extended hellos: a message goes through and is acknowledged.
        let queue = try await TestQueue.create(on: later)
        let sender = try RawRelayClient(port: relay.port)
        try await sender.handshake(
            keyHash: SMPServerAddress(relay.address).keyHash, extensionBytes: [0, 1, 2, 3])
        #expect(
            try await sender.command(
                .send(flags: .noFlags, body: Array("hello".utf8)), entity: queue.senderID) == .ok)
        let (_, message) = try await later.event()
        guard case .message(_, let body) = try queue.open(message).content else {
            Issue.record("expected a message, got \(message)")
            return
        }
        #expect(String(decoding: body, as: UTF8.self) == "hello")
        #expect(
            try await later.command(
                .ack(messageID: queue.messageID(message)), entity: queue.recipientID, key: queue.recipientKey)
                == .ok)
    }
}
