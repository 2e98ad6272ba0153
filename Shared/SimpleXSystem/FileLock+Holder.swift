import Glibc

/// Who holds a lock, and waiting for it: core.lock tells a process that cannot take it which
/// process runs the chat core (DESIGN §4), and a handoff waits a bounded time for it.
extension FileLock {
    /// Writes this process's pid into the lock file, for `recordedHolder(path:)`. The content is
    /// advisory: the flock decides; a holder that crashed leaves a stale pid behind, which is why
    /// readers only trust it while the lock is held.
    public func recordHolder() {
        guard let fd = descriptor else { return }
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    /// The pid the current holder recorded, or nil when the file holds none.
    public static func recordedHolder(path: String) -> pid_t? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self).trimmingWhitespace
        guard let pid = pid_t(text), pid > 0 else { return nil }
        return pid
    }

    /// Takes the lock, trying every `interval` until `timeout` has passed; nil when it is still held then.
    public static func acquire(
        path: String, timeout: Duration, interval: Duration = .milliseconds(20)
    ) async throws(SystemError) -> FileLock? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let lock = try attempt(path: path) { return lock }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: interval)
        }
    }
}

/// A process's command name (`/proc/<pid>/comm`), to say who holds a lock; nil once it has exited.
public func processName(_ pid: pid_t) -> String? {
    let fd = open("/proc/\(pid)/comm", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    return String(decoding: buffer[0..<count], as: UTF8.self).trimmingWhitespace
}

extension String {
    fileprivate var trimmingWhitespace: String {
        var scalars = Substring(self)
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        return String(scalars)
    }
}
