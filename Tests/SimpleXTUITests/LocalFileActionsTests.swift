import Foundation
import SimpleXCrypto
import Testing
import TestSupport

@testable import SimpleXChat
@testable import SimpleXTUI

/// A file sealed at rest (privacyEncryptLocalFiles) used from the full-screen client: saved to
/// the download directory in the clear, offered to open in a viewer once it is all here.
@Suite struct LocalFileActionsTests {
    static let original = Array((0..<800).map { "a picture's bytes \($0)\n" }.joined().utf8)

    /// `original` sealed at `path` as the core seals a received file; the file naming it.
    static func sealedFile(at path: String) throws -> ChatFile {
        let key = LocalFileCipher.randomKey()
        let cipher = LocalFileCipher(fileSize: Int64(original.count))
        var bytes = cipher.header
        for number in 1...cipher.chunking.chunkCount {
            let start = Int(cipher.chunking.offset(of: number))
            bytes += try cipher.seal(
                Array(original[start..<start + cipher.chunking.length(of: number)]), number: number, key: key)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var file = ChatFile(
            fileId: 7, contactId: 1, itemId: 1, sharedMsgId: nil, direction: .received, fileName: "photo.jpg",
            fileSize: Int64(original.count), filePath: path, status: .rcvComplete, digest: nil,
            chunkSize: FileChunking.smpChunkSize)
        file.fileKey = key
        return file
    }

    @Test func savingToDownloadsWritesThePlaintextUnderAFreeName() throws {
        let home = try TemporaryDirectory("tui-downloads")
        let file = try Self.sealedFile(at: home.appending("stored.jpg"))
        let environment = ["HOME": home.path, "XDG_CONFIG_HOME": home.appending("config")]
        let first = try AppEffects.copyToDownloads(file, environment: environment)
        let second = try AppEffects.copyToDownloads(file, environment: environment)
        #expect(first == home.appending("Downloads/photo.jpg"))
        #expect(second == home.appending("Downloads/photo (1).jpg"))
        #expect(FileManager.default.contents(atPath: first) == Data(Self.original))
        #expect(FileManager.default.contents(atPath: second) == Data(Self.original))
        // The stored file itself is not the plaintext.
        #expect(FileManager.default.contents(atPath: home.appending("stored.jpg")) != Data(Self.original))
    }

    @Test func aFileIsOfferedToOpenOnlyOnceItIsHereAndOpeningAsksForIt() throws {
        let home = try TemporaryDirectory("tui-open")
        let file = try Self.sealedFile(at: home.appending("stored.jpg"))
        var item = AppFixture.item(1, "")
        item.content = .file("")
        item.file = file
        #expect(ItemAction.applicable(to: item, contactReady: true).contains(.openFile))
        var offered = file
        offered.status = .rcvInvitation
        offered.filePath = nil
        item.file = offered
        #expect(!ItemAction.applicable(to: item, contactReady: true).contains(.openFile))
        #expect(ItemAction.applicable(to: item, contactReady: true).contains(.saveFile))
        #expect(Set(ItemAction.allCases.map(\.key)).count == ItemAction.allCases.count)
    }
}
