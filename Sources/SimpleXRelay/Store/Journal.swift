import Glibc

/// The append-only log of store events since the last snapshot.
///
/// Format (little-endian): a 16-byte header, "SXRJ" · version u32 (1) · generation u64, then
/// records: payload length u32 · CRC-32 of the payload u32 · payload (an event type byte and its
/// fields, `StoreEventCoding`). Generation n follows the snapshot that covers generation n−1, so
/// after a crash between writing a snapshot and starting the next journal the stale journal is
/// recognised and not replayed twice. A record whose length runs past the end of the file or whose
/// CRC does not match is a torn write (kill -9 or power loss during the write): it and anything
/// after it are discarded and the file is truncated there before appending again.
final class Journal {
    static let magic: UInt32 = 0x4A52_5853  // "SXRJ"
    static let version: UInt32 = 1
    static let headerSize = 16

    let path: String
    let generation: UInt64
    private let fd: Int32
    /// Bytes on file (header and complete records).
    private(set) var size: Int
    /// Encoded records not yet written.
    private var pending = ByteWriter()

    private init(path: String, generation: UInt64, fd: Int32, size: Int) {
        self.path = path
        self.generation = generation
        self.fd = fd
        self.size = size
    }

    deinit { close(fd) }

    var hasPending: Bool { !pending.bytes.isEmpty }

    /// Another descriptor for the file (for `JournalSyncer`), closed by its holder.
    func duplicateDescriptor() throws(QueueStoreError) -> Int32 {
        try retryingInterrupted("dup", path: path) { fcntl(fd, F_DUPFD_CLOEXEC, 0) }
    }

    /// A new, empty journal replacing any file at `path` (temp file, fsync, rename).
    static func create(path: String, directory: String, generation: UInt64) throws(QueueStoreError) -> Journal
    {
        let temp = path + ".tmp"
        let tempFD = try StoreFile.open(temp, O_WRONLY | O_CREAT | O_TRUNC)
        do throws(QueueStoreError) {
            var header = ByteWriter()
            header.u32(magic)
            header.u32(version)
            header.u64(generation)
            try StoreFile.writeAll(tempFD, header.bytes, path: temp)
            try StoreFile.sync(tempFD, path: temp)
        } catch {
            close(tempFD)
            unlink(temp)
            throw error
        }
        close(tempFD)
        try StoreFile.replace(temp, with: path, directory: directory)
        let fd = try StoreFile.open(path, O_WRONLY | O_APPEND)
        return Journal(path: path, generation: generation, fd: fd, size: headerSize)
    }

    /// Replays the journal at `path` into `store` and opens it for appending after its last
    /// complete record. nil when there is no journal, or an empty one, or a stale one (its
    /// generation is covered by the snapshot): the caller starts a new one.
    static func open(
        path: String, after snapshotGeneration: UInt64, into store: inout QueueStore
    ) throws(QueueStoreError) -> Journal? {
        guard let file = try MappedFile(path: path), file.bytes.count > 0 else { return nil }
        let bytes = file.bytes
        func corrupt(_ offset: Int, _ reason: String) -> QueueStoreError {
            .corrupt(path: path, offset: offset, reason: reason)
        }
        var reader = ByteReader(bytes)
        guard reader.u32() == magic, reader.u32() == version, let generation = reader.u64() else {
            throw corrupt(0, "not a queue store journal")
        }
        if generation <= snapshotGeneration { return nil }
        guard generation == snapshotGeneration + 1 else {
            throw corrupt(
                8,
                "journal generation \(generation) does not follow snapshot generation \(snapshotGeneration)")
        }
        var valid = headerSize
        while reader.remaining >= 8 {
            let start = reader.offset
            guard let length = reader.u32().map(Int.init), let crc = reader.u32(), length <= reader.remaining
            else { break }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[reader.offset..<(reader.offset + length)])
            guard CRC32.checksum(payload) == crc else { break }
            var payloadReader = ByteReader(payload)
            guard let event = StoreEventCoding.decode(&payloadReader) else {
                throw corrupt(start, "a record with a valid checksum does not decode")
            }
            guard store.apply(event) else {
                throw corrupt(start, "a record does not fit the state: \(event)")
            }
            reader.offset += length
            valid = reader.offset
        }
        let fd = try StoreFile.open(path, O_WRONLY | O_APPEND)
        if valid < bytes.count {
            do throws(QueueStoreError) {
                try StoreFile.truncate(fd, to: valid, path: path)
                try StoreFile.sync(fd, path: path)
            } catch {
                close(fd)
                throw error
            }
        }
        return Journal(path: path, generation: generation, fd: fd, size: valid)
    }

    /// Encodes one record into the pending buffer.
    func append(_ event: StoreEvent) {
        let start = pending.bytes.count
        pending.u32(0)
        pending.u32(0)
        StoreEventCoding.encode(event, into: &pending)
        let length = pending.bytes.count - start - 8
        pending.bytes.withUnsafeMutableBytes { raw in
            let crc = CRC32.checksum(
                UnsafeRawBufferPointer(UnsafeMutableRawBufferPointer(rebasing: raw[(start + 8)...])))
            raw.storeBytes(of: UInt32(length).littleEndian, toByteOffset: start, as: UInt32.self)
            raw.storeBytes(of: crc.littleEndian, toByteOffset: start + 4, as: UInt32.self)
        }
    }

    /// write(2)s the pending records. On failure the file is cut back to its last complete
    /// record (best effort: a torn tail is discarded on the next open anyway).
    func writePending() throws(QueueStoreError) {
        guard hasPending else { return }
        do throws(QueueStoreError) {
            try StoreFile.writeAll(fd, pending.bytes, path: path)
        } catch {
            _ = ftruncate(fd, off_t(size))
            throw error
        }
        size += pending.bytes.count
        if pending.bytes.capacity > 4 << 20 {
            pending.bytes = []
        } else {
            pending.bytes.removeAll(keepingCapacity: true)
        }
    }

    /// fdatasync: the records written so far survive power loss.
    func sync() throws(QueueStoreError) {
        try StoreFile.dataSync(fd, path: path)
    }
}
