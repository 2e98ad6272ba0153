import SimpleXChat
import Testing

@testable import SimpleXTerminal

/// The group link, profile, preference and member-message commands parse as SimpleX's CLI
/// spells them, bad ones with a one-line reason; and the lines printed for link joins, profile
/// changes and member contacts are SimpleX's.
@Suite struct CLIGroupAdminTests {
    @Test func commandsParse() throws {
        let cases: [(String, GroupAdminCommand)] = [
            ("/create link #team", .createLink("team", role: .member)),
            ("/create link #team observer", .createLink("team", role: .observer)),
            ("/show link #team", .showLink("team")),
            ("/delete link #team", .deleteLink("team")),
            ("/set link role #team observer", .setLinkRole("team", role: .observer)),
            ("/gp team", .showProfile("team")),
            (
                "/group_profile team club The Club",
                .updateProfile("team", displayName: "club", fullName: "The Club")
            ),
            ("/set welcome #team Hello, all of you", .setWelcome("team", text: "Hello, all of you")),
            ("/set welcome team Hi", .setWelcome("team", text: "Hi")),
            ("/delete welcome #team", .setWelcome("team", text: nil)),
            ("/set files #team off", .setPreference("team", .files, on: false, role: nil, ttl: nil)),
            ("/set direct #team on", .setPreference("team", .directMessages, on: true, role: nil, ttl: nil)),
            ("/set voice #team on admin", .setPreference("team", .voice, on: true, role: .admin, ttl: nil)),
            (
                "/set disappear #team on 30s",
                .setPreference("team", .timedMessages, on: true, role: nil, ttl: 30)
            ),
            (
                "/set disappear #team week",
                .setPreference("team", .timedMessages, on: true, role: nil, ttl: 604_800)
            ),
            ("/set delete #team on", .setPreference("team", .fullDelete, on: true, role: nil, ttl: nil)),
            ("@#team bob hi there", .sendToMember(group: "team", member: "bob", text: "hi there")),
        ]
        for (line, expected) in cases {
            #expect(try CLICommand.parse(line) == .groupAdmin(expected), "\(line)")
        }
        // A file to a group is the group files command; other `/set` and `/f` lines are what they were.
        #expect(try CLICommand.parse("/f #team /tmp/a.txt") == .sendGroupFile("team", path: "/tmp/a.txt"))
        #expect(try CLICommand.parse("/f @bob /tmp/a.txt") == .sendFile(to: "bob", path: "/tmp/a.txt"))
        #expect(try CLICommand.parse("/delete @bob") == .deleteContact("bob"))
    }

    @Test func badCommandsSayWhatIsWrong() {
        let cases: [(String, String)] = [
            ("/create link #team admin", "a group link makes members observer or member, not admin"),
            ("/create link", "usage: /create link #<group> [observer|member]"),
            ("/set files #team maybe", "usage: /set <feature> #team on|off [role]"),
            (
                "/set teleport #team on",
                "unknown group preference teleport: delete, direct, disappear, files, history, links, reactions, reports, support, voice"
            ),
            ("/set files #team on king", "usage: /set <feature> #team on|off [role]: king?"),
            ("/set welcome #team", "usage: /set welcome #<group> <text>"),
            ("@#team bob", "usage: @#<group> <member> <message>"),
        ]
        for (line, message) in cases {
            #expect(throws: CLIParseError(message), "\(line)") { try CLICommand.parse(line) }
        }
    }

    @Test func profileChangesAsSimplexPrintsThem() {
        let view = CLIView()
        var from = GroupProfile(displayName: "team", fullName: "")
        from.preferences = .newGroup
        var to = from
        to.displayName = "club"
        to.fullName = "The Club"
        to.description = "Welcome!"
        to.preferences.preferences[.files] = .init(enable: false)
        #expect(
            view.groupProfileChanges(from: from, to: to) == [
                "changed to #club", "description changed to: The Club", "welcome message changed to:",
                "Welcome!",
                "updated group preferences:", "Files and media: off",
            ])
        #expect(view.groupProfileChanges(from: to, to: to).isEmpty)
    }
}
