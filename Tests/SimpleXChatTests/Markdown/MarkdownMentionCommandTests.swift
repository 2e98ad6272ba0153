import Testing

@testable import SimpleXChat

/// Mentions, commands and notification previews, with the cases of SimpleX's MarkdownTests.hs.
@Suite struct MarkdownMentionCommandTests {
    @Test func mentions() {
        expectMarkdown("@alice", [mention("alice", "@alice")])
        expectMarkdown("hello @alice", [plain("hello "), mention("alice", "@alice")])
        expectMarkdown("hello @alice !", [plain("hello "), mention("alice", "@alice"), plain(" !")])
        expectMarkdown("hello @alice!", [plain("hello "), mention("alice", "@alice"), plain("!")])
        expectMarkdown("hello @alice...", [plain("hello "), mention("alice", "@alice"), plain("...")])
        expectMarkdown(
            "hello @alice@example.com", [plain("hello "), mention("alice@example.com", "@alice@example.com")])
        expectMarkdown(
            "hello @'alice @ example.com'",
            [plain("hello "), mention("alice @ example.com", "@'alice @ example.com'")])
        expectMarkdown("@'alice jones'", [mention("alice jones", "@'alice jones'")])
        expectMarkdown(
            "hello @'alice jones'!", [plain("hello "), mention("alice jones", "@'alice jones'"), plain("!")])
        // Quoted names keep their punctuation.
        expectMarkdown("hello @'a.j.'!", [plain("hello "), mention("a.j.", "@'a.j.'"), plain("!")])
    }

    @Test func malformedMentionsAreText() {
        expectPlain("hello @'alice jones!")
        expectPlain("hello @ alice!")
        expectPlain("hello @")
        expectPlain("@@alice")
        expectPlain("@#alice")
        expectMarkdown(
            "hello @bob @'alice jones!", [plain("hello "), mention("bob", "@bob"), plain(" @'alice jones!")])
        expectMarkdown("hello @bob @", [plain("hello "), mention("bob", "@bob"), plain(" @")])
    }

    @Test func aMentionOfOnlyPunctuationHasAnEmptyName() {
        // As in Markdown.hs: the punctuation is split off and the name left empty.
        expectMarkdown("hi @!", [plain("hi "), mention("", "@"), plain("!")])
    }

    @Test func emailLikeTextAfterASpaceIsAMention() {
        expectMarkdown("chat @simplex.chat", [plain("chat "), mention("simplex.chat", "@simplex.chat")])
        expectMarkdown("this is chat@ simplex.chat", [plain("this is chat@ "), uri("simplex.chat")])
    }

    @Test func inlineCommands() {
        expectMarkdown("send /help", [plain("send "), command("help", "/help")])
        expectMarkdown("send /help!", [plain("send "), command("help", "/help"), plain("!")])
        expectMarkdown("send /'filter 1'", [plain("send "), command("filter 1", "/'filter 1'")])
        expectMarkdown(
            "send /'filter 1.'!", [plain("send "), command("filter 1.", "/'filter 1.'"), plain("!")])
        expectPlain("send /'filter 1")
        expectPlain("send / help!")
        expectPlain("send /he?lp")
        expectPlain("send /...")
        expectMarkdown("send /help /", [plain("send "), command("help", "/help"), plain(" /")])
    }

    @Test func aOneLineMessageStartingWithSlashIsOneCommand() {
        #expect(Markdown.parse("/link 1") == [command("link 1", "/link 1")])
        #expect(Markdown.parse(" /link 1") == [command("link 1", " /link 1")])
        #expect(Markdown.parse("/help\n") == [command("help", "/help")])
        // Not when there is more than one line, nor for a lone slash.
        #expect(Markdown.parse("/link 1\nmore") == [command("link", "/link"), plain(" 1\nmore")])
        #expect(Markdown.formattedText("/") == nil)
    }

    @Test func hidingSecretsForNotificationPreviews() {
        #expect(Markdown.hidingSecrets("the code is #1234# ok") == "the code is ... ok")
        #expect(Markdown.hidingSecrets("#a# and #b c#") == "... and ...")
        #expect(Markdown.hidingSecrets("*bold* stays, `code` stays") == "bold stays, code stays")
        #expect(Markdown.hidingSecrets("no secrets\n") == "no secrets\n")
        #expect(Markdown.hidingSecrets("# not a secret") == "# not a secret")
        #expect(Markdown.hidingSecrets("line #one#\nline two") == "line ...\nline two")
    }
}
