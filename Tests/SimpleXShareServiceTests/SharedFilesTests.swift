import Foundation
import Glibc
import Testing
import TestSupport

@testable import SimpleXShareService

/// A shared file kept in the group: linked where it can be, copied where it cannot.
@Suite struct SharedFilesTests {
    func inode(_ path: String) -> (device: UInt, inode: UInt)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return (UInt(status.st_dev), UInt(status.st_ino))
    }

    @Test func onTheGroupsFilesystemItIsLinkedAndOutlivesTheOriginal() throws {
        let home = try TemporaryDirectory("shared-files")
        let original = home.appending("holiday é.bin")
        let bytes = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        #expect(FileManager.default.createFile(atPath: original, contents: bytes))
        let directory = try SharedFiles.directory(in: home.path)
        let kept = try SharedFiles.keep(original, into: directory)
        #expect(kept == directory + "/holiday é.bin")
        // The same file under a second name: nothing was copied.
        #expect(inode(kept)?.inode == inode(original)?.inode)
        // A second file of the same name in the share gets a name of its own.
        let again = try SharedFiles.keep(original, into: directory)
        #expect(again != kept && again.hasPrefix(directory + "/holiday é"))
        unlink(original)
        #expect(FileManager.default.contents(atPath: kept) == bytes)
    }

    @Test(.enabled(if: FileManager.default.isWritableFile(atPath: "/dev/shm")))
    func onAnotherFilesystemItIsCopied() throws {
        let group = try TemporaryDirectory("shared-files")
        let original = "/dev/shm/simplex-share-test-\(UInt32.random(in: 0...UInt32.max)).bin"
        defer { unlink(original) }
        let bytes = Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0) })
        #expect(FileManager.default.createFile(atPath: original, contents: bytes))
        let directory = try SharedFiles.directory(in: group.path)
        try #require(inode(directory)?.device != inode(original)?.device, "/dev/shm is on the group's filesystem here")
        let kept = try SharedFiles.keep(original, into: directory)
        #expect(inode(kept)?.device == inode(directory)?.device)
        #expect(FileManager.default.contents(atPath: kept) == bytes)
    }
}
