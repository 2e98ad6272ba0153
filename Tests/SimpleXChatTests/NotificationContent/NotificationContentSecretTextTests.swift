import Testing

@testable import SimpleXChat

/// `NotificationText.hidingSecrets` against the fragment rules of simplex-chat Markdown.hs; each
/// expected value was worked out from the Haskell parser by hand.
@Suite struct NotificationContentSecretTextTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let text: String
        let shown: String
        var testDescription: String { "\(text.debugDescription) → \(shown.debugDescription)" }
    }

    static let secrets: [Case] = [
        Case(text: "#secret#", shown: "..."),
        Case(text: "my pin is #1234#", shown: "my pin is ..."),
        Case(text: "#two words# inside", shown: "... inside"),
        Case(text: "#a# and #b#", shown: "... and ..."),
        Case(text: "##double##", shown: "..."),
        Case(text: "#a##b#", shown: "...b#"),
        Case(text: "#пароль# ok", shown: "... ok"),
        Case(text: "first line\nthen #this#", shown: "first line\nthen ..."),
        // A failed secret consumes its closing `#`, so the next `#` can open one.
        Case(text: "# x# #y#", shown: "# x# ..."),
    ]

    static let notSecrets: [Case] = [
        Case(text: "# leading space#", shown: "# leading space#"),
        Case(text: "#trailing space #", shown: "#trailing space #"),
        Case(text: "#unclosed secret", shown: "#unclosed secret"),
        Case(text: "#", shown: "#"),
        Case(text: "##", shown: "##"),
        Case(text: "###", shown: "###"),
        // `#` inside a word does not open a secret.
        Case(text: "a#b#", shown: "a#b#"),
        Case(text: "issue#12# fixed", shown: "issue#12# fixed"),
        Case(text: "# x# y#", shown: "# x# y#"),
        // Only a space separates words: after a tab the `#` is still inside the word.
        Case(text: "a\t#b#", shown: "a\t#b#"),
        Case(text: "plain text", shown: "plain text"),
        Case(text: "", shown: ""),
        // Text without markdown keeps its final line break.
        Case(text: "plain\n", shown: "plain\n"),
    ]

    @Test(arguments: secrets) func secretsAreHidden(_ example: Case) {
        #expect(NotificationText.hidingSecrets(example.text) == example.shown)
    }

    @Test(arguments: notSecrets) func textThatIsNoSecretIsShownAsTyped(_ example: Case) {
        #expect(NotificationText.hidingSecrets(example.text) == example.shown)
    }

    static let otherFragments: [Case] = [
        // Delimiters of formatted fragments go, as in the formatted text iOS joins.
        Case(text: "*bold* #s#", shown: "bold ..."),
        Case(text: "_it_ ~gone~ `code`", shown: "it gone code"),
        Case(text: "* not bold*", shown: "* not bold*"),
        Case(text: "**", shown: "**"),
        // An unclosed delimiter swallows the rest of the line, secret and all.
        Case(text: "*a #b#", shown: "*a #b#"),
        Case(text: "2 * 3 = #6#", shown: "2 * 3 = #6#"),
        // A secret inside bold is bold text, not a secret (Markdown.hs does not nest).
        Case(text: "*a #b# c*", shown: "a #b# c"),
        Case(text: "snake_case #s#", shown: "snake_case ..."),
        // Coloured text spans spaces and takes its `#`s with it.
        Case(text: "!1 red! #s#", shown: "red ..."),
        Case(text: "!red warm words! ok", shown: "warm words ok"),
        Case(text: "!r #s#!", shown: "#s#"),
        Case(text: "!x #s#", shown: "!x ..."),
        Case(text: "!1 trailing !", shown: "!1 trailing !"),
        // A phone number ends where its digits end, so a `#` right after it opens a secret...
        Case(text: "1234567#s#", shown: "1234567..."),
        Case(text: "+44 (20) 7946-0958#s#", shown: "+44 (20) 7946-0958..."),
        // ...while fewer than 7 characters are a word, `#`s included.
        Case(text: "12#s#", shown: "12#s#"),
        // A formatted text loses its final line break, as T.lines drops it.
        Case(text: "#s#\n", shown: "..."),
        Case(text: "#s#\n\nnext", shown: "...\n\nnext"),
    ]

    @Test(arguments: otherFragments) func fragmentsEndWhereMarkdownEndsThem(_ example: Case) {
        #expect(NotificationText.hidingSecrets(example.text) == example.shown)
    }
}
