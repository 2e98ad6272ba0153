import Foundation
import SimpleXCrypto
import Testing
import TestSupport

@testable import SimpleXChat

/// The parts of file transfers that need no relay: chunk arithmetic, names, assembly of a
/// partial file, digests, and the records a restart resumes from.
@Suite struct FileTransferTests {
    @Test func chunksCutAFileIntoFullPiecesAndARemainder() throws {
        let chunking = FileChunking(fileSize: 100_000)
        #expect(chunking.chunkSize == 15_780)
        #expect(chunking.chunkCount == 7)
        #expect((1...7).map(chunking.length(of:)) == [15_780, 15_780, 15_780, 15_780, 15_780, 15_780, 5_320])
        #expect(chunking.offset(of: 7) == 94_680)
        #expect(FileChunking(fileSize: 15_780).chunkCount == 1)
        #expect(FileChunking(fileSize: 15_781).chunkCount == 2)
        // An empty file is one empty chunk, so it is sent and completed like any other.
        #expect(FileChunking(fileSize: 0).chunkCount == 1)
        #expect(FileChunking(fileSize: 0).length(of: 1) == 0)
        // A chunk with its 5-byte header fits one agent message.
        #expect(5 + FileChunking.smpChunkSize <= Agent.maxMessageBodySize)
    }

    @Test func receivedChunksOfTheWrongNumberOrSizeAreRefused() throws {
        let chunking = FileChunking(fileSize: 100_000)
        #expect(try chunking.validate(number: 7, byteCount: 5_320) == 7)
        #expect(throws: ChatFileError.invalidChunk("chunk 8 of a file of 7 chunks")) {
            try chunking.validate(number: 8, byteCount: 10)
        }
        #expect(throws: ChatFileError.invalidChunk("chunk 0 of a file of 7 chunks")) {
            try chunking.validate(number: 0, byteCount: 10)
        }
        #expect(throws: ChatFileError.invalidChunk("chunk 2 has 100 bytes, expected 15780")) {
            try chunking.validate(number: 2, byteCount: 100)
        }
    }

    @Test func theSenderKeepsAWindowOfChunksWithTheAgent() {
        let chunking = FileChunking(fileSize: Int64(20 * FileChunking.smpChunkSize))
        #expect(chunking.nextChunks(queued: 0, unsent: 0) == 1...8)
        #expect(chunking.nextChunks(queued: 8, unsent: 8) == nil)
        #expect(chunking.nextChunks(queued: 8, unsent: 7) == 9...9)
        #expect(chunking.nextChunks(queued: 16, unsent: 2) == 17...20)
        #expect(chunking.nextChunks(queued: 20, unsent: 0) == nil)
    }

    @Test func progressIsReportedOncePerTenthAndNotAtCompletion() {
        let chunking = FileChunking(fileSize: Int64(100 * FileChunking.smpChunkSize))
        var reported: [Int] = []
        for done in 1...100 {
            if let percent = chunking.progress(from: done - 1, to: done) { reported.append(percent) }
        }
        #expect(reported == [10, 20, 30, 40, 50, 60, 70, 80, 90])
        // Seven chunks: each crosses at least one tenth.
        let small = FileChunking(fileSize: 100_000)
        #expect((1...6).compactMap { small.progress(from: $0 - 1, to: $0) } == [10, 20, 40, 50, 70, 80])
        // A duplicate chunk (done unchanged) reports nothing.
        #expect(chunking.progress(from: 10, to: 10) == nil)
    }

    @Test func sizesPrintAsSimplexPrintsThem() {
        #expect(FileChunking.readableSize(139_737) == "136.5 KiB")
        #expect(FileChunking.readableSize(272_376) == "266.0 KiB")
        #expect(FileChunking.readableSize(1023) == "1023 bytes")
        #expect(FileChunking.readableSize(8 * 1024 * 1024) == "8.0 MiB")
    }

    @Test func namesFromPeersAreMadeSafe() {
        #expect(FileNames.sanitized("photo.jpg") == "photo.jpg")
        #expect(FileNames.sanitized("../../.ssh/authorized_keys") == "authorized_keys")
        #expect(FileNames.sanitized("/etc/passwd") == "passwd")
        #expect(FileNames.sanitized("..") == "file")
        #expect(FileNames.sanitized("dir/") == "dir")
        #expect(FileNames.sanitized("") == "file")
        #expect(FileNames.sanitized("evil\nline\u{1B}[2J.txt") == "evil_line_[2J.txt")
        #expect(FileNames.sanitized(String(repeating: "é", count: 200)).utf8.count <= 255)
    }

    @Test func collisionsGetASuffixBeforeTheExtension() {
        let taken: Set<String> = ["/f/photo.jpg", "/f/photo_1.jpg", "/f/notes"]
        #expect(FileNames.unique("photo.jpg", in: "/f", exists: taken.contains) == "/f/photo_2.jpg")
        #expect(FileNames.unique("photo.jpg", in: "/g/", exists: taken.contains) == "/g/photo.jpg")
        #expect(FileNames.unique("notes", in: "/f", exists: taken.contains) == "/f/notes_1")
        #expect(FileNames.unique(".profile", in: "/f", exists: { $0 == "/f/.profile" }) == "/f/.profile_1")
    }

    @Test func imagesAreKnownByTheirExtension() {
        for name in ["a.jpg", "b.JPEG", "c.png", "d.gif", "e.webp"] {
            #expect(FileNames.isImage(name), "\(name)")
        }
        for name in ["a.jpg.exe", "jpg", "b.svg", ".png", "c.pdf"] {
            #expect(!FileNames.isImage(name), "\(name)")
        }
    }

    @Test func chunksWrittenOutOfOrderAndTwiceAssembleTheFile() throws {
        let tmp = try TemporaryDirectory("file-assembly")
        let original = (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let chunking = FileChunking(fileSize: Int64(original.count))
        let partial = try TransferFile.openPartial(tmp.appending("file_1.partial"))
        for number in [3, 1, 1, 2, 3] {
            let start = Int(chunking.offset(of: number))
            try partial.write(
                Array(original[start..<start + chunking.length(of: number)]), at: chunking.offset(of: number))
        }
        try partial.truncate(to: chunking.fileSize)
        #expect(try partial.digest() == SHA512.hash(original))
        #expect(FileManager.default.contents(atPath: tmp.appending("file_1.partial")) == Data(original))
        #expect(try permissions(of: tmp.appending("file_1.partial")) == 0o600)
    }

    @Test func theStreamingDigestIsSHA512() {
        let data = (0..<200_000).map { UInt8(truncatingIfNeeded: $0) }
        var hasher = SHA512.Hasher()
        hasher.update(Array(data[..<12_345]))
        hasher.update([])
        hasher.update(Array(data[12_345...]))
        #expect(hasher.finalize() == SHA512.hash(data))
    }

    @Test func aFinishedFileIsNeverReplacedWhenMovedIntoPlace() throws {
        let tmp = try TemporaryDirectory("file-move")
        try Data("new".utf8).write(to: URL(fileURLWithPath: tmp.appending("partial")))
        try Data("old".utf8).write(to: URL(fileURLWithPath: tmp.appending("taken")))
        #expect(try TransferFiles.move(tmp.appending("partial"), to: tmp.appending("taken")) == false)
        #expect(FileManager.default.contents(atPath: tmp.appending("taken")) == Data("old".utf8))
        #expect(try TransferFiles.move(tmp.appending("partial"), to: tmp.appending("free")) == true)
        #expect(FileManager.default.contents(atPath: tmp.appending("free")) == Data("new".utf8))
        #expect(!FileManager.default.fileExists(atPath: tmp.appending("partial")))
    }

    @Test func missingAndUnsendableFilesAreNamedErrors() throws {
        let tmp = try TemporaryDirectory("file-errors")
        #expect(throws: ChatFileError.notFound(path: tmp.appending("none"))) {
            try TransferFile.openForReading(tmp.appending("none"))
        }
        #expect(throws: ChatFileError.notARegularFile(path: tmp.path)) {
            try TransferFile.openForReading(tmp.path)
        }
        #expect(ChatFileError.notFound(path: "/x/y.jpg").description == "file not found: /x/y.jpg")
    }

    /// The records a restart resumes from: chunks handed over and accepted by the relay, chunks
    /// received, duplicates counted once.
    @Test func chunkRecordsSayWhereATransferResumes() throws {
        let tmp = try TemporaryDirectory("file-store")
        let store = try ChatStore(path: tmp.appending("chat.db"))
        defer { store.close() }
        let user = try store.createUser(Profile(displayName: "alice", fullName: ""))
        let contact = try store.createContact(
            user, profile: Profile(displayName: "bob", fullName: ""), agentConnectionID: "conn")
        let item = try store.insertItem(
            user, contact: contact, direction: .sent, content: .file(""), status: .sndNew,
            sharedMsgId: SharedMsgID(bytes: [1, 2, 3]))
        let sent = try store.insertFile(
            user, contact: contact, item: item, name: "a.bin", path: "/a.bin", size: 100_000, digest: nil,
            status: .sndTransfer)
        for number in 1...5 {
            try store.insertSndChunk(sent, number: number, agentMsgID: Int64(100 + number))
        }
        #expect(try store.markSndChunkSent(sent, agentMsgID: 101))
        #expect(try store.markSndChunkSent(sent, agentMsgID: 102))
        #expect(try !store.markSndChunkSent(sent, agentMsgID: 102))
        #expect(try store.sndChunkCounts(sent) == (queued: 5, unsent: 3))
        // After a restart the chunks the relay had not accepted go again, from chunk 3.
        try store.forgetUnsentChunks(sent)
        #expect(try store.sndChunkCounts(sent) == (queued: 2, unsent: 0))
        #expect(sent.chunking.nextChunks(queued: 2, unsent: 0) == 3...7)
        #expect(
            try store.file(contact, sharedMsgId: SharedMsgID(bytes: [1, 2, 3]), sent: true)?.fileId
                == sent.fileId)
        #expect(try store.unfinishedFiles(user).map(\.fileId) == [sent.fileId])

        let offer = try store.insertItem(
            user, contact: contact, direction: .received, content: .file(""), status: .rcvNew,
            sharedMsgId: SharedMsgID(bytes: [4]))
        let received = try store.insertFile(
            user, contact: contact, item: offer, name: "b.bin", path: nil, size: 10, digest: [9],
            status: .rcvInvitation)
        try store.acceptFile(received, path: "/files/b.bin", agentConnectionID: "file-conn")
        let accepted = try #require(try store.file(agentConnectionID: "file-conn"))
        #expect(accepted.status == .rcvAccepted)
        #expect(accepted.filePath == "/files/b.bin")
        #expect(accepted.digest == [9])
        #expect(try store.insertRcvChunk(accepted, number: 1))
        #expect(try !store.insertRcvChunk(accepted, number: 1))
        #expect(try store.rcvChunkCount(accepted) == 1)
        try store.finishFile(accepted, .rcvComplete)
        #expect(try store.rcvChunkCount(accepted) == 0)
        #expect(try store.file(id: accepted.fileId, user).status == .rcvComplete)
        // Finished, its connection still names it: late events on it are recognised, not misread.
        #expect(try store.file(agentConnectionID: "file-conn")?.fileId == accepted.fileId)
        #expect(throws: ChatError.file(.noFile(999))) { try store.file(id: 999, user) }
    }
}
