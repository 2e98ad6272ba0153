import Foundation
import SimpleXProtocol
import Testing
import TestSupport

@testable import SimpleXChat

/// Settings' "test relay": a handshake of its own, OK or the reason.
@Suite struct RelayTestTests {
    @Test func aRunningRelayAnswersAndAWrongFingerprintOrPortIsReported() async throws {
        let relay = try await RelayProcess()
        let address = try SMPServerAddress(relay.address)
        #expect(await ChatController.testServer(address) == nil)

        // The same host and port under another identity: the relay is not the one asked for.
        let other = try SMPServerAddress(
            keyHash: Array(repeating: 7, count: 32), hosts: address.hosts, port: address.port)
        let mismatch = try #require(await ChatController.testServer(other))
        #expect(!mismatch.contains("\n"))
        #expect(mismatch.lowercased().contains("identity"), "\(mismatch)")

        // Nothing listening: the connection error.
        _ = try await relay.stop()
        let refused = try #require(await ChatController.testServer(address))
        #expect(!refused.isEmpty)
    }
}
