import Glibc
import SimpleXCrypto
import SimpleXSystem

/// One open file of a transfer: the file being sent (read by chunk) or the partial file being
/// received (written by chunk, at the chunk's place, so a chunk written twice does no harm).
/// Owns its descriptor and closes it on deinit.
final class TransferFile {
    let path: String
    private let fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    /// Opens a regular file to send, with its size now.
    static func openForReading(_ path: String) throws(ChatFileError) -> (TransferFile, size: Int64) {
        let fd: Int32
        do { fd = try retryingOnInterrupt("open", path: path) { open(path, O_RDONLY | O_CLOEXEC) } } catch {
            throw error.errno == ENOENT
                ? .notFound(path: path) : .unreadable(path: path, reason: reason(error))
        }
        let file = TransferFile(path: path, fd: fd)
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .unreadable(path: path, reason: reason(errno)) }
        guard st.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(path: path) }
        return (file, Int64(st.st_size))
    }

    /// Opens (creating, mode 0600) the partial file a received file is assembled in.
    static func openPartial(_ path: String) throws(ChatFileError) -> TransferFile {
        let fd: Int32
        do {
            fd = try retryingOnInterrupt("open", path: path) {
                open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            }
        } catch {
            throw .unwritable(path: path, reason: reason(error))
        }
        let file = TransferFile(path: path, fd: fd)
        // The umask may have taken bits away, never added them; make it exactly 0600.
        guard fchmod(fd, 0o600) == 0 else { throw .unwritable(path: path, reason: reason(errno)) }
        return file
    }

    /// `count` bytes from `offset`; fewer only at the end of the file.
    func read(at offset: Int64, count: Int) throws(ChatFileError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n: Int
            do {
                n = try retryingOnInterrupt("pread", path: path) {
                    bytes.withUnsafeMutableBytes {
                        pread(fd, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                    }
                }
            } catch {
                throw .unreadable(path: path, reason: Self.reason(error))
            }
            if n == 0 { break }
            done += n
        }
        return Array(bytes.prefix(done))
    }

    /// Writes `bytes` at `offset`.
    func write(_ bytes: [UInt8], at offset: Int64) throws(ChatFileError) {
        var done = 0
        while done < bytes.count {
            do {
                done += try retryingOnInterrupt("pwrite", path: path) {
                    bytes.withUnsafeBytes {
                        pwrite(fd, $0.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
                    }
                }
            } catch {
                throw .unwritable(path: path, reason: Self.reason(error))
            }
        }
    }

    /// Sets the length (a partial file never keeps bytes past the end it should have).
    func truncate(to size: Int64) throws(ChatFileError) {
        do { try retryingOnInterrupt("ftruncate", path: path) { ftruncate(fd, off_t(size)) } } catch {
            throw .unwritable(path: path, reason: Self.reason(error))
        }
    }

    func sync() throws(ChatFileError) {
        do { try retryingOnInterrupt("fsync", path: path) { fsync(fd) } } catch {
            throw .unwritable(path: path, reason: Self.reason(error))
        }
    }

    /// SHA-512 of the whole file, read in pieces.
    func digest() throws(ChatFileError) -> [UInt8] {
        var hasher = SHA512.Hasher()
        var offset: Int64 = 0
        while true {
            let piece = try read(at: offset, count: 1 << 16)
            if piece.isEmpty { break }
            hasher.update(piece)
            offset += Int64(piece.count)
        }
        return hasher.finalize()
    }

    static func reason(_ error: SystemError) -> String { reason(error.errno) }
    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// Whole-file operations of transfers: moving a finished file into place, checks, removal.
enum TransferFiles {
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR
    }

    static func remove(_ path: String) { unlink(path) }

    /// Moves a finished file to `target` without replacing anything there (link + unlink, so a
    /// file that appeared meanwhile is never overwritten); across file systems, a copy. False
    /// when `target` exists: the caller picks another name.
    static func move(_ source: String, to target: String) throws(ChatFileError) -> Bool {
        if link(source, target) == 0 {
            unlink(source)
            return true
        }
        switch errno {
        case EEXIST: return false
        case EXDEV, EPERM, ENOTSUP: return try copy(source, to: target)
        case let code: throw .unwritable(path: target, reason: TransferFile.reason(code))
        }
    }

    /// Creates `target` as a new empty file (0600); false when it exists.
    static func createNew(_ target: String) throws(ChatFileError) -> Bool {
        let fd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 {
            if errno == EEXIST { return false }
            throw .unwritable(path: target, reason: TransferFile.reason(errno))
        }
        close(fd)
        return true
    }

    /// Copies into a new file (0600, fsync'd), then removes the source.
    private static func copy(_ source: String, to target: String) throws(ChatFileError) -> Bool {
        guard try TransferFiles.createNew(target) else { return false }
        do {
            let (input, size) = try TransferFile.openForReading(source)
            let output = try TransferFile.openPartial(target)
            var offset: Int64 = 0
            while offset < size {
                let piece = try input.read(at: offset, count: 1 << 16)
                if piece.isEmpty { break }
                try output.write(piece, at: offset)
                offset += Int64(piece.count)
            }
            try output.sync()
        } catch {
            unlink(target)
            throw error
        }
        unlink(source)
        return true
    }

    /// The directory part of a path (`.` for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
