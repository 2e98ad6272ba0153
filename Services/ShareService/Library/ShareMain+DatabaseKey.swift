import SimpleXSystem
import SimpleXChat
import SimpleXDesktop

extension ShareMain {
    /// The databases' key from the keychain, to read the contacts and groups before the core is
    /// taken; nil while the databases are still plain (the next process to run the core, this one
    /// included, encrypts them).
    static func databaseKeyForReading(container: GroupContainer, environment: [String: String])
        async throws(ShareSender.Failure) -> DatabaseKey?
    {
        guard DatabaseEncryption.isEncrypted(path: container.chatDatabasePath) else { return nil }
        let bus = try? await DBusConnection.session()
        defer { bus?.close() }
        let keychain: KeychainStore
        do { keychain = try await DesktopKeychain.open(container: container, bus: bus, environment: environment) } catch {
            throw failure(error)
        }
        try await recoverInterruptedChange(container: container, keychain: keychain)
        do { return try DatabaseKey.load(from: keychain) } catch { throw failure(error) }
    }

    /// What a keychain that cannot give the keys means for a share (one wording for every path).
    static func failure(_ error: KeychainError) -> ShareSender.Failure {
        switch error {
        case .databasePassphraseRequired:
            return .init(description: ShareSender.passphraseNotStored, status: ShareExit.unavailable)
        case .passphraseRequired:
            return .init(
                description: "the keychain is protected by a passphrase, which only simplex-chat asks for: "
                    + "start it and share again (it then sends what you share)",
                status: ShareExit.unavailable)
        default:
            return .init(description: "\(error)", status: ShareExit.unavailable)
        }
    }

    /// A database passphrase change a crash interrupted (the databases under two keys) is finished
    /// or rolled back before anything is read, as the client and the service do at start — when
    /// nothing runs the core: a process holding core.lock did so at its own start, or is making
    /// the change now.
    private static func recoverInterruptedChange(container: GroupContainer, keychain: KeychainStore)
        async throws(ShareSender.Failure)
    {
        guard DatabasePassphrase.hasUnfinishedChange(groupDirectory: container.path) || ChatArchive.hasUnfinishedImport(container),
            let lock = try? await FileLock.acquire(path: container.coreLockPath, timeout: .zero)
        else { return }
        defer { lock.unlock() }
        do {
            try ChatArchive.recover(container: container, keychain: keychain)
            try DatabasePassphrase.recover(groupDirectory: container.path, keychain: keychain)
        } catch {
            throw .init(description: "an interrupted database passphrase change: \(error)", status: ShareExit.unavailable)
        }
    }
}
