import Foundation
import Testing

@testable import SimpleXChat
@testable import SimpleXTUI

/// The group info screen (Alt+I in a group) shows the group's preferences and its link: an admin
/// without one makes it with k, and q shows the link as a QR code; a member cannot make one.
struct GroupInfoLinkTests {
    let base = GroupChatTests()

    func group(role: GroupMemberRole) -> ChatGroup {
        var group = base.team()
        group.membership.role = role
        group.profile.preferences = .newGroup
        group.profile.preferences.preferences[.files] = .init(enable: false)
        return group
    }

    func openInfo(_ group: ChatGroup) -> AppModel {
        var app = AppFixture.app()
        _ = app.update(.chatList(ChatListEntry.merging([(group, nil, 0)], into: app.chatList.entries)))
        app.chatList.selectedID = "#7"
        _ = app.update(.key(.key(.enter, [])))
        _ = app.update(.key(.alt("i")))
        _ = app.update(.groupMembers(group, [base.member(2, "bob")]))
        return app
    }

    @Test func anAdminMakesTheLinkAndSeesItsQRCode() {
        var app = openInfo(group(role: .owner))
        var text = AppView().draw(&app).lines.map(\.text)
        #expect(text.contains { $0.contains("Files and media: off") })
        #expect(text.contains { $0.contains("Direct messages: on") })
        #expect(text.contains { $0.contains("k  Create group link") })
        #expect(app.update(.key(.character("q"))) == [])
        #expect(app.update(.key(.character("k"))) == [.createGroupLink(groupId: 7)])
        let link = "simplex:/contact#/?v=2-7&smp=smp%3A%2F%2Fabc%40localhost%2Fq#data=x"
        _ = app.update(.groupLink(groupId: 7, link: link))
        text = AppView().draw(&app).lines.map(\.text)
        #expect(text.contains { $0.contains("Group link: simplex:/contact#/?v=2-7") })
        #expect(!text.contains { $0.contains("k  Create group link") })
        _ = app.update(.key(.character("q")))
        guard case .qrCode(let shown) = app.overlays.last else { return #expect(Bool(false)) }
        #expect(shown == link)
        // Esc closes the QR code; the info screen is still there.
        _ = app.update(.key(.key(.escape, [])))
        guard case .groupInfo = app.overlays.last else { return #expect(Bool(false)) }
    }

    @Test func aMemberCannotMakeTheLink() {
        var app = openInfo(group(role: .member))
        let text = AppView().draw(&app).lines.map(\.text)
        #expect(!text.contains { $0.contains("Create group link") })
        #expect(app.update(.key(.character("k"))) == [])
        #expect(text.contains { $0.contains("Files and media: off") })
    }

    @Test func onAShortScreenTheActionsStayAndThePreferencesGo() {
        let members = (2...30).map { base.member(Int64($0), "member\($0)") }
        let screen = GroupInfoScreen(group: group(role: .owner), members: members)
        let short = screen.lines(width: 60, height: 12).map(\.text)
        #expect(short.count <= 12)
        #expect(
            short.contains { $0.contains("x  Delete group") }
                && short.contains { $0.contains("k  Create group link") })
        #expect(!short.contains { $0.contains("Files and media") })
        let tall = screen.lines(width: 60, height: 40).map(\.text)
        #expect(tall.count <= 40)
        #expect(
            tall.contains { $0.contains("Files and media: off") }
                && tall.contains { $0.contains("x  Delete group") })
    }
}
