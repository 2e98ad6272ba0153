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

    /// A child being spawned holds a copy of every descriptor until its exec closes the
    /// close-on-exec ones; the lock must be free the moment `unlock()` returns all the same.
    @Test func unlockFreesTheLockWhileACopyOfTheDescriptorIsStillOpen() throws {
        let tmp = try TemporaryDirectory("lock")
        let path = tmp.appending("core.lock")
        let first = try #require(try FileLock.attempt(path: path))
        // The copy a half-spawned child would have: the same open file description.
        let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        let lockFD = try #require(fds.compactMap(Int32.init).first {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path
        })
        let copy = dup(lockFD)
        try #require(copy >= 0)
        defer { close(copy) }
        first.unlock()
        let second = try FileLock.attempt(path: path)
        #expect(second != nil, "the lock stayed held by the copy of its descriptor")
        second?.unlock()
    }
}
