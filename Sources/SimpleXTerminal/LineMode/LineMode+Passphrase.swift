import Foundation
import SimpleXChat
import SimpleXCrypto

/// The database passphrase commands of the line mode, as SimpleX's CLI and API spell them:
/// `/db encrypt NEW`, `/db key CURRENT NEW`, `/db decrypt CURRENT`,
/// `/_db encryption {"currentKey":"…","newKey":"…"}` (APIStorageEncryption), and ours,
/// `/db store on|off` (`storeDBPassphrase`). Our databases are never plain: "decrypt" (an empty
/// new key) goes back to a random key kept in the keychain.
enum DatabasePassphraseCommand: Equatable {
    /// A change of key: rewrites both databases with the chat stopped.
    case change(current: String, new: String)
    case store(Bool)

    /// The command on `line`, nil when it is not one of these; a malformed one is a usage error.
    static func parse(_ line: String) throws(ClientFailure) -> DatabasePassphraseCommand? {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if line.hasPrefix("/_db encryption") {
            let json = line.dropFirst("/_db encryption".count).trimmingCharacters(in: .whitespaces)
            struct Config: Decodable {
                var currentKey: String
                var newKey: String
            }
            guard let config = try? JSONDecoder().decode(Config.self, from: Data(json.utf8)) else {
                throw ClientFailure(#"usage: /_db encryption {"currentKey":"…","newKey":"…"}"#)
            }
            return .change(current: config.currentKey, new: config.newKey)
        }
        guard words.first == "/db", words.count >= 2 else { return nil }
        switch (words[1], words.count) {
        case ("encrypt", 3): return .change(current: "", new: words[2])
        case ("key", 4): return .change(current: words[2], new: words[3])
        case ("decrypt", 3): return .change(current: words[2], new: "")
        case ("store", 3) where ["on", "off"].contains(words[2]): return .store(words[2] == "on")
        default:
            throw ClientFailure(
                "usage: /db encrypt NEW | /db key CURRENT NEW | /db decrypt CURRENT | /db store on|off (no spaces in a passphrase here)")
        }
    }
}

extension LineMode {
    /// The key a change starts from: the passphrase typed as CURRENT when one is set, else the
    /// random key (CURRENT must then be empty). A wrong one is an error that changes nothing.
    static func currentKey(_ current: String, access: CoreAccess) throws(ClientFailure) -> DatabaseKey {
        let directory = access.container.path
        guard DatabasePassphrase.isSet(groupDirectory: directory) else {
            guard current.isEmpty else {
                throw ClientFailure("no database passphrase is set (the key is random): use /db encrypt NEW")
            }
            return access.databaseKey
        }
        guard !current.isEmpty else {
            throw ClientFailure("a database passphrase is set: give it, /db key CURRENT NEW or /db decrypt CURRENT")
        }
        let result = Result { () throws(PassphraseError) in
            try DatabasePassphrase.unlock(
                groupDirectory: directory, keychain: access.keychain, passphrase: SecureBytes(copying: Array(current.utf8)))
        }
        switch result {
        case .success(let key): return key
        case .failure(let error) where error == .wrongPassphrase:
            throw ClientFailure("wrong current database passphrase; nothing was changed")
        case .failure(let error): throw ClientFailure("\(error)")
        }
    }

    /// `/db store on|off`: keeps the passphrase's key in the keychain or removes it; nothing else changes.
    static func setStored(_ store: Bool, access: CoreAccess) throws(ClientFailure) -> String {
        do {
            try DatabasePassphrase.setStored(
                store, groupDirectory: access.container.path, keychain: access.keychain, current: access.databaseKey)
            try GroupDefaults(container: access.container).set(.storeDBPassphrase, store)
        } catch { throw ClientFailure("\(error)") }
        return store
            ? "database passphrase stored in the keychain: not asked at start"
            : "database passphrase removed from the keychain: asked at every start; the notification service cannot receive until simplex-chat runs"
    }

    /// Rewrites both databases under the new passphrase (or a random key), with the chat stopped.
    static func changeKey(from current: DatabaseKey, to new: String, access: CoreAccess) throws(ClientFailure) -> String {
        let defaults = GroupDefaults(container: access.container)
        let store = new.isEmpty || defaults[.storeDBPassphrase]
        do {
            try DatabasePassphrase.change(
                groupDirectory: access.container.path, keychain: access.keychain, current: current,
                to: new.isEmpty ? .random : .passphrase(SecureBytes(copying: Array(new.utf8))), store: store,
                limits: .interactive, checkpoint: testCrashHook)
            try defaults.set(.storeDBPassphrase, store)
            try defaults.set(.initialRandomDBPassphrase, new.isEmpty)
        } catch { throw ClientFailure("\(error)") }
        let kept = new.isEmpty
            ? "a random key, kept in the keychain"
            : store ? "the passphrase, kept in the keychain" : "the passphrase, asked at every start"
        return "database passphrase changed (\(kept)); the chat was stopped for it: start simplex-chat again"
    }

    /// Tests end the process at a step of the change (SIMPLEX_TEST_KILL_AT_REKEY_STEP), as a crash would.
    private static let testCrashHook: @Sendable (DatabasePassphrase.Step) -> Void = { step in
        if ProcessInfo.processInfo.environment["SIMPLEX_TEST_KILL_AT_REKEY_STEP"] == step.rawValue {
            kill(getpid(), SIGKILL)
        }
    }
}
