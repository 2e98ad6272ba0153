import SimpleXChat
import SimpleXCrypto
import SimpleXDesktop
import SimpleXProtocol
import SimpleXSystem

/// The group directory made ready for running the chat core, as the line mode and `-e` both
/// need it: the directory, the core taken over from the notification service with core.lock held
/// (one process runs the core at a time, DESIGN §4), the session bus, and the agent's secrets
/// and the databases' key from the keychain.
struct CoreAccess {
    let container: GroupContainer
    private let handoff: ClientHandoff
    private let lock: FileLock
    let secrets: AgentSecrets
    /// The key both databases are sealed with (the keychain's `databasePassword`, or derived
    /// from the passphrase typed at start).
    let databaseKey: DatabaseKey
    /// The group's keychain (a passphrase change updates it).
    let keychain: KeychainStore

    /// Opens the group directory, takes the core over (asking the service to suspend; failing
    /// when another client runs it) and loads the agent's key from the keychain. `note` hears that
    /// no service can be reached when there is no session bus.
    ///
    /// When the database passphrase is not kept in the keychain, `askPassphrase` is asked for it
    /// (again after a wrong one); without it, starting fails with a one-line error.
    static func open(
        environment: [String: String], askPassphrase: ((String) async -> SecureBytes?)? = nil,
        note: ((String) -> Void)? = nil
    ) async throws(ClientFailure) -> CoreAccess {
        let container: GroupContainer
        do { container = try GroupContainer.open(environment: environment) } catch {
            throw ClientFailure("\(error)")
        }
        let bus = try? await DBusConnection.session()
        if bus == nil {
            note?("no session bus: no notification service can be reached, so core.lock alone decides who runs the chat")
        }
        let defaults = GroupDefaults(container: container)
        let handoff = ClientHandoff(container: container, defaults: defaults, bus: bus, environment: environment)
        let lock: FileLock
        do { lock = try await handoff.takeCore() } catch {
            bus?.close()
            throw ClientFailure(error.description)
        }
        await handoff.announce()
        do {
            let keychain = try await DesktopKeychain.open(
                container: container, bus: bus, environment: environment)
            // An import or a passphrase change interrupted by a crash is finished or rolled back first.
            try ChatArchive.recover(container: container, keychain: keychain)
            try DatabasePassphrase.recover(groupDirectory: container.path, keychain: keychain)
            let secrets = try AgentSecrets.load(from: keychain)
            let databaseKey: DatabaseKey
            if try DatabasePassphrase.isRequired(groupDirectory: container.path, keychain: keychain) {
                databaseKey = try await askDatabaseKey(container: container, keychain: keychain, ask: askPassphrase)
            } else {
                databaseKey = try DatabaseKey.load(from: keychain)
            }
            // Plain databases of an earlier version are encrypted once, here, with the core held.
            try ChatController.encryptDatabases(groupDirectory: container.path, key: databaseKey)
            try DatabaseKey.recordDatabasesEncrypted(in: keychain)
            return CoreAccess(
                container: container, handoff: handoff, lock: lock, secrets: secrets, databaseKey: databaseKey,
                keychain: keychain)
        } catch {
            await handoff.handBack(lock)
            bus?.close()
            if let failure = error as? ClientFailure { throw failure }
            throw ClientFailure(error is ChatError || error is PassphraseError ? "\(error)" : "keychain: \(error)")
        }
    }

    /// The key from the passphrase the user types, asked again after a wrong one.
    private static func askDatabaseKey(
        container: GroupContainer, keychain: KeychainStore, ask: ((String) async -> SecureBytes?)?
    ) async throws -> DatabaseKey {
        guard let ask else {
            throw ClientFailure(
                "the database passphrase is not stored in the keychain: start simplex-chat in a terminal, which asks for it")
        }
        var prompt = "Database passphrase (not stored in the keychain):"
        while true {
            guard let typed = await ask(prompt) else {
                throw ClientFailure("the database passphrase is needed to open the chat")
            }
            let result = Result { () throws(PassphraseError) in
                try DatabasePassphrase.unlock(groupDirectory: container.path, keychain: keychain, passphrase: typed)
            }
            switch result {
            case .success(let key): return key
            case .failure(let error) where error == .wrongPassphrase:
                prompt = "error: wrong database passphrase; nothing was changed. Database passphrase:"
            case .failure(let error): throw error
            }
        }
    }

    /// Answers `OpenChat` (a notification click) and `Share` (a reply typed into a notification,
    /// the share helper) on the client's bus name.
    func exportChatMethods(
        openChat: @escaping @Sendable (String) async -> Void,
        share: @escaping @Sendable (ClientHandoff.SharedContent, String) async throws -> String
    ) async {
        handoff.exportChatMethods(openChat: openChat, share: share)
    }

    /// Tells the service the user read chat `ref` here (its notification goes).
    var chatRead: @Sendable (String) async -> Void {
        let handoff = handoff
        return { ref in await handoff.chatRead(ref) }
    }

    /// Opens the chat core for the active user.
    func openChat() async throws(ClientFailure) -> ChatController {
        do {
            return try await ChatController.open(
                groupDirectory: container.path, secrets: secrets, databaseKey: databaseKey)
        } catch {
            throw ClientFailure("\(error)")
        }
    }

    /// SimpleX Lock's self-destruct, with the core stopped and core.lock still held: erases the
    /// databases, files and keychain items (`SelfDestruct.erase`), then makes the new keys an
    /// empty group starts with. Returns the access to it and the name of the profile to make.
    func selfDestruct() throws(ClientFailure) -> (CoreAccess, String?) {
        do {
            let name = try SelfDestruct.erase(
                container: container, keychain: keychain, defaults: GroupDefaults(container: container))
            let secrets = try AgentSecrets.load(from: keychain)
            let databaseKey = try DatabaseKey.load(from: keychain)
            try DatabaseKey.recordDatabasesEncrypted(in: keychain)
            return (
                CoreAccess(
                    container: container, handoff: handoff, lock: lock, secrets: secrets, databaseKey: databaseKey,
                    keychain: keychain),
                name
            )
        } catch {
            throw ClientFailure("\(error)")
        }
    }

    /// The same access after Chat data changed the databases under it (imported, deleted, a new
    /// passphrase): the keys read again from the keychain, or `databaseKey` when given.
    func reloaded(databaseKey given: DatabaseKey?) throws(ClientFailure) -> CoreAccess {
        do {
            try ChatArchive.recover(container: container, keychain: keychain)
            let secrets = try AgentSecrets.load(from: keychain)
            let databaseKey = try given ?? DatabaseKey.load(from: keychain)
            return CoreAccess(
                container: container, handoff: handoff, lock: lock, secrets: secrets, databaseKey: databaseKey,
                keychain: keychain)
        } catch let failure as ClientFailure {
            throw failure
        } catch {
            throw ClientFailure("\(error)")
        }
    }

    /// Hands the core back (core.lock released, the service resumed in instant mode) and closes
    /// the session bus.
    func close() async {
        await handoff.handBack(lock)
        handoff.bus?.close()
    }

    /// Keeps the relays given with `-s` for the user; while the user has none, `make run`'s local
    /// relay (SIMPLEX_DEFAULT_SERVER) is used, and `note` says so.
    func applyServers(_ servers: [String], environment: [String: String], note: (String) -> Void)
        throws(ClientFailure)
    {
        do {
            if !servers.isEmpty {
                var addresses: [SMPServerAddress] = []
                for text in servers {
                    do { addresses.append(try SMPServerAddress(text)) } catch {
                        throw ClientFailure("bad relay address \(text): \(error)", status: ExitStatus.usage)
                    }
                }
                try ChatController.setServers(groupDirectory: container.path, addresses, databaseKey: databaseKey)
            }
            if try ChatController.servers(groupDirectory: container.path, databaseKey: databaseKey).isEmpty,
                let fallback = environment["SIMPLEX_DEFAULT_SERVER"]
            {
                do {
                    try ChatController.setServers(
                        groupDirectory: container.path, [try SMPServerAddress(fallback)], databaseKey: databaseKey)
                } catch {
                    throw ClientFailure(
                        "bad SIMPLEX_DEFAULT_SERVER \(fallback): \(error)", status: ExitStatus.usage)
                }
                note("Using the local relay \(fallback) (set your own with -s or /smp)")
            }
        } catch let failure as ClientFailure {
            throw failure
        } catch {
            throw ClientFailure("\(error)")
        }
    }
}

/// A failure that ends a `simplex-chat` command: its one-line message (printed after
/// "simplex-chat: ") and exit status.
struct ClientFailure: Error, CustomStringConvertible {
    let description: String
    let status: Int32

    init(_ description: String, status: Int32 = ExitStatus.failure) {
        self.description = description
        self.status = status
    }

    /// Any error as a failure: a `ClientFailure` as it is, anything else exit status 1.
    init(_ error: any Error) {
        self = error as? ClientFailure ?? ClientFailure("\(error)")
    }
}

// The full-screen client starts the core from a closure (after the first profile is made).
// What that closure uses is immutable (the container) or Sendable (the handoff, the secrets);
// the lock is only touched by `close()`, which the owner calls once the client has ended.
extension CoreAccess: @unchecked Sendable {}
