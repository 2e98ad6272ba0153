import Testing

@testable import SimpleXChat

/// Seed 000 §4: blocks are sent for text up to 2,000 markup tokens; longer text is drawn as lines.
@Suite struct MarkdownTokenLimitTests {
    /// `count` list lines of one bold run each: 2 tokens per line.
    func boldList(_ count: Int) -> String {
        Array(repeating: "- *x*", count: count).joined(separator: "\n")
    }

    @Test func tokensAreLinesPlusFormattedRuns() {
        #expect(Markdown.markupTokenCount("a\n*b* _c_\n\n") == 5)
        #expect(Markdown.markupTokenCount("a\n\nb\n") == 3)
        // Code is not markup; its lines still count.
        #expect(Markdown.markupTokenCount("```\n*a* _b_\n```") == 3)
        // Runs inside lists, quotes and tables count.
        #expect(Markdown.markupTokenCount("> - *a* @bob\n\n| *x* |\n|---|\n| _y_ |") == 5 + 4)
        #expect(Markdown.markupTokenCount("") == 0)
    }

    @Test func textAtTheLimitGetsBlocks() throws {
        let text = boldList(1000)
        #expect(Markdown.markupTokenCount(text) == Markdown.maxMarkupTokens)
        let parsed = try #require(Markdown.parseBlocks(text))
        guard case .bulletList(_, let items) = parsed.blocks.first?.content else {
            Issue.record("expected one list, got \(parsed.blocks)")
            return
        }
        #expect(items.count == 1000)
        // A final line break ends the last line and adds no token.
        #expect(Markdown.parseBlocks(text + "\n") != nil)
    }

    @Test func oneTokenOverTheLimitHasNoBlocks() {
        let overByALine = boldList(1000) + "\ny"
        #expect(Markdown.markupTokenCount(overByALine) == Markdown.maxMarkupTokens + 1)
        #expect(Markdown.parseBlocks(overByALine) == nil)
        let overByARun = boldList(999) + "\n- *x* *y* z"
        #expect(Markdown.markupTokenCount(overByARun) == Markdown.maxMarkupTokens + 1)
        #expect(Markdown.parseBlocks(overByARun) == nil)
        // The inline runs are not limited: such text is drawn as formatted lines.
        #expect(Markdown.formattedText(overByALine)?.filter { $0.format == .bold }.count == 1000)
    }

    @Test func lineCountAloneCanExceedTheLimit() {
        let lines = Array(repeating: "a", count: 1001).joined(separator: "\n\n")
        #expect(Markdown.markupTokenCount(lines) == 2001)
        #expect(Markdown.parseBlocks(lines) == nil)
        let atLimit = Array(repeating: "a", count: 1000).joined(separator: "\n\n") + "\n\n"
        #expect(Markdown.markupTokenCount(atLimit) == 2000)
        #expect(Markdown.parseBlocks(atLimit)?.blocks.count == 1000)
        #expect(Markdown.parseBlocks(atLimit)?.trailingEmptyLines == 1)
    }
}
