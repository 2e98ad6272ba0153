import Glibc
import SimpleXCrypto
import SimpleXSystem

/// A local file opened for its plaintext: the user's own file as it is, or a file in `files/`
/// sealed at rest (`LocalFileCipher`), opened segment by segment as it is read.
final class LocalFileReader {
    let path: String
    /// The plaintext's size.
    let size: Int64
    private let file: TransferFile
    private let sealed: (cipher: LocalFileCipher, key: SecureBytes)?

    /// Opens `path`; sealed when `key` is given (then a file whose header, size or any segment does
    /// not authenticate is `tampered`, and `expectedSize` must match when given).
    init(path: String, key: SecureBytes?, expectedSize: Int64? = nil) throws(ChatFileError) {
        let (file, physical) = try TransferFile.openForReading(path)
        self.path = path
        self.file = file
        guard let key else {
            size = physical
            sealed = nil
            return
        }
        let header = try file.read(at: 0, count: LocalFileCipher.headerSize)
        guard header.count == LocalFileCipher.headerSize, Array(header.prefix(4)) == LocalFileCipher.magic,
            header[4] == LocalFileCipher.version
        else { throw .tampered(path: path) }
        let segmentSize = header[8..<12].reduce(0) { $0 << 8 | Int($1) }
        let plainSize = header[12..<20].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        guard segmentSize > 0, segmentSize <= 1 << 20, plainSize >= 0, plainSize <= 1 << 40 else {
            throw .tampered(path: path)
        }
        let cipher = LocalFileCipher(fileSize: plainSize, segmentSize: segmentSize)
        guard cipher.sealedSize == physical, expectedSize == nil || expectedSize == plainSize else {
            throw .tampered(path: path)
        }
        size = plainSize
        sealed = (cipher, key)
    }

    /// `count` plaintext bytes from `offset`; fewer only at the end.
    func read(at offset: Int64, count: Int) throws(ChatFileError) -> [UInt8] {
        guard let (cipher, key) = sealed else { return try file.read(at: offset, count: count) }
        let end = min(size, offset + Int64(count))
        guard offset < end else { return [] }
        let chunking = cipher.chunking
        var result: [UInt8] = []
        result.reserveCapacity(Int(end - offset))
        var number = Int(offset / Int64(chunking.chunkSize)) + 1
        while chunking.offset(of: number) < end {
            let plain = try segment(number, cipher: cipher, key: key)
            let start = chunking.offset(of: number)
            let from = Int(max(offset, start) - start)
            let to = Int(min(end, start + Int64(plain.count)) - start)
            plain.withUnsafeBytes { result += $0[from..<to] }
            number += 1
        }
        return result
    }

    /// The whole plaintext (files are at most `FileChunking.maxFileSize`).
    func readAll() throws(ChatFileError) -> [UInt8] {
        guard sealed != nil else { return try file.read(at: 0, count: Int(size)) }
        return try read(at: 0, count: Int(size))
    }

    /// SHA-512 of the plaintext, every segment authenticated on the way.
    func digest() throws(ChatFileError) -> [UInt8] {
        guard let (cipher, key) = sealed else { return try file.digest() }
        var hasher = SHA512.Hasher()
        for number in 1...cipher.chunking.chunkCount {
            let plain = try segment(number, cipher: cipher, key: key)
            plain.withUnsafeBytes { hasher.update(Array($0)) }
        }
        return hasher.finalize()
    }

    /// Every segment authenticates (a sealed file), or nothing to check.
    func verify() throws(ChatFileError) {
        guard let (cipher, key) = sealed else { return }
        for number in 1...cipher.chunking.chunkCount { _ = try segment(number, cipher: cipher, key: key) }
    }

    private func segment(_ number: Int, cipher: LocalFileCipher, key: SecureBytes) throws(ChatFileError)
        -> SecureBytes
    {
        let bytes = try file.read(at: cipher.sealedOffset(of: number), count: cipher.sealedLength(of: number))
        return try cipher.open(bytes, number: number, key: key, path: path)
    }
}

/// Files of the chat as the clients use them: their plaintext, saved to a place the user chose,
/// or a private temporary copy for a viewer; sealed files decrypted on the way.
public enum LocalFile {
    /// The plaintext of a sent file or a received one that is complete.
    public static func contents(of file: ChatFile) throws(ChatFileError) -> [UInt8] {
        guard let path = file.filePath else { throw .noFile(file.fileId) }
        return try LocalFileReader(path: path, key: file.fileKey, expectedSize: file.fileKey.map { _ in file.fileSize })
            .readAll()
    }

    /// The plaintext of `file` written to `target` (a new file, mode 0600; an existing one is
    /// never replaced); nothing is left at `target` when the file does not authenticate.
    public static func save(_ file: ChatFile, to target: String) throws(ChatFileError) {
        let bytes = try contents(of: file)
        try write(bytes, to: target)
    }

    /// Writes `bytes` to the new file `target` (0600, fsync'd).
    static func write(_ bytes: [UInt8], to target: String) throws(ChatFileError) {
        guard try writeNew(bytes, to: target) else { throw .alreadyExists(path: target) }
    }

    /// Writes `bytes` to the new file `target` (0600, fsync'd); false when `target` exists.
    static func writeNew(_ bytes: [UInt8], to target: String) throws(ChatFileError) -> Bool {
        guard try TransferFiles.createNew(target) else { return false }
        do {
            let output = try TransferFile.openPartial(target)
            try output.write(bytes, at: 0)
            try output.sync()
        } catch {
            unlink(target)
            throw error
        }
        return true
    }

    /// A private plain copy of `file` for a viewer (`xdg-open`): in a fresh 0700 directory under
    /// `privateRoot` (the group's `tmp/open`, or `$XDG_RUNTIME_DIR/simplex-open`), named as the
    /// file. `removeOpenedCopies` takes them away when the viewer is done or at the next start.
    public static func openableCopy(of file: ChatFile, privateRoot: String) throws(ChatFileError) -> String {
        do { try GroupContainer.ensurePrivateDirectory(privateRoot, createParents: true) } catch {
            throw .unwritable(path: privateRoot, reason: "\(error)")
        }
        let directory = privateRoot + "/" + Random.bytes(count: 8).map { String($0, radix: 16) }.joined()
        guard mkdir(directory, 0o700) == 0 else {
            throw .unwritable(path: directory, reason: TransferFile.reason(errno))
        }
        let target = directory + "/" + FileNames.sanitized(file.fileName)
        do { try save(file, to: target) } catch {
            rmdir(directory)
            throw error
        }
        return target
    }

    /// Removes a copy made by `openableCopy` and its directory.
    public static func removeOpenedCopy(_ path: String) {
        unlink(path)
        rmdir(TransferFiles.directory(of: path))
    }

    /// Removes every copy left under `privateRoot` (a viewer that outlived the client).
    public static func removeOpenedCopies(privateRoot: String) {
        guard let dir = opendir(privateRoot) else { return }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name != ".", name != ".." else { continue }
            let sub = privateRoot + "/" + name
            if let inner = opendir(sub) {
                while let file = readdir(inner) {
                    let fileName = withUnsafeBytes(of: file.pointee.d_name) {
                        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                    }
                    if fileName != ".", fileName != ".." { unlink(sub + "/" + fileName) }
                }
                closedir(inner)
                rmdir(sub)
            } else {
                unlink(sub)
            }
        }
    }
}
