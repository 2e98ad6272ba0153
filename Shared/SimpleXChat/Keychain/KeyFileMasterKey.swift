import Glibc
import SimpleXCrypto

/// The fallback master key: 32 random bytes in `$XDG_CONFIG_HOME/simplex/keychain.key`, mode
/// 0600, in a 0700 directory. Used when no Secret Service runs; the keychain reports it.
public struct KeyFileMasterKey: MasterKeyProvider {
    public let path: String
    public var source: KeychainKeySource { .keyFile }
    public var location: String { "key file \(path)" }

    public init(path: String) { self.path = path }

    /// The key file for `environment` (`$XDG_CONFIG_HOME/simplex/keychain.key`).
    public init?(environment: [String: String] = ProcessEnvironment.current) {
        guard let config = ProcessEnvironment.configHome(environment) else { return nil }
        path = "\(config)/simplex/keychain.key"
    }

    public func existingKey() async throws(KeychainError) -> SecureBytes? {
        try read()
    }

    public func createKey() async throws(KeychainError) -> SecureBytes {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        do {
            try GroupContainer.ensurePrivateDirectory(directory, createParents: true)
        } catch {
            throw .corrupted(path: path, reason: "\(error)")
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd < 0 {
            // Another process made it first: use theirs.
            if errno == EEXIST, let key = try read() { return key }
            throw .system(SystemError(errno: errno, call: "open", path: path))
        }
        let key = SecureBytes.random(count: masterKeyCount)
        let failure = key.withUnsafeBytes { transfer(fd, UnsafeMutableRawBufferPointer(mutating: $0), writing: true) }
            ?? (fsync(fd) == 0 ? nil : SystemError(errno: errno, call: "fsync", path: path))
        close(fd)
        if let failure {
            unlink(path)
            throw .system(failure)
        }
        do { try AtomicFile.syncDirectory(of: path) } catch { throw .system(error) }
        return key
    }

    /// Reads the key straight into sodium memory after checking the file is ours and private.
    private func read() throws(KeychainError) -> SecureBytes? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .system(SystemError(errno: errno, call: "open", path: path))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .system(SystemError(errno: errno, call: "fstat", path: path)) }
        guard st.st_uid == geteuid() else { throw .keyFileNotOwned(path: path) }
        guard st.st_mode & 0o077 == 0 else {
            throw .keyFileAccessibleByOthers(path: path, mode: UInt32(st.st_mode & 0o777))
        }
        guard st.st_size == masterKeyCount else { throw .keyFileCorrupted(path: path, size: Int(st.st_size)) }
        var failure: SystemError?
        let key = SecureBytes(count: masterKeyCount) { failure = transfer(fd, $0, writing: false) }
        if let failure { throw .system(failure) }
        return key
    }

    /// Reads or writes the whole buffer, retrying on EINTR; the error, or nil.
    private func transfer(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, writing: Bool) -> SystemError? {
        guard let base = buffer.baseAddress else { return nil }
        var offset = 0
        while offset < buffer.count {
            let n = writing
                ? write(fd, base + offset, buffer.count - offset) : Glibc.read(fd, base + offset, buffer.count - offset)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return SystemError(errno: errno, call: writing ? "write" : "read", path: path) }
            if n == 0 { return SystemError(errno: EIO, call: "read (the file shrank)", path: path) }
            offset += n
        }
        return nil
    }
}
