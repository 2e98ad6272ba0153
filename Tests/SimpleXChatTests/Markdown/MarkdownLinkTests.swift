import Testing

@testable import SimpleXChat

/// Web addresses, links with text, SimpleX links, emails and phones, with the cases of SimpleX's
/// MarkdownTests.hs.
@Suite struct MarkdownLinkTests {
    static let invitation =
        "/invitation#/?v=1&smp=smp%3A%2F%2F1234-w%3D%3D%40smp.simplex.im%3A5223%2F3456-w%3D%3D%23%2F%3Fv%3D1-2%26dh%3DMCowBQYDK2VuAyEAjiswwI3O_NlS8Fk3HJUW870EY2bAwmttMBsvRB9eV3o%253D&e2e=v%3D2%26x3dh%3DMEIwBQYDK2VvAzkAmKuSYeQ_m0SixPDS8Wq8VBaTS1cW-Lp0n0h4Diu-kUpR-qXx4SDJ32YGEFoGFGSbGPry5Ychr6U%3D%2CMEIwBQYDK2VvAzkAmKuSYeQ_m0SixPDS8Wq8VBaTS1cW-Lp0n0h4Diu-kUpR-qXx4SDJ32YGEFoGFGSbGPry5Ychr6U%3D"
    static let contact =
        "/contact#/?v=2&smp=smp%3A%2F%2F1234-w%3D%3D%40smp.simplex.im%3A5223%2F3456-w%3D%3D%23%2F%3Fv%3D1-2%26dh%3DMCowBQYDK2VuAyEAjiswwI3O_NlS8Fk3HJUW870EY2bAwmttMBsvRB9eV3o%253D"
    static let group =
        "/contact#/?v=2&smp=smp%3A%2F%2Fu2dS9sG8nMNURyZwqASV4yROM28Er0luVTx5X1CsMrU%3D%40smp4.simplex.im%2FWHV0YU1sYlU7NqiEHkHDB6gxO1ofTync%23%2F%3Fv%3D1-2%26dh%3DMCowBQYDK2VuAyEAWbebOqVYuBXaiqHcXYjEHCpYi6VzDlu6CVaijDTmsQU%253D%26srv%3Do5vmywmrnaxalvz6wi3zicyftgio6psuvyniis6gco6bp6ekl4cqj4id.onion&data=%7B%22type%22%3A%22group%22%2C%22groupLinkId%22%3A%22mL-7Divb94GGmGmRBef5Dg%3D%3D%22%7D"

    func simplexLink(_ type: SimplexLinkType, _ path: String, _ hosts: [String], _ text: String)
        -> FormattedText
    {
        FormattedText(
            text, .simplexLink(showText: nil, linkType: type, simplexUri: "simplex:" + path, smpHosts: hosts))
    }

    @Test func webAddresses() {
        expectMarkdown("https://simplex.chat", [uri("https://simplex.chat")])
        expectMarkdown("https://simplex.chat.", [uri("https://simplex.chat"), plain(".")])
        expectMarkdown("https://simplex.chat, hello", [uri("https://simplex.chat"), plain(", hello")])
        expectMarkdown("http://simplex.chat", [uri("http://simplex.chat")])
        expectMarkdown(
            "SimpleX on GitHub: https://github.com/simplex-chat/",
            [plain("SimpleX on GitHub: "), uri("https://github.com/simplex-chat/")])
        expectMarkdown(
            "https://en.m.wikipedia.org/wiki/Servo_(software)",
            [uri("https://en.m.wikipedia.org/wiki/Servo_(software)")])
        expectMarkdown("https://example.com/a?q=1&b=%20#top", [uri("https://example.com/a?q=1&b=%20#top")])
    }

    @Test func domains() {
        expectMarkdown("example.com", [uri("example.com")])
        expectMarkdown("example.com...", [uri("example.com"), plain("...")])
        expectMarkdown("www.example.com", [uri("www.example.com")])
        expectMarkdown("example.academy", [uri("example.academy")])
        expectMarkdown("this is example.com", [plain("this is "), uri("example.com")])
        expectMarkdown("x.com", [uri("x.com")])
    }

    @Test func falsePositivesSimpleXAvoids() {
        expectPlain("_https://simplex.chat")
        expectPlain("this is https://")
        expectPlain("example.c")
        expectPlain("www.www.example.com")
        expectPlain("www.example1.com")
        expectPlain("www.")
        expectPlain(".com")
        expectPlain("example.academytoolong")
        expectPlain("simplex:/example")
        expectPlain("(https://github.com/simplex-chat/)")
        expectPlain("ftp://files.example.com")
        expectPlain("https://localhost/path")
        expectPlain("https://example.com/<script>")
        expectPlain("https://example.com/a%zz")
        expectPlain("e.g. i.e. 1.5")
    }

    @Test func linksWithText() {
        let link = { (text: String, address: String) in
            FormattedText("[\(text)](\(address))", .hyperLink(showText: text, linkUri: address))
        }
        expectMarkdown("[click here](https://example.com)", [link("click here", "https://example.com")])
        expectMarkdown(
            "For details [click here](https://example.com)",
            [plain("For details "), link("click here", "https://example.com")])
        expectMarkdown("[example.com](https://example.com)", [link("example.com", "https://example.com")])
        expectMarkdown(
            "[example.com/page](https://example.com/page)",
            [link("example.com/page", "https://example.com/page")])
    }

    @Test func linksWithTextThatCouldBeSpoofedAreText() {
        expectPlain("[https://example.com](https://another.com)")
        expectPlain("[example.com/page](https://another.com/page)")
        expectPlain("[click here](example.com)")
        expectPlain("[click here](https://example.com )")
        expectPlain("[](https://example.com)")
        expectPlain("[Connect to me](simplex:\(Self.contact))")
    }

    @Test func simplexInvitationLinks() {
        let hosts = ["smp.simplex.im"]
        let web = "https://simplex.chat" + Self.invitation
        expectMarkdown(web, [simplexLink(.invitation, Self.invitation, hosts, web)])
        expectMarkdown(
            "simplex:" + Self.invitation,
            [simplexLink(.invitation, Self.invitation, hosts, "simplex:" + Self.invitation)])
        let otherHost = "https://example.com" + Self.invitation
        expectMarkdown(otherHost, [simplexLink(.invitation, Self.invitation, hosts, otherHost)])
        expectMarkdown(
            "join: \(web)\ntext",
            [plain("join: "), simplexLink(.invitation, Self.invitation, hosts, web), plain("\ntext")])
    }

    @Test func simplexContactAndGroupLinks() {
        let web = "https://simplex.chat" + Self.contact
        expectMarkdown(web, [simplexLink(.contact, Self.contact, ["smp.simplex.im"], web)])
        expectMarkdown(
            "simplex:" + Self.contact,
            [simplexLink(.contact, Self.contact, ["smp.simplex.im"], "simplex:" + Self.contact)])
        let groupHosts = [
            "smp4.simplex.im", "o5vmywmrnaxalvz6wi3zicyftgio6psuvyniis6gco6bp6ekl4cqj4id.onion",
        ]
        let groupWeb = "https://simplex.chat" + Self.group
        expectMarkdown(groupWeb, [simplexLink(.group, Self.group, groupHosts, groupWeb)])
        expectMarkdown(
            "simplex:" + Self.group, [simplexLink(.group, Self.group, groupHosts, "simplex:" + Self.group)])
    }

    @Test func brokenSimplexLinks() {
        // Without e2e keys an invitation is not a link: the web form is then an address, the simplex: form text.
        let noE2E =
            "/invitation#/?v=1&smp=smp%3A%2F%2F1234-w%3D%3D%40smp.simplex.im%2F3456-w%3D%3D%23%2F%3Fv%3D1-2%26dh%3DMCow"
        expectPlain("simplex:" + noE2E)
        expectMarkdown("https://simplex.chat" + noE2E, [uri("https://simplex.chat" + noE2E)])
        expectPlain("simplex:/contact#/?v=2&smp=garbage")
        expectPlain(
            "simplex:/contact#/?v=x&smp=smp%3A%2F%2F1234-w%3D%3D%40smp.simplex.im%2F3456-w%3D%3D%23MCow")
        expectMarkdown(
            "simplex:/contact#/?v=2&smp=smp%3A%2F%2F1234-w%3D%3D%40smp.simplex.im%2F3456-w%3D%3D%23MCow",
            [
                simplexLink(
                    .contact,
                    "/contact#/?v=2&smp=smp%3A%2F%2F1234-w%3D%3D%40smp.simplex.im%2F3456-w%3D%3D%23MCow",
                    ["smp.simplex.im"],
                    "simplex:/contact#/?v=2&smp=smp%3A%2F%2F1234-w%3D%3D%40smp.simplex.im%2F3456-w%3D%3D%23MCow"
                )
            ])
    }

    @Test func punctuationAfterASimplexLinkIsDecodedWithItAsSimpleXDoes() {
        // Markdown.hs decodes the whole word, so a full stop spoils the last key: the simplex:
        // form is then text and the web form a web address.
        expectPlain("simplex:" + Self.contact + ".")
        let web = "https://simplex.chat" + Self.contact
        expectMarkdown(web + ".", [uri(web), plain(".")])
        // After a group link's data it only spoils the data: a contact address.
        let group = "simplex:" + Self.group
        expectMarkdown(
            group + ".",
            [
                simplexLink(
                    .contact, Self.group + ".",
                    ["smp4.simplex.im", "o5vmywmrnaxalvz6wi3zicyftgio6psuvyniis6gco6bp6ekl4cqj4id.onion"],
                    group), plain("."),
            ])
    }

    @Test func emails() {
        expectMarkdown("chat@simplex.chat", [email("chat@simplex.chat")])
        expectMarkdown("test chat+123@simplex.chat", [plain("test "), email("chat+123@simplex.chat")])
        expectMarkdown(
            "test chat.chat+123@simplex.chat", [plain("test "), email("chat.chat+123@simplex.chat")])
        expectMarkdown(
            "test1 chat@simplex.chat test2", [plain("test1 "), email("chat@simplex.chat"), plain(" test2")])
        expectMarkdown(
            "test chat@simplex.chat...", [plain("test "), email("chat@simplex.chat"), plain("...")])
        expectPlain("a..b@example.com")
        expectPlain("name@")
        expectPlain("this is chat @ simplex")
    }

    @Test func phones() {
        expectMarkdown("07777777777", [phone("07777777777")])
        expectMarkdown("test 07777 777 777 test", [plain("test "), phone("07777 777 777"), plain(" test")])
        expectMarkdown("test +447777777777 test", [plain("test "), phone("+447777777777"), plain(" test")])
        expectMarkdown(
            "test +44 (0) 7777 777 777 test", [plain("test "), phone("+44 (0) 7777 777 777"), plain(" test")])
        expectMarkdown(
            "test +44-7777-777-777 test", [plain("test "), phone("+44-7777-777-777"), plain(" test")])
        expectMarkdown(
            "test +44 (0) 7777.777.777 https://simplex.chat test",
            [
                plain("test "), phone("+44 (0) 7777.777.777"), plain(" "), uri("https://simplex.chat"),
                plain(" test"),
            ])
    }

    @Test func numbersThatAreNotPhones() {
        expectPlain("test 077777 test")
        expectPlain("test 07777  777  777 test")
        expectPlain("+ 123 and +x")
        expectPlain("1234567890123456789012345")
        expectMarkdown("*test* 07777  777  777 test", [bold("test"), plain(" 07777  777  777 test")])
    }

    @Test func phoneNumbersAreTakenAsSimpleXTakesThem() {
        // Markdown.hs does not look past the digits: a date or a decimal of 7+ characters is a phone.
        expectMarkdown("on 2024-01-15 at", [plain("on "), phone("2024-01-15"), plain(" at")])
        expectMarkdown("1234567abc", [phone("1234567"), plain("abc")])
    }

    @Test func manyUnclosedLinksAndDigitGroupsStayText() {
        // Inputs that made the first version quadratic; they must come out as typed.
        let brackets = String(repeating: "[a](b ", count: 2000)
        #expect(Markdown.parse(brackets) == [plain(brackets)])
        let nested = String(repeating: "[ ", count: 2000) + "](https://x.io)"
        #expect(
            Markdown.parse(nested) == [
                plain(String(repeating: "[ ", count: 1999)),
                FormattedText("[ ](https://x.io)", .hyperLink(showText: " ", linkUri: "https://x.io")),
            ])
        let digits = String(repeating: "1 ", count: 2000)
        // Each "1" starts a run of digit groups too long for a phone, until 11 are left (21 characters).
        let last = Array(repeating: "1", count: 11).joined(separator: " ")
        #expect(
            Markdown.parse(digits) == [plain(String(repeating: "1 ", count: 1989)), phone(last), plain(" ")])
    }
}
