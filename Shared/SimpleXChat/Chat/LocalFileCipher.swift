import SimpleXCrypto

/// How a file in `files/` is sealed at rest (privacyEncryptLocalFiles, SimpleX's `CryptoFile`):
/// the arithmetic and the AEAD, without I/O.
///
/// The file is cut into segments of the transfer's chunk size, each sealed on its own with
/// XChaCha20-Poly1305 under the file's random key (kept in the chat database, which is encrypted
/// itself) and a random nonce, at a fixed place. Chunks arrive one by one, may come twice and are
/// written where they belong, so a stream cipher over the whole file (SimpleX's secretbox stream,
/// libsodium's secretstream) does not fit: a partial file is sealed segment by segment as it
/// arrives, and a transfer resumed after a restart keeps the segments already written.
///
/// Layout: header (`SXLF`, version, segment size, plaintext size; 20 bytes), then segment i
/// (0-based) at `header + i * (segmentSize + 40)`: nonce (24) | ciphertext | tag (16). Each
/// segment's associated data is the header and its index, so segments cannot be moved, dropped
/// or taken from another size of file; a missing or altered one fails to open.
public struct LocalFileCipher: Sendable {
    static let magic: [UInt8] = Array("SXLF".utf8)
    static let version: UInt8 = 1
    public static let headerSize = 20
    public static let overhead = XChaCha20Poly1305.nonceCount + XChaCha20Poly1305.tagCount
    public static let keySize = XChaCha20Poly1305.keyCount

    public let chunking: FileChunking

    public init(fileSize: Int64, segmentSize: Int = FileChunking.smpChunkSize) {
        chunking = FileChunking(fileSize: fileSize, chunkSize: segmentSize)
    }

    /// A fresh random key for one file.
    public static func randomKey() -> SecureBytes { SecureBytes.random(count: keySize) }

    public var header: [UInt8] {
        var bytes = Self.magic + [Self.version, 0, 0, 0]
        bytes += withUnsafeBytes(of: UInt32(chunking.chunkSize).bigEndian, Array.init)
        bytes += withUnsafeBytes(of: UInt64(chunking.fileSize).bigEndian, Array.init)
        return bytes
    }

    /// The size of the sealed file.
    public var sealedSize: Int64 {
        Int64(Self.headerSize) + Int64(chunking.chunkCount) * Int64(Self.overhead) + chunking.fileSize
    }

    /// Where segment `number` (1-based, as chunks are numbered) starts in the sealed file.
    public func sealedOffset(of number: Int) -> Int64 {
        Int64(Self.headerSize) + Int64(number - 1) * Int64(chunking.chunkSize + Self.overhead)
    }

    /// The sealed length of segment `number`.
    public func sealedLength(of number: Int) -> Int { chunking.length(of: number) + Self.overhead }

    /// Segment `number` of the plaintext sealed for its place.
    public func seal(_ bytes: [UInt8], number: Int, key: SecureBytes) throws(ChatFileError) -> [UInt8] {
        guard bytes.count == chunking.length(of: number) else {
            throw .invalidChunk("segment \(number) has \(bytes.count) bytes, expected \(chunking.length(of: number))")
        }
        let nonce = XChaCha20Poly1305.randomNonce()
        do {
            return nonce + (try XChaCha20Poly1305.seal(bytes, key: key, nonce: nonce, associatedData: ad(number)))
        } catch {
            throw .unwritable(path: "", reason: "\(error)")
        }
    }

    /// Segment `number` opened; throws `tampered` when it does not authenticate (altered,
    /// truncated, moved, or sealed under another key).
    public func open(_ sealed: [UInt8], number: Int, key: SecureBytes, path: String) throws(ChatFileError)
        -> SecureBytes
    {
        let nonceCount = XChaCha20Poly1305.nonceCount
        guard number >= 1, number <= chunking.chunkCount, sealed.count == sealedLength(of: number) else {
            throw .tampered(path: path)
        }
        do {
            return try XChaCha20Poly1305.open(
                sealed[nonceCount...], key: key, nonce: Array(sealed[..<nonceCount]), associatedData: ad(number))
        } catch {
            throw .tampered(path: path)
        }
    }

    /// Whether `bytes` (a file's first bytes) start like a sealed file of this size.
    public func matchesHeader(_ bytes: [UInt8]) -> Bool { bytes.count >= Self.headerSize && Array(bytes.prefix(Self.headerSize)) == header }

    private func ad(_ number: Int) -> [UInt8] {
        header + withUnsafeBytes(of: UInt64(number).bigEndian, Array.init)
    }
}
