import Testing

@testable import SimpleXChat

/// Removing tracking parameters from links, as Markdown.hs `sanitizeUri`.
@Suite struct MarkdownSanitizeURITests {
    @Test func safeModeRemovesKnownTrackingPrefixesOnly() {
        #expect(
            Markdown.sanitizedURI("https://example.com/page?utm_source=x&q=1&foo=2", safe: true)
                == "https://example.com/page?q=1&foo=2")
        #expect(
            Markdown.sanitizedURI("https://example.com/a?fbclid=1#top", safe: true)
                == "https://example.com/a#top")
        #expect(Markdown.sanitizedURI("https://example.com/?q=1&x=2", safe: true) == nil)
    }

    @Test func fullModeKeepsWhitelistedParameters() {
        #expect(
            Markdown.sanitizedURI("https://example.com/watch/123?x=1&q=2", safe: false)
                == "https://example.com/watch/123?q=2")
        #expect(
            Markdown.sanitizedURI("https://www.youtube.com/watch?v=abc&si=XYZ&t=10", safe: false)
                == "https://www.youtube.com/watch?v=abc&t=10")
        #expect(
            Markdown.sanitizedURI("https://github.com/a/b/pull/1/files?w=1&diff=split&x=1", safe: false)
                == "https://github.com/a/b/pull/1/files?w=1&diff=split")
    }

    @Test func aPageNamePathKeepsAFirstParameterThatIsNotATracker() {
        #expect(
            Markdown.sanitizedURI("https://example.com/blog/post?color=red&size=2", safe: false)
                == "https://example.com/blog/post?color=red")
        #expect(
            Markdown.sanitizedURI("https://example.com/post?userid=5", safe: false)
                == "https://example.com/post")
        #expect(
            Markdown.sanitizedURI("https://example.com/post?source_x=5", safe: false)
                == "https://example.com/post")
        #expect(
            Markdown.sanitizedURI("https://example.com/post?a_b=5", safe: false) == "https://example.com/post"
        )
        #expect(Markdown.sanitizedURI("https://example.com/post?color=red", safe: false) == nil)
    }

    @Test func onlyWebAddressesWithAQueryAreSanitized() {
        #expect(Markdown.sanitizedURI("https://example.com/post", safe: false) == nil)
        #expect(Markdown.sanitizedURI("example.com/?utm_source=1", safe: true) == nil)
        #expect(Markdown.sanitizedURI("simplex:/contact#/?v=2&utm=1", safe: true) == nil)
    }
}
