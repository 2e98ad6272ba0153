import Foundation
import Testing
import TestSupport

@testable import SimpleXChat
@testable import SimpleXShareService

/// Groups in the share's chat picker and desktop dialog: listed after the contacts, greyed (and not
/// chosen) where the user cannot send or the share has files; chosen in the dialog, the text goes
/// to the group through the real relay.
@Suite(.timeLimit(.minutes(3)))
struct SharePickerGroupTests {
    func group(
        _ id: Int64, _ name: String, role: GroupMemberRole = .member, status: GroupMemberStatus = .connected
    )
        -> ChatGroup
    {
        ChatGroup(
            groupId: id, localDisplayName: name, profile: GroupProfile(displayName: name),
            membership: GroupMember(
                groupMemberId: id * 10, groupId: id, memberId: MemberID(bytes: [UInt8(id)]), role: role,
                category: .user, status: status, localDisplayName: "alice",
                profile: Profile(displayName: "alice", fullName: ""), contactId: nil, invitedBy: nil,
                connRequest: nil, agentConnectionID: nil, ready: true))
    }

    @Test func groupsFollowTheContactsAndThoseThatCannotTakeTheShareAreGreyed() {
        let bob = ChatPickerTests().contact(1, "bob")
        let groups = [
            group(1, "team"), group(2, "news", role: .observer), group(3, "club", status: .invited),
        ]
        let text = ChatPicker(contacts: [bob], groups: groups)
        #expect(
            text.lines(.init()).dropFirst() == [
                "> @1 bob", "  #1 #team", "  #2 #news  — you are an observer", "  #3 #club  — not joined yet",
            ])
        #expect(text.choices("tea") == [.group(groups[0])])
        #expect(text.selectable(.group(groups[0])))
        #expect(!text.selectable(.group(groups[1])) && !text.selectable(.group(groups[2])))
        // A share with files: a group that forbids files says so.
        var noFiles = group(4, "quiet")
        noFiles.profile.groupPreferences = ["files": ["enable": "off"]]
        let files = ChatPicker(contacts: [bob], groups: [groups[0], noFiles], files: true)
        #expect(
            files.lines(.init()).dropFirst() == [
                "> @1 bob", "  #1 #team", "  #4 #quiet  — files are prohibited here",
            ])
        #expect(files.selectable(.group(groups[0])))
        #expect(!files.selectable(.group(noFiles)))
        #expect(files.selectable(.contact(bob)))
    }

    @Test func theDialogListsGroupsAfterContactsAndReadsAGroupChoice() {
        let bob = ChatPickerTests().contact(1, "bob")
        let arguments = DialogChooser.arguments(
            for: "zenity", contacts: [bob], groups: [group(3, "team")], items: 1)
        #expect(arguments.suffix(4) == ["@1", "bob", "#3", "#team"])
        #expect(DialogChooser.chosenGroup(from: "#3\n") == 3)
        #expect(DialogChooser.chosenGroup(from: "#3|\n") == 3)
        #expect(DialogChooser.chosenGroup(from: "@1\n") == nil)
        #expect(DialogChooser.chosen(from: "@1\n") == 1)
    }

    /// Started without a terminal, with text: the dialog offers the groups alice can send to (not the
    /// one she observes, nor the one she has not joined), and her choice of #team sends the text there.
    @Test func aGroupChosenInTheDialogGetsTheText() async throws {
        let users = try await ShareEndToEndTests.Users()
        let client = try await users.client()
        try await ShareGroupTests.groups(users, client)
        try await client.quit()
        let bin = try TemporaryDirectory("dialog-bin")
        let recorded = bin.appending("arguments")
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" > \(recorded)\nprintf '#1\\n'\n"
            .write(toFile: bin.appending("zenity"), atomically: true, encoding: .utf8)
        chmod(bin.appending("zenity"), 0o755)
        var environment = CLIUser.environment(users.alice, bus: users.bus)
        environment["PATH"] = bin.path
        environment["XDG_CURRENT_DESKTOP"] = "GNOME"
        let share = try ChildProcess(
            try BuiltProducts.path("simplex-share"), ["--text", "chosen in the dialog"],
            environment: environment)
        share.closeInput()
        #expect(try await share.wait() == 0, "\(share.allErrors)")
        let arguments = try String(contentsOfFile: recorded, encoding: .utf8).split(separator: "\n").map(
            String.init)
        #expect(arguments.suffix(4) == ["@1", "bob", "#1", "#team"], "\(arguments)")
        #expect(share.allOutput.last == "sent 1 item to #team")
        try await users.bob.expectLine(#"\d\d:\d\d #team alice> chosen in the dialog"#)
        try await users.bob.quit()
    }
}
