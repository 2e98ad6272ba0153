import Foundation
import SimpleXChat
import SimpleXDesktop
import Testing
import TestSupport

/// The systemd unit and the D-Bus activation file in Services/NotificationService, as `make
/// install` fills them in: systemd accepts them, and the session bus really starts the service.
@Suite(.timeLimit(.minutes(3)))
struct ServiceUnitTests {
    static let serviceFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Services/NotificationService").standardized.path

    /// A file of the folder with `@BINDIR@` filled in, as `make install` writes it.
    static func installed(_ name: String, binDirectory: String = BuiltProducts.directory) throws -> String {
        try String(contentsOfFile: "\(serviceFolder)/\(name)", encoding: .utf8)
            .replacingOccurrences(of: "@BINDIR@", with: binDirectory)
    }

    /// `[section]`'s `key = value` lines of an ini-style file.
    static func value(_ key: String, in text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix("\(key)=") }.map { String($0.dropFirst(key.count + 1)) }
    }

    @Test(arguments: ["simplex-nse.service", "simplex-nse-periodic.service", "simplex-nse-periodic.timer"])
    func systemdAcceptsTheUnitWithoutAWarning(_ name: String) async throws {
        let tmp = try TemporaryDirectory("units")
        // The timer is checked with the service it runs beside it.
        for file in [name, "simplex-nse-periodic.service"] {
            try Self.installed(file).write(toFile: tmp.appending(file), atomically: true, encoding: .utf8)
        }
        let runtime = tmp.appending("run")
        mkdir(runtime, 0o700)
        let verify = try ChildProcess(
            "/usr/bin/systemd-analyze", ["--user", "verify", tmp.appending(name)], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(try await verify.wait() == 0, "\(verify.allErrors)")
        #expect(verify.allErrors.isEmpty, "\(verify.allErrors)")
        #expect(verify.allOutput.isEmpty, "\(verify.allOutput)")
    }

    @Test func thePeriodicUnitsRunAPassEveryTenMinutes() throws {
        let service = try Self.installed("simplex-nse-periodic.service")
        #expect(Self.value("Type", in: service) == "oneshot")
        #expect(Self.value("ExecStart", in: service) == "\(BuiltProducts.directory)/simplex-nse --once")
        let timer = try Self.installed("simplex-nse-periodic.timer")
        #expect(Self.value("OnUnitActiveSec", in: timer) == "10min")
        #expect(Self.value("WantedBy", in: timer) == "timers.target")
        #expect(BackgroundReceiving.timerUnit == "simplex-nse-periodic.timer")
        #expect(BackgroundReceiving.serviceUnit == "simplex-nse.service")
    }

    @Test func theDesktopFileIsValidAndOpensSimplexLinksInTheClient() async throws {
        let tmp = try TemporaryDirectory("desktop")
        let file = tmp.appending("simplex-chat.desktop")
        let text = try Self.installed("simplex-chat.desktop")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let validate = try ChildProcess("/usr/bin/desktop-file-validate", [file])
        #expect(try await validate.wait() == 0, "\(validate.allOutput) \(validate.allErrors)")
        #expect(validate.allOutput.isEmpty && validate.allErrors.isEmpty, "\(validate.allOutput) \(validate.allErrors)")
        #expect(Self.value("Terminal", in: text) == "true")
        #expect(Self.value("MimeType", in: text) == "x-scheme-handler/simplex;")
        #expect(Self.value("Exec", in: text) == "\(BuiltProducts.directory)/simplex-chat %u")
    }

    @Test func theUnitTheActivationFileAndTheServiceAgreeOnTheName() throws {
        let unit = try Self.installed("simplex-nse.service")
        let activation = try Self.installed("chat.simplex.NotificationService.service")
        #expect(Self.value("Type", in: unit) == "dbus")
        #expect(Self.value("BusName", in: unit) == CoordinationNames.defaultService)
        #expect(Self.value("ExecStart", in: unit) == "\(BuiltProducts.directory)/simplex-nse")
        #expect(Self.value("Name", in: activation) == CoordinationNames.defaultService)
        #expect(Self.value("Exec", in: activation) == "\(BuiltProducts.directory)/simplex-nse")
        #expect(Self.value("SystemdService", in: activation) == "simplex-nse.service")
        // The name the activation file carries is the one a user's service owns.
        let home = try TemporaryDirectory("home")
        let container = try GroupContainer(path: home.appending(".local/share/simplex"))
        #expect(CoordinationNames(container: container, environment: ["HOME": home.path]).service
            == CoordinationNames.defaultService)
    }

    /// The relay, Alice's directory, her activation bus with the notification server mock, and a
    /// connection of the test's own to it.
    struct ActivationWorld {
        let relay: RelayProcess
        let alice: TemporaryDirectory
        let names: CoordinationNames
        let bus: TestBus
        let services: TemporaryDirectory
        let server: MockNotificationServer
        let connection: DBusConnection

        init() async throws {
            relay = try await RelayProcess()
            alice = try TemporaryDirectory("cli-alice")
            names = try ServiceProcess.names(alice)
            (bus, services) = try await ServiceUnitTests.activationBus(for: alice)
            server = try await MockNotificationServer(on: bus)
            connection = try await DBusConnection(address: bus.address)
        }
    }

    /// A private bus that starts `alice`'s service from the installed activation file (with her
    /// directory's bus name and environment filled in), as a desktop session's bus does.
    static func activationBus(for alice: TemporaryDirectory) async throws -> (TestBus, TemporaryDirectory) {
        let services = try TemporaryDirectory("dbus-services")
        let names = try ServiceProcess.names(alice)
        let environment = CLIUser.environment(alice).compactMapValues { $0 }
            .filter { ["SIMPLEX_GROUP_DIR", "XDG_CONFIG_HOME"].contains($0.key) }
            .map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        let activation = try Self.installed("chat.simplex.NotificationService.service")
            .replacingOccurrences(of: "Name=\(CoordinationNames.defaultService)", with: "Name=\(names.service)")
            .replacingOccurrences(
                of: "Exec=\(BuiltProducts.directory)/simplex-nse",
                with: "Exec=/usr/bin/env \(environment) \(BuiltProducts.directory)/simplex-nse")
        try activation.write(toFile: services.appending("\(names.service).service"), atomically: true, encoding: .utf8)
        return (try await TestBus(serviceDirectory: services.path), services)
    }

    /// The client quits and calls Resume; nothing runs the service, so the bus starts it from the
    /// activation file, and it receives and notifies.
    @Test func quittingTheClientStartsTheServiceByDBusActivation() async throws {
        let world = try await ActivationWorld()
        defer { world.connection.close() }
        let (relay, alice, names, bus, server, connection) =
            (world.relay, world.alice, world.names, world.bus, world.server, world.connection)
        #expect(try await connection.activatableNames().contains(names.service))

        let client = try await CLIUser("alice", relay: relay, directory: alice, bus: bus)
        let bob = try await CLIUser("bob", relay: relay)
        try await CLIUser.connect(client, bob)
        #expect(try await connection.nameHasOwner(names.service) == false)
        try await client.quit()
        // Resume started it: it owns the name and runs the chat.
        #expect(await eventually { (try? await connection.nameHasOwner(names.service)) == true })
        bob.send("@alice are you there?")
        #expect(try await server.notifyCalls(atLeast: 1).map(\.body) == ["are you there?"])
        let reply = try await connection.call(
            destination: names.service, path: CoordinationNames.servicePath,
            interface: CoordinationNames.serviceInterface, method: "GetState")
        #expect(reply == [.string(NSEState.active.rawValue)])
        try await bob.quit()
    }

    /// Periodic mode: ReceiveNow (a script, a desktop applet) starts the service by activation; it
    /// makes one pass with GET, notifies, and exits once idle.
    @Test func receiveNowInPeriodicModeStartsAPassByDBusActivation() async throws {
        let world = try await ActivationWorld()
        defer { world.connection.close() }
        let (relay, alice, names, server, connection) =
            (world.relay, world.alice, world.names, world.server, world.connection)
        let client = try await CLIUser("alice", relay: relay, directory: alice)
        let bob = try await CLIUser("bob", relay: relay)
        try await CLIUser.connect(client, bob)
        try await client.quit()
        let defaults = GroupDefaults(container: try GroupContainer(path: alice.appending("group")))
        try defaults.set(.notificationMode, .periodic)
        bob.send("@alice while nothing runs")
        try await Task.sleep(for: .milliseconds(500))
        #expect(try await connection.nameHasOwner(names.service) == false)

        _ = try await connection.call(
            destination: names.service, path: CoordinationNames.servicePath,
            interface: CoordinationNames.serviceInterface, method: "ReceiveNow", timeout: .seconds(20))
        #expect(try await server.notifyCalls(atLeast: 1).map(\.body) == ["while nothing runs"])
        // Nothing subscribed it: once idle, it goes.
        #expect(await eventually(timeout: .seconds(30)) { (try? await connection.nameHasOwner(names.service)) == false })
        #expect(defaults[.nseState] == .suspended)
        try await bob.quit()
    }
}
