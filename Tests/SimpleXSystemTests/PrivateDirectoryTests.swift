import Foundation
import SimpleXSystem
import Testing
import TestSupport

/// The directories every process keeps private: the group directory, the relay's store, key folders.
@Suite struct PrivateDirectoryTests {
    @Test func missingDirectoriesAndTheirParentsAreMadeOwnerOnlyWhateverTheUmask() throws {
        let tmp = try TemporaryDirectory("private")
        let path = tmp.appending("a/b/c")
        let previous = umask(0o022)
        defer { umask(previous) }
        try PrivateDirectory.ensure(path, createParents: true)
        #expect(try permissions(of: tmp.appending("a")) == 0o700)
        #expect(try permissions(of: tmp.appending("a/b")) == 0o700)
        #expect(try permissions(of: path) == 0o700)
        // An existing private directory is fine as it is.
        try PrivateDirectory.ensure(path, createParents: false)
    }

    @Test func withoutCreateParentsAMissingParentIsAnError() throws {
        let tmp = try TemporaryDirectory("private")
        let path = tmp.appending("missing/child")
        #expect(throws: PrivateDirectoryError.system(SystemError(errno: ENOENT, call: "mkdir", path: path))) {
            try PrivateDirectory.ensure(path, createParents: false)
        }
        #expect(!FileManager.default.fileExists(atPath: tmp.appending("missing")))
    }

    @Test func aDirectoryOthersCanEnterIsRefusedUnchangedWithTheFix() throws {
        let tmp = try TemporaryDirectory("private")
        let path = tmp.appending("open")
        mkdir(path, 0o755)
        chmod(path, 0o755)
        #expect {
            try PrivateDirectory.ensure(path, createParents: true)
        } throws: { error in
            "\(error)"
                == "directory \(path) can be read or written by other users (mode 755): fix it with: chmod 700 \(path)"
        }
        #expect(try permissions(of: path) == 0o755)
    }

    @Test func aFileInPlaceOfTheDirectoryIsRefused() throws {
        let tmp = try TemporaryDirectory("private")
        let path = tmp.appending("file")
        #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        #expect(throws: PrivateDirectoryError.notADirectory(path)) {
            try PrivateDirectory.ensure(path, createParents: true)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("x".utf8))
    }
}
