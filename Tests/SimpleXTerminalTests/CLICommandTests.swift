import Foundation
import Testing

@testable import SimpleXTerminal

struct CLICommandTests {
    @Test func messagesAndTheirForms() throws {
        #expect(try CLICommand.parse("@bob hello there") == .send(to: "bob", text: "hello there"))
        #expect(try CLICommand.parse("@'bob smith' hi") == .send(to: "bob smith", text: "hi"))
        #expect(try CLICommand.parse("just a line") == .sendToActive("just a line"))
        #expect(
            try CLICommand.parse(">@bob (hello) a reply")
                == .reply(to: "bob", quoted: "hello", text: "a reply"))
        #expect(
            try CLICommand.parse("! @bob (hello) hello again")
                == .edit(in: "bob", old: "hello", new: "hello again"))
        #expect(try CLICommand.parse("\\ @bob hello") == .delete(in: "bob", text: "hello"))
        #expect(try CLICommand.parse("+1 @bob hello") == .react(in: "bob", emoji: "+1", text: "hello"))
        #expect(
            try CLICommand.parse("@carol <- @bob hello") == .forward(to: "carol", from: "bob", text: "hello"))
        #expect(try CLICommand.parse("   ") == nil)
    }

    @Test func slashCommands() throws {
        #expect(try CLICommand.parse("/c") == .createInvitation)
        #expect(
            try CLICommand.parse("/c simplex:/invitation#/?v=1000")
                == .connect(link: "simplex:/invitation#/?v=1000"))
        #expect(try CLICommand.parse("/ad") == .address)
        #expect(try CLICommand.parse("/ac bob") == .acceptContact("bob"))
        #expect(try CLICommand.parse("/accept incognito bob") == .acceptContact("bob", incognito: true))
        #expect(try CLICommand.parse("/rc @bob") == .rejectContact("bob"))
        #expect(try CLICommand.parse("/tail") == .tail(chat: nil, count: 10))
        #expect(try CLICommand.parse("/tail @bob 3") == .tail(chat: "bob", count: 3))
        #expect(try CLICommand.parse("/search @bob some text") == .search(chat: "bob", text: "some text"))
        #expect(try CLICommand.parse("/search text") == .search(chat: nil, text: "text"))
        #expect(try CLICommand.parse("/chats") == .chats)
        #expect(try CLICommand.parse("/clear @bob") == .clearChat("bob"))
        #expect(
            try CLICommand.parse("/receipts @bob default")
                == .chatCommand(.setSendReceipts(contactName: "bob", enable: nil)))
        #expect(
            try CLICommand.parse("/set receipts contacts off clear_overrides=on")
                == .chatCommand(.setUserContactReceipts(enable: false, clearOverrides: true)))
        #expect(
            try CLICommand.parse("/set receipts all on") == .chatCommand(.setAllContactReceipts(enable: true))
        )
        #expect(
            try CLICommand.parse("/p alice Alice Liddell")
                == .profile(displayName: "alice", fullName: "Alice Liddell"))
        #expect(try CLICommand.parse("/q") == .quit)
    }

    @Test func theMessageLifetimeIsShownAndSet() throws {
        #expect(try CLICommand.parse("/ttl") == .showTTL)
        #expect(try CLICommand.parse("/ttl none") == .setTTL(nil))
        #expect(try CLICommand.parse("/ttl week") == .setTTL(604_800))
        #expect(try CLICommand.parse("/ttl 3600") == .setTTL(3_600))
        #expect(throws: CLIParseError.self) { try CLICommand.parse("/ttl fortnight") }
        #expect(throws: CLIParseError.self) { try CLICommand.parse("/ttl -5") }
    }

    @Test func malformedLinesSayWhatIsWrong() {
        #expect(throws: CLIParseError("unknown command /x: type /help")) { try CLICommand.parse("/x") }
        #expect(throws: CLIParseError("usage: >@name (quoted text) reply")) {
            try CLICommand.parse(">@bob no parens")
        }
        #expect(throws: CLIParseError("usage: ! @name (old text) new text")) {
            try CLICommand.parse("! @bob (old)")
        }
        #expect(throws: CLIParseError("nothing to send to @bob")) { try CLICommand.parse("@bob") }
        #expect(throws: CLIParseError("usage: /tail [@name] [count]")) { try CLICommand.parse("/tail many") }
        #expect(throws: CLIParseError("unclosed quote in the name")) { try CLICommand.parse("@'bob hi") }
        #expect(throws: CLIParseError("usage: /ac <name>")) { try CLICommand.parse("/ac") }
        // Chat API commands the line mode does not take are not run from it.
        #expect(throws: CLIParseError("unknown command /set: type /help")) {
            try CLICommand.parse("/set alias x")
        }
    }

    /// Replies and reactions naming a group, as SimpleX's CLI writes them.
    @Test func groupRepliesAndReactions() throws {
        #expect(
            try CLICommand.parse("> #team @bob (hello) hi there")
                == .replyGroup("team", member: "bob", quoted: "hello", text: "hi there"))
        #expect(
            try CLICommand.parse(">#team (my own) again")
                == .replyGroup("team", member: nil, quoted: "my own", text: "again"))
        #expect(
            try CLICommand.parse("> #team @'Bob B' (a b) c")
                == .replyGroup("team", member: "Bob B", quoted: "a b", text: "c"))
        #expect(
            try CLICommand.parse("+1 #team hello there")
                == .reactGroup("team", emoji: "+1", text: "hello there"))
        #expect(try CLICommand.parse("-❤️ #team hello") == .reactGroup("team", emoji: "-❤️", text: "hello"))
        #expect(throws: CLIParseError("usage: > #group [@member] (quoted text) reply")) {
            try CLICommand.parse("> #team @bob hello")
        }
        #expect(throws: CLIParseError("usage: +1 #group text")) { try CLICommand.parse("+1 #team") }
        #expect(
            try CLICommand.parse("/f #team ./notes of us.txt")
                == .sendGroupFile("team", path: "./notes of us.txt"))
        #expect(throws: CLIParseError("usage: /f #<group> <path>")) { try CLICommand.parse("/f #team") }
    }

    @Test func reactionMarkersMapToSimplexEmoji() {
        #expect(LineMode.emoji("+1") == .thumbsUp)
        #expect(LineMode.emoji("-1") == .thumbsDown)
        #expect(LineMode.emoji("+❤️") == .heart)
        #expect(LineMode.emoji("+🚀") == .launch)
        #expect(LineMode.emoji("+🙃") == nil)
    }
}
