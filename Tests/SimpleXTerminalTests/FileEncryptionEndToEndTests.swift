import Foundation
import Testing
import TestSupport

/// Files sealed at rest in the receiver's group directory (privacyEncryptLocalFiles), between
/// `simplex-chat --cli` processes through a real relay: no plaintext anywhere in the directory,
/// saved and sent on through the client, tampering a clear error, and plain files with it off.
@Suite(.serialized)
struct FileEncryptionEndToEndTests {
    static let marker = "SIMPLEX-LOCAL-FILE-MARKER"

    /// A text file of distinctive lines (so a plaintext piece anywhere is found), 60 KB.
    static func notes(_ path: String) throws -> [UInt8] {
        let bytes = Array((0..<1500).map { "\(marker) line \($0) of the notes\n" }.joined().utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return bytes
    }

    /// Where in `user`'s group directory the marker is found in the clear.
    static func plaintextFound(_ user: CLIUser) throws -> [String] {
        try user.groupDirectoryBytes().filter { $0.bytes.containsBytes(Array(marker.utf8)) }.map(\.path)
    }

    @Test func aReceivedFileIsSealedAtRestSavedAndSentOnThroughTheClientAndTamperingIsAnError() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        try await LineModeEndToEndTests.connect(alice, bob)
        let source = alice.directory.appending("notes.txt")
        let original = try Self.notes(source)

        alice.send("/f @bob \(source)")
        try await bob.expectLine(#"use /fr 1 \[<dir>/ \| <path>\] to receive it"#)
        bob.send("/fr 1")
        try await bob.expectLine(#"completed receiving file 1 \(notes\.txt\) from alice"#)
        let stored = bob.directory.appending("group/files/notes.txt")
        #expect(FileManager.default.fileExists(atPath: stored))
        #expect(try Self.plaintextFound(bob) == [])
        #expect(try await bob.savedFile(1) == original)

        // Sent on from files/ (as forwarding and the share helper do): alice gets the plaintext.
        bob.send("/f @alice \(stored)")
        try await alice.expectLine(#"use /fr 2 \[<dir>/ \| <path>\] to receive it"#)
        alice.send("/fr 2")
        try await alice.expectLine(#"completed receiving file 2 \(notes\.txt\) from bob"#)
        try await bob.expectLine(#"completed sending file 2 \(notes\.txt\) to alice"#)
        #expect(try await alice.savedFile(2) == original)

        // A flipped byte in the stored file: a clear error, and nothing written.
        let handle = try #require(FileHandle(forUpdatingAtPath: stored))
        try handle.seek(toOffset: 30_000)
        let byte = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: 30_000)
        try handle.write(contentsOf: [byte ^ 0x20])
        try handle.close()
        let target = bob.directory.appending("after-tampering.txt")
        bob.send("/fsave 1 \(target)")
        try await bob.expectLine(
            "error: the stored file " + NSRegularExpression.escapedPattern(for: stored)
                + #" was modified or damaged \(it does not authenticate\); its contents were not used"#)
        #expect(!FileManager.default.fileExists(atPath: target))
        // Sending it on is refused too, before anything goes.
        bob.send("/f @alice \(stored)")
        try await bob.expectLine("error: the stored file .* was modified or damaged .*")
        for user in [alice, bob] { try await user.quit() }
    }

    @Test func withPrivacyEncryptLocalFilesOffReceivedFilesArePlainAsBefore() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bobDirectory = try TemporaryDirectory("cli-bob-plain")
        try await FileTransferEndToEndTests.setDefault("privacyEncryptLocalFiles", "false", directory: bobDirectory)
        let bob = try await CLIUser("bob", relay: relay, directory: bobDirectory)
        try await LineModeEndToEndTests.connect(alice, bob)
        let source = alice.directory.appending("notes.txt")
        let original = try Self.notes(source)
        alice.send("/f @bob \(source)")
        try await bob.expectLine(#"use /fr 1 \[<dir>/ \| <path>\] to receive it"#)
        bob.send("/fr 1")
        try await bob.expectLine(#"completed receiving file 1 \(notes\.txt\) from alice"#)
        let stored = bob.directory.appending("group/files/notes.txt")
        #expect(FileManager.default.contents(atPath: stored) == Data(original))
        #expect(try Self.plaintextFound(bob) == [stored])
        #expect(try await bob.savedFile(1) == original)

        // Chat data: files and media with their size, then all deleted; the message stays.
        bob.send("/files")
        try await bob.expectLine(#"files and media: 1 file, 70\.7 KiB"#)
        bob.send("/files delete")
        try await bob.expectLine("deleted 1 file")
        #expect(!FileManager.default.fileExists(atPath: stored))
        bob.send("/files")
        try await bob.expectLine("files and media: 0 files, 0 bytes")
        bob.send("/fsave 1 \(bob.directory.appending("again.txt"))")
        try await bob.expectLine(#"error: file notes\.txt is not here \(rcv complete, or deleted\)"#)
        bob.send("/tail @alice 1")
        try await bob.expectLine(#"\d\d:\d\d alice> sends file notes\.txt .*"#)
        for user in [alice, bob] { try await user.quit() }
    }
}
