import Foundation
import Testing

@testable import SimpleXChat
@testable import SimpleXTUI

/// SimpleX Lock in the client's model: what the lock screen shows and takes, when it comes up,
/// and the passcode prompts of Settings → Your privacy.
@Suite struct AppLockTests {
    static let on = LockState.Settings(enabled: true, delay: 30)

    func lockedApp() -> AppModel {
        var app = AppFixture.app()
        app.lock = LockState(settings: Self.on, locked: true)
        return app
    }

    func screenText(_ app: inout AppModel) -> String {
        AppView(layout: AppFixture.layout).draw(&app).lines.map(\.text).joined(separator: "\n")
    }

    @Test func theLockScreenDrawsNothingOfTheChatsAndTakesEveryKey() {
        var app = lockedApp()
        app.status = ("bob is connected", false)
        app.overlays.append(.info(title: "bob's info", lines: ["secret"], scroll: 0))
        var text = screenText(&app)
        #expect(text.contains("SimpleX Lock") && text.contains("Enter passcode"))
        for hidden in ["alice", "bob", "secret", "Chats"] { #expect(!text.contains(hidden), "\(text)") }
        // Keys type the passcode (shown as dots), they never reach the chat list.
        for character in "24a8" { #expect(app.update(.key(.character(character))).isEmpty) }
        #expect(app.update(.key(.control("k"))).isEmpty)
        text = screenText(&app)
        #expect(text.contains("> ••••") && !text.contains("24a8"))
        #expect(app.update(.key(.key(.enter))) == [.checkPasscode("24a8")])
        // While it is checked a second Enter does nothing.
        #expect(app.update(.key(.key(.enter))).isEmpty)
        #expect(app.update(.passcodeChecked(.wrong)).isEmpty)
        #expect(app.lock.locked)
        #expect(screenText(&app).contains("wrong passcode"))
        #expect(app.update(.passcodeChecked(.unlock)) == [.setAppLocked(false)])
        #expect(!app.lock.locked)
        #expect(screenText(&app).contains("alice"))
    }

    @Test func theSelfDestructPasscodeEndsTheClientForTheErase() {
        var app = lockedApp()
        #expect(app.update(.passcodeChecked(.selfDestruct)) == [.selfDestruct])
        #expect(!app.running)
    }

    @Test func itLocksWhenIdleAndOnFocusLossOnlyWithoutADelay() {
        var app = AppFixture.app()
        // Off: nothing locks.
        #expect(app.update(.lockIdle).isEmpty)
        #expect(app.lock.idleLimit == nil)
        app.lock = LockState(settings: Self.on)
        #expect(app.lock.idleLimit == 30)
        #expect(app.update(.key(.focus(false))).isEmpty)  // a delay of 30 s: losing focus is not idling
        #expect(app.update(.lockIdle) == [.setAppLocked(true)])
        #expect(app.lock.locked && app.lock.idleLimit == nil)
        #expect(app.update(.lockIdle).isEmpty)  // once
        app.lock = LockState(settings: LockState.Settings(enabled: true, delay: 0))
        #expect(app.lock.idleLimit == nil)
        #expect(app.update(.key(.focus(false))) == [.setAppLocked(true)])
    }

    @Test func whatArrivesWhileLockedIsNotReadAndIsNotified() {
        var app = AppFixture.app()
        let bob = AppFixture.contact(2, "bob")
        app.chat = ChatViewState(contact: bob, items: [], firstUnreadId: nil)
        app.lock = LockState(settings: Self.on, locked: true)
        let item = AppFixture.item(7, "while locked", contact: 2)
        let effects = app.update(.core(.newItem(bob, item)))
        #expect(!effects.contains(.markRead(contactId: 2)), "\(effects)")
        #expect(effects.contains(.notify(.newItem(bob, item))), "\(effects)")
        // Unlocked, the open chat shows it and it is read.
        _ = app.update(.chatList([AppFixture.entry(bob, last: item, unread: 1)]))
        #expect(app.update(.passcodeChecked(.unlock)).contains(.markRead(contactId: 2)))
    }

    @Test func aNewPasscodeIsTypedTwiceAndTheTwoMustMatch() {
        var app = AppFixture.app()
        _ = app.update(.key(.control("s")))
        for _ in 0..<3 { _ = app.update(.key(.key(.down))) }
        _ = app.update(.key(.key(.enter)))
        #expect(app.settingsScreen?.page == .privacy)
        _ = app.update(.key(.key(.enter)))  // [ ] SimpleX Lock
        guard case .prompt(let first) = app.overlays.last else {
            Issue.record("no passcode prompt")
            return
        }
        #expect(first.kind == .newPasscode(selfDestruct: false) && first.masked)
        for character in "123" { _ = app.update(.key(.character(character))) }
        #expect(app.update(.key(.key(.enter))).isEmpty)
        guard case .prompt(let short) = app.overlays.last else {
            Issue.record("prompt closed")
            return
        }
        #expect(short.error?.contains("4 to 64") == true)
        for character in "1234 " { _ = app.update(.key(.character(character))) }
        _ = app.update(.key(.key(.enter)))
        for character in "1234" { _ = app.update(.key(.character(character))) }
        #expect(app.update(.key(.key(.enter))).isEmpty)  // "1234 " and "1234" differ: spaces count
        guard case .prompt(let again) = app.overlays.last else {
            Issue.record("prompt closed")
            return
        }
        #expect(again.kind == .newPasscode(selfDestruct: false) && again.error?.contains("differ") == true)
        for character in "1234 " { _ = app.update(.key(.character(character))) }
        _ = app.update(.key(.key(.enter)))
        for character in "1234 " { _ = app.update(.key(.character(character))) }
        #expect(app.update(.key(.key(.enter))) == [.changeLock(.setPasscode("1234 "))])
        #expect(app.settingsScreen != nil)
        // The store's answer turns the lock's rows on.
        _ = app.update(.lockChanged(Self.on, note: "SimpleX Lock is on", isError: false))
        let rows = app.settingsScreen?.rows.map(\.text) ?? []
        #expect(rows.contains("[x] SimpleX Lock: a passcode to open the client"), "\(rows)")
        #expect(rows.contains("(•) 30 seconds") && rows.contains("Lock now"), "\(rows)")
    }

    @Test func turningTheLockOffAsksForTheCurrentPasscode() {
        var screen = SettingsScreen(values: SettingsValues(), profile: Profile(displayName: "me", fullName: ""))
        screen.values.lock = Self.on
        screen.open(.privacy)
        #expect(screen.handle(.key(.enter)) == .prompt(.currentPasscode, text: ""))
        // The delay is a choice written at once.
        _ = screen.handle(.key(.down))
        _ = screen.handle(.key(.down))
        #expect(screen.handle(.key(.enter)) == .change(.lockDelay(10)))
        #expect(screen.values.lock.delay == 10)
    }
}

/// SimpleX Lock's settings in a real keychain and GroupDefaults file.
@Suite struct AppLockStoreTests {
    @Test func setChangeAndTurnOffTheLockAndItsSelfDestructPasscode() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let container = try GroupContainer(path: dir + "/group")
        let keyFile = try #require(KeyFileMasterKey(environment: ["XDG_CONFIG_HOME": dir + "/config"]))
        let keychain = try await KeychainStore.open(path: container.keychainPath, masterKey: keyFile)
        let defaults = GroupDefaults(container: container)
        let store = AppLockStore(keychain: keychain, defaults: defaults)
        #expect(store.settings() == LockState.Settings())
        #expect(try store.apply(.setPasscode("open-1")).contains("SimpleX Lock is on"))
        #expect(store.settings().enabled && defaults[.appLocalAuthEnabled])
        #expect(store.check("open-1") == .unlock && store.check("open-2") == .wrong)
        #expect(throws: AppPasscode.Failure.sameAsOther) { try store.apply(.setSelfDestruct("open-1")) }
        _ = try store.apply(.setSelfDestruct("gone-1"))
        _ = try store.apply(.selfDestructName("fresh"))
        #expect(store.settings().selfDestruct && store.settings().selfDestructName == "fresh")
        #expect(store.check("gone-1") == .selfDestruct)
        #expect(try store.apply(.setPasscode("open-3")) == "passcode changed")
        #expect(store.check("open-1") == .wrong && store.check("open-3") == .unlock)
        // Off needs the current passcode; a wrong one changes nothing.
        #expect(throws: AppPasscode.Failure.wrongPasscode) { try store.apply(.disable(current: "open-1")) }
        #expect(store.settings().enabled)
        _ = try store.apply(.disable(current: "open-3"))
        #expect(!store.settings().enabled && !store.settings().selfDestruct)
        #expect(try keychain.get(.appPassword) == nil && keychain.get(.selfDestructPassword) == nil)
        // The switch alone, with no passcode in the keychain, does not lock anyone out.
        try defaults.set(.appLocalAuthEnabled, true)
        #expect(!store.settings().enabled)
        store.setLocked(true)
        #expect(defaults[.appLocked])
    }
}
