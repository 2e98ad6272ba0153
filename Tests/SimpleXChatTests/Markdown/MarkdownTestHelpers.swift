import Testing

@testable import SimpleXChat

func plain(_ text: String) -> FormattedText { FormattedText(text) }
func bold(_ text: String) -> FormattedText { FormattedText(text, .bold) }
func italic(_ text: String) -> FormattedText { FormattedText(text, .italic) }
func secret(_ text: String) -> FormattedText { FormattedText(text, .secret) }
func snippet(_ text: String) -> FormattedText { FormattedText(text, .snippet) }
func red(_ text: String) -> FormattedText { FormattedText(text, .colored(color: .red)) }
func uri(_ text: String) -> FormattedText { FormattedText(text, .uri) }
func email(_ text: String) -> FormattedText { FormattedText(text, .email) }
func phone(_ text: String) -> FormattedText { FormattedText(text, .phone) }
func mention(_ name: String, _ text: String) -> FormattedText {
    FormattedText(text, .mention(memberName: name))
}
func command(_ name: String, _ text: String) -> FormattedText {
    FormattedText(text, .command(commandStr: name))
}

/// Checks that `text` parses to `runs` and, as Markdown.hs's tests do, that the runs give the text back.
func expectMarkdown(
    _ text: String, _ runs: [FormattedText], roundTrip: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(Markdown.parse(text) == runs, "parsing \(text.debugDescription)", sourceLocation: sourceLocation)
    if roundTrip {
        #expect(
            Markdown.markdownText(runs) == text, "markdown text of the runs", sourceLocation: sourceLocation)
    }
}

/// Checks that `text` has no formatting at all.
func expectPlain(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(
        Markdown.parse(text) == [plain(text)], "parsing \(text.debugDescription)",
        sourceLocation: sourceLocation)
    #expect(Markdown.formattedText(text) == nil, sourceLocation: sourceLocation)
}
