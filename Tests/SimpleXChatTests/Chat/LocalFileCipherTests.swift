import Foundation
import SimpleXCrypto
import Testing
import TestSupport

@testable import SimpleXChat

/// Files sealed at rest (privacyEncryptLocalFiles): segments sealed as chunks arrive, read back
/// through their key, and every kind of damage a clear `tampered` error.
@Suite struct LocalFileCipherTests {
    /// `original` sealed into `path` segment by segment, in the order given (twice is harmless).
    static func seal(
        _ original: [UInt8], to path: String, key: SecureBytes, order: [Int]? = nil, segmentSize: Int = 1000
    ) throws {
        let cipher = LocalFileCipher(fileSize: Int64(original.count), segmentSize: segmentSize)
        let file = try TransferFile.openPartial(path)
        try file.write(cipher.header, at: 0)
        for number in order ?? Array(1...cipher.chunking.chunkCount) {
            let start = Int(cipher.chunking.offset(of: number))
            let piece = Array(original[start..<start + cipher.chunking.length(of: number)])
            try file.write(try cipher.seal(piece, number: number, key: key), at: cipher.sealedOffset(of: number))
        }
        try file.truncate(to: cipher.sealedSize)
    }

    static let original: [UInt8] = Array(
        (0..<100).map { _ in Array("a distinctive plaintext line, 0123456789\n".utf8) }.joined())

    @Test func segmentsSealedOutOfOrderAndTwiceReadBackWholeAndByRange() throws {
        let tmp = try TemporaryDirectory("sealed-file")
        let path = tmp.appending("notes.txt")
        let key = LocalFileCipher.randomKey()
        try Self.seal(Self.original, to: path, key: key, order: [3, 1, 5, 2, 2, 4, 1])
        let raw = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        #expect(!raw.containsBytes(Array("distinctive".utf8)))
        #expect(raw.count == 20 + 5 * 40 + Self.original.count)

        let reader = try LocalFileReader(path: path, key: key, expectedSize: Int64(Self.original.count))
        #expect(reader.size == Int64(Self.original.count))
        #expect(try reader.readAll() == Self.original)
        #expect(try reader.read(at: 990, count: 1020) == Array(Self.original[990..<2010]))
        #expect(try reader.read(at: 4000, count: 500) == Array(Self.original[4000...]))
        #expect(try reader.digest() == SHA512.hash(Self.original))
        // Without its key a sealed file is not taken for the plaintext.
        #expect(try LocalFileReader(path: path, key: nil).readAll() != Self.original)
    }

    @Test func aFlippedByteAMovedSegmentATruncationOrAnotherKeyIsTampering() throws {
        let tmp = try TemporaryDirectory("sealed-tampered")
        let path = tmp.appending("notes.txt")
        let key = LocalFileCipher.randomKey()
        try Self.seal(Self.original, to: path, key: key)
        let good = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        let cipher = LocalFileCipher(fileSize: Int64(Self.original.count), segmentSize: 1000)
        let one = Int(cipher.sealedOffset(of: 1))
        let two = Int(cipher.sealedOffset(of: 2))
        let length = cipher.sealedLength(of: 1)

        var flipped = good
        flipped[one + 30] ^= 0x01
        var swapped = good
        swapped.replaceSubrange(one..<one + length, with: good[two..<two + length])
        swapped.replaceSubrange(two..<two + length, with: good[one..<one + length])
        var header = good
        header[15] ^= 0x01  // the plaintext size
        let damaged: [(String, [UInt8])] = [
            ("flipped", flipped), ("swapped", swapped), ("truncated", Array(good.dropLast(1))),
            ("header", header), ("extended", good + [0]),
        ]
        for (name, bytes) in damaged {
            let damagedPath = tmp.appending(name)
            try Data(bytes).write(to: URL(fileURLWithPath: damagedPath))
            #expect(throws: ChatFileError.tampered(path: damagedPath), "\(name)") {
                try LocalFileReader(path: damagedPath, key: key).readAll()
            }
        }
        #expect(throws: ChatFileError.tampered(path: path)) {
            try LocalFileReader(path: path, key: LocalFileCipher.randomKey()).readAll()
        }
        #expect(
            ChatFileError.tampered(path: path).description
                == "the stored file \(path) was modified or damaged (it does not authenticate); its contents were not used")
    }

    @Test func savingWritesThePlaintextOnceAndNeverOverATamperedFileOrAnExistingOne() throws {
        let tmp = try TemporaryDirectory("sealed-save")
        let path = tmp.appending("notes.txt")
        let key = LocalFileCipher.randomKey()
        try Self.seal(Self.original, to: path, key: key, segmentSize: FileChunking.smpChunkSize)
        var file = ChatFile(
            fileId: 1, contactId: 1, itemId: nil, sharedMsgId: nil, direction: .received, fileName: "notes.txt",
            fileSize: Int64(Self.original.count), filePath: path, status: .rcvComplete, digest: nil,
            chunkSize: FileChunking.smpChunkSize)
        file.fileKey = key
        let out = tmp.appending("out.txt")
        try LocalFile.save(file, to: out)
        #expect(FileManager.default.contents(atPath: out) == Data(Self.original))
        #expect(try permissions(of: out) == 0o600)
        #expect(throws: ChatFileError.alreadyExists(path: out)) { try LocalFile.save(file, to: out) }

        let copy = try LocalFile.openableCopy(of: file, privateRoot: tmp.appending("open"))
        #expect(FileManager.default.contents(atPath: copy) == Data(Self.original))
        #expect(try permissions(of: TransferFiles.directory(of: copy)) == 0o700)
        LocalFile.removeOpenedCopies(privateRoot: tmp.appending("open"))
        #expect(!FileManager.default.fileExists(atPath: copy))

        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: [0xFF])
        try handle.close()
        let second = tmp.appending("second.txt")
        #expect(throws: ChatFileError.tampered(path: path)) { try LocalFile.save(file, to: second) }
        #expect(!FileManager.default.fileExists(atPath: second))
    }
}
