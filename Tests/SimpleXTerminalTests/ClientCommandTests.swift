import Testing

@testable import SimpleXTerminal

@Suite struct ClientCommandTests {
    @Test func parsesEachCommand() throws {
        #expect(try ClientCommand.parse([]) == .fullScreen(servers: []))
        #expect(try ClientCommand.parse(["status"]) == .status)
        #expect(try ClientCommand.parse(["--open", "@3"]) == .fullScreen(servers: [], open: "@3"))
        #expect(try ClientCommand.parse(["-s", "smp://k@h", "simplex:/x"]) == .fullScreen(servers: ["smp://k@h"], connect: "simplex:/x"))
        #expect(try ClientCommand.parse(["status"]) == .status)
        #expect(try ClientCommand.parse(["--help"]) == .help)
        #expect(try ClientCommand.parse(["-h"]) == .help)
        #expect(try ClientCommand.parse(["--version"]) == .version)
        #expect(try ClientCommand.parse(["defaults"]) == .defaultsList)
        #expect(try ClientCommand.parse(["defaults", "get", "appState"]) == .defaultsGet("appState"))
        #expect(
            try ClientCommand.parse(["defaults", "set", "chatLayout", "classic"])
                == .defaultsSet("chatLayout", "classic"))
        #expect(try ClientCommand.parse(["defaults", "reset", "chatLayout"]) == .defaultsReset("chatLayout"))
    }

    @Test func mistakesAreOneLineUsageErrors() {
        #expect(throws: UsageError("unknown command or option '--frobnicate': see simplex-chat --help")) {
            try ClientCommand.parse(["--frobnicate"])
        }
        #expect(throws: UsageError("usage: simplex-chat defaults set <key> <value>")) {
            try ClientCommand.parse(["defaults", "set", "chatLayout"])
        }
        #expect(throws: UsageError("unknown defaults command 'delete': use list, get, set or reset")) {
            try ClientCommand.parse(["defaults", "delete", "x"])
        }
        #expect(throws: UsageError("unexpected argument 'now': see simplex-chat --help")) {
            try ClientCommand.parse(["status", "now"])
        }
    }
}
