import SimpleXChat
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

    @Test func aLinkWithTheLineModeConnectsToIt() throws {
        // The desktop file's Exec: simplex-chat --cli %u, with the link a browser hands over.
        #expect(
            try ClientCommand.parse(["--cli", "simplex:/invitation#/?v=2&smp=x"])
                == .lineMode(servers: [], connect: "simplex:/invitation#/?v=2&smp=x"))
        #expect(
            try ClientCommand.parse(["--cli", "https://simplex.chat/contact#/?v=2"])
                == .lineMode(servers: [], connect: "https://simplex.chat/contact#/?v=2"))
        #expect(throws: UsageError("a link goes with --cli, not -e (or -e '/c <link>')")) {
            try ClientCommand.parse(["-e", "/u", "simplex:/invitation#x"])
        }
        #expect(throws: UsageError("only one link at a time")) {
            try ClientCommand.parse(["--cli", "simplex:/a", "simplex:/b"])
        }
    }

    @Test func notificationsShowsOrSetsTheMode() throws {
        #expect(try ClientCommand.parse(["notifications"]) == .notifications(nil))
        #expect(try ClientCommand.parse(["notifications", "periodic"]) == .notifications(.periodic))
        #expect(try ClientCommand.parse(["notifications", "off"]) == .notifications(.off))
        #expect(throws: UsageError("usage: simplex-chat notifications [instant | periodic | off]")) {
            try ClientCommand.parse(["notifications", "sometimes"])
        }
        #expect(throws: UsageError("usage: simplex-chat notifications [instant | periodic | off]")) {
            try ClientCommand.parse(["notifications", "instant", "now"])
        }
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
