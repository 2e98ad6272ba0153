import Glibc
import SimpleXSystem

/// Why the durable store could not open, load or write.
public enum QueueStoreError: Error, Equatable, CustomStringConvertible {
    /// A system call failed.
    case system(SystemError)
    /// A snapshot (or a journal header) is damaged; the journal's torn tail is not an error.
    case corrupt(path: String, offset: Int, reason: String)
    /// Another process has the store open.
    case locked(path: String)
    /// An earlier commit failed: memory is ahead of the disk, so the store refuses to go on;
    /// reopen it (restart the relay) to continue from what is on disk.
    case failed

    public var description: String {
        switch self {
        case .system(let error): "\(error)"
        case .corrupt(let path, let offset, let reason): "\(path) is damaged at byte \(offset): \(reason)"
        case .locked(let path): "\(path) is in use by another process"
        case .failed: "the queue store stopped after a failed write; restart to reload it from disk"
        }
    }
}

/// SimpleXChat's EINTR loop, with the store's error.
@discardableResult
func retryingInterrupted<T: FixedWidthInteger & SignedInteger>(
    _ call: String, path: String, _ body: () -> T
) throws(QueueStoreError) -> T {
    do { return try retryingOnInterrupt(call, path: path, body) } catch { throw .system(error) }
}

/// Low-level file operations of the store, each retrying EINTR and failing with the call and path.
enum StoreFile {
    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o600) throws(QueueStoreError) -> Int32 {
        try retryingInterrupted("open", path: path) { Glibc.open(path, flags | O_CLOEXEC, mode) }
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(QueueStoreError) {
        var offset = 0
        while offset < bytes.count {
            let n = try retryingInterrupted("write", path: path) {
                bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            }
            offset += n
        }
    }

    static func dataSync(_ fd: Int32, path: String) throws(QueueStoreError) {
        try retryingInterrupted("fdatasync", path: path) { fdatasync(fd) }
    }

    static func sync(_ fd: Int32, path: String) throws(QueueStoreError) {
        try retryingInterrupted("fsync", path: path) { fsync(fd) }
    }

    static func truncate(_ fd: Int32, to length: Int, path: String) throws(QueueStoreError) {
        try retryingInterrupted("ftruncate", path: path) { ftruncate(fd, off_t(length)) }
    }

    /// rename(2) then fsync of the directory, so the new name survives power loss.
    static func replace(_ temp: String, with target: String, directory: String) throws(QueueStoreError) {
        try retryingInterrupted("rename", path: target) { rename(temp, target) }
        let dir = try open(directory, O_RDONLY | O_DIRECTORY)
        defer { close(dir) }
        try sync(dir, path: directory)
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}

/// A whole file mapped read-only (snapshot and journal loading: no copies, no per-record reads).
final class MappedFile {
    let bytes: UnsafeRawBufferPointer

    /// nil when `path` does not exist.
    init?(path: String) throws(QueueStoreError) {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .system(SystemError(errno: errno, call: "open", path: path))
        }
        defer { close(fd) }
        var info = stat()
        try retryingInterrupted("fstat", path: path) { fstat(fd, &info) }
        let size = Int(info.st_size)
        if size == 0 {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw .system(SystemError(errno: errno, call: "mmap", path: path))
        }
        madvise(base, size, MADV_SEQUENTIAL)
        bytes = UnsafeRawBufferPointer(start: base, count: size)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
