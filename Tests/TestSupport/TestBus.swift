import Foundation

/// A private D-Bus session bus for one test: its own `dbus-daemon` on a socket in a temp
/// directory. Tests pass `address` to the code under test and to child processes
/// (`DBUS_SESSION_BUS_ADDRESS`), so tests on different buses run in parallel.
public final class TestBus: Sendable {
    public let address: String
    public let directory: TemporaryDirectory
    private let daemon: ChildProcess

    /// A bus with the session bus's policy; with `serviceDirectory`, it starts the services whose
    /// D-Bus activation files are there (and only those), as a desktop session's bus does.
    public init(serviceDirectory: String? = nil) async throws {
        StrayChildren.reapOnce()
        directory = try TemporaryDirectory("bus")
        var arguments = ["--nofork", "--nopidfile", "--print-address=1"]
        if let serviceDirectory {
            let config = directory.appending("bus.conf")
            try Self.configuration(listen: "unix:path=\(directory.path)/bus", serviceDirectory: serviceDirectory)
                .write(toFile: config, atomically: true, encoding: .utf8)
            arguments.append("--config-file=\(config)")
        } else {
            arguments += ["--session", "--address=unix:path=\(directory.path)/bus"]
        }
        daemon = try ChildProcess("/usr/bin/dbus-daemon", arguments)
        address = try await daemon.line(timeout: .seconds(10)) { $0.hasPrefix("unix:") }
    }

    /// The session bus configuration (/usr/share/dbus-1/session.conf), with one service directory.
    private static func configuration(listen: String, serviceDirectory: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <keep_umask/>
          <listen>\(listen)</listen>
          <auth>EXTERNAL</auth>
          <servicedir>\(serviceDirectory)</servicedir>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
    }

    /// The environment a child process needs to use this bus as its session bus.
    public var environment: [String: String?] {
        ["DBUS_SESSION_BUS_ADDRESS": address, "DISPLAY": nil, "WAYLAND_DISPLAY": nil]
    }

    // SIGKILL: children of the test runner start with SIGTERM blocked.
    deinit { daemon.kill(SIGKILL) }
}
