import SimpleXProtocol

/// A piece of a file sent over SMP (SimpleX `FileChunk`), the older method beside XFTP. On a file's
/// own connection each agent message is one chunk: `'F' Word32 chunkNo Tail` or `'C'` to cancel.
/// Inline in the chat's connection a chunk travels as `InlineFileChunk`.
public enum FileChunk: Hashable, Sendable {
    /// Chunk `number` (from 1) with up to `FileChunk.maxSize` bytes.
    case chunk(number: UInt32, bytes: [UInt8])
    /// The sender cancelled the transfer.
    case cancel

    /// The most file bytes in one chunk (SimpleX's `fileChunkSize`).
    public static let maxSize = 15_780

    /// `'F'`, the chunk number as big-endian Word32, then the bytes; or `'C'`.
    public func encoded() throws(ChatProtocolError) -> [UInt8] {
        switch self {
        case .chunk(let number, let bytes):
            guard bytes.count <= Self.maxSize else { throw .tooLarge(size: bytes.count, limit: Self.maxSize) }
            var writer = ByteWriter(capacity: 5 + bytes.count)
            writer.append(UInt8(ascii: "F"))
            writer.appendWord32(number)
            writer.append(bytes)
            return writer.bytes
        case .cancel:
            return [UInt8(ascii: "C")]
        }
    }

    /// Reads a chunk; anything but `'F'` with a chunk number, or `'C'` alone, is an error.
    public init(decoding bytes: [UInt8]) throws(ChatProtocolError) {
        var reader = SimpleXProtocol.ByteReader(bytes)
        do {
            switch try reader.readByte("tag") {
            case UInt8(ascii: "F"):
                let number = try reader.readWord32("chunk number")
                let data = reader.readTail()
                guard data.count <= Self.maxSize else {
                    throw ChatProtocolError.tooLarge(size: data.count, limit: Self.maxSize)
                }
                self = .chunk(number: number, bytes: data)
            case UInt8(ascii: "C"):
                guard reader.isAtEnd else { throw ChatProtocolError.invalidFileChunk("bytes after cancel") }
                self = .cancel
            case let tag:
                throw ChatProtocolError.invalidFileChunk("unknown tag 0x\(String(tag, radix: 16))")
            }
        } catch let error as ChatProtocolError {
            throw error
        } catch {
            throw .invalidFileChunk(String(describing: error))
        }
    }
}

/// A file chunk inline in the chat's own connection (SimpleX's binary chat message `BFileChunk`):
/// `'F'`, an empty short string (no message id), the file message's shared id as a short string,
/// then one byte: the chunk number (1–255) followed by the bytes, or 0 for cancel.
///
/// The chunk number is one byte on the wire; SimpleX sends files inline only when they fit in a few
/// chunks, and this encoder refuses a number above 255 rather than wrap it as SimpleX's would.
public struct InlineFileChunk: Hashable, Sendable {
    /// The shared id of the message that offered the file.
    public var msgId: SharedMsgID
    public var chunk: FileChunk

    public init(msgId: SharedMsgID, chunk: FileChunk) {
        self.msgId = msgId
        self.chunk = chunk
    }

    /// The message body.
    public func encoded() throws(ChatProtocolError) -> [UInt8] {
        var writer = ByteWriter(capacity: 16 + msgId.bytes.count)
        writer.append(UInt8(ascii: "F"))
        do {
            try writer.appendShortString([])
            try writer.appendShortString(msgId.bytes)
        } catch {
            throw .invalidFileChunk("message id longer than 255 bytes")
        }
        switch chunk {
        case .chunk(let number, let bytes):
            guard (1...255).contains(number) else {
                throw .invalidFileChunk("inline chunk number \(number) is not 1-255")
            }
            guard bytes.count <= FileChunk.maxSize else {
                throw .tooLarge(size: bytes.count, limit: FileChunk.maxSize)
            }
            writer.append(UInt8(number))
            writer.append(bytes)
        case .cancel:
            writer.append(0)
        }
        return writer.bytes
    }

    /// Reads an inline chunk message (`'F'` first).
    public init(decoding bytes: [UInt8]) throws(ChatProtocolError) {
        var reader = SimpleXProtocol.ByteReader(bytes)
        do {
            try reader.expect(ascii: "F", "inline file chunk tag")
            // The binary message's own id field; SimpleX sends it empty and reads the one below.
            _ = try reader.readShortString("message id")
            msgId = SharedMsgID(bytes: try reader.readShortString("file message id"))
            let number = try reader.readByte("chunk number")
            if number == 0 {
                guard reader.isAtEnd else { throw ChatProtocolError.invalidFileChunk("bytes after cancel") }
                chunk = .cancel
            } else {
                let data = reader.readTail()
                guard data.count <= FileChunk.maxSize else {
                    throw ChatProtocolError.tooLarge(size: data.count, limit: FileChunk.maxSize)
                }
                chunk = .chunk(number: UInt32(number), bytes: data)
            }
        } catch let error as ChatProtocolError {
            throw error
        } catch {
            throw .invalidFileChunk(String(describing: error))
        }
    }
}
