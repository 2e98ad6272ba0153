import Foundation
import Testing
import TestSupport

@testable import SimpleXChat

@Suite struct GroupContainerTests {
    @Test func resolvesFromSimplexGroupDirThenXDGThenHome() throws {
        #expect(
            try GroupContainer.resolvePath(environment: [
                "SIMPLEX_GROUP_DIR": "/a/group", "XDG_DATA_HOME": "/x", "HOME": "/h",
            ]) == "/a/group")
        #expect(try GroupContainer.resolvePath(environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/x/simplex")
        #expect(try GroupContainer.resolvePath(environment: ["HOME": "/h"]) == "/h/.local/share/simplex")
        // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
        #expect(
            try GroupContainer.resolvePath(environment: ["XDG_DATA_HOME": "rel", "HOME": "/h"])
                == "/h/.local/share/simplex")
        // An empty SIMPLEX_GROUP_DIR means unset.
        #expect(try GroupContainer.resolvePath(environment: ["SIMPLEX_GROUP_DIR": "", "HOME": "/h"])
            == "/h/.local/share/simplex")
    }

    @Test func createsPrivateDirectoriesWithFilesAndTmp() throws {
        let tmp = try TemporaryDirectory("container")
        let path = tmp.appending("data/deeper/simplex")
        let container = try GroupContainer.open(environment: ["SIMPLEX_GROUP_DIR": path])
        #expect(container.path == path)
        #expect(try permissions(of: path) == 0o700)
        #expect(try permissions(of: "\(path)/files") == 0o700)
        #expect(try permissions(of: "\(path)/tmp") == 0o700)
        #expect(try permissions(of: tmp.appending("data")) == 0o700)
        // Opening again is fine.
        #expect(try GroupContainer(path: path) == container)
    }

    @Test func refusesDirectoryOthersCanRead() throws {
        let tmp = try TemporaryDirectory("container")
        let path = tmp.appending("open")
        mkdir(path, 0o755)
        chmod(path, 0o755)
        #expect {
            try GroupContainer(path: path)
        } throws: { error in
            let message = "\(error)"
            return message.contains("can be read or written by other users")
                && message.contains("mode 755") && message.contains("chmod 700 \(path)")
        }
        // Nothing was created inside or changed.
        #expect(try permissions(of: path) == 0o755)
        #expect(try FileManager.default.contentsOfDirectory(atPath: path).isEmpty)
    }

    @Test func refusesGroupWritableSubdirectory() throws {
        let tmp = try TemporaryDirectory("container")
        let path = tmp.appending("g")
        _ = try GroupContainer(path: path)
        chmod("\(path)/files", 0o770)
        #expect(throws: GroupContainerError.accessibleByOthers("\(path)/files", mode: 0o770)) {
            try GroupContainer(path: path)
        }
    }

    @Test func refusesAFileInPlaceOfTheDirectory() throws {
        let tmp = try TemporaryDirectory("container")
        let path = tmp.appending("file")
        #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        #expect(throws: GroupContainerError.notADirectory(path)) { try GroupContainer(path: path) }
    }
}

@Suite struct ProcessHardeningTests {
    @Test func protectingSecretsMakesTheProcessUndumpable() async throws {
        // In a child process, so the test runner itself stays debuggable.
        let peer = try BuiltProducts.path("simplex-test-peer")
        let child = try ChildProcess(peer, ["defaults", "--hardening"])
        #expect(try await child.wait() == 0)
        #expect(child.allOutput == ["dumpable before: true", "dumpable after: false", "umask: 077"])
    }
}
