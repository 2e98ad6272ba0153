/// Appends little-endian fields to a byte buffer (journal records, snapshot entries).
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func u64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func id(_ value: some Bytes24Value) {
        u64(value.w0)
        u64(value.w1)
        u64(value.w2)
    }

    mutating func key(_ value: Key32) {
        u64(value.w0)
        u64(value.w1)
        u64(value.w2)
        u64(value.w3)
    }

    mutating func authKey(_ value: AuthKey?) {
        u8(value?.algorithm.rawValue ?? 0)
        key(value?.key ?? Key32(w0: 0, w1: 0, w2: 0, w3: 0))
    }

    /// 148 bytes: rid sid recipientKey(alg, key) senderKey(alg or 0, key) dhSecret mode status.
    mutating func queueRecord(_ record: QueueRecord) {
        id(record.recipientID)
        id(record.senderID)
        authKey(record.recipientKey)
        authKey(record.senderKey)
        key(record.recipientDHSecret)
        u8(record.mode.rawValue)
        u8(record.status.rawValue)
    }

    /// msgId(24) ts(8) kind(1: message, 2: quota marker) flags(1) bodyLength(4) body.
    mutating func message(_ message: StoredMessage) {
        id(message.id)
        u64(UInt64(bitPattern: message.timestamp))
        switch message.content {
        case .message(let flags, let body):
            u8(1)
            u8(flags.rawValue)
            u32(UInt32(body.count))
            bytes.append(contentsOf: body)
        case .quotaExceeded:
            u8(2)
            u8(0)
            u32(0)
        }
    }
}

/// Reads little-endian fields from a mapped file; every read is bounds-checked and a short or
/// invalid field is nil (decoding a damaged file never traps).
struct ByteReader {
    let buffer: UnsafeRawBufferPointer
    var offset: Int

    init(_ buffer: UnsafeRawBufferPointer, offset: Int = 0) {
        self.buffer = buffer
        self.offset = offset
    }

    var remaining: Int { buffer.count - offset }

    mutating func u8() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { offset += 1 }
        return buffer[offset]
    }

    mutating func u32() -> UInt32? {
        guard remaining >= 4 else { return nil }
        defer { offset += 4 }
        return UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    mutating func u64() -> UInt64? {
        guard remaining >= 8 else { return nil }
        defer { offset += 8 }
        return UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    mutating func id<T: Bytes24Value>(_: T.Type = T.self) -> T? {
        guard let w0 = u64(), let w1 = u64(), let w2 = u64() else { return nil }
        return T(w0: w0, w1: w1, w2: w2)
    }

    mutating func key() -> Key32? {
        guard let w0 = u64(), let w1 = u64(), let w2 = u64(), let w3 = u64() else { return nil }
        return Key32(w0: w0, w1: w1, w2: w2, w3: w3)
    }

    /// nil on a short read; `.some(nil)` for an absent key (algorithm 0).
    mutating func authKey() -> AuthKey?? {
        guard let tag = u8(), let key = key() else { return nil }
        if tag == 0 { return .some(nil) }
        guard let algorithm = AuthKey.Algorithm(rawValue: tag) else { return nil }
        return .some(AuthKey(algorithm: algorithm, key: key))
    }

    mutating func queueRecord() -> QueueRecord? {
        guard let recipientID: QueueID = id(), let senderID: QueueID = id(),
            let recipientKey = authKey(), let recipientKey, let senderKey = authKey(),
            let secret = key(), let mode = u8().flatMap(QueueMode.init(rawValue:)),
            let status = u8().flatMap(QueueStatus.init(rawValue:))
        else { return nil }
        return QueueRecord(
            recipientID: recipientID, senderID: senderID, recipientKey: recipientKey, senderKey: senderKey,
            recipientDHSecret: secret, mode: mode, status: status)
    }

    mutating func message() -> StoredMessage? {
        guard let id: MessageID = id(), let ts = u64(), let kind = u8(), let flags = u8(),
            let length = u32().map(Int.init), length <= remaining
        else { return nil }
        let timestamp = Int64(bitPattern: ts)
        switch kind {
        case 1:
            let body = [UInt8](UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + length)]))
            offset += length
            return StoredMessage(
                id: id, timestamp: timestamp,
                content: .message(flags: StoredMessageFlags(rawValue: flags), body: body))
        case 2 where length == 0:
            return StoredMessage(id: id, timestamp: timestamp, content: .quotaExceeded)
        default:
            return nil
        }
    }
}

/// The journal's record payloads: a type byte, then the event's fields.
enum StoreEventCoding {
    static func encode(_ event: StoreEvent, into writer: inout ByteWriter) {
        switch event {
        case .queueCreated(let record):
            writer.u8(1)
            writer.queueRecord(record)
        case .queueSecured(let recipientID, let senderKey):
            writer.u8(2)
            writer.id(recipientID)
            writer.authKey(senderKey)
        case .queueSuspended(let recipientID):
            writer.u8(3)
            writer.id(recipientID)
        case .queueDeleted(let recipientID):
            writer.u8(4)
            writer.id(recipientID)
        case .messageAdded(let recipientID, let message):
            writer.u8(5)
            writer.id(recipientID)
            writer.message(message)
        case .messagesRemoved(let recipientID, let through):
            writer.u8(6)
            writer.id(recipientID)
            writer.id(through)
        }
    }

    /// The event in `reader`'s remaining bytes; nil when they are not exactly one event.
    static func decode(_ reader: inout ByteReader) -> StoreEvent? {
        guard let type = reader.u8() else { return nil }
        let event: StoreEvent?
        switch type {
        case 1:
            event = reader.queueRecord().map { .queueCreated($0) }
        case 2:
            guard let rid: QueueID = reader.id(), let key = reader.authKey(), let key else { return nil }
            event = .queueSecured(recipientID: rid, senderKey: key)
        case 3:
            event = reader.id().map { .queueSuspended(recipientID: $0) }
        case 4:
            event = reader.id().map { .queueDeleted(recipientID: $0) }
        case 5:
            guard let rid: QueueID = reader.id(), let message = reader.message() else { return nil }
            event = .messageAdded(recipientID: rid, message)
        case 6:
            guard let rid: QueueID = reader.id(), let through: MessageID = reader.id() else { return nil }
            event = .messagesRemoved(recipientID: rid, through: through)
        default:
            event = nil
        }
        return reader.remaining == 0 ? event : nil
    }
}
