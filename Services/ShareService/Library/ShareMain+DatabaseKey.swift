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
        do {
            let keychain = try await DesktopKeychain.open(container: container, bus: bus, environment: environment)
            return try DatabaseKey.load(from: keychain)
        } catch {
            if case .databasePassphraseRequired = error {
                throw .init(description: ShareSender.passphraseNotStored, status: ShareExit.unavailable)
            }
            if case .passphraseRequired = error {
                throw .init(
                    description: "the keychain is protected by a passphrase, which only simplex-chat asks for: "
                        + "start it and share again (it then sends what you share)",
                    status: ShareExit.unavailable)
            }
            throw .init(description: "\(error)", status: ShareExit.unavailable)
        }
    }
}
