import Foundation
import Testing
import TestSupport

/// Settings → Chat data in the real client: the chat stopped and run again, the database exported
/// there and imported in another client (where the chat goes on), and deleted.
@Suite(.timeLimit(.minutes(3)))
struct TUIChatDataEndToEndTests {
    /// Opens Settings → Chat data.
    static func openChatData(_ user: TUIUser) async throws {
        try await user.press("C-s")
        try await user.waitFor("Your settings")
        for _ in 0..<5 { try await user.press("Down") }
        try await user.press("Enter")
        try await user.waitFor("Database passphrase:")
    }

    /// Stops the chat from Chat data's first row.
    static func stopChat(_ user: TUIUser) async throws {
        try await user.waitFor("▸ [x] Run chat")
        try await user.press("Enter")
        try await user.waitFor("Stop the chat?")
        try await user.type("y")
        try await user.waitFor("[ ] Run chat: stopped")
    }

    @Test func aDatabaseExportedInOneClientIsImportedInAnotherAndTheChatGoesOn() async throws {
        let relay = try await RelayProcess()
        let alice = try await TUIUser("alice", relay: relay)
        let bob = try await TUIUser("bob", relay: relay)
        try await TUIUser.connect(alice, bob)
        try await bob.press("Escape")
        try await bob.press("M-1")
        try await bob.waitUntil("alice's chat") { $0.contains("> Message") && $0.contains(" alice") }
        try await bob.type("before the export 51")
        try await bob.press("Enter")
        try await alice.waitFor("before the export 51")

        // Alice: export needs the chat stopped.
        try await Self.openChatData(alice)
        for _ in 0..<3 { try await alice.press("Down") }
        try await alice.waitFor("▸ Export database… (stop the chat first)")
        try await alice.press("Enter")
        try await alice.waitFor("stop the chat first (Run chat)")
        for _ in 0..<3 { try await alice.press("Up") }
        try await Self.stopChat(alice)
        for _ in 0..<3 { try await alice.press("Down") }
        try await alice.press("Enter")
        try await alice.waitFor("Export the database to")
        let archive = alice.directory.appending("alice.archive")
        try await alice.type(archive)
        try await alice.press("Enter")
        try await alice.waitFor("Archive passphrase")
        try await alice.type("tui-archive-3")
        try await alice.press("Enter")
        try await alice.waitFor("The archive passphrase again")
        try await alice.type("tui-archive-3")
        try await alice.press("Enter")
        let exported = try await alice.waitFor("exported to \(archive)")
        #expect(!exported.contains("tui-archive-3"))
        #expect(FileManager.default.fileExists(atPath: archive))
        // Alice leaves this machine: her chat goes on in carol's client, imported there.
        try await alice.press("Escape")
        try await alice.press("Escape")
        try await alice.quit()

        let other = try await TUIUser("carol", relay: relay)
        try await Self.openChatData(other)
        try await Self.stopChat(other)
        for _ in 0..<4 { try await other.press("Down") }
        try await other.waitFor("▸ Import database…")
        try await other.press("Enter")
        try await other.waitFor("Import a database from")
        try await other.type(archive)
        try await other.press("Enter")
        try await other.waitFor("Archive passphrase")
        try await other.type("wrong-one")
        try await other.press("Enter")
        try await other.waitFor("Import replaces every chat")
        try await other.type("y")
        try await other.waitFor("wrong archive passphrase; nothing was changed")
        try await other.press("Enter")
        try await other.waitFor("Import a database from")
        try await other.type(archive)
        try await other.press("Enter")
        try await other.waitFor("Archive passphrase")
        try await other.type("tui-archive-3")
        try await other.press("Enter")
        try await other.waitFor("Import replaces every chat")
        try await other.type("y")
        // The client starts again on the imported chat: alice's, with bob and his message.
        try await other.waitFor("SimpleX Chat · alice")
        try await other.waitFor("before the export 51")
        try await bob.type("after the import 52")
        try await bob.press("Enter")
        try await other.waitFor("after the import 52")
        try await other.press("M-1")
        try await other.waitUntil("bob's chat") { $0.contains("> Message") && $0.contains(" bob") }
        try await other.type("from the imported chat 53")
        try await other.press("Enter")
        try await bob.waitFor("from the imported chat 53")

        // Delete database: confirmed, then the client starts empty and asks for a profile.
        try await other.press("Escape")
        try await Self.openChatData(other)
        try await Self.stopChat(other)
        for _ in 0..<5 { try await other.press("Down") }
        try await other.waitFor("▸ Delete database")
        try await other.press("Enter")
        try await other.waitFor("Every chat, contact and file here is erased")
        try await other.type("y")
        try await other.waitFor("Your display name")
        let empty = try await other.screen()
        #expect(!empty.contains("bob") && !empty.contains("after the import"), "\(empty)")
        try await other.type("dana")
        try await other.press("Enter")
        try await other.waitFor("SimpleX Chat · dana")
        try await other.quit()
        try await bob.quit()
    }
}
