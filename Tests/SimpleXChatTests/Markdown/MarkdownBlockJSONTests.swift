import Foundation
import Testing

@testable import SimpleXChat

/// The documented JSON of blocks, byte for byte.
@Suite struct MarkdownBlockJSONTests {
    func json(_ text: String) -> String? { Markdown.parseBlocks(text)?.json.text }

    @Test func paragraphsHeadingsAndEmptyLines() {
        #expect(
            json("# *Hi*\n\n\ntext\n\n")
                == #"{"blocks":[{"type":"heading","level":1,"text":[{"format":{"type":"bold"},"text":"Hi"}]},"#
                + #"{"type":"paragraph","emptyLinesBefore":2,"text":[{"text":"text"}]}],"trailingEmptyLines":1}"#
        )
    }

    @Test func lists() {
        #expect(
            json("- a\n\n- b\n  1) c")
                == #"{"blocks":[{"type":"bulletList","marker":"-","items":[{"blocks":[{"type":"paragraph","text":[{"text":"a"}]}]},"#
                + #"{"emptyLinesBefore":1,"blocks":[{"type":"paragraph","text":[{"text":"b"}]},"#
                + #"{"type":"orderedList","start":1,"delimiter":")","items":[{"blocks":[{"type":"paragraph","text":[{"text":"c"}]}]}]}]}]}]}"#
        )
    }

    @Test func quotesCodeTablesAndRules() {
        #expect(
            json("> q\n```swift\nlet x = \"1\"\n```\n```\n```\n| a | b |\n|:-:|--:|\n| 1 |\n***")
                == #"{"blocks":[{"type":"quote","blocks":[{"type":"paragraph","text":[{"text":"q"}]}]},"#
                + #"{"type":"codeBlock","language":"swift","code":"let x = \"1\""},{"type":"codeBlock","code":""},"#
                + #"{"type":"table","alignments":["center","right"],"header":[[{"text":"a"}],[{"text":"b"}]],"rows":[[[{"text":"1"}],[]]]},"#
                + #"{"type":"rule","markup":"***"}]}"#)
    }

    @Test func encodableGivesTheSameMembers() throws {
        let blocks = try #require(Markdown.parseBlocks("# h\n- *a*\n\n| x |\n|---|"))
        let encoded = try JSONEncoder().encode(blocks)
        let viaEncoder = try JSONDecoder().decode(JSONValue.self, from: encoded)
        let viaText = try JSONDecoder().decode(JSONValue.self, from: Data(blocks.json.text.utf8))
        #expect(viaEncoder == viaText)
    }
}
