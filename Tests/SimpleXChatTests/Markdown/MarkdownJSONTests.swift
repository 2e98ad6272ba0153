import Foundation
import Testing

@testable import SimpleXChat

/// The JSON of `/_parse markdown` and of formatted text, byte for byte as SimpleX's core writes it.
@Suite struct MarkdownJSONTests {
    func parsedJSON(_ text: String) -> String { Markdown.parsedMarkdown(text).json.text }

    @Test func parseMarkdownResponses() {
        #expect(
            parsedJSON("this is *bold*")
                == #"{"formattedText":[{"text":"this is "},{"format":{"type":"bold"},"text":"bold"}]}"#)
        #expect(
            parsedJSON("_i_ ~s~ `c` #x#")
                == #"{"formattedText":[{"format":{"type":"italic"},"text":"i"},{"text":" "},"#
                + #"{"format":{"type":"strikeThrough"},"text":"s"},{"text":" "},{"format":{"type":"snippet"},"text":"c"},"#
                + #"{"text":" "},{"format":{"type":"secret"},"text":"x"}]}"#)
        #expect(
            parsedJSON("!1 red!")
                == #"{"formattedText":[{"format":{"type":"colored","color":"red"},"text":"red"}]}"#)
        #expect(
            parsedJSON("hi @'alice b'")
                == #"{"formattedText":[{"text":"hi "},{"format":{"type":"mention","memberName":"alice b"},"text":"@'alice b'"}]}"#
        )
        #expect(
            parsedJSON("/help")
                == #"{"formattedText":[{"format":{"type":"command","commandStr":"help"},"text":"/help"}]}"#)
        #expect(
            parsedJSON("see [docs](https://example.com/a)")
                == #"{"formattedText":[{"text":"see "},{"format":{"type":"hyperLink","showText":"docs","linkUri":"https://example.com/a"},"#
                + #""text":"[docs](https://example.com/a)"}]}"#)
        #expect(
            parsedJSON("mail a@b.co or call +44 7777 777 777")
                == #"{"formattedText":[{"text":"mail "},{"format":{"type":"email"},"text":"a@b.co"},{"text":" or call "},"#
                + #"{"format":{"type":"phone"},"text":"+44 7777 777 777"}]}"#)
    }

    @Test func plainTextHasNoFormattedText() {
        #expect(parsedJSON("just text") == "{}")
        #expect(parsedJSON("") == "{}")
    }

    @Test func simplexLinkJSON() {
        let text = "https://simplex.chat" + MarkdownLinkTests.contact
        #expect(
            parsedJSON(text)
                == #"{"formattedText":[{"format":{"type":"simplexLink","linkType":"contact","simplexUri":"simplex:"#
                + MarkdownLinkTests.contact + #"","smpHosts":["smp.simplex.im"]},"text":""# + text + #""}]}"#)
    }

    @Test func stringsAreEscapedAsAesonEscapesThem() {
        let run = FormattedText("a\"b\\c\nd\te/f\u{1}ü🙂", .bold)
        #expect(run.json.text == #"{"format":{"type":"bold"},"text":"a\"b\\c\nd\te/f\u0001ü🙂"}"#)
    }

    @Test func codableRoundTrips() throws {
        // Foundation's JSONEncoder may reorder members: `json.text` is the byte-exact form.
        let runs = Markdown.parse("!3 x! @bob https://simplex.chat [a](https://a.io) #s#")
        let encoded = try JSONEncoder().encode(runs)
        #expect(try JSONDecoder().decode([FormattedText].self, from: encoded) == runs)
        let decoded = try JSONDecoder().decode(
            [FormattedText].self, from: Data(MarkdownJSON.array(runs.map(\.json)).text.utf8))
        #expect(decoded == runs)
    }

    @Test func decodingReadsSimpleXJSON() throws {
        let json = #"""
            [{"format":{"type":"bold"},"text":"b"},{"text":"p"},{"format":null,"text":"n"},
             {"format":{"type":"colored","color":"white"},"text":"w"},
             {"format":{"type":"hyperLink","linkUri":"https://x.org"},"text":"https://x.org"},
             {"format":{"type":"simplexLink","showText":"me","linkType":"channel","simplexUri":"simplex:/c#k","smpHosts":["h"]},"text":"[me](...)"}]
            """#
        let runs = try JSONDecoder().decode([FormattedText].self, from: Data(json.utf8))
        #expect(
            runs == [
                bold("b"), plain("p"), plain("n"), FormattedText("w", .colored(color: .white)),
                FormattedText("https://x.org", .hyperLink(showText: nil, linkUri: "https://x.org")),
                FormattedText(
                    "[me](...)",
                    .simplexLink(
                        showText: "me", linkType: .channel, simplexUri: "simplex:/c#k", smpHosts: ["h"])),
            ])
        #expect(
            runs[4].json.text
                == #"{"format":{"type":"hyperLink","linkUri":"https://x.org"},"text":"https://x.org"}"#)
    }

    @Test func unknownFormatsAreKeptNotRefused() throws {
        let json =
            #"[{"format":{"type":"sparkle","z":1,"a":"x"},"text":"s"},{"format":{"type":"colored","color":"pink"},"text":"c"}]"#
        let runs = try JSONDecoder().decode([FormattedText].self, from: Data(json.utf8))
        #expect(runs.count == 2)
        guard case .unknown = runs[0].format, case .unknown = runs[1].format else {
            Issue.record("expected unknown formats, got \(runs)")
            return
        }
        #expect(runs[0].format?.typeTag == "sparkle")
        // Written back as aeson writes a Value: keys sorted.
        #expect(runs[0].json.text == #"{"format":{"a":"x","type":"sparkle","z":1},"text":"s"}"#)
        #expect(runs[0].markdownText == "s")
    }

    @Test func runsWithoutTextAreRefused() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(FormattedText.self, from: Data(#"{"format":{"type":"bold"}}"#.utf8))
        }
    }
}
