import Foundation
import SimpleXChat
import SimpleXCrypto
import SimpleXDesktop
import Testing
import TestSupport

/// The built `simplex-share` with the real relay and two users: through Alice's running client,
/// with only her notification service running, and with nothing of hers running.
@Suite(.timeLimit(.minutes(3)))
struct ShareEndToEndTests {
    /// A private bus with the notification server mock, the relay, Alice (on the bus) and Bob
    /// connected, Alice's client closed.
    struct Users {
        let bus: TestBus
        let server: MockNotificationServer
        let relay: RelayProcess
        let alice: TemporaryDirectory
        let bob: CLIUser

        init() async throws {
            bus = try await TestBus()
            server = try await MockNotificationServer(on: bus)
            relay = try await RelayProcess()
            let client = try await CLIUser("alice", relay: relay, bus: bus)
            bob = try await CLIUser("bob", relay: relay)
            try await CLIUser.connect(client, bob)
            try await client.quit()
            alice = client.directory
        }

        /// `simplex-share <arguments>` as Alice, with `input` piped in (or none), run to its end;
        /// `path` is its PATH (where it looks for dialog programs and a terminal).
        func share(_ arguments: [String], input: String? = nil, path: String? = nil) async throws -> ChildProcess {
            var environment = CLIUser.environment(alice, bus: bus)
            environment["PATH"] = path ?? alice.path
            let process = try ChildProcess(try BuiltProducts.path("simplex-share"), arguments, environment: environment)
            if let input { process.send(input) }
            process.closeInput()
            _ = try await process.wait(timeout: .seconds(60))
            return process
        }

        func client() async throws -> CLIUser { try await CLIUser("alice", relay: relay, directory: alice, bus: bus) }

        var defaults: GroupDefaults {
            get throws { GroupDefaults(container: try GroupContainer(path: alice.appending("group"))) }
        }

        func file(_ name: String, _ contents: String) throws -> String {
            let path = alice.appending(name)
            try contents.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
    }

    @Test func throughTheRunningClientWhichSendsAndShowsIt() async throws {
        let users = try await Users()
        let client = try await users.client()
        let share = try await users.share(["--to", "@bob", "--text", "sent from the file manager"])
        #expect(try await share.wait() == 0, "\(share.allErrors)")
        let line = try #require(share.allOutput.last)
        #expect(line.wholeMatch(of: /sent 1 item to bob through the running client \(@1\/\d+\)/) != nil, "\(line)")
        try await client.expectLine(#"\d\d:\d\d @bob sent from the file manager"#)
        try await users.bob.expectLine(#"\d\d:\d\d alice> sent from the file manager"#)
        try await client.quit()
        try await users.bob.quit()
    }

    @Test func withOnlyTheServiceRunningItIsSuspendedAndResumedAndMissesNothing() async throws {
        let users = try await Users()
        let service = try ChildProcess(
            try BuiltProducts.path("simplex-nse"), [], environment: CLIUser.environment(users.alice, bus: users.bus))
        #expect(await eventually { (try? users.defaults[.nseState]) == .active })
        users.bob.send("@alice just before you share")
        let share = try await users.share(["--to", "bob"], input: "git log -1\nline two\n")
        #expect(try await share.wait() == 0, "\(share.allErrors)")
        #expect(share.allOutput.last == "sent 1 item to bob")
        try await users.bob.expectLine(#"\d\d:\d\d alice> git log -1"#)
        try await users.bob.expectLine(#" *line two"#)
        // The service was suspended for it and runs the chat again.
        #expect(await eventually { (try? users.defaults[.nseState]) == .active })
        #expect(try users.defaults[.shareState] == .inactive)
        users.bob.send("@alice after the share")
        #expect(await eventually(every: .milliseconds(200)) { ((try? await users.server.notifyCalls()) ?? []).contains { $0.body == "after the share" } })
        service.kill(SIGTERM)
        _ = try await service.wait()
        // Bob's message from just before is in the chat once.
        let client = try await users.client()
        client.send("/tail @bob 10")
        try await client.expectLine(#"\d\d:\d\d bob> after the share"#)
        let before = client.process.allOutput.filter { $0.contains("just before you share") }
        #expect(before.count == 1, "\(client.process.allOutput)")
        try await client.quit()
        try await users.bob.quit()
    }

    @Test func withNothingRunningItSendsTextAndFilesItself() async throws {
        let users = try await Users()
        let notes = try users.file("meeting notes.txt", "agenda: everything\n")
        let share = try await users.share(["--to", "bob", "--text", "the notes", "file://" + notes.replacingOccurrences(of: " ", with: "%20")])
        #expect(try await share.wait() == 0, "\(share.allErrors)")
        // The text goes with the file, as its caption: one item.
        #expect(share.allOutput.last == "sent 1 item to bob (the file goes when bob accepts)")
        try await users.bob.expectLine(#"\d\d:\d\d alice> the notes"#)
        try await users.bob.expect("sends file meeting notes.txt")
        #expect(try users.defaults[.shareState] == .inactive)
        try await users.bob.quit()
    }

    /// The file is copied into the group before it is offered: the original can go, and the
    /// contact still gets every byte when they accept, from the process that runs the chat then.
    @Test func aSharedFileArrivesByteForByteEvenWhenTheOriginalIsGone() async throws {
        let users = try await Users()
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let original = users.alice.appending("holiday 'photos' é.bin")
        #expect(FileManager.default.createFile(atPath: original, contents: Data(bytes)))
        let share = try await users.share(["--to", "bob", original])
        #expect(try await share.wait() == 0, "\(share.allErrors)")
        unlink(original)
        try await users.bob.expectLine(#"\d\d:\d\d alice> sends file holiday 'photos' é\.bin .*"#)
        let client = try await users.client()
        users.bob.send("/fr 1")
        try await users.bob.expectLine(#"completed receiving file 1 \(holiday 'photos' é\.bin\) from alice"#)
        #expect(try await users.bob.savedFile(1) == [UInt8](bytes))
        try await client.quit()
        try await users.bob.quit()
    }

    /// Started by a file manager without a terminal: the chat is chosen in the desktop's dialog
    /// (stand-ins that write down how they were called and answer as the real ones print).
    @Test(arguments: [("zenity", "GNOME", "@1\n"), ("kdialog", "KDE", "@1\n"), ("yad", "XFCE", "@1|\n")])
    func withoutATerminalTheDesktopDialogChoosesTheChat(dialog: String, desktop: String, answer: String) async throws {
        let users = try await Users()
        let bin = try TemporaryDirectory("dialog-bin")
        let recorded = bin.appending("arguments")
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" > \(recorded)\nprintf '\(answer.replacingOccurrences(of: "\n", with: "\\n"))'\n"
            .write(toFile: bin.appending(dialog), atomically: true, encoding: .utf8)
        chmod(bin.appending(dialog), 0o755)
        let photo = try users.file("notes of us.txt", "the plan")
        var environment = CLIUser.environment(users.alice, bus: users.bus)
        environment["PATH"] = bin.path
        environment["XDG_CURRENT_DESKTOP"] = desktop
        let share = try ChildProcess(try BuiltProducts.path("simplex-share"), [photo], environment: environment)
        share.closeInput()
        #expect(try await share.wait() == 0, "\(share.allErrors)")
        let arguments = try String(contentsOfFile: recorded, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(arguments.contains("Send 1 item to which chat?"), "\(arguments)")
        #expect(arguments.suffix(2) == ["@1", "bob"], "\(arguments)")
        try await users.bob.expect("notes of us.txt")
        let done = try await users.server.notifyCalls(atLeast: 1)
        #expect(done.last?.body == "Sent 1 item to bob (the file goes when bob accepts)")
        try await users.bob.quit()
    }

    /// A PNG of `width` × `height` noisy pixels (3,000 × 1,500 is far over 261,120 bytes), written
    /// with zlib.
    static func largePNG(at path: String, width: Int = 3_000, height: Int = 1_500) async throws {
        let script = """
            import os, struct, sys, zlib
            w, h = int(sys.argv[2]), int(sys.argv[3])
            # os.urandom: the noise in C, not a Python loop (a loaded CI machine starves the rest).
            rows = b"".join(b"\\x00" + os.urandom(w * 3) for _ in range(h))
            def chunk(kind, data):
                return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
            png = b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            png += chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b"")
            open(sys.argv[1], "wb").write(png)
            """
        let python = try ChildProcess("/usr/bin/python3", ["-c", script, path, String(width), String(height)])
        #expect(try await python.wait(timeout: .seconds(120)) == 0, "\(python.allErrors)")
    }

    /// An image is sent as image content with a thumbnail, downscaled to 2,000 px and re-encoded
    /// to at most 261,120 bytes as iOS does; one that is not an image is refused.
    @Test func anImageIsDownscaledAndSentWithAThumbnail() async throws {
        let users = try await Users()
        let photo = users.alice.appending("big picture.png")
        try await Self.largePNG(at: photo)
        let share = try await users.share(["--to", "bob", "--text", "the view", photo])
        #expect(try await share.wait() == 0, "\(share.allErrors)")
        try await users.bob.expectLine(#"\d\d:\d\d alice> the view"#)
        try await users.bob.expect("sends file big picture.jpg")
        let files = try FileManager.default.subpathsOfDirectory(atPath: users.alice.appending("group/files"))
        let sent = try #require(files.first { $0.hasSuffix("big picture.jpg") })
        let path = users.alice.appending("group/files/\(sent)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size <= ImagePreparation.maxFileSize, "\(size) bytes")
        let prepared = try ImagePreparation.prepare(path: path)
        #expect(!prepared.reencoded)
        #expect(max(prepared.width, prepared.height) <= 2_000, "\(prepared.width)×\(prepared.height)")
        // The same shape as the 3,000 × 1,500 original.
        #expect(abs(prepared.width - 2 * prepared.height) <= 2, "\(prepared.width)×\(prepared.height)")
        #expect(prepared.thumbnail.hasPrefix("data:image/jpg;base64,") && prepared.thumbnail.count <= 14_000)
        // Alice's chat has it as an image with that thumbnail.
        let chat = try ChildProcess(
            try BuiltProducts.path("simplex-chat"), ["-e", "/_get chat @1 count=5"],
            environment: CLIUser.environment(users.alice, bus: users.bus))
        #expect(try await chat.wait() == 0)
        #expect(chat.allOutput.joined().contains(#""type":"image""#))
        #expect(chat.allOutput.joined().contains(#""text":"the view""#))

        let fake = try users.file("holiday.jpg", "this is not a jpeg")
        let refused = try await users.share(["--to", "bob", fake])
        #expect(try await refused.wait() == 65)
        #expect(refused.allErrors == ["simplex-share: holiday.jpg is not an image that can be read"])
        try await users.bob.quit()
    }

    /// A shared link becomes link content with the page's OpenGraph preview, fetched from a local
    /// HTTP server; with previews off (`privacyLinkPreviews`), plain text, and the page never asked.
    @Test func aLinkIsSentWithItsPreviewOnlyWhenPreviewsAreAllowed() async throws {
        let users = try await Users()
        let site = try TemporaryDirectory("site")
        try """
            <html><head><title>fallback</title>
            <meta property="og:title" content="Cats &amp; Dogs">
            <meta content="All about pets" property="og:description">
            <meta property="og:image" content="/cat.png"></head><body>hi</body></html>
            """.write(toFile: site.appending("index.html"), atomically: true, encoding: .utf8)
        try await Self.largePNG(at: site.appending("cat.png"), width: 200, height: 150)
        let port = try freeLoopbackPort()
        let server = try ChildProcess(
            "/usr/bin/python3", ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", site.path])
        defer { server.kill() }
        _ = try await server.line(timeout: .seconds(20)) { $0.contains("Serving HTTP") }
        let url = "http://127.0.0.1:\(port)/"
        let share = try await users.share(["--to", "bob", "--text", "look at \(url) now"])
        #expect(try await share.wait() == 0, "\(share.allErrors)")
        try await users.bob.expectLine(#"\d\d:\d\d alice> look at http://127\.0\.0\.1:\d+/ now"#)
        let chat = try ChildProcess(
            try BuiltProducts.path("simplex-chat"), ["-e", "/_get chat @1 count=5"],
            environment: CLIUser.environment(users.alice, bus: users.bus))
        #expect(try await chat.wait() == 0)
        let json = chat.allOutput.joined()
        #expect(json.contains(#""type":"link""#), "\(json.suffix(2000))")
        #expect(json.contains(#""title":"Cats & Dogs""#))
        #expect(json.contains(#""description":"All about pets""#))
        #expect(json.contains(#""image":"data:image\/jpg;base64,"#) || json.contains(#""image":"data:image/jpg;base64,"#))
        let asked = server.allErrors.filter { $0.contains("GET /") }.count
        #expect(asked == 2, "\(server.allErrors)")

        try users.defaults.set(.privacyLinkPreviews, false)
        let plain = try await users.share(["--to", "bob", "--text", "again \(url)"])
        #expect(try await plain.wait() == 0)
        try await users.bob.expectLine(#"\d\d:\d\d alice> again http://127\.0\.0\.1:\d+/"#)
        try await Task.sleep(for: .milliseconds(300))
        #expect(server.allErrors.filter { $0.contains("GET /") }.count == asked)
        try await users.bob.quit()
    }

    /// A keychain protected by a passphrase: only the client can ask for it, so the helper says
    /// so, sends nothing, and leaves the chat as it found it.
    @Test func aLockedKeychainIsOneLineAndSendsNothing() async throws {
        let users = try await Users()
        let keychain = users.alice.appending("group/keychain")
        unlink(keychain)
        _ = try KeychainStore.open(path: keychain, passphrase: SecureBytes(copying: Array("correct horse".utf8)), limits: .minimum)
        let share = try await users.share(["--to", "bob", "--text", "behind a passphrase"])
        #expect(try await share.wait() == 69)
        #expect(
            share.allErrors == [
                "simplex-share: the keychain is protected by a passphrase, which only simplex-chat asks for: "
                    + "start it and share again (it then sends what you share)"
            ])
        #expect(try users.defaults[.shareState] == .inactive)
        try await Task.sleep(for: .milliseconds(300))
        #expect(!users.bob.process.allOutput.contains { $0.contains("behind a passphrase") })
        try await users.bob.quit()
    }

    @Test func aRelayThatIsDownLeavesTheMessageQueuedAndSaysSo() async throws {
        let users = try await Users()
        // Stopped, not killed: a killed relay frees its port, which another test's server may
        // take while the clients here keep knocking on it.
        users.relay.pause()
        let share = try await users.share(["--to", "bob", "--text", "when the relay is back"])
        #expect(try await share.wait() == 75)
        #expect(share.allErrors == ["simplex-share: the relay cannot be reached: it is queued and goes out when SimpleX Chat runs next"])
        users.relay.resume()
        let client = try await users.client()
        try await users.bob.expectLine(#"\d\d:\d\d alice> when the relay is back"#, timeout: .seconds(60))
        try await client.quit()
        try await users.bob.quit()
    }

    @Test func badInputIsOneLineAndSendsNothing() async throws {
        let users = try await Users()
        let directory = users.alice.appending("a folder")
        mkdir(directory, 0o700)
        let good = try users.file("good.txt", "fine")
        let cases: [([String], Int32, String)] = [
            (["--to", "zed", "--text", "x"], 65, "simplex-share: no chat named zed: your chats are bob"),
            (["--to", "@7", "--text", "x"], 65, "simplex-share: no chat @7: your chats are bob"),
            (["--to", "bob", good, users.alice.appending("gone.txt")], 66, "simplex-share: \(users.alice.appending("gone.txt")): no such file"),
            (["--to", "bob", directory], 65, "simplex-share: \(directory) is a directory: only files can be shared"),
            (["--to", "bob"], 64, "simplex-share: nothing to share: give files, --text, or pipe text in"),
            (["--text", "x"], 64, "simplex-share: no terminal and no dialog program (zenity, kdialog or yad) to choose the chat: run simplex-share --to @name in a terminal"),
            (["--bogus"], 64, "simplex-share: unknown option '--bogus': see simplex-share --help"),
        ]
        for (arguments, status, message) in cases {
            let share = try await users.share(arguments)
            #expect(try await share.wait() == status, "\(arguments)")
            #expect(share.allErrors == [message], "\(arguments)")
            #expect(share.allOutput.isEmpty)
        }
        // Without a terminal (as a file manager starts it) each failure is also a notification.
        let shown = try await users.server.notifyCalls()
        #expect(shown.count == cases.count)
        #expect(shown.allSatisfy { $0.summary == "SimpleX Chat: not sent" })
        #expect(shown.first?.body == "no chat named zed: your chats are bob")
        // Nothing reached bob (the good file went nowhere because its companion was missing).
        try await Task.sleep(for: .milliseconds(500))
        #expect(!users.bob.process.allOutput.contains { $0.contains("alice>") || $0.contains("good.txt") })
        try await users.bob.quit()

        let nobody = try TemporaryDirectory("share-nobody")
        let share = try ChildProcess(
            try BuiltProducts.path("simplex-share"), ["--to", "bob", "--text", "x"], environment: CLIUser.environment(nobody))
        share.closeInput()
        #expect(try await share.wait() == 69)
        #expect(share.allErrors == ["simplex-share: no user profile yet: run simplex-chat --cli first"])
    }
}
