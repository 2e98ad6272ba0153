import Glibc

/// The compacted state: every live queue with its messages, written atomically.
///
/// Format (little-endian): "SXRS" · version u32 (1) · covered journal generation u64 · queue count
/// u64; per queue the 148-byte record (rid sid recipientKey senderKey dhSecret mode status), message
/// count u32, the messages (msgId ts kind flags length body); then CRC-32 u32 of all before it.
/// It is streamed to `<path>.tmp`, fsynced and renamed over `path` (then the directory fsynced):
/// a crash leaves the old snapshot or the new one, so a damaged snapshot is an error, not a tail.
enum Snapshot {
    static let magic: UInt32 = 0x5352_5853  // "SXRS"
    static let version: UInt32 = 1

    /// Writes the snapshot; returns its size in bytes.
    static func write(
        _ store: QueueStore, coveringGeneration generation: UInt64, to path: String, directory: String
    ) throws(QueueStoreError) -> Int {
        let temp = path + ".tmp"
        let fd = try StoreFile.open(temp, O_WRONLY | O_CREAT | O_TRUNC)
        var size = 0
        do throws(QueueStoreError) {
            var crc: UInt32 = 0
            var writer = ByteWriter()
            writer.bytes.reserveCapacity(1 << 20)
            func flush() throws(QueueStoreError) {
                crc = writer.bytes.withUnsafeBytes { CRC32.checksum($0, continuing: crc) }
                try StoreFile.writeAll(fd, writer.bytes, path: temp)
                size += writer.bytes.count
                writer.bytes.removeAll(keepingCapacity: true)
            }
            writer.u32(magic)
            writer.u32(version)
            writer.u64(generation)
            writer.u64(UInt64(store.queueCount))
            for slot in store.slots where slot.record.status != .deleted {
                writer.queueRecord(slot.record)
                writer.u32(UInt32(slot.messages.count))
                for message in slot.messages { writer.message(message) }
                if writer.bytes.count >= 1 << 20 { try flush() }
            }
            try flush()
            writer.u32(crc)
            try flush()
            try StoreFile.sync(fd, path: temp)
        } catch {
            close(fd)
            unlink(temp)
            throw error
        }
        close(fd)
        try StoreFile.replace(temp, with: path, directory: directory)
        return size
    }

    /// Loads the snapshot at `path` into `store` (empty); returns the journal generation it
    /// covers, 0 when there is no snapshot.
    static func load(_ path: String, into store: inout QueueStore) throws(QueueStoreError) -> (
        generation: UInt64, size: Int
    ) {
        guard let file = try MappedFile(path: path) else { return (0, 0) }
        let bytes = file.bytes
        func corrupt(_ offset: Int, _ reason: String) -> QueueStoreError {
            .corrupt(path: path, offset: offset, reason: reason)
        }
        guard bytes.count >= 28 else { throw corrupt(0, "shorter than a snapshot header") }
        let body = UnsafeRawBufferPointer(rebasing: bytes[0..<(bytes.count - 4)])
        let stored = UInt32(
            littleEndian: bytes.loadUnaligned(fromByteOffset: bytes.count - 4, as: UInt32.self))
        guard CRC32.checksum(body) == stored else { throw corrupt(bytes.count - 4, "checksum mismatch") }
        var reader = ByteReader(body)
        guard reader.u32() == magic else { throw corrupt(0, "not a queue store snapshot") }
        guard reader.u32() == version else { throw corrupt(4, "unknown snapshot version") }
        guard let generation = reader.u64(), let count = reader.u64().map(Int.init) else {
            throw corrupt(8, "short header")
        }
        store.slots.reserveCapacity(count)
        store.byRecipient.reserveCapacity(count)
        store.bySender.reserveCapacity(count)
        for _ in 0..<count {
            let start = reader.offset
            guard let record = reader.queueRecord(), record.status != .deleted,
                let messageCount = reader.u32()
            else { throw corrupt(start, "invalid queue record") }
            var slot = QueueStore.Slot(record: record)
            if messageCount > 0 {
                slot.messages.reserveCapacity(Int(messageCount))
                for _ in 0..<messageCount {
                    guard let message = reader.message() else {
                        throw corrupt(reader.offset, "invalid message")
                    }
                    slot.messages.append(message)
                }
            }
            let index = Int32(store.slots.count)
            guard store.byRecipient.updateValue(index, forKey: record.recipientID) == nil,
                store.bySender.updateValue(index, forKey: record.senderID) == nil
            else { throw corrupt(start, "duplicate queue id") }
            store.slots.append(slot)
        }
        guard reader.remaining == 0 else { throw corrupt(reader.offset, "trailing bytes") }
        return (generation, bytes.count)
    }
}
