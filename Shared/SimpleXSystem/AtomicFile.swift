import Glibc

/// Whole-file reads and crash-safe replacement, shared by GroupDefaults and the keychain.
public enum AtomicFile {
    /// Replaces `path` with `bytes`: a temp file in the same directory (mode `mode`), fsync,
    /// rename over the target, fsync of the directory. A reader sees the old or the new file,
    /// never a mix, and a crash leaves one of them intact.
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600) throws(SystemError) {
        let temp = "\(path).tmp-\(getpid())"
        let fd = try retryingOnInterrupt("open", path: temp) {
            open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        }
        do {
            try writeAll(fd, bytes, path: temp)
            try retryingOnInterrupt("fchmod", path: temp) { fchmod(fd, mode) }
            try retryingOnInterrupt("fsync", path: temp) { fsync(fd) }
        } catch {
            close(fd)
            unlink(temp)
            throw error
        }
        close(fd)
        do {
            try retryingOnInterrupt("rename", path: path) { rename(temp, path) }
        } catch {
            unlink(temp)
            throw error
        }
        try syncDirectory(of: path)
    }

    /// The whole contents of `path`, or nil when it does not exist.
    public static func read(_ path: String) throws(SystemError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw SystemError(errno: errno, call: "open", path: path)
        }
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = try retryingOnInterrupt("read", path: path) {
                chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            }
            if n == 0 { return result }
            result.append(contentsOf: chunk[0..<n])
        }
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let n = try retryingOnInterrupt("write", path: path) {
                bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            }
            offset += n
        }
    }

    static func syncDirectory(of path: String) throws(SystemError) {
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let fd = try retryingOnInterrupt("open", path: dir) { open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { close(fd) }
        try retryingOnInterrupt("fsync", path: dir) { fsync(fd) }
    }
}
