import Foundation
import SimpleXCrypto
import SimpleXSystem

/// Export and import of a whole chat (iOS: "Export database" / "Import database", seed 002): the
/// two databases, the passphrase's parameters, the received files and the keys that open them, in
/// one file sealed with a passphrase the user types, so it can be carried to another machine.
///
/// The archive: a 64-byte header in the clear — the magic `SXCHATARCHIVE1\n\0`, the Argon2id
/// limits (passes and memory, little-endian), a 16-byte salt and a 24-byte base nonce — then
/// chunks of at most 1 MiB of the entries' stream, each `[u32 length][XChaCha20-Poly1305]`. Chunk
/// `i`'s nonce is the base with `i` added into its last 8 bytes; its associated data is the header,
/// `i` and a last-chunk flag, so chunks cannot be reordered, dropped or cut off unnoticed.
/// The stream is entries `[u16 name length][name][u64 size][bytes]`: `keys` (the keychain's
/// database and agent keys), the databases and `files/…`.
///
/// The databases in the archive stay sealed with their own key (they are copied as they are on
/// disk, after a checkpoint), and that key is in the archive: the archive passphrase opens all.
public enum ChatArchive {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case notAnArchive
        case wrongPassphrase
        /// A chunk that does not authenticate, or a stream that ends early.
        case damaged(String)
        case io(String)
        /// The chat must not run while its databases are copied or replaced.
        case chatRunning

        public var description: String {
            switch self {
            case .notAnArchive: "not a SimpleX chat archive"
            case .wrongPassphrase: "wrong archive passphrase; nothing was changed"
            case .damaged(let what): "the archive is damaged (\(what)); nothing was changed"
            case .io(let what): what
            case .chatRunning: "stop the chat first: the databases cannot be copied while it runs"
            }
        }
    }

    /// What an export or import moved.
    public struct Summary: Equatable, Sendable {
        public var files: Int
        public var bytes: Int
    }

    static let magic: [UInt8] = Array("SXCHATARCHIVE1\n".utf8) + [0]
    static let headerCount = 16 + 8 + 8 + PasswordHash.saltCount + XChaCha20Poly1305.nonceCount
    static let chunkSize = 1 << 20
    static let keysEntry = "keys"
    static let archivedKeys: [KeychainItem] = [.databasePassword, .agentStoreKey]

    static func databaseNames() -> [String] { ["simplex_v1_chat.db", "simplex_v1_agent.db", "simplex_v1_db.kdf"] }

    // MARK: - Export

    /// Writes the chat of `container` to `path` (0600), sealed with `passphrase`. The caller holds
    /// core.lock with no core running; the databases are checkpointed under `databaseKey` first.
    @discardableResult
    public static func export(
        container: GroupContainer, keychain: KeychainStore, databaseKey: DatabaseKey, to path: String,
        passphrase: SecureBytes, limits: PasswordHash.Limits = .moderate
    ) throws(Failure) -> Summary {
        let directory = container.path
        for name in databaseNames().prefix(2) where FileManager.default.fileExists(atPath: directory + "/" + name) {
            do {
                let database = try Database(path: directory + "/" + name, key: databaseKey)
                try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            } catch { throw .io("\(name): \(error)") }
            if let size = fileSize(directory + "/" + name + "-wal"), size > 0 {
                throw .chatRunning
            }
        }
        let salt = Random.bytes(count: PasswordHash.saltCount)
        let base = XChaCha20Poly1305.randomNonce()
        var header = magic
        withUnsafeBytes(of: limits.opsLimit.littleEndian) { header += $0 }
        withUnsafeBytes(of: limits.memLimit.littleEndian) { header += $0 }
        header += salt + base
        let key: SecureBytes
        do {
            key = try PasswordHash.deriveKey(passphrase: passphrase, salt: salt, limits: limits, outputByteCount: 32)
        } catch { throw .io("the passphrase could not be hashed: \(error)") }

        let partial = path + ".partial"
        guard FileManager.default.createFile(atPath: partial, contents: nil, attributes: [.posixPermissions: 0o600]),
            let output = FileHandle(forWritingAtPath: partial)
        else { throw .io("cannot write \(path)") }
        var writer = ChunkWriter(output: output, key: key, header: header, base: base)
        var summary = Summary(files: 0, bytes: 0)
        do {
            try output.write(contentsOf: header)
            var keys: [UInt8] = []
            defer { keys.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) } }
            for item in archivedKeys {
                // The databases' key as this process opened them (a passphrase not kept in the
                // keychain has its key only here).
                guard let value = item == .databasePassword ? databaseKey.bytes : try keychain.get(item) else { continue }
                let name = Array(item.rawValue.utf8)
                keys += [UInt8(name.count)] + name
                withUnsafeBytes(of: UInt16(value.count).littleEndian) { keys += $0 }
                value.withUnsafeBytes { keys += $0 }
            }
            try writer.entry(keysEntry, size: keys.count) { try $0.append(keys) }
            var entries: [(name: String, path: String)] = databaseNames().map { ($0, directory + "/" + $0) }
            for file in (FileManager.default.subpaths(atPath: container.filesDirectory) ?? []).sorted() {
                entries.append(("files/" + file, container.filesDirectory + "/" + file))
            }
            for (name, source) in entries {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory), !isDirectory.boolValue,
                    let size = fileSize(source), let input = FileHandle(forReadingAtPath: source)
                else { continue }
                defer { try? input.close() }
                try writer.entry(name, size: size) { writer in
                    var left = size
                    while left > 0 {
                        guard let data = try input.read(upToCount: min(left, chunkSize)), !data.isEmpty else {
                            throw Failure.io("\(name) changed while it was exported")
                        }
                        try writer.append(Array(data))
                        left -= data.count
                    }
                }
                summary.bytes += size
                if name.hasPrefix("files/") { summary.files += 1 }
            }
            try writer.finish()
            try output.synchronize()
            try output.close()
            guard rename(partial, path) == 0 else { throw Failure.io("cannot write \(path): \(String(cString: strerror(errno)))") }
        } catch {
            try? output.close()
            unlink(partial)
            if let failure = error as? Failure { throw failure }
            throw .io("cannot write \(path): \(error)")
        }
        return summary
    }

    // MARK: - Delete

    /// "Delete database": the databases, their key and the agent's, and every file go; SimpleX
    /// Lock and the settings stay. The next start makes new keys and asks for a profile. The
    /// caller holds core.lock with no core running.
    public static func deleteDatabase(container: GroupContainer, keychain: KeychainStore) throws(Failure) {
        do {
            try SelfDestruct.eraseData(
                container: container, keychain: keychain, defaults: GroupDefaults(container: container)
            ) { $0 != .appPassword && $0 != .selfDestructPassword }
        } catch { throw .io("the database could not be deleted: \(error)") }
    }

    // MARK: - Import

    /// The staged import beside the databases, and its commit record.
    static func stagingPath(_ directory: String) -> String { directory + "/import.staging" }
    static func commitPath(_ directory: String) -> String { directory + "/import.commit" }
    static func pendingItem(_ item: KeychainItem) -> KeychainItem { KeychainItem(rawValue: item.rawValue + ".imported") }

    /// Replaces the chat of `container` with the archive at `path`, crash-safely: the archive is
    /// read whole and checked into `import.staging` first (a wrong passphrase or a damaged archive
    /// changes nothing), its keys go to the keychain as pending items, then `import.commit` is
    /// written — the commit — and the staged files replace the databases and `files/`. A crash
    /// before the commit leaves the old chat; after it, `recover` finishes the import.
    /// The caller holds core.lock with no core running.
    @discardableResult
    public static func `import`(
        from path: String, passphrase: SecureBytes, container: GroupContainer, keychain: KeychainStore
    ) throws(Failure) -> Summary {
        let directory = container.path
        let staging = stagingPath(directory)
        try? FileManager.default.removeItem(atPath: staging)
        do {
            try FileManager.default.createDirectory(
                atPath: staging + "/files", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch { throw .io("cannot stage the import: \(error)") }
        let summary: Summary
        let keys: [KeychainItem: SecureBytes]
        do {
            (summary, keys) = try unpack(path, passphrase: passphrase, into: staging)
            guard keys[.databasePassword] != nil, keys[.agentStoreKey] != nil,
                FileManager.default.fileExists(atPath: staging + "/simplex_v1_chat.db")
            else { throw Failure.damaged("its keys or its chat database are missing") }
            for (item, value) in keys { try keychain.set(pendingItem(item), value) }
            try AtomicFile.write(Array("import\n".utf8), to: commitPath(directory))
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            for item in archivedKeys { try? keychain.remove(pendingItem(item)) }
            if let failure = error as? Failure { throw failure }
            throw .io("\(error)")
        }
        try finish(directory: directory, keychain: keychain)
        return summary
    }

    /// Whether an import was left part-way (staged or committed) by a crash.
    public static func hasUnfinishedImport(_ container: GroupContainer) -> Bool {
        access(commitPath(container.path), F_OK) == 0 || access(stagingPath(container.path), F_OK) == 0
    }

    /// Finishes an import that was committed before a crash, or removes one that was not. Run
    /// with core.lock held, before the databases are opened.
    public static func recover(container: GroupContainer, keychain: KeychainStore) throws(Failure) {
        let directory = container.path
        if access(commitPath(directory), F_OK) == 0 {
            try finish(directory: directory, keychain: keychain)
        } else if access(stagingPath(directory), F_OK) == 0 {
            try? FileManager.default.removeItem(atPath: stagingPath(directory))
            for item in archivedKeys { try? keychain.remove(pendingItem(item)) }
        }
    }

    /// Moves the staged databases and files into place and the pending keys into theirs (each step
    /// can run again after a crash), then removes the record.
    static func finish(directory: String, keychain: KeychainStore) throws(Failure) {
        let staging = stagingPath(directory)
        let manager = FileManager.default
        do {
            if manager.fileExists(atPath: staging) {
                for name in databaseNames() {
                    for suffix in ["", "-wal", "-shm", "-journal"] { unlink(directory + "/" + name + suffix) }
                    if manager.fileExists(atPath: staging + "/" + name) {
                        try manager.moveItem(atPath: staging + "/" + name, toPath: directory + "/" + name)
                    }
                }
                if manager.fileExists(atPath: staging + "/files") {
                    try? manager.removeItem(atPath: directory + "/files")
                    try manager.moveItem(atPath: staging + "/files", toPath: directory + "/files")
                    chmod(directory + "/files", 0o700)
                }
            }
            for item in archivedKeys {
                if let value = try keychain.get(pendingItem(item)) {
                    try keychain.set(item, value)
                    try keychain.remove(pendingItem(item))
                }
            }
            _ = try keychain.setIfAbsent(.databasesEncrypted, SecureBytes(copying: [UInt8(1)]))
            try? manager.removeItem(atPath: staging)
            unlink(commitPath(directory))
            _ = try GroupContainer(path: directory)
        } catch { throw .io("the import could not be finished (it is finished at the next start): \(error)") }
    }

    /// Reads and checks the whole archive into `staging`; returns the keys it holds.
    static func unpack(_ path: String, passphrase: SecureBytes, into staging: String) throws(Failure) -> (
        Summary, [KeychainItem: SecureBytes]
    ) {
        guard let input = FileHandle(forReadingAtPath: path) else { throw .io("cannot read \(path)") }
        defer { try? input.close() }
        let header: [UInt8]
        do { header = Array(try input.read(upToCount: headerCount) ?? Data()) } catch { throw .io("cannot read \(path)") }
        guard header.count == headerCount, Array(header[0..<16]) == magic else { throw .notAnArchive }
        let ops = header[16..<24].withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        let memory = header[24..<32].withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        // Limits beyond libsodium's sensitive ones are not ours: refuse rather than hash for hours.
        guard ops <= 16, memory <= 4 << 30 else { throw .notAnArchive }
        let salt = Array(header[32..<(32 + PasswordHash.saltCount)])
        let base = Array(header[(32 + PasswordHash.saltCount)...])
        let key: SecureBytes
        do {
            key = try PasswordHash.deriveKey(
                passphrase: passphrase, salt: salt, limits: PasswordHash.Limits(opsLimit: ops, memLimit: memory),
                outputByteCount: 32)
        } catch { throw .io("the passphrase could not be hashed: \(error)") }
        var reader = ChunkReader(input: input, key: key, header: header, base: base)
        var summary = Summary(files: 0, bytes: 0)
        var keys: [KeychainItem: SecureBytes] = [:]
        while let name = try reader.nextEntryName() {
            let size = try reader.readInteger(UInt64.self)
            guard size <= UInt64(Int.max) else { throw .damaged("an entry's size") }
            if name == keysEntry {
                let bytes = try reader.read(Int(size))
                keys = try parseKeys(bytes)
                continue
            }
            guard isAllowed(name) else { throw .damaged("an entry named \(name)") }
            let target = staging + "/" + name
            guard FileManager.default.createFile(atPath: target, contents: nil, attributes: [.posixPermissions: 0o600]),
                let output = FileHandle(forWritingAtPath: target)
            else { throw .io("cannot stage \(name)") }
            defer { try? output.close() }
            var left = Int(size)
            while left > 0 {
                let part = try reader.read(min(left, chunkSize))
                do { try output.write(contentsOf: part) } catch { throw .io("cannot stage \(name): \(error)") }
                left -= part.count
            }
            do { try output.synchronize() } catch { throw .io("cannot stage \(name): \(error)") }
            summary.bytes += Int(size)
            if name.hasPrefix("files/") { summary.files += 1 }
        }
        return (summary, keys)
    }

    /// The databases, their parameters, and plain names under `files/` (no directories, no `..`).
    static func isAllowed(_ name: String) -> Bool {
        if databaseNames().contains(name) { return true }
        guard name.hasPrefix("files/") else { return false }
        let file = name.dropFirst("files/".count)
        return !file.isEmpty && !file.contains("/") && file != "." && file != ".." && !file.contains("\0")
    }

    static func parseKeys(_ bytes: [UInt8]) throws(Failure) -> [KeychainItem: SecureBytes] {
        var keys: [KeychainItem: SecureBytes] = [:]
        var at = 0
        while at < bytes.count {
            let nameCount = Int(bytes[at])
            guard at + 1 + nameCount + 2 <= bytes.count else { throw .damaged("its keys") }
            let name = String(decoding: bytes[(at + 1)..<(at + 1 + nameCount)], as: UTF8.self)
            at += 1 + nameCount
            let count = Int(bytes[at]) | Int(bytes[at + 1]) << 8
            at += 2
            guard at + count <= bytes.count else { throw .damaged("its keys") }
            let item = KeychainItem(rawValue: name)
            if archivedKeys.contains(item) { keys[item] = SecureBytes(copying: Array(bytes[at..<(at + count)])) }
            at += count
        }
        return keys
    }

    static func fileSize(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
    }

    static func nonce(_ base: [UInt8], _ index: UInt64) -> [UInt8] {
        var nonce = base
        var carry = index
        for position in stride(from: nonce.count - 1, through: nonce.count - 8, by: -1) {
            let sum = UInt64(nonce[position]) + (carry & 0xFF)
            nonce[position] = UInt8(sum & 0xFF)
            carry = (carry >> 8) + (sum >> 8)
        }
        return nonce
    }

    static func associatedData(_ header: [UInt8], _ index: UInt64, last: Bool) -> [UInt8] {
        var data = header
        withUnsafeBytes(of: index.littleEndian) { data += $0 }
        data.append(last ? 1 : 0)
        return data
    }
}

/// The entries' stream cut into sealed chunks.
private struct ChunkWriter {
    let output: FileHandle
    let key: SecureBytes
    let header: [UInt8]
    let base: [UInt8]
    var buffer: [UInt8] = []
    var index: UInt64 = 0

    init(output: FileHandle, key: SecureBytes, header: [UInt8], base: [UInt8]) {
        self.output = output
        self.key = key
        self.header = header
        self.base = base
        buffer.reserveCapacity(ChatArchive.chunkSize)
    }

    mutating func entry(_ name: String, size: Int, body: (inout ChunkWriter) throws -> Void) throws {
        let bytes = Array(name.utf8)
        var head: [UInt8] = []
        withUnsafeBytes(of: UInt16(bytes.count).littleEndian) { head += $0 }
        head += bytes
        withUnsafeBytes(of: UInt64(size).littleEndian) { head += $0 }
        try append(head)
        try body(&self)
    }

    mutating func append(_ bytes: [UInt8]) throws {
        var rest = bytes[...]
        while !rest.isEmpty {
            let room = ChatArchive.chunkSize - buffer.count
            buffer += rest.prefix(room)
            rest = rest.dropFirst(room)
            if buffer.count == ChatArchive.chunkSize { try flush(last: false) }
        }
    }

    mutating func finish() throws { try flush(last: true) }

    private mutating func flush(last: Bool) throws {
        let sealed = try XChaCha20Poly1305.seal(
            buffer, key: key, nonce: ChatArchive.nonce(base, index),
            associatedData: ChatArchive.associatedData(header, index, last: last))
        var frame: [UInt8] = []
        withUnsafeBytes(of: UInt32(sealed.count).littleEndian) { frame += $0 }
        try output.write(contentsOf: frame + sealed)
        buffer.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
        buffer.removeAll(keepingCapacity: true)
        index += 1
    }
}

/// The entries' stream read back from its chunks, each checked before any byte of it is used.
private struct ChunkReader {
    let input: FileHandle
    let key: SecureBytes
    let header: [UInt8]
    let base: [UInt8]
    var chunk: [UInt8] = []
    var at = 0
    var index: UInt64 = 0
    var ended = false

    init(input: FileHandle, key: SecureBytes, header: [UInt8], base: [UInt8]) {
        self.input = input
        self.key = key
        self.header = header
        self.base = base
    }

    /// The next entry's name, nil at the end of the stream.
    mutating func nextEntryName() throws(ChatArchive.Failure) -> String? {
        if at == chunk.count, ended { return nil }
        if at == chunk.count { try load() }
        if at == chunk.count, ended { return nil }
        let count = Int(try readInteger(UInt16.self))
        return String(decoding: try read(count), as: UTF8.self)
    }

    mutating func readInteger<T: FixedWidthInteger>(_: T.Type) throws(ChatArchive.Failure) -> T {
        let bytes = try read(MemoryLayout<T>.size)
        return bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(as: T.self)) }
    }

    mutating func read(_ count: Int) throws(ChatArchive.Failure) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        while out.count < count {
            if at == chunk.count {
                guard !ended else { throw .damaged("it ends in the middle of an entry") }
                try load()
                continue
            }
            let take = min(count - out.count, chunk.count - at)
            out += chunk[at..<(at + take)]
            at += take
        }
        return out
    }

    private mutating func load() throws(ChatArchive.Failure) {
        let frame: Data
        do { frame = try input.read(upToCount: 4) ?? Data() } catch { throw .io("cannot read the archive") }
        guard frame.count == 4 else { throw .damaged("it ends early") }
        let length = Int(frame.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) })
        guard length >= XChaCha20Poly1305.tagCount, length <= ChatArchive.chunkSize + XChaCha20Poly1305.tagCount else {
            throw .damaged("chunk \(index)")
        }
        let sealed: Data
        do { sealed = try input.read(upToCount: length) ?? Data() } catch { throw .io("cannot read the archive") }
        guard sealed.count == length else { throw .damaged("it ends early") }
        let nonce = ChatArchive.nonce(base, index)
        let opened: SecureBytes
        if let plain = try? XChaCha20Poly1305.open(
            sealed, key: key, nonce: nonce, associatedData: ChatArchive.associatedData(header, index, last: false))
        {
            opened = plain
        } else if let plain = try? XChaCha20Poly1305.open(
            sealed, key: key, nonce: nonce, associatedData: ChatArchive.associatedData(header, index, last: true))
        {
            opened = plain
            ended = true
            let trailing = (try? input.read(upToCount: 1)) ?? nil
            guard trailing?.isEmpty ?? true else { throw .damaged("bytes after its end") }
        } else {
            // The first chunk not opening is the passphrase (or a damaged first chunk: the same to the user).
            throw index == 0 ? .wrongPassphrase : .damaged("chunk \(index) does not authenticate")
        }
        chunk = opened.withUnsafeBytes { Array($0) }
        at = 0
        index += 1
    }
}
