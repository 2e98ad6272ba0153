import Foundation

/// Processes a crashed test or bench run left behind: a relay, test peer or private session bus
/// (`TestBus`'s `dbus-daemon`) it started whose parent died (init adopted it, so its parent is
/// pid 1), still running on one of that run's temporary directories, and whatever it started on
/// such a bus (the mock notification server). They hold ports and CPU — 35 relays at 0.7% each
/// were once found under a benchmark, 45 buses and mock servers after one crashed run — so each
/// run reaps them before it starts its own.
///
/// Only orphans are touched: a child of a test run still going (here or in another terminal)
/// has that run as its parent.
public enum StrayChildren {
    /// The executables tests and benches start on temporary directories.
    public static let products: Set<String> = ["smp-server", "simplex-test-peer", "dbus-daemon"]

    /// SIGKILLs the strays (under this user): `products` started on a `<TMPDIR>/simplex-` path,
    /// and any process whose session bus is one of the tests' (`<TMPDIR>/simplex-bus-`);
    /// returns their pids.
    @discardableResult
    public static func reap(products: Set<String> = products) -> [Int32] {
        let strays = find(products: products)
        for pid in strays { kill(pid, SIGKILL) }
        return strays
    }

    /// Once per process, before the first child: `reap()`.
    public static func reapOnce() { _ = reapedOnce }
    private static let reapedOnce: [Int32] = reap()

    /// The strays `reap` would kill. A process on a test's bus whose bus daemon still belongs to
    /// a running test is not one, even when init adopted it: the bus daemon double-forks the
    /// services it starts by D-Bus activation, and make run's script detaches its relay and service.
    public static func find(products: Set<String> = products) -> [Int32] {
        let temporary = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/simplex-"
        let own = getpid()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        let pids = entries.compactMap { Int32($0) }.filter { $0 != own && owner(of: $0) == getuid() }
        // The directories of the test buses whose daemon a live test run still owns.
        let liveBuses = Set(
            pids.filter { parent(of: $0) != 1 }.map(commandLine).filter {
                ($0.first.map { ($0 as NSString).lastPathComponent } ?? "") == "dbus-daemon"
            }.flatMap { $0.dropFirst().compactMap { busDirectory(in: $0, temporary: temporary) } })
        return pids.filter { pid in
            guard parent(of: pid) == 1 else { return false }
            let bus = sessionBus(of: pid).flatMap { busDirectory(in: $0, temporary: temporary) }
            // Detached on purpose by a running test (make run's relay and service, which outlive
            // the script that started them), as long as that test's bus lives.
            if let bus, liveBuses.contains(bus) { return false }
            let arguments = commandLine(of: pid)
            if let program = arguments.first, products.contains((program as NSString).lastPathComponent),
                // `/tmp/simplex-…` as an argument, or within one (`--address=unix:path=/tmp/simplex-…`).
                arguments.dropFirst().contains(where: { $0.contains(temporary) })
            {
                return true
            }
            return bus != nil
        }
    }

    /// `/tmp/simplex-bus-XXXXXX` within `text` (a bus address, a daemon's argument), if any.
    private static func busDirectory(in text: String, temporary: String) -> String? {
        guard let start = text.range(of: temporary + "bus-") else { return nil }
        let name = text[start.upperBound...].prefix { $0 != "/" && $0 != "," && $0 != ";" }
        return String(text[start.lowerBound..<start.upperBound]) + name
    }

    /// `DBUS_SESSION_BUS_ADDRESS` from the process's environment.
    private static func sessionBus(of pid: Int32) -> String? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return nil }
        let prefix = "DBUS_SESSION_BUS_ADDRESS="
        for entry in data.split(separator: 0) {
            let text = String(decoding: entry, as: UTF8.self)
            if text.hasPrefix(prefix) { return String(text.dropFirst(prefix.count)) }
        }
        return nil
    }

    /// The parent pid from /proc/<pid>/stat (after the command name, which may hold spaces).
    public static func parent(of pid: Int32) -> Int32? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // state, ppid, ...
        return fields.count > 1 ? Int32(fields[1]) : nil
    }

    private static func owner(of pid: Int32) -> uid_t? {
        var status = stat()
        return stat("/proc/\(pid)", &status) == 0 ? status.st_uid : nil
    }

    private static func commandLine(of pid: Int32) -> [String] {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return [] }
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }
}
