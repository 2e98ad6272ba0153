import Foundation
import SimpleXSystem

/// SimpleX Lock's self-destruct (iOS `deleteAppDatabaseAndFiles` and the keychain's reset): what
/// typing the self-destruct passcode at the lock screen erases. Run by the process that holds
/// core.lock, with its core stopped.
public enum SelfDestruct {
    /// What is kept in the group directory: the settings file (its lock keys reset here), the
    /// keychain's file, emptied of every item, and the empty `*.lock` files processes flock
    /// (core.lock is held by the caller).
    static func isKept(_ entry: String) -> Bool {
        entry == "groupDefaults.json" || entry == "keychain" || entry.hasSuffix(".lock")
    }

    /// Deletes the databases (with their WAL, journals, key-derivation and rekey files), every
    /// file in `files/` and `tmp/`, and anything else in the group directory; removes every
    /// keychain item (the databases' key, the agent's key, both passcodes); turns SimpleX Lock
    /// off in GroupDefaults. Returns the name the new empty profile gets
    /// (`selfDestructDisplayName`, cleared here), nil for none.
    ///
    /// Deleting is final for sealed data: the databases are encrypted and local files sealed, and
    /// their keys are gone with the keychain items.
    @discardableResult
    public static func erase(
        container: GroupContainer, keychain: KeychainStore, defaults: GroupDefaults
    ) throws -> String? {
        let name = defaults[.selfDestructDisplayName]
        try eraseData(container: container, keychain: keychain, defaults: defaults) { _ in true }
        for key in [
            GroupDefaultKeys.appLocalAuthEnabled, GroupDefaultKeys.selfDestruct,
            GroupDefaultKeys.selfDestructDisplayName, GroupDefaultKeys.laLockDelay,
        ] {
            try defaults.reset(key)
        }
        // Cleared last: until everything above is gone, notifications stay hidden.
        try defaults.reset(GroupDefaultKeys.appLocked)
        return name?.isEmpty == false ? name : nil
    }

    /// Deletes every file of the group directory but the kept ones, the keychain items `removes`
    /// chooses, and the settings that name chats or the databases' key.
    static func eraseData(
        container: GroupContainer, keychain: KeychainStore, defaults: GroupDefaults, removes: (KeychainItem) -> Bool
    ) throws {
        let manager = FileManager.default
        for entry in try manager.contentsOfDirectory(atPath: container.path) where !isKept(entry) {
            try manager.removeItem(atPath: container.path + "/" + entry)
        }
        for name in try keychain.itemNames() where removes(KeychainItem(rawValue: name)) {
            try keychain.remove(KeychainItem(rawValue: name))
        }
        for key in [
            GroupDefaultKeys.chatLayoutByChat, GroupDefaultKeys.ntfBadgeCount,
            GroupDefaultKeys.storeDBPassphrase, GroupDefaultKeys.initialRandomDBPassphrase,
        ] {
            try defaults.reset(key)
        }
        // The directories every process expects, empty and private again.
        _ = try GroupContainer(path: container.path)
    }
}
