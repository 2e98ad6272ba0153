import Foundation
import SimpleXCrypto
import Testing
import TestSupport

/// `text` as a regular expression that matches just it.
private func literal(_ text: String) -> String { NSRegularExpression.escapedPattern(for: text) }

/// Files between `simplex-chat --cli` processes through a real relay: what each side prints,
/// and the bytes that arrive.
@Suite(.serialized)
struct FileTransferEndToEndTests {
    /// `count` random bytes written to `path`.
    static func randomFile(_ path: String, count: Int) throws -> [UInt8] {
        let random = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        defer { try? random.close() }
        let bytes = [UInt8](try #require(try random.read(upToCount: count)))
        #expect(bytes.count == count)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return bytes
    }

    static func contents(_ path: String) throws -> [UInt8] {
        [UInt8](try #require(FileManager.default.contents(atPath: path), "no file at \(path)"))
    }

    static func files(_ user: CLIUser) -> String { user.directory.appending("group/files") }

    @Test func aFileGoesEachWayWithTheSimplexCLILinesAndArrivesByteForByte() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        try await LineModeEndToEndTests.connect(alice, bob)

        let source = alice.directory.appending("report.bin")
        let sent = try Self.randomFile(source, count: 100_000)
        alice.send("/f @bob \(source)")
        try await alice.expectLine(#"\d\d:\d\d /f @bob "# + literal(source))
        try await alice.expectLine("use /fc 1 to cancel sending")
        try await bob.expectLine(#"\d\d:\d\d alice> sends file report\.bin \(97\.7 KiB / 100000 bytes\)"#)
        try await bob.expectLine(#"use /fr 1 \[<dir>/ \| <path>\] to receive it"#)

        bob.send("/fr 1")
        let saved = "\(Self.files(bob))/report.bin"
        try await bob.expectLine("saving file 1 from alice to \(literal(saved))")
        try await bob.expectLine(#"started receiving file 1 \(report\.bin\) from alice"#)
        try await alice.expectLine(#"started sending file 1 \(report\.bin\) to bob"#)
        try await bob.expectLine(#"receiving file 1 \(report\.bin\) progress 10% of 97\.7 KiB"#)
        try await bob.expectLine(#"completed receiving file 1 \(report\.bin\) from alice"#)
        try await alice.expectLine(#"completed sending file 1 \(report\.bin\) to bob"#)
        // Sealed at rest in files/ (privacyEncryptLocalFiles is on by default): the client saves it.
        #expect(SHA256.hash(try await bob.savedFile(1)) == SHA256.hash(sent))
        #expect(SHA256.hash(try Self.contents(saved)) != SHA256.hash(sent))
        #expect(try permissions(of: saved) == 0o600)
        #expect(try permissions(of: Self.files(bob)) == 0o700)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: bob.directory.appending("group/tmp")).isEmpty)
        bob.send("/fs 1")
        try await bob.expectLine("receiving file 1 \\(report\\.bin\\) complete, path: \(literal(saved))")

        // Back the other way, into a directory of alice's choosing; her second file of the same
        // name gets a suffix rather than replacing the first.
        let reply = bob.directory.appending("reply.txt")
        let replied = try Self.randomFile(reply, count: 40_000)
        let inbox = alice.directory.appending("inbox")
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: false)
        try Data("older".utf8).write(to: URL(fileURLWithPath: "\(inbox)/reply.txt"))
        bob.send("/f @alice \(reply)")
        try await alice.expectLine(#"\d\d:\d\d bob> sends file reply\.txt \(39\.1 KiB / 40000 bytes\)"#)
        alice.send("/fr 2 \(inbox)/")
        try await alice.expectLine("saving file 2 from bob to \(literal(inbox))/reply_1\\.txt")
        try await alice.expectLine(#"completed receiving file 2 \(reply\.txt\) from bob"#)
        try await bob.expectLine(#"completed sending file 2 \(reply\.txt\) to alice"#)
        #expect(SHA256.hash(try Self.contents("\(inbox)/reply_1.txt")) == SHA256.hash(replied))
        #expect(try Self.contents("\(inbox)/reply.txt") == Array("older".utf8))

        // The chat keeps the offers, and the chat list names the last one.
        bob.send("/tail @alice 2")
        try await bob.expectLine(#"\d\d:\d\d alice> sends file report\.bin \(97\.7 KiB / 100000 bytes\)"#)
        bob.send("/chats")
        try await bob.expectLine(#"@alice: you: file reply\.txt"#)
        alice.send("/chats")
        try await alice.expectLine(#"@bob \(1 unread\): file reply\.txt"#)
        for user in [alice, bob] { try await user.quit() }
    }

    @Test func aVanishedOrOversizedFileIsAOneLineErrorAndNothingIsSent() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        try await LineModeEndToEndTests.connect(alice, bob)

        let gone = alice.directory.appending("gone.bin")
        _ = try Self.randomFile(gone, count: 10)
        try FileManager.default.removeItem(atPath: gone)
        alice.send("/f @bob \(gone)")
        try await alice.expectLine("error: file not found: \(literal(gone))")
        alice.send("/f @bob \(alice.directory.path)")
        try await alice.expectLine("error: not a regular file: \(literal(alice.directory.path))")
        let huge = alice.directory.appending("huge.bin")
        _ = try Self.randomFile(huge, count: 8 * 1024 * 1024 + 1)
        alice.send("/f @bob \(huge)")
        try await alice.expectLine(
            #"error: file size exceeds the limit: huge\.bin has 8388609 bytes, the limit is 8388608 \(8\.0 MiB\)"#
        )
        bob.send("/fr 1")
        try await bob.expectLine("error: file 1 not found")

        alice.send("@bob only this")
        try await bob.expectLine(#"\d\d:\d\d alice> only this"#)
        #expect(!bob.process.allOutput.contains { $0.contains("sends file") })
        for user in [alice, bob] { try await user.quit() }
    }

    @Test func imagesAreReceivedAtOnceWhenPrivacyAcceptImagesIsOn() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)  // privacyAcceptImages defaults to on
        let carolDirectory = try TemporaryDirectory("cli-carol")
        try await Self.setDefault("privacyAcceptImages", "false", directory: carolDirectory)
        let carol = try await CLIUser("carol", relay: relay, directory: carolDirectory)
        try await LineModeEndToEndTests.connect(alice, bob)
        alice.send("/c")
        let link = try await alice.expect("simplex:/invitation#/?v=")
        carol.send("/c \(link)")
        try await alice.expectLine("carol: contact is connected")
        try await carol.expectLine("alice: contact is connected")

        let photo = alice.directory.appending("photo.JPG")
        let image = try Self.randomFile(photo, count: 30_000)
        alice.send("/f @bob \(photo)")
        try await bob.expectLine(#"\d\d:\d\d alice> sends file photo\.JPG \(29\.3 KiB / 30000 bytes\)"#)
        try await bob.expectLine("saving file 1 from alice to \(literal(Self.files(bob)))/photo\\.JPG")
        try await bob.expectLine(#"completed receiving file 1 \(photo\.JPG\) from alice"#)
        #expect(try await bob.savedFile(1) == image)
        #expect(!bob.process.allOutput.contains { $0.hasPrefix("use /fr") })

        alice.send("/f @carol \(photo)")
        try await carol.expectLine(#"\d\d:\d\d alice> sends file photo\.JPG \(29\.3 KiB / 30000 bytes\)"#)
        try await carol.expectLine(#"use /fr 1 \[<dir>/ \| <path>\] to receive it"#)
        alice.send("@carol see the photo")
        try await carol.expectLine(#"\d\d:\d\d alice> see the photo"#)
        #expect(!FileManager.default.fileExists(atPath: "\(Self.files(carol))/photo.JPG"))
        #expect(!carol.process.allOutput.contains { $0.hasPrefix("saving file") })
        for user in [alice, bob, carol] { try await user.quit() }
    }

    @Test func aReceiverKilledMidTransferResumesAfterARestart() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        var bob = try await CLIUser("bob", relay: relay)
        try await LineModeEndToEndTests.connect(alice, bob)
        let source = alice.directory.appending("big.bin")
        let sent = try Self.randomFile(source, count: 4_000_000)
        alice.send("/f @bob \(source)")
        try await bob.expect("use /fr 1")
        bob.send("/fr 1")
        try await bob.expectLine(
            #"receiving file 1 \(big\.bin\) progress 10% of 3\.8 MiB"#, timeout: .seconds(60))
        bob.process.kill()
        _ = try await bob.process.wait()
        let saved = "\(Self.files(bob))/big.bin"
        #expect(!FileManager.default.fileExists(atPath: saved), "the transfer was to be cut in the middle")
        // The partial file holds chunks, sealed: not a piece of the plaintext.
        let partial = try Self.contents(bob.directory.appending("group/tmp/file_1.partial"))
        #expect(partial.count > 400_000)
        #expect(!partial.containsBytes(Array(sent[0..<64])))
        #expect(!partial.containsBytes(Array(sent[200_000..<200_064])))

        bob = try await CLIUser("bob", relay: relay, directory: bob.directory)
        try await bob.expectLine(
            #"completed receiving file 1 \(big\.bin\) from alice"#, timeout: .seconds(120))
        try await alice.expectLine(#"completed sending file 1 \(big\.bin\) to bob"#, timeout: .seconds(60))
        #expect(SHA256.hash(try await bob.savedFile(1)) == SHA256.hash(sent))
        // It went on from where it stopped: no progress from the start again.
        #expect(!bob.process.allOutput.contains { $0.contains("progress 10%") })
        for user in [alice, bob] { try await user.quit() }
    }

    @Test func aSenderKilledMidTransferResumesAfterARestart() async throws {
        let relay = try await RelayProcess()
        var alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        try await LineModeEndToEndTests.connect(alice, bob)
        let source = alice.directory.appending("big.bin")
        let sent = try Self.randomFile(source, count: 4_000_000)
        alice.send("/f @bob \(source)")
        try await bob.expect("use /fr 1")
        bob.send("/fr 1")
        try await alice.expectLine(
            #"sending file 1 \(big\.bin\) in progress \(10%\): bob"#, timeout: .seconds(60))
        alice.process.kill()
        _ = try await alice.process.wait()

        alice = try await CLIUser("alice", relay: relay, directory: alice.directory)
        try await alice.expectLine(#"completed sending file 1 \(big\.bin\) to bob"#, timeout: .seconds(120))
        try await bob.expectLine(
            #"completed receiving file 1 \(big\.bin\) from alice"#, timeout: .seconds(60))
        #expect(SHA256.hash(try await bob.savedFile(1)) == SHA256.hash(sent))
        for user in [alice, bob] { try await user.quit() }
    }

    @Test func aPartialFileDamagedWhileTheReceiverWasDownIsTamperingAndIsDeleted() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        var bob = try await CLIUser("bob", relay: relay)
        try await LineModeEndToEndTests.connect(alice, bob)
        let source = alice.directory.appending("big.bin")
        _ = try Self.randomFile(source, count: 4_000_000)
        alice.send("/f @bob \(source)")
        try await bob.expect("use /fr 1")
        bob.send("/fr 1")
        try await bob.expectLine(
            #"receiving file 1 \(big\.bin\) progress 10% of 3\.8 MiB"#, timeout: .seconds(60))
        bob.process.kill()
        _ = try await bob.process.wait()
        // The first chunk is in the partial file, sealed; flip a byte of its ciphertext.
        let partial = bob.directory.appending("group/tmp/file_1.partial")
        let handle = try #require(FileHandle(forUpdatingAtPath: partial))
        try handle.seek(toOffset: 100)
        let first = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: [first ^ 0xFF])
        try handle.close()

        bob = try await CLIUser("bob", relay: relay, directory: bob.directory)
        try await bob.expectLine(#"error receiving file 1 \(big\.bin\) from alice"#, timeout: .seconds(120))
        try await bob.expectLine(#"the stored file .*file_1\.partial was modified or damaged .*"#)
        #expect(!FileManager.default.fileExists(atPath: "\(Self.files(bob))/big.bin"))
        #expect(!FileManager.default.fileExists(atPath: partial))
        for user in [alice, bob] { try await user.quit() }
    }

    @Test func eitherSideCancelsAndTheOtherIsTold() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        try await LineModeEndToEndTests.connect(alice, bob)
        let source = alice.directory.appending("big.bin")
        _ = try Self.randomFile(source, count: 8 * 1024 * 1024)

        // The sender cancels while the chunks flow.
        alice.send("/f @bob \(source)")
        try await bob.expect("use /fr 1")
        bob.send("/fr 1")
        try await bob.expectLine(
            #"receiving file 1 \(big\.bin\) progress 10% of 8\.0 MiB"#, timeout: .seconds(60))
        alice.send("/fc 1")
        try await alice.expectLine(#"cancelled sending file 1 \(big\.bin\) to bob"#)
        try await bob.expectLine(#"alice cancelled sending file 1 \(big\.bin\)"#)
        #expect(!FileManager.default.fileExists(atPath: "\(Self.files(bob))/big.bin"))
        #expect(!FileManager.default.fileExists(atPath: bob.directory.appending("group/tmp/file_1.partial")))
        alice.send("/fc 1")
        try await alice.expectLine("error: file cancelled: big.bin")

        // The receiver cancels while the chunks flow.
        alice.send("/f @bob \(source)")
        try await bob.expect("use /fr 2")
        bob.send("/fr 2")
        try await bob.expectLine(#"started receiving file 2 \(big\.bin\) from alice"#)
        bob.send("/fc 2")
        try await bob.expectLine(#"cancelled receiving file 2 \(big\.bin\) from alice"#)
        try await alice.expectLine(#"bob cancelled receiving file 2 \(big\.bin\)"#, timeout: .seconds(60))
        #expect(!alice.process.allOutput.contains { $0.contains("completed sending file 2") })
        bob.send("/fs 2")
        try await bob.expectLine(#"receiving file 2 \(big\.bin\) cancelled"#)
        for user in [alice, bob] { try await user.quit() }
    }

    /// `simplex-chat defaults set key value` for a user not started yet.
    static func setDefault(_ key: String, _ value: String, directory: TemporaryDirectory) async throws {
        let process = try ChildProcess(
            try BuiltProducts.path("simplex-chat"), ["defaults", "set", key, value],
            environment: [
                "SIMPLEX_GROUP_DIR": directory.appending("group"),
                "XDG_CONFIG_HOME": directory.appending("config"),
                "DBUS_SESSION_BUS_ADDRESS": nil,
            ])
        #expect(try await process.wait() == 0, "\(process.allErrors)")
    }
}
