import Foundation
import SimpleXChat

/// Where SimpleX Lock's settings live: the passcodes as Argon2id verifiers in the keychain
/// (`AppPasscode`), the switches and the delay in GroupDefaults, as iOS keeps them
/// (`appLocalAuthEnabled`, `laLockDelay`, `selfDestruct`, `selfDestructDisplayName`, `appLocked`).
public struct AppLockStore: Sendable {
    let keychain: KeychainStore
    let defaults: GroupDefaults

    public init(keychain: KeychainStore, defaults: GroupDefaults) {
        self.keychain = keychain
        self.defaults = defaults
    }

    /// The lock as it is stored: on only with its passcode in the keychain (a GroupDefaults switch
    /// alone, with the keychain emptied, would lock the user out).
    public func settings() -> LockState.Settings {
        let snapshot = defaults.snapshot()
        let enabled = snapshot[.appLocalAuthEnabled] && ((try? AppPasscode.isSet(.appPassword, in: keychain)) ?? false)
        let selfDestruct =
            enabled && snapshot[.selfDestruct] && ((try? AppPasscode.isSet(.selfDestructPassword, in: keychain)) ?? false)
        return LockState.Settings(
            enabled: enabled, delay: snapshot[.laLockDelay], selfDestruct: selfDestruct,
            selfDestructName: snapshot[.selfDestructDisplayName])
    }

    /// GroupDefaults `appLocked`, which the notification service and the client's own notifier
    /// read before each notification.
    public func setLocked(_ locked: Bool) {
        try? defaults.set(.appLocked, locked)
    }

    /// What `typed` opens at the lock screen (a keychain that cannot be read opens nothing).
    public func check(_ typed: String) -> AppPasscode.Verdict {
        let selfDestruct = settings().selfDestruct
        return (try? AppPasscode.check(typed, in: keychain, selfDestructEnabled: selfDestruct)) ?? .wrong
    }

    /// Applies `change`; returns the line the user sees. Throws with a one-line reason, changing nothing.
    public func apply(_ change: LockChange) throws(AppPasscode.Failure) -> String {
        switch change {
        case .setPasscode(let passcode):
            let wasOn = settings().enabled
            try AppPasscode.set(passcode, as: .appPassword, in: keychain)
            try write { $0[.appLocalAuthEnabled] = true }
            return wasOn ? "passcode changed" : "SimpleX Lock is on: the client locks at start and after \(Self.delayText(settings().delay))"
        case .disable(let current):
            guard (try? AppPasscode.check(current, in: keychain, selfDestructEnabled: false)) == .unlock else {
                throw .wrongPasscode
            }
            try AppPasscode.remove(.appPassword, in: keychain)
            try write {
                $0[.appLocalAuthEnabled] = false
                $0[.selfDestruct] = false
            }
            return "SimpleX Lock is off"
        case .setSelfDestruct(let passcode):
            try AppPasscode.set(passcode, as: .selfDestructPassword, in: keychain)
            try write { $0[.selfDestruct] = true }
            return "self-destruct passcode set: typed at the lock screen, it erases every chat"
        case .removeSelfDestruct:
            try AppPasscode.remove(.selfDestructPassword, in: keychain)
            try write { $0[.selfDestruct] = false }
            return "self-destruct passcode removed"
        case .selfDestructName(let name):
            try write { $0[.selfDestructDisplayName] = name.isEmpty ? nil : name }
            return name.isEmpty ? "no profile is made after self-destruct" : "after self-destruct, an empty profile named \(name)"
        }
    }

    private func write(_ body: (inout GroupDefaultsValues) -> Void) throws(AppPasscode.Failure) {
        do { try defaults.update(body) } catch { throw .settings("\(error)") }
    }

    static func delayText(_ seconds: Int) -> String {
        switch seconds {
        case 0: "the terminal loses focus"
        case ..<60: "\(seconds) seconds without a key"
        default: "\(seconds / 60) minute\(seconds >= 120 ? "s" : "") without a key"
        }
    }
}
