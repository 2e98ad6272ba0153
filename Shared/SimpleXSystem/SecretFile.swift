import Glibc
import SimpleXCrypto

/// A small file holding random secret bytes (a keychain master key, a relay identity seed):
/// created 0600 with O_EXCL in a 0700 directory, read straight into sodium memory, and refused
/// when it is not ours or other users could read it.
public struct SecretFile: Sendable {
    public let path: String
    public let count: Int

    public init(path: String, count: Int = 32) {
        self.path = path
        self.count = count
    }

    /// The secret, or nil when the file does not exist.
    public func read() throws(SecretFileError) -> SecureBytes? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .system(SystemError(errno: errno, call: "open", path: path))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .system(SystemError(errno: errno, call: "fstat", path: path)) }
        guard st.st_uid == geteuid() else { throw .notOwned(path: path) }
        guard st.st_mode & 0o077 == 0 else { throw .accessibleByOthers(path: path, mode: UInt32(st.st_mode & 0o777)) }
        guard st.st_size == count else { throw .wrongSize(path: path, size: Int(st.st_size), expected: count) }
        var failure: SystemError?
        let secret = SecureBytes(count: count) { failure = transfer(fd, $0, writing: false) }
        if let failure { throw .system(failure) }
        return secret
    }

    /// Makes a new random secret and stores it; when another process made the file first,
    /// returns theirs.
    public func create() throws(SecretFileError) -> SecureBytes {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        do {
            try PrivateDirectory.ensure(directory, createParents: true)
        } catch {
            throw .directory(path: directory, reason: "\(error)")
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd < 0 {
            if errno == EEXIST, let existing = try read() { return existing }
            throw .system(SystemError(errno: errno, call: "open", path: path))
        }
        let secret = SecureBytes.random(count: count)
        let failure =
            secret.withUnsafeBytes { transfer(fd, UnsafeMutableRawBufferPointer(mutating: $0), writing: true) }
            ?? (fsync(fd) == 0 ? nil : SystemError(errno: errno, call: "fsync", path: path))
        close(fd)
        if let failure {
            unlink(path)
            throw .system(failure)
        }
        do { try AtomicFile.syncDirectory(of: path) } catch { throw .system(error) }
        return secret
    }

    /// Reads or writes the whole buffer, retrying on EINTR; the error, or nil.
    private func transfer(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, writing: Bool) -> SystemError? {
        guard let base = buffer.baseAddress else { return nil }
        var offset = 0
        while offset < buffer.count {
            let n =
                writing
                ? write(fd, base + offset, buffer.count - offset) : Glibc.read(fd, base + offset, buffer.count - offset)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return SystemError(errno: errno, call: writing ? "write" : "read", path: path) }
            if n == 0 { return SystemError(errno: EIO, call: "read (the file shrank)", path: path) }
            offset += n
        }
        return nil
    }
}

/// Why a secret file cannot be used.
public enum SecretFileError: Error, Equatable {
    case accessibleByOthers(path: String, mode: UInt32)
    case notOwned(path: String)
    case wrongSize(path: String, size: Int, expected: Int)
    case directory(path: String, reason: String)
    case system(SystemError)

    /// A one-line message naming the file as `label` ("the relay identity key file").
    public func message(_ label: String) -> String {
        switch self {
        case .accessibleByOthers(let path, let mode):
            return "\(label) \(path) can be read or written by other users (mode \(String(mode, radix: 8))): "
                + "fix it with: chmod 600 \(path)"
        case .notOwned(let path):
            return "\(label) \(path) belongs to another user: remove it or fix the owner"
        case .wrongSize(let path, let size, let expected):
            return "\(label) \(path) is corrupted (\(size) bytes, expected \(expected))"
        case .directory(let path, let reason):
            return "cannot use the directory \(path) for the \(label): \(reason)"
        case .system(let error):
            return "\(label): \(error)"
        }
    }
}
