import Foundation
import SimpleXSystem
import Testing
import TestSupport

@Suite struct AtomicFileTests {
    @Test func aWriteReplacesTheWholeFileWithTheGivenModeAndLeavesNoTemporaryFile() throws {
        let tmp = try TemporaryDirectory("atomic")
        let path = tmp.appending("defaults.json")
        #expect(try AtomicFile.read(path) == nil)
        try AtomicFile.write(Array("first, longer content".utf8), to: path)
        try AtomicFile.write(Array("second".utf8), to: path)
        #expect(try AtomicFile.read(path) == Array("second".utf8))
        #expect(try permissions(of: path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path) == ["defaults.json"])
    }
}

@Suite struct FileLockTests {
    @Test func aHeldLockExcludesASecondHolderUntilItIsReleased() throws {
        let tmp = try TemporaryDirectory("lock")
        let path = tmp.appending("core.lock")
        let first = try #require(try FileLock.attempt(path: path))
        #expect(try FileLock.attempt(path: path) == nil)
        #expect(try permissions(of: path) == 0o600)
        first.unlock()
        let second = try FileLock.attempt(path: path)
        #expect(second != nil)
        second?.unlock()
    }
}
