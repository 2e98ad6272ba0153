import Foundation
import Testing
import TestSupport

/// `simplex-chat export` on one machine's group directory, `simplex-chat import` on another's:
/// the chat goes on there with the same contacts, and the archive holds nothing in the clear.
@Suite(.timeLimit(.minutes(3)))
struct ChatArchiveEndToEndTests {
    /// Runs `simplex-chat` with `arguments` on `directory`, `input` lines on its standard input.
    static func run(
        _ arguments: [String], directory: TemporaryDirectory, input: [String] = []
    ) async throws -> (status: Int32, output: [String], errors: [String]) {
        let process = try ChildProcess(
            try BuiltProducts.path("simplex-chat"), arguments,
            environment: CLIUser.environment(directory).merging(["SIMPLEX_TEST_ARCHIVE_KDF": "minimum"]) { $1 })
        for line in input { process.send(line) }
        process.closeInput()
        let status = try await process.wait(timeout: .seconds(60))
        return (status, process.allOutput, process.allErrors)
    }

    @Test func aChatExportedHereAndImportedThereGoesOnWithItsContacts() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        try await CLIUser.connect(alice, bob)
        alice.send("@bob before the move 31")
        try await bob.expect("alice> before the move 31")
        try await alice.quit()

        let archive = alice.directory.appending("moved.archive")
        let exported = try await Self.run(["export", archive], directory: alice.directory, input: ["move-it-over 9"])
        #expect(exported.status == 0, "\(exported.errors)")
        #expect(exported.output.contains { $0.hasPrefix("exported the chat to \(archive)") }, "\(exported.output)")
        #expect(!exported.output.joined().contains("move-it-over"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: archive))
        for secret in ["before the move 31", "alice", "bob", "smp://"] {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) in the clear")
        }
        // Exporting over a file is refused.
        let again = try await Self.run(["export", archive], directory: alice.directory, input: ["move-it-over 9"])
        #expect(again.status == 64 && again.errors.contains { $0.contains("exists") }, "\(again.errors)")

        // Another machine: a wrong passphrase changes nothing; the right one brings the chat.
        let there = try TemporaryDirectory("archive-there")
        let wrong = try await Self.run(["import", archive], directory: there, input: ["guess"])
        #expect(wrong.status == 1 && wrong.errors.contains { $0.contains("wrong archive passphrase") }, "\(wrong.errors)")
        let imported = try await Self.run(["import", archive], directory: there, input: ["move-it-over 9"])
        #expect(imported.status == 0, "\(imported.errors)")
        // A second import is refused without --replace: this machine now has a chat.
        let twice = try await Self.run(["import", archive], directory: there, input: ["move-it-over 9"])
        #expect(twice.status == 64 && twice.errors.contains { $0.contains("--replace") }, "\(twice.errors)")

        let moved = try await CLIUser("alice", relay: relay, directory: there)
        moved.send("/tail @bob 1")
        try await moved.expect("before the move 31")
        bob.send("@alice after the move 32")
        try await moved.expect("bob> after the move 32")
        moved.send("@bob from the new machine 33")
        try await bob.expect("alice> from the new machine 33")
        try await moved.quit()

        // Delete database: every chat goes, and the next start asks for a new profile.
        let refused = try await Self.run(["delete-database"], directory: there)
        #expect(refused.status == 64)
        let deleted = try await Self.run(["delete-database", "--yes"], directory: there)
        #expect(deleted.status == 0, "\(deleted.errors)")
        let fresh = try ChildProcess(
            try BuiltProducts.path("simplex-chat"), ["--cli", "-s", relay.address], environment: CLIUser.environment(there))
        _ = try await fresh.line(timeout: .seconds(30)) { $0.hasPrefix("No user profile yet") }
        fresh.kill()
        try await bob.quit()
    }
}
