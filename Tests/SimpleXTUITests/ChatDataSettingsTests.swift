import Foundation
import Testing

@testable import SimpleXChat
@testable import SimpleXTUI

/// Settings → Chat data: the database passphrase's state and "Save passphrase in keychain".
@Suite struct ChatDataSettingsTests {
    func text(_ screen: SettingsScreen) -> String {
        screen.lines(width: 120, height: 20).map(\.text).joined(separator: "\n")
    }

    func chatData(_ values: SettingsValues) -> SettingsScreen {
        var screen = SettingsScreen(values: values, profile: Profile(displayName: "alice", fullName: ""))
        screen.open(.chatData)
        // From Run chat, the first row, to Save passphrase in keychain.
        _ = screen.handle(.key(.down))
        return screen
    }

    @Test func theRootListsChatDataAfterAppearance() {
        let screen = SettingsScreen(values: SettingsValues(), profile: Profile(displayName: "alice", fullName: ""))
        let rows = screen.rows.map(\.text)
        #expect(rows.suffix(2).map { $0.prefix(10) } == ["Appearance", "Chat data"])
        #expect(screen.rows.last?.action == .open(.chatData))
    }

    @Test func aRandomKeyCannotBeRemovedFromTheKeychain() {
        var screen = chatData(SettingsValues())
        #expect(text(screen).contains("Database passphrase: a random key, saved in the keychain"))
        #expect(text(screen).contains("[x] Save passphrase in keychain"))
        guard case .error(let message) = screen.handle(.key(.enter)) else {
            Issue.record("turning it off was not refused")
            return
        }
        #expect(message.contains("no database passphrase is set"))
        #expect(screen.values.storeDBPassphrase)  // nothing changed
    }

    @Test func aPassphraseIsRemovedFromTheKeychainAndSavedAgain() {
        var values = SettingsValues()
        values.databasePassphraseSet = true
        var screen = chatData(values)
        #expect(text(screen).contains("Database passphrase: set, saved in the keychain"))
        #expect(screen.handle(.key(.enter)) == .change(.storeDBPassphrase(false)))
        #expect(text(screen).contains("[ ] Save passphrase in keychain"))
        #expect(text(screen).contains("Database passphrase: set, asked at every start"))
        #expect(screen.handle(.character(" ")) == .change(.storeDBPassphrase(true)))
        #expect(text(screen).contains("[x] Save passphrase in keychain"))
    }

    @Test func theSettingIsReadFromGroupDefaults() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chat-data-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let defaults = GroupDefaults(path: dir.appendingPathComponent("groupDefaults.json").path)
        #expect(AppEffects.settings(from: defaults).storeDBPassphrase)
        try defaults.set(.storeDBPassphrase, false)
        #expect(!AppEffects.settings(from: defaults).storeDBPassphrase)
    }

    @Test func theMessageLifetimeIsChosenWhileTheChatRuns() {
        var screen = chatData(SettingsValues())
        #expect(text(screen).contains("(•) never"))
        // To the last row, "1 year".
        for _ in 0..<20 { _ = screen.handle(.key(.down)) }
        #expect(screen.handle(.key(.enter)) == .change(.chatItemTTL(365 * 86_400)))
        #expect(text(screen).contains("(•) 1 year"))
        var stopped = SettingsValues()
        stopped.chatRunning = false
        screen = chatData(stopped)
        for _ in 0..<20 { _ = screen.handle(.key(.down)) }
        guard case .error(let message) = screen.handle(.key(.enter)) else {
            Issue.record("a stopped chat's lifetime was changed")
            return
        }
        #expect(message.contains("run the chat first"))
    }

    @Test func exportAndImportNeedTheChatStoppedAndAskTheirPassphraseTwice() {
        var app = AppFixture.app()
        _ = app.update(.key(.control("s")))
        for _ in 0..<5 { _ = app.update(.key(.key(.down))) }
        _ = app.update(.key(.key(.enter)))
        #expect(app.settingsScreen?.page == .chatData)
        for _ in 0..<3 { _ = app.update(.key(.key(.down))) }
        #expect(app.update(.key(.key(.enter))).isEmpty)  // Export while running: refused
        #expect(app.status?.text.contains("stop the chat first") == true)
        _ = app.update(.chatDataChanged(running: false, usage: nil, note: nil, isError: false))
        _ = app.update(.key(.key(.enter)))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)").path
        for character in path { _ = app.update(.key(.character(character))) }
        _ = app.update(.key(.key(.enter)))
        for character in "pass-1" { _ = app.update(.key(.character(character))) }
        _ = app.update(.key(.key(.enter)))
        guard case .prompt(let confirm) = app.overlays.last else {
            Issue.record("no confirmation prompt")
            return
        }
        #expect(confirm.masked && confirm.kind == .exportPassphraseConfirm(path: path, first: "pass-1"))
        for character in "pass-1" { _ = app.update(.key(.character(character))) }
        #expect(app.update(.key(.key(.enter))) == [.chatData(.export(path: path, passphrase: "pass-1"))])
    }
}
