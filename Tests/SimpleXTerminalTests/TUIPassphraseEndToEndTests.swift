import Foundation
import Testing
import TestSupport

/// The full-screen client with the database passphrase not kept in the keychain: it asks before
/// the screen opens (echo off), refuses a wrong one and asks again, and Settings → Chat data says so.
@Suite(.timeLimit(.minutes(3)))
struct TUIPassphraseEndToEndTests {
    static func quoted(_ words: [String]) -> String {
        words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
    }

    @Test func thePassphraseIsAskedBeforeTheScreenOpensAndChatDataSaysSo() async throws {
        let relay = try await RelayProcess()
        let tui = try await TUIUser("alice", relay: relay)
        try await tui.quit()
        let setting = try await CLIUser("alice", relay: relay, directory: tui.directory)
        setting.send("/db encrypt tui-secret-7")
        try await setting.expect("database passphrase changed")
        #expect(try await setting.process.wait() == 0)
        let removing = try await CLIUser("alice", relay: relay, directory: tui.directory)
        removing.send("/db store off")
        try await removing.expect("database passphrase removed from the keychain")
        try await removing.quit()

        // The client again in the same terminal.
        var environment = CLIUser.environment(tui.directory).compactMapValues { $0 }
        environment["TERM"] = "xterm-256color"
        environment["HOME"] = tui.directory.path
        environment["LANG"] = "C.UTF-8"
        let command =
            ["env"] + environment.map { "\($0.key)=\($0.value)" }.sorted()
            + [try BuiltProducts.path("simplex-chat"), "-s", relay.address]
        try await tui.tmux(["respawn-pane", "-k", "-t", "tui", Self.quoted(command) + "; echo EXIT=$?; sleep 600"])
        try await tui.waitFor("Database passphrase (not stored in the keychain):")
        try await tui.type("guess-zz9")
        try await tui.press("Enter")
        let refused = try await tui.waitFor("error: wrong database passphrase; nothing was changed")
        #expect(!refused.contains("guess-zz9"))  // not echoed
        try await tui.type("tui-secret-7")
        try await tui.press("Enter")
        try await tui.waitFor("SimpleX Chat · alice")
        try await tui.press("C-s")
        try await tui.waitFor("Your settings")
        for _ in 0..<5 { try await tui.press("Down") }
        try await tui.press("Enter")
        let chatData = try await tui.waitFor("Database passphrase: set, asked at every start")
        #expect(chatData.contains("[ ] Save passphrase in keychain"))
        #expect(!chatData.contains("tui-secret-7"))
        try await tui.press("C-q")
        try await tui.waitFor("EXIT=0")
    }
}
