import SimpleXChat
import SimpleXDesktop

/// `simplex-chat status`: opens each shared piece the way the client will at start, and says
/// what it found. Exit status 1 when a piece cannot be used.
struct StatusCommand {
    let environment: [String: String]
    let output: @Sendable (String) -> Void
    let errors: @Sendable (String) -> Void

    func run() async -> Int32 {
        output("SimpleX Chat for Linux \(ClientMain.version)")
        let container: GroupContainer
        do {
            container = try GroupContainer.open(environment: environment)
        } catch {
            errors("simplex-chat: \(error)")
            return ExitStatus.failure
        }
        line("group directory", "\(container.path) (private, 0700)")
        var healthy = true

        let bus: DBusConnection?
        do {
            let connection = try await DBusConnection.session()
            line("session bus", "connected as \(connection.uniqueName)")
            bus = connection
        } catch {
            line("session bus", "none (\(error)); the notification service and share helper need one")
            bus = nil
        }
        defer { bus?.close() }

        var keychain: KeychainStore?
        do {
            let opened = try await DesktopKeychain.open(container: container, bus: bus, environment: environment)
            keychain = opened
            let items = try opened.itemNames()
            line("keychain", "\(opened.source): \(opened.notice); \(items.count) item(s)")
        } catch {
            line("keychain", "error: \(error)")
            healthy = false
        }

        if let keychain, (try? DatabasePassphrase.isRequired(groupDirectory: container.path, keychain: keychain)) == true {
            // Nothing here can open it: the passphrase is typed only when the client starts.
            line("database", "simplex_v1_chat.db: encrypted with a passphrase not stored in the keychain (simplex-chat asks at start)")
        } else {
            do {
                // Read with the key the client made (status never makes one); a database made here
                // is made encrypted when there is one, as the client would.
                let plain = DatabaseEncryption.isPlain(path: container.chatDatabasePath)
                let key = try plain ? nil : keychain?.get(.databasePassword).map { try DatabaseKey($0) }
                let database = try ChatSchema.openChatDatabase(path: container.chatDatabasePath, key: key)
                let applied = try database.appliedMigrations()
                let mode = try database.fetchValue(String.self, "PRAGMA journal_mode") ?? "?"
                line(
                    "database",
                    "simplex_v1_chat.db: \(applied.count) migration(s) applied (\(applied.last ?? "none")), \(mode.uppercased())"
                        + (database.isEncrypted ? ", encrypted" : ", not encrypted yet (the client encrypts it at start)"))
                try database.close()
            } catch {
                line("database", "error: \(error)")
                healthy = false
            }
        }

        await notificationServerLine(bus: bus)

        let defaults = GroupDefaults(container: container) { [errors] problem in errors("simplex-chat: \(problem)") }
        let values = defaults.snapshot()
        line(
            "settings",
            "notifications \(values[.notificationMode].rawValue), previews \(values[.ntfPreviewMode].rawValue), "
                + "layout \(values[.chatLayout].rawValue)")
        line("processes", "client \(values[.appState].rawValue), service \(values[.nseState].rawValue)")
        return healthy ? ExitStatus.ok : ExitStatus.failure
    }

    private func notificationServerLine(bus: DBusConnection?) async {
        guard bus != nil else {
            line("notifications", "no session bus, so no desktop notifications")
            return
        }
        do {
            let capabilities = try await NotificationPresenter(appName: "SimpleX Chat").serverCapabilities()
            line("notifications", "server running (capabilities: \(capabilities.joined(separator: ", ")))")
        } catch let error as NotificationError {
            line("notifications", "unavailable: \(error.message)")
        } catch {
            line("notifications", "unavailable: \(error)")
        }
    }

    private func line(_ label: String, _ text: String) {
        output(label.padding(toLength: 16, withPad: " ", startingAt: 0) + "  " + text)
    }
}
