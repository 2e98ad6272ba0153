import Testing

@testable import SimpleXChat
@testable import SimpleXShareService

/// The share helper's command line and its choice of chat, without a process.
@Suite struct ShareCommandLineTests {
    func parse(_ arguments: [String]) throws -> ShareRequest {
        guard case .share(let request) = try ShareCommand.parse(arguments, workingDirectory: "/home/alice") else {
            throw ShareUsageError("not a share")
        }
        return request
    }

    @Test func chatTextFilesAndURIsAsFileManagersPassThem() throws {
        let request = try parse([
            "--to", "@bob", "--text", "look", "notes.txt", "/tmp/a.png", "file:///tmp/with%20space%20%C3%A9.txt",
            "file://localhost/tmp/x.pdf",
        ])
        #expect(request.chat == "@bob")
        #expect(request.text == "look")
        #expect(request.files == ["/home/alice/notes.txt", "/tmp/a.png", "/tmp/with space é.txt", "/tmp/x.pdf"])
        // After --, a name that starts with a dash is a file.
        #expect(try parse(["-t", "bob", "--", "-odd name"]).files == ["/home/alice/-odd name"])
        #expect(try ShareCommand.parse(["--help"], workingDirectory: "/") == .help)
    }

    @Test func mistakesAreOneLine() {
        #expect(throws: ShareUsageError("--to needs a chat: @name, a name or a chat id")) { try parse(["--to"]) }
        #expect(throws: ShareUsageError("unknown option '--frobnicate': see simplex-share --help")) {
            try parse(["--frobnicate"])
        }
        #expect(throws: ShareUsageError("'file://server/share/x' is not a local file URI (file:///path)")) {
            try parse(["file://server/share/x"])
        }
        #expect(throws: ShareUsageError("'https://example.com': only files and file:// URIs are shared as files (send a link with --text)")) {
            try parse(["https://example.com"])
        }
        #expect(throws: ShareUsageError("only one --to")) { try parse(["--to", "a", "--to", "b"]) }
    }

    func contact(_ id: Int64, _ name: String, alias: String = "", ready: Bool = true, active: Bool = true) -> ChatContact {
        ChatContact(
            contactId: id, localDisplayName: name, profile: Profile(displayName: name, fullName: ""), localAlias: alias,
            agentConnectionID: "c\(id)", ready: ready, active: active)
    }

    @Test func theChatIsFoundByIdNameOrAliasAndAmbiguityListsTheCandidates() throws {
        let contacts = [
            contact(1, "bob"), contact(2, "carol", alias: "mum"), contact(3, "bob_1", alias: "bob2"),
            contact(4, "dave", ready: false), contact(5, "erin", active: false), contact(6, "frank", alias: "bob_1"),
        ]
        #expect(try ChatChoice.resolve("@bob", among: contacts).contactId == 1)
        #expect(try ChatChoice.resolve("bob", among: contacts).contactId == 1)
        #expect(try ChatChoice.resolve("mum", among: contacts).contactId == 2)
        #expect(try ChatChoice.resolve("MUM", among: contacts).contactId == 2)
        #expect(try ChatChoice.resolve("@2", among: contacts).contactId == 2)
        #expect(try ChatChoice.resolve("2", among: contacts).contactId == 2)
        #expect(throws: ChatChoice.Failure.self) { try ChatChoice.resolve("zed", among: contacts) }
        do {
            _ = try ChatChoice.resolve("bob_1", among: contacts)
            Issue.record("bob_1 names two chats")
        } catch {
            #expect(error.description == "bob_1 is ambiguous: @3 (bob_1, alias bob2), @6 (frank, alias bob_1); use the chat id")
        }
        do {
            _ = try ChatChoice.resolve("dave", among: contacts)
            Issue.record("dave is connecting")
        } catch { #expect(error.description == "dave is still connecting: nothing can be sent yet") }
        do {
            _ = try ChatChoice.resolve("@9", among: [contact(1, "bob")])
            Issue.record("no @9")
        } catch { #expect(error.description == "no chat @9: your chats are bob") }
    }
}
