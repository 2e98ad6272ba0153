import Testing

@testable import SimpleXTerminal

/// `-e '<command>'` on the command line, with relays, and its mistakes.
@Suite struct ExecuteCommandLineTests {
    @Test func executeTakesOneCommandAndRelays() throws {
        #expect(try ClientCommand.parse(["-e", "/u"]) == .execute("/u", servers: []))
        #expect(
            try ClientCommand.parse(["--execute", "/_get chats 1 pcc=on"])
                == .execute("/_get chats 1 pcc=on", servers: []))
        #expect(
            try ClientCommand.parse(["-s", "smp://a@b", "-e", "/u"]) == .execute("/u", servers: ["smp://a@b"])
        )
        #expect(
            try ClientCommand.parse(["-e", "/u", "--server", "smp://a@b"])
                == .execute("/u", servers: ["smp://a@b"]))
        #expect(try ClientCommand.parse(["--cli", "-s", "smp://a@b"]) == .lineMode(servers: ["smp://a@b"]))
        #expect(try ClientCommand.parse(["--cli", "--open", "@12"]) == .lineMode(servers: [], open: "@12"))
    }

    @Test func mistakesAreOneLineUsageErrors() {
        #expect(throws: UsageError("-e needs a chat command, e.g. -e '/_get chats 1 pcc=on'")) {
            try ClientCommand.parse(["-e"])
        }
        #expect(throws: UsageError("only one -e command at a time")) {
            try ClientCommand.parse(["-e", "/u", "-e", "/u"])
        }
        #expect(throws: UsageError("--cli and -e cannot be used together")) {
            try ClientCommand.parse(["--cli", "-e", "/u"])
        }
        #expect(throws: UsageError("unexpected argument 'x' with -e: see simplex-chat --help")) {
            try ClientCommand.parse(["-e", "/u", "x"])
        }
        #expect(throws: UsageError("unexpected argument 'x' with --cli: see simplex-chat --help")) {
            try ClientCommand.parse(["--cli", "x"])
        }
        #expect(throws: UsageError("--open needs a chat, e.g. --open @12")) {
            try ClientCommand.parse(["--cli", "--open", "bob"])
        }
        #expect(throws: UsageError("--open goes with --cli, not -e")) {
            try ClientCommand.parse(["-e", "/u", "--open", "@1"])
        }
    }
}
