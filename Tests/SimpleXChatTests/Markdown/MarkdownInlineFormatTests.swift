import Testing

@testable import SimpleXChat

/// Delimited formats, secrets and colours, with the cases of SimpleX's MarkdownTests.hs.
@Suite struct MarkdownInlineFormatTests {
    @Test func eachDelimitedFormat() {
        expectMarkdown(
            "this is *bold formatted* text", [plain("this is "), bold("bold formatted"), plain(" text")])
        expectMarkdown("_italic_", [italic("italic")])
        expectMarkdown("~struck~ out", [FormattedText("struck", .strikeThrough), plain(" out")])
        expectMarkdown("run `ls -la` now", [plain("run "), snippet("ls -la"), plain(" now")])
        expectMarkdown("   *bold* text", [plain("   "), bold("bold"), plain(" text")])
        expectMarkdown("this is *bold*   ", [plain("this is "), bold("bold"), plain("   ")])
    }

    @Test func delimitersNextToSpacesAreText() {
        expectPlain("this is * unformatted * text")
        expectPlain("this is *unformatted * text")
        expectPlain("this is * unformatted* text")
        expectPlain("this is _ not italic_")
        expectPlain("a ~ b ~ c")
    }

    @Test func unclosedAndLoneDelimitersAreText() {
        expectPlain("this is *unformatted text")
        expectPlain("*")
        expectPlain("2 * 3 = 6")
        expectPlain("this is **unformatted** text")
        expectPlain("``")
        expectMarkdown("*this* is *unformatted text", [bold("this"), plain(" is *unformatted text")])
    }

    @Test func delimitersOnlyOpenAtTheStartOfAWord() {
        expectPlain("this is*unformatted* text")
        expectPlain("snake_case_name and 2*3*4")
        // A format that closes mid-word ends there; the rest of the word is its own fragment.
        expectMarkdown("*bold*text", [bold("bold"), plain("text")])
    }

    @Test func formatsDoNotNest() {
        expectMarkdown(
            "this is *long _bold_ (not italic)* text",
            [plain("this is "), bold("long _bold_ (not italic)"), plain(" text")])
        expectMarkdown(
            "snippet: `this is *bold text*`", [plain("snippet: "), snippet("this is *bold text*")])
        expectMarkdown("_a *b* c_", [italic("a *b* c")])
        expectMarkdown("`https://simplex.chat`", [snippet("https://simplex.chat")])
    }

    @Test func adjacentRunsOfOneFormatMerge() {
        // Markdown.hs's Semigroup joins neighbouring runs of equal format.
        #expect(Markdown.parse("*a**b*") == [bold("ab")])
        expectMarkdown("*a*_b_", [bold("a"), italic("b")])
    }

    @Test func secrets() {
        expectMarkdown(
            "this is #black_secret# text", [plain("this is "), secret("black_secret"), plain(" text")])
        expectMarkdown(
            "this is #black secret# text", [plain("this is "), secret("black secret"), plain(" text")])
        // Everything between the first and the last '#' is the secret.
        expectMarkdown("##black_secret### text", [secret("#black_secret##"), plain(" text")])
        expectMarkdown("this is #secret#", [plain("this is "), secret("secret")])
    }

    @Test func malformedSecretsAreText() {
        expectPlain("this is # unformatted # text")
        expectPlain("this is #unformatted # text")
        expectPlain("this is ## unformatted ## text")
        expectPlain("this is#unformatted# text")
        expectPlain("this is #unformatted text")
        expectPlain("#")
        expectPlain("##")
        expectPlain("# not a heading in inline markdown")
        expectMarkdown("*this* is #unformatted text", [bold("this"), plain(" is #unformatted text")])
    }

    @Test func colors() {
        expectMarkdown("this is !1 red color! text", [plain("this is "), red("red color"), plain(" text")])
        expectMarkdown("!1 red! text", [red("red"), plain(" text")])
        expectMarkdown(
            "this is !1 long *red* (not bold)! text",
            [plain("this is "), red("long *red* (not bold)"), plain(" text")])
        let numbered: [(String, FormatColor)] = [
            ("1", .red), ("2", .green), ("3", .blue), ("4", .yellow), ("5", .cyan), ("6", .magenta),
        ]
        for (digit, color) in numbered {
            #expect(Markdown.parse("!\(digit) x!") == [FormattedText("x", .colored(color: color))])
            #expect(color.markdownNumber == Int(digit))
        }
        #expect(Markdown.parse("!red x!") == [red("x")])
        #expect(Markdown.parse("!r x!") == [red("x")])
        #expect(Markdown.parse("!magenta x y!") == [FormattedText("x y", .colored(color: .magenta))])
        #expect(Markdown.parse("!cyan\tx!") == [FormattedText("x", .colored(color: .cyan))])
    }

    @Test func malformedColorsAreText() {
        expectPlain("this is !1 unformatted ! text")
        expectPlain("this is !1  unformatted! text")
        expectPlain("this is!1 unformatted! text")
        expectPlain("this is !1 unformatted text")
        expectPlain("!7 no such colour!")
        expectPlain("!1! empty")
        expectPlain("!rx text!")
        expectPlain("Wow! Great!")
        expectMarkdown("*this* is !1 unformatted text", [bold("this"), plain(" is !1 unformatted text")])
    }

    @Test func linesAreParsedSeparately() {
        // A delimiter never pairs across a line break.
        expectMarkdown("*not\nbold*", [plain("*not\nbold*")])
        expectMarkdown("*a*\n\n_b_", [bold("a"), plain("\n\n"), italic("b")])
        // Haskell's `lines` drops a final line break.
        #expect(Markdown.parse("*a*\n") == [bold("a")])
        #expect(Markdown.parse("") == [])
        #expect(Markdown.formattedText("") == nil)
        #expect(Markdown.formattedText("plain\ntext") == nil)
        #expect(Markdown.parse("plain\ntext") == [plain("plain\ntext")])
    }

    @Test func nonASCIIText() {
        expectMarkdown("*жирный* текст 🙂", [bold("жирный"), plain(" текст 🙂")])
        expectMarkdown("_👍🏽_", [italic("👍🏽")])
    }
}
