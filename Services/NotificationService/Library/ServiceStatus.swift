import SimpleXChat
import SimpleXDesktop
import SimpleXSystem

/// `simplex-nse status`: whether the service runs for this group directory, its state, the modes
/// that decide what it does, and which process holds core.lock.
struct ServiceStatus {
    let environment: [String: String]
    let output: @Sendable (String) -> Void

    func run() async -> Int32 {
        let container: GroupContainer
        do { container = try GroupContainer.open(environment: environment) } catch {
            output("simplex-nse: \(error)")
            return 1
        }
        let defaults = GroupDefaults(container: container) { _ in }
        let names = CoordinationNames(container: container, environment: environment)
        line("group directory", container.path)
        line("notification mode", "\(defaults[.notificationMode].rawValue)")
        line("preview mode", "\(defaults[.ntfPreviewMode].rawValue)")
        if let bus = try? await DBusConnection.session() {
            defer { bus.close() }
            if (try? await bus.nameHasOwner(names.service)) == true {
                let state = try? await bus.call(
                    destination: names.service, path: CoordinationNames.servicePath,
                    interface: CoordinationNames.serviceInterface, method: "GetState", timeout: .seconds(2))
                let owner = await Self.ownerDescription(of: names.service, on: bus)
                line("service", "running\(owner) as \(names.service), state \(state?.first?.string ?? "unknown")")
            } else {
                line("service", "not running (nseState \(defaults[.nseState].rawValue) when it last ran)")
            }
            let client = (try? await bus.nameHasOwner(names.client)) == true
            line("client", client ? "running (appState \(defaults[.appState].rawValue))" : "not running")
        } else {
            line("service", "no session bus: the service cannot run here; messages arrive when simplex-chat runs")
        }
        line("keychain", Self.keychainDescription(container.keychainPath))
        line("core.lock", Self.lockDescription(container.coreLockPath))
        return 0
    }

    private func line(_ label: String, _ value: String) {
        output(label.padding(toLength: 18, withPad: " ", startingAt: 0) + value)
    }

    /// " (pid 123)" for the owner of `name`, or "" when the bus does not say.
    static func ownerDescription(of name: String, on bus: DBusConnection) async -> String {
        let reply = try? await bus.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            method: "GetConnectionUnixProcessID", arguments: [.string(name)], timeout: .seconds(2))
        guard let pid = reply?.first?.uint32 else { return "" }
        return " (pid \(pid))"
    }

    /// Where the keychain's master key is, and whether that lets the service start the chat.
    static func keychainDescription(_ path: String) -> String {
        let source: KeychainKeySource?
        do { source = try KeychainStore.recordedSource(at: path) } catch { return "cannot be read: \(error)" }
        switch source {
        case .passphrase:
            return "protected by a passphrase: the service cannot start the chat (only the client can ask "
                + "for the passphrase); messages arrive when simplex-chat runs"
        case let source?:
            return "master key in \(source)"
        case nil:
            return "not made yet (simplex-chat makes it at its first start)"
        }
    }

    static func lockDescription(_ path: String) -> String {
        guard let lock = try? FileLock.attempt(path: path) else {
            let pid = FileLock.recordedHolder(path: path)
            let holder = pid.map { " by pid \($0)" + (processName($0).map { " (\($0))" } ?? "") } ?? ""
            return "held\(holder): that process runs the chat core"
        }
        lock.unlock()
        return "free: no process runs the chat core"
    }
}
