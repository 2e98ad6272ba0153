import Foundation
import SimpleXChat
import Testing
import TestSupport

/// The database passphrase not kept in the keychain (`/db store off`): the service cannot open
/// the databases, says `Encrypted message: no passphrase` once, and receives nothing.
struct NotificationServicePassphraseNotStoredTests {
    @Test func aPassphraseNotStoredIsReportedOnceAndNothingIsReceived() async throws {
        let users = try await NotificationServiceEndToEndTests.Users()
        let server = try users.notifications
        let client = try await CLIUser("alice", relay: users.relay, directory: users.alice, bus: users.bus)
        client.send("/db encrypt horse-battery")
        try await client.expect("database passphrase changed")
        #expect(try await client.process.wait() == 0)
        let again = try await CLIUser("alice", relay: users.relay, directory: users.alice, bus: users.bus)
        again.send("/db store off")
        try await again.expect("database passphrase removed from the keychain")
        try await again.quit()

        let service = try await users.service(reaching: .suspended)
        users.bob.send("@alice are you there")
        let calls = try await server.notifyCalls(atLeast: 1)
        #expect(calls.map(\.summary) == ["Encrypted message: no passphrase"])
        #expect(
            await eventually {
                service.process.allErrors.contains { $0.contains("the database passphrase is not stored in the keychain") }
            })
        // Stopped once it serves (its SIGTERM handling is in place by then).
        #expect(await eventually { service.process.allErrors.contains { $0.contains("serving") } })
        #expect(try await service.stop() == 0)
        // A restart tells nobody twice, and bob's message was not received (no notification of it).
        let restarted = try await users.service(reaching: .suspended)
        #expect(await eventually { restarted.process.allErrors.contains { $0.contains("serving") } })
        let restartedStatus = try await restarted.stop()
        #expect(restartedStatus == 0, "\(restarted.process.allErrors)")
        #expect(try await server.notifyCalls().count == 1)
        try await users.bob.quit()
    }
}
