import SimpleXChat
import SimpleXDesktop

/// `simplex-chat notifications [instant|periodic|off]`: shows or sets how messages are received
/// while the client is closed, and makes the systemd user units follow (BackgroundReceiving).
struct NotificationsCommand {
    let environment: [String: String]
    let output: @Sendable (String) -> Void
    let errors: @Sendable (String) -> Void

    func run(_ mode: NotificationMode?) async -> Int32 {
        let container: GroupContainer
        do { container = try GroupContainer.open(environment: environment) } catch {
            errors("simplex-chat: \(error)")
            return ExitStatus.failure
        }
        let receiving = BackgroundReceiving(container: container, environment: environment)
        guard let mode else {
            await receiving.report().forEach(output)
            return ExitStatus.ok
        }
        let bus = try? await DBusConnection.session()
        defer { bus?.close() }
        do {
            let (lines, ok) = try await receiving.set(mode, bus: bus)
            lines.forEach(output)
            return ok ? ExitStatus.ok : ExitStatus.failure
        } catch {
            errors("simplex-chat: cannot save notificationMode: \(error)")
            return ExitStatus.failure
        }
    }
}
