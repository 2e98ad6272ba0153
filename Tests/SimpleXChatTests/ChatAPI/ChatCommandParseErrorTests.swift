import Testing

@testable import SimpleXChat

/// Text that is not a command, or a command written wrongly: a typed error that says which.
@Suite struct ChatCommandParseErrorTests {
    @Test func unknownCommandsNameTheirFirstWord() {
        for (text, word) in [
            ("/foo bar", "/foo"), ("hello", "hello"), ("/unread @1", "/unread"), ("/users", "/users"),
            ("", ""),
        ] {
            #expect(throws: ChatCommandParseError.unknownCommand(word)) { try ChatCommand.parse(text) }
        }
        #expect(
            ChatCommandParseError.unknownCommand("/foo").description
                == "unknown command /foo (commands are SimpleX's, e.g. /u, /_get chats 1 pcc=on)")
    }

    @Test func malformedCommandsSayWhatWasExpected() {
        let cases: [(String, ChatCommandParseError)] = [
            (
                "/set receipts all yes",
                .invalid(command: "/set receipts all", reason: "expected on or off, found \"yes\"")
            ),
            ("/receipts bob on", .invalid(command: "/receipts", reason: "expected \"@\", found \"bob on\"")),
            (
                "/set voice maybe",
                .invalid(command: "/set voice", reason: "expected always, yes, no, found \"maybe\"")
            ),
            ("/set disappear always", .invalid(command: "/set disappear", reason: "expected yes, no, found \"always\"")),
            ("/mute bob", .invalid(command: "/mute", reason: "expected \"@\", found \"bob\"")),
            (
                #"/_settings @1 {"enableNtfs":"sometimes"}"#,
                .invalid(
                    command: "/_settings",
                    reason: "the chat settings: chatSettings.enableNtfs: sometimes is not all, mentions or none")
            ),
            (
                "/receipts @bob maybe",
                .invalid(command: "/receipts", reason: "expected on or off, found \"maybe\"")
            ),
            ("/_get chats", .invalid(command: "/_get chats", reason: "expected a space, found the end")),
            (
                "/_get chats x",
                .invalid(command: "/_get chats", reason: "expected a user id (a number), found \"x\"")
            ),
            (
                "/_get chat bob count=5",
                .invalid(command: "/_get chat", reason: "expected a chat (@contactId), found \"bob count=5\"")
            ),
            (
                "/_get chat @1 last=5",
                .invalid(
                    command: "/_get chat",
                    reason:
                        "expected count=N, after=ID count=N, before=ID count=N, around=ID count=N or initial=N"
                )
            ),
            (
                "/_get chat @1 content=images count=5",
                .invalid(
                    command: "/_get chat",
                    reason: "unknown content type \"images\", expected image, video, voice, file, link")
            ),
            (
                "/_get chat @1 before=3",
                .invalid(command: "/_get chat", reason: "expected \"count=\", found the end")
            ),
            (
                "/_get chats 1 pcc=yes",
                .invalid(command: "/_get chats", reason: "expected on or off, found \"yes\"")
            ),
            ("/_get chats 1 extra", .invalid(command: "/_get chats", reason: "unexpected \"extra\"")),
            (
                "/_send @1 live=off ttl=default text hi",
                .invalid(command: "/_send", reason: "expected \"json\", found \" text hi\"")
            ),
            (
                "/_send @1 json [{\"msgContent\":5}]",
                .invalid(
                    command: "/_send",
                    reason: "a message: composedMessage.msgContent: expected object, found number")
            ),
            ("/_send @1 json []", .invalid(command: "/_send", reason: "no messages to send")),
            (
                "/_send @1 json {\"msgContent\"",
                .invalid(command: "/_send", reason: "the messages: not valid JSON: ")
            ),
            (
                "/_delete item @1 3 everyone",
                .invalid(
                    command: "/_delete item",
                    reason: "expected broadcast, internal or internalMark, found \"everyone\"")
            ),
            (
                "/_delete item @1 3,x broadcast",
                .invalid(
                    command: "/_delete item", reason: "expected an item id (a number), found \"x broadcast\"")
            ),
            (
                "/_reaction @1 2 on {\"type\":\"emoji\",\"emoji\":\"🙈\"}",
                .invalid(
                    command: "/_reaction",
                    reason: "the reaction is not one of SimpleX's emoji (👍 👎 😀 😂 😢 ❤ 🚀 ✅)")
            ),
            (
                "/_read chat @99999999999999999999",
                .invalid(command: "/_read chat", reason: "a chat id 99999999999999999999 is too large")
            ),
            ("/create user @bob", .invalid(command: "/create user", reason: "expected a display name")),
            ("/create user 'bob", .invalid(command: "/create user", reason: "no closing '")),
        ]
        for (text, expected) in cases {
            guard case .invalid(let expectedCommand, let expectedReason) = expected else { continue }
            do {
                let command = try ChatCommand.parse(text)
                Issue.record("\(text) parsed as \(command)")
            } catch {
                guard case .invalid(let command, let reason) = error else {
                    Issue.record("\(text): \(error)")
                    continue
                }
                #expect(command == expectedCommand, "\(text)")
                // JSON parse errors end with the parser's own message.
                #expect(
                    reason == expectedReason
                        || (expectedReason.hasSuffix(": ") && reason.hasPrefix(expectedReason)),
                    "\(text): \(reason)")
            }
        }
    }

    @Test func invalidCommandDescriptionIsOneLine() {
        let error = ChatCommandParseError.invalid(
            command: "/_get chat", reason: "expected a chat (@contactId), found \"bob\"")
        #expect(
            error.description == "invalid /_get chat command: expected a chat (@contactId), found \"bob\"")
    }
}
