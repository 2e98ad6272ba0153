import Glibc

/// An exclusive `flock` on a lock file, held until `unlock()` or deinit.
///
/// flock locks belong to the open file description, so two `FileLock`s in one process exclude
/// each other just as two processes do. The lock file is created 0600 and never removed:
/// removing it would let two processes lock two different inodes.
public final class FileLock {
    public let path: String
    private var fd: Int32

    /// Blocks until the lock is acquired.
    public init(path: String) throws(SystemError) {
        self.path = path
        fd = try Self.openLockFile(path)
        do {
            try retryingOnInterrupt("flock", path: path) { flock(fd, LOCK_EX) }
        } catch {
            close(fd)
            throw error
        }
    }

    /// Acquires the lock without waiting; nil when another holder has it.
    public static func attempt(path: String) throws(SystemError) -> FileLock? {
        let fd = try openLockFile(path)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            close(fd)
            if code == EWOULDBLOCK { return nil }
            throw SystemError(errno: code, call: "flock", path: path)
        }
        return FileLock(path: path, lockedFD: fd)
    }

    private init(path: String, lockedFD: Int32) {
        self.path = path
        fd = lockedFD
    }

    private static func openLockFile(_ path: String) throws(SystemError) -> Int32 {
        try retryingOnInterrupt("open", path: path) { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
    }

    /// The locked descriptor, nil once unlocked.
    var descriptor: Int32? { fd >= 0 ? fd : nil }

    /// Releases the lock at once, then closes the descriptor.
    ///
    /// Closing alone is not enough: a child being spawned by another thread holds a copy of the
    /// descriptor until its exec closes it (O_CLOEXEC), and the lock lasts while any copy is open.
    /// LOCK_UN releases it for every copy, so a reopen right after `unlock()` always succeeds.
    public func unlock() {
        if fd >= 0 {
            _ = flock(fd, LOCK_UN)
            close(fd)
            fd = -1
        }
    }

    deinit { unlock() }
}
