import Foundation

/// python3-dbusmock's notification_daemon template on a test's private bus, and a small python helper
/// (dbus-python, printing JSON) to read back what it received and to make it emit signals.
public struct MockNotificationServer: Sendable {
    public let bus: TestBus
    private let daemon: ChildProcess

    /// Starts the mock with `capabilities` (space-separated) and waits until it owns the name.
    public init(on bus: TestBus, capabilities: String = "body actions body-markup") async throws {
        self.bus = bus
        let parameters = String(
            decoding: try JSONSerialization.data(withJSONObject: ["capabilities": capabilities]),
            as: UTF8.self)
        daemon = try ChildProcess(
            "/usr/bin/python3",
            ["-m", "dbusmock", "--session", "-t", "notification_daemon", "-p", parameters],
            environment: bus.environment)
        _ = try await helper("wait-owner")
    }

    /// The server crashes (SIGKILL): its name and notifications go with it.
    public func kill() async throws {
        daemon.kill(SIGKILL)
        _ = try await daemon.wait()
    }

    /// Every `Notify` the server received, in order.
    public func notifyCalls() async throws -> [NotifyCall] {
        try JSONDecoder().decode([NotifyCall].self, from: Data(try await helper("notify-calls").utf8))
    }

    /// The ids of every `CloseNotification` the server received, in order.
    public func closeCalls() async throws -> [UInt32] {
        try JSONDecoder().decode([UInt32].self, from: Data(try await helper("close-calls").utf8))
    }

    /// The server says the user clicked `action` on notification `id`.
    public func emitActionInvoked(id: UInt32, action: String) async throws {
        _ = try await helper("emit-action", String(id), action)
    }

    /// The server hands over an activation token for notification `id` (sent before the action).
    public func emitActivationToken(id: UInt32, token: String) async throws {
        _ = try await helper("emit-token", String(id), token)
    }

    /// The user typed `text` into notification `id`'s reply field (KDE's NotificationReplied).
    public func emitReplied(id: UInt32, text: String) async throws {
        _ = try await helper("emit-replied", String(id), text)
    }

    /// The server says notification `id` closed for `reason` (1 expired, 2 dismissed, 3 by call).
    public func emitClosed(id: UInt32, reason: UInt32) async throws {
        _ = try await helper("emit-closed", String(id), String(reason))
    }

    /// The next `Notify` blocks the (single-threaded) server for `seconds` before answering.
    public func stallNextNotify(seconds: Double) async throws {
        _ = try await helper("stall-notify", String(seconds))
    }

    private func helper(_ arguments: String...) async throws -> String {
        let process = try ChildProcess(
            "/usr/bin/python3", ["-c", Self.helperScript] + arguments, environment: bus.environment)
        let status = try await process.wait(timeout: .seconds(30))
        guard status == 0, let line = process.allOutput.last else {
            throw TestSupportError(
                "mock helper \(arguments) exited \(status): \(process.allOutput) \(process.allErrors.suffix(10))"
            )
        }
        return line
    }

    private static let helperScript = #"""
        import dbus, json, sys, time
        bus = dbus.SessionBus()
        MOCK = 'org.freedesktop.DBus.Mock'
        NAME = 'org.freedesktop.Notifications'
        command, args = sys.argv[1], sys.argv[2:]

        def tagged(value):
            # A hint value as "<D-Bus type code>:<value>", so the test checks the type as well.
            for cls, code in ((dbus.Boolean, 'b'), (dbus.Byte, 'y'), (dbus.Int16, 'n'), (dbus.UInt16, 'q'),
                              (dbus.Int32, 'i'), (dbus.UInt32, 'u'), (dbus.Int64, 'x'), (dbus.UInt64, 't'),
                              (dbus.Double, 'd'), (dbus.String, 's')):
                if isinstance(value, cls):
                    if code == 'b':
                        return 'b:' + ('true' if value else 'false')
                    return code + ':' + (str(value) if code in 'sd' else str(int(value)))  # Byte's str is a char
            return '?:' + repr(value)

        if command == 'wait-owner':
            deadline = time.time() + 20
            while not bus.name_has_owner(NAME):
                if time.time() > deadline:
                    sys.exit('org.freedesktop.Notifications was not owned within 20 s')
                time.sleep(0.05)
            print('owned')
            sys.exit(0)

        server = bus.get_object(NAME, '/org/freedesktop/Notifications')
        mock = dbus.Interface(server, MOCK)
        if command == 'notify-calls':
            calls = []
            for _, a in mock.GetMethodCalls('Notify'):
                calls.append({'appName': str(a[0]), 'replacesID': int(a[1]), 'appIcon': str(a[2]),
                              'summary': str(a[3]), 'body': str(a[4]), 'actions': [str(x) for x in a[5]],
                              'hints': {str(k): tagged(v) for k, v in a[6].items()}, 'expireTimeout': int(a[7])})
            print(json.dumps(calls))
        elif command == 'close-calls':
            print(json.dumps([int(a[0]) for _, a in mock.GetMethodCalls('CloseNotification')]))
        elif command == 'emit-action':
            mock.EmitSignal(NAME, 'ActionInvoked', 'us', [dbus.UInt32(int(args[0])), dbus.String(args[1])])
            print('ok')
        elif command == 'emit-token':
            mock.EmitSignal(NAME, 'ActivationToken', 'us', [dbus.UInt32(int(args[0])), dbus.String(args[1])])
            print('ok')
        elif command == 'emit-replied':
            mock.EmitSignal(NAME, 'NotificationReplied', 'us', [dbus.UInt32(int(args[0])), dbus.String(args[1])])
            print('ok')
        elif command == 'emit-closed':
            mock.EmitSignal(NAME, 'NotificationClosed', 'uu', [dbus.UInt32(int(args[0])), dbus.UInt32(int(args[1]))])
            print('ok')
        elif command == 'stall-notify':
            mock.AddMethod(NAME, 'Notify', 'susssasa{sv}i', 'u',
                           'import time\n'
                           'if not getattr(self, "stalled", False):\n'
                           '    self.stalled = True\n'
                           '    time.sleep(%s)\n'
                           'if args[1]:\n'
                           '    ret = args[1]\n'
                           'else:\n'
                           '    ret = self.next_id\n'
                           '    self.next_id += 1\n' % float(args[0]))
            print('ok')
        else:
            sys.exit('unknown command ' + command)
        """#
}

/// One `Notify` call as the server received it; hint values are "<type code>:<value>", e.g. "y:1".
public struct NotifyCall: Decodable, Equatable, Sendable {
    public var appName: String
    public var replacesID: UInt32
    public var appIcon: String
    public var summary: String
    public var body: String
    public var actions: [String]
    public var hints: [String: String]
    public var expireTimeout: Int32

    public init(
        appName: String, replacesID: UInt32, appIcon: String, summary: String, body: String, actions: [String],
        hints: [String: String], expireTimeout: Int32
    ) {
        self.appName = appName
        self.replacesID = replacesID
        self.appIcon = appIcon
        self.summary = summary
        self.body = body
        self.actions = actions
        self.hints = hints
        self.expireTimeout = expireTimeout
    }
}

extension MockNotificationServer {
    /// Waits until the server has received at least `count` Notify calls, and returns them all.
    public func notifyCalls(atLeast count: Int, timeout: Duration = .seconds(30)) async throws -> [NotifyCall] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let calls = try await notifyCalls()
            if calls.count >= count { return calls }
            if ContinuousClock.now > deadline {
                throw TestSupportError("\(calls.count) Notify calls after \(timeout), expected \(count): \(calls)")
            }
            // Each look starts a python: not too often.
            try await Task.sleep(for: .milliseconds(150))
        }
    }
}
