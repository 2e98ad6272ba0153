import Foundation
import SimpleXChat

/// SimpleX Lock as the client has it (iOS `performLA` with the passcode mode): whether it is on,
/// after how long without a key it locks, whether a self-destruct passcode is set, and whether
/// the lock screen is up now.
public struct LockState: Equatable, Sendable {
    /// The settings kept in GroupDefaults and the keychain (`AppLockStore.settings`).
    public struct Settings: Equatable, Sendable {
        /// `appLocalAuthEnabled` with an app passcode in the keychain.
        public var enabled: Bool
        /// `laLockDelay`: seconds without a key before the client locks; 0 locks as soon as the
        /// terminal loses focus (iOS: when the app leaves the screen).
        public var delay: Int
        /// `selfDestruct` with a self-destruct passcode in the keychain.
        public var selfDestruct: Bool
        /// `selfDestructDisplayName`: the empty profile made after self-destruct (nil: none, the
        /// first-run prompt asks).
        public var selfDestructName: String?

        public init(enabled: Bool = false, delay: Int = 30, selfDestruct: Bool = false, selfDestructName: String? = nil) {
            self.enabled = enabled
            self.delay = delay
            self.selfDestruct = selfDestruct
            self.selfDestructName = selfDestructName
        }
    }

    public var settings = Settings()
    /// The lock screen is up: nothing of the chats is drawn and keys go to its passcode field.
    public var locked = false
    /// The passcode being typed at the lock screen (drawn as dots).
    var field = ComposeState()
    var error: String?
    /// A typed passcode is being checked (Argon2id takes a moment): keys wait.
    var checking = false

    public init(settings: Settings = Settings(), locked: Bool = false) {
        self.settings = settings
        self.locked = locked
    }

    /// The choices of "Lock after" (iOS: immediately to 30 minutes).
    public static let delays: [(seconds: Int, title: String)] = [
        (0, "Immediately: when the terminal loses focus"), (10, "10 seconds"), (30, "30 seconds"),
        (60, "1 minute"), (180, "3 minutes"), (600, "10 minutes"), (1800, "30 minutes"),
    ]

    /// The idle time after which the runtime says `.lockIdle` (nil: nothing to wait for).
    public var idleLimit: Int? {
        settings.enabled && !locked && settings.delay > 0 ? settings.delay : nil
    }
}

/// What a lock change asked in Settings is, for the runtime (which holds the keychain).
public enum LockChange: Equatable, Sendable {
    /// Sets (or replaces) the app passcode, turning SimpleX Lock on.
    case setPasscode(String)
    /// Turns SimpleX Lock off (both passcodes removed), once `current` is the app passcode.
    case disable(current: String)
    /// Sets the self-destruct passcode.
    case setSelfDestruct(String)
    case removeSelfDestruct
    /// The name of the profile made after self-destruct (empty: none).
    case selfDestructName(String)
}

extension AppModel {
    /// Whether the user can see what arrives: the terminal has focus and no lock screen is up.
    var userSees: Bool { terminalFocused && !lock.locked }

    /// Puts the lock screen up (at start, after the idle delay, on focus loss with no delay, or
    /// "Lock now"); GroupDefaults `appLocked` is set first so notifications hide at once.
    mutating func lockNow() -> [AppEffect] {
        guard lock.settings.enabled, !lock.locked else { return [] }
        lock.locked = true
        lock.field = ComposeState()
        lock.error = nil
        lock.checking = false
        status = nil
        return [.setAppLocked(true)]
    }

    /// Keys while the lock screen is up: the passcode field, Enter checks it, Ctrl+Q quits.
    mutating func handleLockKey(_ key: KeyInput) -> [AppEffect] {
        switch key {
        case .control("q"), .control("c"):
            return quit()
        case .key(.enter, _):
            guard !lock.checking else { return [] }
            let typed = lock.field.string
            guard !typed.isEmpty else { return [] }
            lock.checking = true
            lock.error = nil
            lock.field = ComposeState()
            return [.checkPasscode(typed)]
        case .character(let character):
            lock.field.insert(String(character))
        case .paste(let text):
            lock.field.insert(text.filter { !$0.isNewline })
        case .key(.backspace, _):
            lock.field.backspace()
        case .control("u"):
            lock.field = ComposeState()
        default:
            break
        }
        lock.error = nil
        return []
    }

    /// The lock screen's verdict on a typed passcode.
    mutating func passcodeChecked(_ verdict: AppPasscode.Verdict) -> [AppEffect] {
        lock.checking = false
        switch verdict {
        case .unlock:
            lock.locked = false
            // What came into the open chat while locked is read now that it shows.
            return [.setAppLocked(false)] + markReadEffects()
        case .wrong:
            lock.error = "wrong passcode"
            return []
        case .selfDestruct:
            // Everything goes: the runtime ends and the client erases the data, then starts again.
            running = false
            return [.selfDestruct]
        }
    }

    /// A passcode prompt of Settings → Your privacy (the field drawn as dots).
    static func passcodePrompt(_ kind: TextPrompt.Kind) -> TextPrompt {
        let (title, hint): (String, String) =
            switch kind {
            case .newPasscode(selfDestruct: false):
                ("New passcode", "\(AppPasscode.minimumLength) to \(AppPasscode.maximumLength) characters; Enter, Esc cancels")
            case .newPasscode(selfDestruct: true):
                ("New self-destruct passcode", "typed at the lock screen, it erases every chat; Enter, Esc cancels")
            case .confirmPasscode(selfDestruct: false, _): ("Confirm passcode", "type it again; Enter, Esc cancels")
            case .confirmPasscode(selfDestruct: true, _): ("Confirm self-destruct passcode", "type it again; Enter, Esc cancels")
            case .currentPasscode: ("Current passcode", "SimpleX Lock goes off; Enter, Esc cancels")
            default: ("Profile name after self-destruct", "an empty profile with this name; empty: none; Enter saves")
            }
        var prompt = TextPrompt(kind: kind, title: title, hint: hint)
        prompt.masked = kind != .selfDestructName
        return prompt
    }

    /// Enter in a passcode prompt (the value untrimmed: spaces count).
    mutating func submitPasscodePrompt(_ prompt: inout TextPrompt, value: String) -> [AppEffect] {
        switch prompt.kind {
        case .newPasscode(let selfDestruct):
            guard (AppPasscode.minimumLength...AppPasscode.maximumLength).contains(value.count) else {
                prompt.error = "a passcode has \(AppPasscode.minimumLength) to \(AppPasscode.maximumLength) characters"
                prompt.field = ComposeState()
                overlays.append(.prompt(prompt))
                return []
            }
            overlays.append(.prompt(Self.passcodePrompt(.confirmPasscode(selfDestruct: selfDestruct, first: value))))
            return []
        case .confirmPasscode(let selfDestruct, let first):
            guard value == first else {
                var again = Self.passcodePrompt(.newPasscode(selfDestruct: selfDestruct))
                again.error = "the two passcodes differ: type a new one again"
                overlays.append(.prompt(again))
                return []
            }
            return [.changeLock(selfDestruct ? .setSelfDestruct(value) : .setPasscode(value))]
        case .currentPasscode:
            return [.changeLock(.disable(current: value))]
        case .selfDestructName:
            let name = value.trimmingCharacters(in: .whitespaces)
            if !name.isEmpty, let problem = Self.displayNameProblem(name) {
                prompt.error = problem
                overlays.append(.prompt(prompt))
                return []
            }
            return [.changeLock(.selfDestructName(name))]
        default:
            return []
        }
    }

    /// The lock's settings after a change was written (or refused: `note` says why).
    mutating func lockChanged(_ settings: LockState.Settings, note: String, isError: Bool) -> [AppEffect] {
        lock.settings = settings
        preferences.lock = settings
        for index in overlays.indices {
            if case .settings(var screen) = overlays[index] {
                screen.values.lock = settings
                screen.clampSelection()
                overlays[index] = .settings(screen)
            }
        }
        status = (note, isError)
        return []
    }
}
