import Foundation
import Testing
import TestSupport

/// SimpleX Lock in the real client, set from Settings → Your privacy: the lock screen hides every
/// chat and the notifications' text, refuses a wrong passcode, comes up at start and after the
/// idle delay; the self-destruct passcode erases everything and starts an empty profile.
@Suite(.timeLimit(.minutes(3)))
struct TUILockEndToEndTests {
    /// Opens Settings → Your privacy (from anywhere on the main screen).
    static func openPrivacy(_ user: TUIUser) async throws {
        try await user.press("C-s")
        try await user.waitFor("Your settings")
        for _ in 0..<3 { try await user.press("Down") }
        try await user.press("Enter")
        try await user.waitFor("Auto-accept images")
    }

    /// Types a passcode into the two prompts of a new one; the screen shows only dots.
    static func enterNewPasscode(_ user: TUIUser, _ passcode: String, confirm: String) async throws {
        try await user.type(passcode)
        let typed = try await user.waitFor(String(repeating: "•", count: passcode.count))
        #expect(!typed.contains(passcode), "\(typed)")
        try await user.press("Enter")
        try await user.waitFor(confirm)
        try await user.type(passcode)
        try await user.press("Enter")
    }

    static func groupDefaults(_ user: TUIUser) throws -> String {
        try String(contentsOfFile: user.directory.appending("group/groupDefaults.json"), encoding: .utf8)
    }

    /// A GroupDefaults switch as the other processes read it (false when unset).
    static func flag(_ user: TUIUser, _ key: String) throws -> Bool {
        let data = try Data(contentsOf: URL(fileURLWithPath: user.directory.appending("group/groupDefaults.json")))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return object?[key] as? Bool ?? false
    }

    @Test func theLockScreenHidesChatsAndNotificationsAndOpensOnlyWithThePasscode() async throws {
        let bus = try await TestBus()
        let server = try await MockNotificationServer(on: bus)
        let relay = try await RelayProcess()
        let alice = try await TUIUser("alice", relay: relay, bus: bus)
        let bob = try await TUIUser("bob", relay: relay)
        try await TUIUser.connect(alice, bob)
        try await bob.press("Escape")
        try await bob.press("M-1")
        try await bob.waitUntil("alice's chat") { $0.contains("> Message") && $0.contains(" alice") }

        // Settings → Your privacy → SimpleX Lock: a passcode typed twice.
        try await Self.openPrivacy(alice)
        try await alice.waitFor("[ ] SimpleX Lock")
        try await alice.press("Enter")
        try await alice.waitFor("New passcode")
        try await alice.type("12")
        try await alice.press("Enter")
        try await alice.waitFor("a passcode has 4 to 64 characters")
        try await Self.enterNewPasscode(alice, "pass-1234", confirm: "Confirm passcode")
        try await alice.waitFor("SimpleX Lock is on")
        let on = try await alice.waitFor("[x] SimpleX Lock")
        #expect(on.contains("(•) 30 seconds"), "\(on)")  // iOS's default delay
        #expect(try Self.flag(alice, "appLocalAuthEnabled"))

        // Lock now: the last of the lock's rows.
        for _ in 0..<10 { try await alice.press("Down") }
        try await alice.waitFor("▸ Lock now")
        try await alice.press("Enter")
        let locked = try await alice.waitFor("Enter passcode")
        #expect(locked.contains("SimpleX Lock"))
        for hidden in ["bob", "Your privacy", "alice"] { #expect(!locked.contains(hidden), "\(locked)") }
        #expect(try Self.flag(alice, "appLocked"))

        // A message while locked: not on the screen, and its notification tells nothing.
        try await bob.type("while locked 42")
        try await bob.press("Enter")
        try await bob.waitFor("│ while locked 42")
        let calls = try await server.notifyCalls(atLeast: 1)
        for call in calls {
            #expect(!call.summary.contains("bob") && !call.body.contains("while locked"), "\(call)")
        }
        #expect(try await !alice.screen().contains("while locked"))

        // A wrong passcode is refused; the right one shows the chats again.
        try await alice.type("wrong-000")
        try await alice.press("Enter")
        let refused = try await alice.waitFor("wrong passcode")
        #expect(!refused.contains("wrong-000") && !refused.contains("bob"), "\(refused)")
        try await alice.type("pass-1234")
        try await alice.press("Enter")
        try await alice.waitUntil("the unlocked list") { $0.contains("bob") && $0.contains("while locked 42") }
        #expect(try !Self.flag(alice, "appLocked"))

        // At the next start the lock screen comes first.
        try await alice.press("Escape")
        try await alice.press("Escape")
        try await alice.quit()
        try await alice.restart()
        let atStart = try await alice.waitFor("Enter passcode")
        #expect(!atStart.contains("bob"), "\(atStart)")
        try await alice.type("pass-1234")
        try await alice.press("Enter")
        try await alice.waitFor("bob")

        // Lock after 10 seconds: no key for that long and the lock screen is up.
        try await Self.openPrivacy(alice)
        try await alice.press("Down")
        try await alice.press("Down")
        try await alice.press("Enter")
        try await alice.waitFor("(•) 10 seconds")
        try await alice.press("Escape")
        try await alice.press("Escape")
        try await alice.waitUntil("Settings closed") { !$0.contains("Your settings") && !$0.contains("Your privacy") }
        let idle = ContinuousClock.now
        let idleLocked = try await alice.waitFor("Enter passcode", timeout: .seconds(40))
        #expect(ContinuousClock.now - idle >= .seconds(8), "\(idleLocked)")
        try await alice.type("pass-1234")
        try await alice.press("Enter")
        try await alice.waitFor("bob")
        try await alice.quit()
        try await bob.quit()
    }

    @Test func theSelfDestructPasscodeErasesEveryChatAndStartsAnEmptyProfile() async throws {
        let relay = try await RelayProcess()
        let alice = try await TUIUser("alice", relay: relay)
        let bob = try await TUIUser("bob", relay: relay)
        try await TUIUser.connect(alice, bob)
        try await bob.press("Escape")
        try await bob.press("M-1")
        try await bob.waitUntil("alice's chat") { $0.contains("> Message") && $0.contains(" alice") }
        try await bob.type("before the end 77")
        try await bob.press("Enter")
        try await alice.waitFor("before the end 77")

        try await Self.openPrivacy(alice)
        try await alice.press("Enter")
        try await alice.waitFor("New passcode")
        try await Self.enterNewPasscode(alice, "open-5555", confirm: "Confirm passcode")
        try await alice.waitFor("SimpleX Lock is on")
        // The self-destruct passcode: the same as the app passcode is refused.
        for _ in 0..<9 { try await alice.press("Down") }
        try await alice.waitFor("▸ [ ] Self-destruct passcode")
        try await alice.press("Enter")
        try await alice.waitFor("New self-destruct passcode")
        try await Self.enterNewPasscode(alice, "open-5555", confirm: "Confirm self-destruct passcode")
        try await alice.waitFor("must differ from the app passcode")
        try await alice.press("Enter")
        try await alice.waitFor("New self-destruct passcode")
        try await Self.enterNewPasscode(alice, "gone-9876", confirm: "Confirm self-destruct passcode")
        try await alice.waitFor("self-destruct passcode set")
        try await alice.press("Down")
        try await alice.waitFor("▸ Profile name after self-destruct: (none)")
        try await alice.press("Enter")
        try await alice.waitFor("an empty profile with this name")
        try await alice.type("newbie")
        try await alice.press("Enter")
        try await alice.waitFor("Profile name after self-destruct: newbie")
        try await alice.press("Down")
        try await alice.press("Enter")
        try await alice.waitFor("Enter passcode")

        // Typed at the lock screen: everything goes, and the client starts again as newbie.
        try await alice.type("gone-9876")
        try await alice.press("Enter")
        let empty = try await alice.waitFor("SimpleX Chat · newbie")
        #expect(!empty.contains("bob") && !empty.contains("before the end"), "\(empty)")
        #expect(!empty.contains("Enter passcode"))
        // Nothing of the old chats is left anywhere in the group directory, in any byte.
        let group = alice.directory.appending("group")
        let files = try #require(FileManager.default.subpaths(atPath: group))
        for file in files {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: group + "/" + file, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: group + "/" + file))
            for needle in ["before the end 77", "bob", "alice"] {
                #expect(bytes.range(of: Data(needle.utf8)) == nil, "\(file) holds \(needle)")
            }
        }
        #expect(try !Self.flag(alice, "appLocalAuthEnabled") && !Self.flag(alice, "selfDestruct"))
        #expect(try !Self.groupDefaults(alice).contains("newbie"))
        // The next start is not locked (the passcodes went with the rest) and is newbie's.
        try await alice.quit()
        try await alice.restart()
        let again = try await alice.waitFor("SimpleX Chat · newbie")
        #expect(!again.contains("Enter passcode"))
        try await alice.quit()
        try await bob.quit()
    }
}
