import Foundation
import Testing

@testable import SimpleXChat
@testable import SimpleXTerminal

/// The line mode's moderation commands and lines, as SimpleX's CLI spells them.
struct CLIGroupModerationLinesTests {
    let lines = CLIGroupLinesTests()
    var view: CLIView { lines.view }

    @Test func moderationCommandsParse() throws {
        #expect(
            try CLICommand.parse("\\ #team @cath buy cheap")
                == .moderateGroup("team", member: "cath", text: "buy cheap"))
        #expect(try CLICommand.parse("\\ #team buy cheap") == .deleteGroup("team", text: "buy cheap"))
        #expect(
            try CLICommand.parse("/block for all #team cath")
                == .blockForAll(group: "team", member: "cath", blocked: true))
        #expect(
            try CLICommand.parse("/unblock for all #team @cath")
                == .blockForAll(group: "team", member: "cath", blocked: false))
        #expect(
            try CLICommand.parse("/report #team @cath spam buy cheap")
                == .reportGroup("team", member: "cath", reason: .spam, text: "buy cheap"))
        #expect(
            try CLICommand.parse("/report #team content rude")
                == .reportGroup("team", member: nil, reason: .content, text: "rude"))
        // Bad input: one clear line each.
        #expect(throws: CLIParseError("usage: \\ #group @member text")) {
            try CLICommand.parse("\\ #team @cath")
        }
        #expect(throws: CLIParseError("usage: /block for all #group member")) {
            try CLICommand.parse("/block for all #team")
        }
        #expect(
            throws: CLIParseError("usage: /report #group [@member] spam|content|community|profile|other text")
        ) {
            try CLICommand.parse("/report #team rude words")
        }
    }

    @Test func moderatedBlockedAndReportedItemsAsSimplexPrintsThem() {
        let cath = lines.member("cath", .pre, .connected)
        let bob = lines.member("bob", role: .moderator, .pre, .connected)
        var item = lines.item(cath, .text("buy cheap pills"))
        item.moderation = .marked(by: bob)
        #expect(
            view.groupItem(item, group: lines.team) == [
                "07:59 #team cath> [marked deleted by bob] buy cheap pills"
            ])
        item.moderation = .marked(by: nil)
        #expect(
            view.groupItem(item, group: lines.team) == [
                "07:59 #team cath> [marked deleted by you] buy cheap pills"
            ])
        var removed = lines.item(cath, .text(""))
        removed.moderation = .removed(by: bob)
        #expect(view.groupItem(removed, group: lines.team) == ["07:59 #team cath> [moderated by bob]"])
        item.moderation = .blocked
        #expect(
            view.groupItem(item, group: lines.team) == [
                "07:59 #team cath> buy cheap pills [blocked by admin] <muted>"
            ])
        var report = lines.item(cath, .report(text: "", reason: .spam))
        report.quote = GroupItemQuote(
            sharedMsgId: nil, member: bob, memberId: bob.memberId, content: .text("hi"))
        #expect(
            view.groupItem(report, group: lines.team) == ["07:59 #team cath> > bob hi", "      report spam"])
        #expect(
            view.groupEvent(.memberBlocked(lines.team, by: bob, cath, blocked: true)) == [
                "#team: bob blocked cath"
            ])
        #expect(
            view.groupEvent(.memberBlocked(lines.team, by: bob, cath, blocked: false)) == [
                "#team: bob unblocked cath"
            ])
        #expect(view.groupPreviewText(report) == "cath> report spam")
        #expect(view.groupPreviewText(item) == "cath> [blocked by admin]")
        var blocked = cath
        blocked.blockedByAdmin = true
        #expect(view.groupMembers(lines.team, [blocked]).last == "cath: member, connected, blocked by admin")
    }
}
