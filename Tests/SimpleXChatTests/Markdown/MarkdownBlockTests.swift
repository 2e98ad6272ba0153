import Testing

@testable import SimpleXChat

func paragraph(_ text: String, after emptyLines: Int = 0) -> MarkdownBlock {
    MarkdownBlock(.paragraph([plain(text)]), emptyLinesBefore: emptyLines)
}

func item(_ blocks: MarkdownBlock..., after emptyLines: Int = 0) -> MarkdownListItem {
    MarkdownListItem(blocks, emptyLinesBefore: emptyLines)
}

func bullets(_ items: MarkdownListItem..., marker: String = "-", after emptyLines: Int = 0) -> MarkdownBlock {
    MarkdownBlock(.bulletList(marker: marker, items: items), emptyLinesBefore: emptyLines)
}

func blocks(_ text: String) -> [MarkdownBlock]? { Markdown.parseBlocks(text)?.blocks }

/// Block markdown: which texts get blocks, and each block kind with its nesting.
@Suite struct MarkdownBlockTests {
    @Test func textWithoutBlockSyntaxOrEmptyLinesHasNoBlocks() {
        #expect(Markdown.parseBlocks("hello") == nil)
        #expect(Markdown.parseBlocks("line one\nline two") == nil)
        #expect(Markdown.parseBlocks("*bold* and #secret# text") == nil)
        #expect(Markdown.parseBlocks("hello\n") == nil)
        #expect(Markdown.parseBlocks("") == nil)
        #expect(Markdown.parseBlocks("#hashtag and #1 priority") == nil)
        #expect(Markdown.parseBlocks("Born in\n1984. Then more") == nil)
        #expect(Markdown.parseBlocks("```code``` inline") == nil)
    }

    @Test func emptyLinesSeparateParagraphsAndAreCounted() {
        #expect(blocks("a\n\nb") == [paragraph("a"), paragraph("b", after: 1)])
        let parsed = Markdown.parseBlocks("\n\n*a*\nb\n\n\n")
        #expect(
            parsed?.blocks == [MarkdownBlock(.paragraph([bold("a"), plain("\nb")]), emptyLinesBefore: 2)])
        #expect(parsed?.leadingEmptyLines == 2)
        #expect(parsed?.trailingEmptyLines == 2)
        #expect(blocks("a\r\n\r\nb") == [paragraph("a"), paragraph("b", after: 1)])
        #expect(blocks("a\n  \nb") == [paragraph("a"), paragraph("b", after: 1)])
    }

    @Test func headings() {
        #expect(
            blocks("# Title\ntext")
                == [MarkdownBlock(.heading(level: 1, text: [plain("Title")])), paragraph("text")])
        for level in 1...6 {
            #expect(
                blocks(String(repeating: "#", count: level) + " h") == [
                    MarkdownBlock(.heading(level: level, text: [plain("h")]))
                ])
        }
        #expect(
            blocks("## *Bold* heading ##")
                == [MarkdownBlock(.heading(level: 2, text: [bold("Bold"), plain(" heading")]))])
        #expect(blocks("### C#") == [MarkdownBlock(.heading(level: 3, text: [plain("C#")]))])
    }

    @Test func hashAtLineStartIsAHeadingOnlyWithASpace() {
        #expect(
            blocks("#secret# here\n# Heading")
                == [
                    MarkdownBlock(.paragraph([secret("secret"), plain(" here")])),
                    MarkdownBlock(.heading(level: 1, text: [plain("Heading")])),
                ])
        #expect(blocks("####### seven\n# one")?.first == paragraph("####### seven"))
        #expect(blocks("#\n\nx")?.first == paragraph("#"))
        #expect(blocks("    # indented\n\nx")?.first == paragraph("    # indented"))
    }

    @Test func bulletListsNestByIndentation() {
        let text = "- a\n- b\n  - c\n    - d\n- e"
        let expected = bullets(
            item(paragraph("a")),
            item(paragraph("b"), bullets(item(paragraph("c"), bullets(item(paragraph("d")))))),
            item(paragraph("e")))
        #expect(blocks(text) == [expected])
        #expect(
            blocks("* x\n+ y") == [
                bullets(item(paragraph("x")), marker: "*"), bullets(item(paragraph("y")), marker: "+"),
            ])
        #expect(blocks("- a\n - b") == [bullets(item(paragraph("a")), item(paragraph("b")))])
    }

    @Test func orderedLists() {
        let ordered = { (start: Int, delimiter: String, items: [MarkdownListItem]) in
            MarkdownBlock(.orderedList(start: start, delimiter: delimiter, items: items))
        }
        #expect(
            blocks("1. one\n2. two\n3) three")
                == [
                    ordered(1, ".", [item(paragraph("one")), item(paragraph("two"))]),
                    ordered(3, ")", [item(paragraph("three"))]),
                ])
        #expect(blocks("3. x\n4. y") == [ordered(3, ".", [item(paragraph("x")), item(paragraph("y"))])])
        #expect(
            blocks("10. ten\n    - nested")
                == [ordered(10, ".", [item(paragraph("ten"), bullets(item(paragraph("nested"))))])])
        // Only a list starting at 1 ends a paragraph.
        #expect(blocks("Born in\n1984. Then\n\nx")?.first == paragraph("Born in\n1984. Then"))
        #expect(blocks("Steps:\n1. go") == [paragraph("Steps:"), ordered(1, ".", [item(paragraph("go"))])])
    }

    @Test func listItemsHoldIndentedLinesAndEmptyLines() {
        #expect(
            blocks("- a\n\n- b\n\n  more b\nafter")
                == [
                    bullets(
                        item(paragraph("a")), item(paragraph("b"), paragraph("more b", after: 1), after: 1)),
                    paragraph("after"),
                ])
        #expect(blocks("- a\n\nafter") == [bullets(item(paragraph("a"))), paragraph("after", after: 1)])
    }

    @Test func noLazyContinuationLines() {
        #expect(
            blocks("- milk\n- eggs\nThat's all") == [
                bullets(item(paragraph("milk")), item(paragraph("eggs"))), paragraph("That's all"),
            ])
        #expect(
            blocks("> quoted\nmy reply") == [
                MarkdownBlock(.quote([paragraph("quoted")])), paragraph("my reply"),
            ])
    }

    @Test func malformedListMarkersAreText() {
        #expect(Markdown.parseBlocks("-5 degrees\n*bold* start") == nil)
        #expect(blocks("-\n\nx")?.first == paragraph("-"))
        #expect(blocks("1.5 litres\n\nx")?.first == paragraph("1.5 litres"))
    }

    @Test func quotesHoldBlocks() {
        let quote = { (inner: [MarkdownBlock]) in MarkdownBlock(.quote(inner)) }
        #expect(blocks("> a\n> b") == [quote([paragraph("a\nb")])])
        #expect(blocks("> a\n>\n> b") == [quote([paragraph("a"), paragraph("b", after: 1)])])
        #expect(blocks(">> inner\n> outer") == [quote([quote([paragraph("inner")]), paragraph("outer")])])
        #expect(blocks("> - x\n> - y") == [quote([bullets(item(paragraph("x")), item(paragraph("y")))])])
        #expect(
            blocks("- item\n  > quoted") == [bullets(item(paragraph("item"), quote([paragraph("quoted")])))])
        #expect(
            blocks("> a\n\n> b") == [
                quote([paragraph("a")]), MarkdownBlock(.quote([paragraph("b")]), emptyLinesBefore: 1),
            ])
    }

    @Test func codeBlockContentIsNotParsed() {
        let code = { (language: String?, text: String) in
            MarkdownBlock(.codeBlock(language: language, code: text))
        }
        #expect(
            blocks("```swift\nlet a = *b*\n# not heading\n\n- no list\n```\nafter")
                == [code("swift", "let a = *b*\n# not heading\n\n- no list"), paragraph("after")])
        #expect(blocks("```\ncode") == [code(nil, "code")])
        #expect(blocks("~~~ sh -x\necho\n~~~") == [code("sh", "echo")])
        #expect(blocks("```\na\n``\n````\nb") == [code(nil, "a\n``"), paragraph("b")])
        #expect(blocks("  ```\n  x\n    y\n  ```") == [code(nil, "x\n  y")])
        #expect(blocks("- a\n  ```\n  code\n  ```") == [bullets(item(paragraph("a"), code(nil, "code")))])
        #expect(blocks("text\n```\nx\n```") == [paragraph("text"), code(nil, "x")])
    }

    @Test func tables() throws {
        let parsed = try #require(blocks("| Name | Qty |\n|:--|--:|\n| apple | *3* |\n| pear |\nafter"))
        let table = MarkdownTable(
            alignments: [.left, .right], header: [[plain("Name")], [plain("Qty")]],
            rows: [[[plain("apple")], [bold("3")]], [[plain("pear")], []]])
        #expect(parsed == [MarkdownBlock(.table(table)), paragraph("after")])
        let escaped = MarkdownTable(
            alignments: [.center, .none], header: [[plain("a | b")], [plain("c")]],
            rows: [[[plain("1")], [plain("2")]]])
        #expect(blocks("a \\| b | c\n:-:|---\n1 | 2 | 3") == [MarkdownBlock(.table(escaped))])
        let single = MarkdownTable(alignments: [.none], header: [[plain("x")]], rows: [])
        #expect(blocks("Prices:\n| x |\n| - |") == [paragraph("Prices:"), MarkdownBlock(.table(single))])
    }

    @Test func tablesNeedAMatchingSeparatorRow() {
        #expect(Markdown.parseBlocks("| a | b |\n|---|") == nil)
        #expect(Markdown.parseBlocks("| a | b |\n| x | y |") == nil)
        #expect(Markdown.parseBlocks("a | b\n--- | x") == nil)
    }

    @Test func rules() {
        let rule = { (markup: String) in MarkdownBlock(.rule(markup: markup)) }
        #expect(blocks("a\n---\nb") == [paragraph("a"), rule("---"), paragraph("b")])
        #expect(blocks("* * *") == [rule("* * *")])
        #expect(blocks(" ___ ") == [rule("___")])
        #expect(blocks("- - -") == [rule("- - -")])
        #expect(blocks("- a\n---") == [bullets(item(paragraph("a"))), rule("---")])
        #expect(Markdown.parseBlocks("--") == nil)
        #expect(Markdown.parseBlocks("-- a") == nil)
    }

    @Test func cardsAndText() throws {
        let parsed = try #require(blocks("```\nx\n```\n| a |\n|---|\n---\n# h\n> ---"))
        #expect(parsed.map(\.isCard) == [true, true, true, false, false])
        #expect(parsed.map(\.hasText) == [true, true, false, true, false])
        #expect(parsed.map(\.isHeading) == [false, false, false, true, false])
    }
}

/// Deep nesting is capped so a hostile message cannot exhaust the stack.
@Suite struct MarkdownBlockNestingTests {
    @Test func quotesNestUpToTheLimitThenAreText() throws {
        let depth = BlockParser.maxNestingDepth
        var block = try #require(blocks(String(repeating: ">", count: depth + 2) + " deep")?.first)
        for _ in 0..<depth {
            guard case .quote(let inner) = block.content, let first = inner.first else {
                Issue.record("expected a quote at this depth, got \(block)")
                return
            }
            block = first
        }
        #expect(block == paragraph(">> deep"))
    }

    @Test func thousandsOfMarkersOnOneLineParse() {
        let quotes = String(repeating: ">", count: 50_000) + " x\n\ny"
        #expect(Markdown.parseBlocks(quotes)?.blocks.count == 2)
        let bullets = String(repeating: "- ", count: 20_000) + "x\n\ny"
        #expect(Markdown.parseBlocks(bullets)?.blocks.count == 2)
    }
}
