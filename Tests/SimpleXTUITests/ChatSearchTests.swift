import Foundation
import Testing

@testable import SimpleXChat
@testable import SimpleXTUI

/// Search in a chat a page at a time: a small first page, the next asked for as n nears the end
/// of those loaded, and a page of a search since replaced never shown.
struct ChatSearchTests {
    /// Items `ids` (newest first, as search returns them) of alice's chat.
    static func found(_ ids: [Int64]) -> [ChatItem] { ids.map { AppFixture.item($0, "lunch \($0)") } }

    /// Alice's chat open with items 900...1000, a search for "lunch" submitted; its effects.
    static func searched(_ app: inout AppModel) -> [AppEffect] {
        _ = app.update(.key(.key(.enter)))
        _ = app.update(
            .chatOpened(
                AppFixture.contact(1, "alice"), Self.found(Array(900...1000)), firstUnreadId: nil,
                focusId: nil))
        _ = app.update(.key(.control("f")))
        for character in "lunch" { _ = app.update(.key(.character(character))) }
        return app.update(.key(.key(.enter)))
    }

    @Test func theFirstPageIsSmallAndSaysMoreMayCome() {
        var app = AppFixture.app()
        #expect(
            Self.searched(&app) == [
                .search(contactId: 1, text: "lunch", before: nil, count: ChatSearch.firstPage)
            ])
        let firstPage = Self.found(stride(from: 1000, to: 1000 - 20 * 5, by: -5).map { $0 })
        #expect(
            app.update(.searchResults(contactId: 1, text: "lunch", before: nil, firstPage, more: true))
                .isEmpty)
        #expect(app.status?.text == "20+ found for “lunch”: n / N next and previous")
        #expect(app.chat?.cursorItemId == 1000)
        #expect(app.focus == .messages)
    }

    @Test func steppingNearTheEndAsksForTheNextPageAndPastItMovesOnWhenItComes() {
        var app = AppFixture.app()
        _ = Self.searched(&app)
        let first: [Int64] = stride(from: 1000, to: 900, by: -5).map { $0 }  // 20 results, 1000…905
        _ = app.update(
            .searchResults(contactId: 1, text: "lunch", before: nil, Self.found(first), more: true))
        var asked: [AppEffect] = []
        // n to result 15 of 20: no page yet; to 16 (5 left) the next page is asked for, once.
        for _ in 0..<14 { asked += app.update(.key(.character("n"))) }
        #expect(asked.isEmpty)
        #expect(app.status?.text == "result 15 of 20+")
        for _ in 0..<5 { asked += app.update(.key(.character("n"))) }
        #expect(asked == [.search(contactId: 1, text: "lunch", before: 905, count: ChatSearch.nextPage)])
        #expect(app.chat?.cursorItemId == 905)
        // Past the last while the page is on its way: it moves on when the page comes.
        #expect(app.update(.key(.character("n"))).isEmpty)
        #expect(app.status?.text == "searching for older results…")
        let next = app.update(
            .searchResults(contactId: 1, text: "lunch", before: 905, Self.found([880, 870]), more: false))
        #expect(next == [.openChat(contactId: 1, around: 880)], "880 is older than the window")
        #expect(app.chat?.cursorItemId == 880)
        #expect(app.status?.text == "result 21 of 22")
        _ = app.update(.key(.character("n")))
        _ = app.update(.key(.character("n")))
        #expect(app.status?.text == "no older result")
        // N goes back through them all, newest last.
        for _ in 0..<21 { _ = app.update(.key(.character("N"))) }
        #expect(app.chat?.cursorItemId == 1000)
        _ = app.update(.key(.character("N")))
        #expect(app.status?.text == "no newer result")
    }

    @Test func aPageForASearchSinceReplacedIsDropped() {
        var app = AppFixture.app()
        _ = Self.searched(&app)
        // A new search before the first answered: "lunch"'s page no longer counts.
        _ = app.update(.key(.control("f")))
        for character in "noon" { _ = app.update(.key(.character(character))) }
        #expect(
            app.update(.key(.key(.enter))) == [.search(contactId: 1, text: "noon", before: nil, count: 20)])
        _ = app.update(
            .searchResults(contactId: 1, text: "lunch", before: nil, Self.found([1000, 995]), more: false))
        #expect(app.searchResults.isEmpty)
        #expect(app.chat?.cursorItemId == nil)
        _ = app.update(
            .searchResults(contactId: 1, text: "noon", before: nil, Self.found([990]), more: false))
        #expect(app.searchResults == [990])
        #expect(app.status?.text == "1 found for “noon”: n / N next and previous")
    }

    @Test func aPageThatFailedIsAskedForAgainAtTheNextStep() {
        var app = AppFixture.app()
        _ = Self.searched(&app)
        let first: [Int64] = [1000, 995]
        _ = app.update(
            .searchResults(contactId: 1, text: "lunch", before: nil, Self.found(first), more: true))
        #expect(
            app.update(.key(.character("n"))) == [
                .search(contactId: 1, text: "lunch", before: 995, count: 100)
            ])
        _ = app.update(.failed("the database is locked"))
        #expect(
            app.update(.key(.character("n"))) == [
                .search(contactId: 1, text: "lunch", before: 995, count: 100)
            ])
    }

    @Test func nothingFoundIsSaid() {
        var app = AppFixture.app()
        _ = Self.searched(&app)
        _ = app.update(.searchResults(contactId: 1, text: "lunch", before: nil, [], more: false))
        #expect(app.status?.text == "nothing found for “lunch”")
    }
}
