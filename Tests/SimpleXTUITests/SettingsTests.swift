import Foundation
import Testing

@testable import SimpleXChat
@testable import SimpleXTUI

/// Settings and contact info driven by keys: what is written, what the running client changes,
/// and what the screens draw.
@Suite struct SettingsTests {
    static let relayA = "smp://AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8@localhost:5224"
    static let relayB = "smp://AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8@relay.example.com"

    func press(_ app: inout AppModel, _ keys: KeyInput...) -> [AppEffect] {
        keys.flatMap { app.update(.key($0)) }
    }

    func type(_ app: inout AppModel, _ text: String) {
        for character in text { _ = app.update(.key(.character(character))) }
    }

    func screen(_ app: AppModel) -> SettingsScreen? {
        if case .settings(let screen) = app.overlays.last { screen } else { nil }
    }

    func drawn(_ app: inout AppModel) -> String {
        AppView(layout: AppFixture.layout).draw(&app).lines.map(\.text).joined(separator: "\n")
    }

    /// A fresh GroupDefaults file.
    func temporaryDefaults() throws -> (GroupDefaults, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tui-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return (GroupDefaults(path: dir.appendingPathComponent("groupDefaults.json").path), dir)
    }

    @Test func ctrlSAndCommaOpenSettingsAndEscGoesBackAPageThenCloses() {
        var app = AppFixture.app()
        #expect(press(&app, .control("s")) == [.loadServers])
        #expect(screen(app)?.page == .root)
        #expect(drawn(&app).contains("Your settings"))
        // Down to Notifications, Enter: its page, and the service's state is asked for.
        #expect(press(&app, .key(.down), .key(.enter)) == [.loadNotificationStatus])
        #expect(screen(app)?.page == .notifications)
        #expect(drawn(&app).contains("(•) Instant"))
        _ = press(&app, .key(.escape))
        #expect(screen(app)?.page == .root)
        #expect(screen(app)?.selected == 1, "back on the Notifications row")
        _ = press(&app, .key(.escape))
        #expect(app.overlays.isEmpty)
        // `,` in the list opens it too, but only while no filter is typed.
        #expect(press(&app, .character(",")) == [.loadServers])
        _ = press(&app, .key(.escape))
        type(&app, "al")
        #expect(press(&app, .character(",")).isEmpty)
        #expect(app.chatList.filter == "al,")
    }

    @Test func choosingTheClassicLayoutAppliesItAndWritesGroupDefaults() throws {
        var app = AppFixture.app()
        _ = press(&app, .control("s"))
        for _ in 0..<4 { _ = press(&app, .key(.down)) }
        _ = press(&app, .key(.enter))
        #expect(screen(app)?.page == .appearance)
        // Theme rows first (follow the terminal is chosen), then the layouts.
        #expect(drawn(&app).contains("(•) Follow the terminal"))
        for _ in 0..<4 { _ = press(&app, .key(.down)) }
        let effects = press(&app, .key(.enter))
        #expect(effects == [.changeSetting(.chatLayout(.classic))])
        #expect(app.chatSettings.layout == .classic)
        #expect(drawn(&app).contains("(•) Classic"))
        // Dark theme: Up to it, Space.
        let theme = press(&app, .key(.up), .key(.up), .character(" "))
        #expect(theme == [.changeSetting(.theme("DARK"))])
        #expect(app.chatSettings.theme == .dark)

        let (defaults, dir) = try temporaryDefaults()
        defer { try? FileManager.default.removeItem(at: dir) }
        for case .changeSetting(let change) in effects + theme { try AppEffects.write(change, to: defaults) }
        #expect(defaults[.chatLayout] == .classic)
        #expect(defaults[.currentTheme] == "DARK")
        // Read back at the next start, as another process reads it.
        #expect(AppEffects.settings(from: defaults).chatLayout == .classic)
    }

    @Test func privacyTogglesChangeTheRunningClientAndGroupDefaults() throws {
        var app = AppFixture.app()
        _ = press(&app, .control("s"), .key(.down), .key(.down), .key(.down), .key(.enter))
        #expect(screen(app)?.page == .privacy)
        var effects: [AppEffect] = []
        effects += press(&app, .key(.down), .key(.enter))  // auto-accept images off (below SimpleX Lock)
        effects += press(&app, .key(.down), .character(" "))  // chat previews off
        effects += press(&app, .key(.down), .character(" "))  // drafts off
        effects += press(&app, .key(.down), .key(.enter))  // link previews off
        effects += press(&app, .key(.down), .key(.enter))  // receipts off
        effects += press(&app, .key(.down), .key(.enter))  // local file encryption off
        #expect(
            effects == [
                .changeSetting(.acceptImages(false)), .changeSetting(.showPreviews(false)),
                .changeSetting(.saveDrafts(false)),
                .changeSetting(.linkPreviews(false)), .changeSetting(.contactReceipts(false)),
                .changeSetting(.encryptLocalFiles(false)),
            ])
        #expect(drawn(&app).contains("[ ] Encrypt local files"))
        #expect(!app.showPreviews)
        #expect(!app.saveDrafts)
        #expect(app.user?.sendRcptsContacts == false)
        #expect(drawn(&app).contains("[ ] Auto-accept images"))
        // Toggled again: on.
        #expect(
            press(&app, .key(.up), .key(.up), .key(.up), .key(.up), .key(.enter)) == [
                .changeSetting(.showPreviews(true))
            ])
        #expect(app.showPreviews)

        let (defaults, dir) = try temporaryDefaults()
        defer { try? FileManager.default.removeItem(at: dir) }
        for case .changeSetting(let change) in effects { try AppEffects.write(change, to: defaults) }
        #expect(defaults[.privacyAcceptImages] == false)
        #expect(defaults[.privacyShowChatPreviews] == false)
        #expect(defaults[.privacyEncryptLocalFiles] == false)
        #expect(defaults[.privacySaveLastDraft] == false)
        #expect(defaults[.privacyLinkPreviews] == false)
    }

    @Test func notificationModeAndPreviewAreChosen() {
        var app = AppFixture.app()
        _ = press(&app, .control("s"), .key(.down), .key(.enter))
        #expect(press(&app, .key(.down), .key(.enter)) == [.changeSetting(.notificationMode(.periodic))])
        #expect(app.preferences.notificationMode == .periodic)
        // Down past the heading to the preview modes: hidden.
        #expect(
            press(&app, .key(.down), .key(.down), .key(.enter)) == [.changeSetting(.previewMode(.hidden))])
        _ = app.update(
            .notificationStatus(["notifications: periodic: …", "simplex-nse.service: disabled, inactive"]))
        #expect(drawn(&app).contains("simplex-nse.service: disabled, inactive"))
        // The root row shows the mode.
        _ = press(&app, .key(.escape))
        #expect(drawn(&app).contains("Notifications: periodic"))
    }

    @Test func relaysAreAddedTestedAndRemovedAndABadAddressChangesNothing() {
        var app = AppFixture.app()
        _ = press(&app, .control("s"), .key(.down), .key(.down), .key(.enter))
        _ = app.update(.servers([Self.relayA]))
        #expect(screen(app)?.page == .network)
        #expect(drawn(&app).contains("localhost:5224"))
        // The only relay cannot be removed.
        #expect(press(&app, .character("d")).isEmpty)
        #expect(app.status?.isError == true)
        // Enter tests it; the result is shown beside it.
        #expect(press(&app, .key(.enter)) == [.testServer(Self.relayA)])
        #expect(drawn(&app).contains("testing…"))
        _ = app.update(.serverTested(Self.relayA, failure: "connection refused"))
        #expect(drawn(&app).contains("failed: connection refused"))
        // Add: a bad address is a one-line error in the prompt, nothing is asked of the core.
        _ = press(&app, .character("a"))
        type(&app, "smp://nope")
        #expect(press(&app, .key(.enter)).isEmpty)
        guard case .prompt(let prompt) = app.overlays.last else {
            Issue.record("the prompt closed")
            return
        }
        #expect(prompt.error?.hasPrefix("not a relay address") == true)
        #expect(!(prompt.error ?? "").contains("\n"))
        // A relay already there is refused too.
        _ = press(&app, .control("u"))
        type(&app, Self.relayA)
        #expect(press(&app, .key(.enter)).isEmpty)
        _ = press(&app, .control("u"))
        type(&app, Self.relayB)
        #expect(press(&app, .key(.enter)) == [.addServer(Self.relayB)])
        _ = app.update(.servers([Self.relayA, Self.relayB]))
        #expect(drawn(&app).contains("relay.example.com"))
        // Now one can go: d on the selected (the first) relay.
        #expect(press(&app, .key(.up), .key(.up), .character("d")) == [.removeServer(Self.relayA)])
    }

    @Test func theProfileIsEditedFromSettings() {
        var app = AppFixture.app()
        _ = press(&app, .control("s"), .key(.enter))
        #expect(screen(app)?.page == .profile)
        _ = press(&app, .key(.enter))
        guard case .prompt(let prompt) = app.overlays.last else {
            Issue.record("no prompt")
            return
        }
        #expect(prompt.field.string == "me")
        _ = press(&app, .control("u"))
        type(&app, "new name")
        #expect(press(&app, .key(.enter)).isEmpty, "a display name is one word")
        _ = press(&app, .control("u"))
        type(&app, "alice2")
        #expect(press(&app, .key(.enter)) == [.updateProfile(displayName: "alice2", fullName: "")])
        _ = press(&app, .key(.down), .key(.enter))
        type(&app, "Alice Liddell")
        #expect(press(&app, .key(.enter)) == [.updateProfile(displayName: "me", fullName: "Alice Liddell")])
        var updated = app.user!
        updated.profile = Profile(displayName: "alice2", fullName: "Alice Liddell")
        _ = app.update(.profileUpdated(updated))
        #expect(app.user?.profile.displayName == "alice2")
        #expect(drawn(&app).contains("Display name: alice2"))
    }

    @Test func theSettingsScreenFitsItsBoxAndMarksTheSelectedRow() {
        var values = SettingsValues()
        values.chatLayout = .classic
        var screen = SettingsScreen(
            values: values, profile: Profile(displayName: "me", fullName: "Me Myself"))
        let root = screen.lines(width: 44, height: 12)
        #expect(root.map(\.text).first == " Your settings")
        #expect(root.allSatisfy { $0.width <= 44 })
        #expect(screen.lines(width: 20, height: 12).allSatisfy { $0.width <= 20 })
        #expect(root[1].text.hasPrefix(" ▸ Your profile: me (Me Myself) ›"))
        #expect(root[1].spans.first?.style.attributes.contains(.reverse) == true)
        #expect(root.map(\.text).contains { $0.contains("Appearance: classic layout ›") })
        #expect(root.last?.text.contains("Esc close") == true)
        // A page longer than the box scrolls so the selected row stays in view.
        screen.open(.notifications)
        for _ in 0..<5 { _ = screen.handle(.key(.down)) }
        let short = screen.lines(width: 60, height: 5)
        #expect(short.count == 5)
        #expect(
            short.contains { $0.text.hasPrefix(" ▸ (•) Message: the sender and the text") },
            "\(short.map(\.text))")
        // Headings cannot be selected: Up from the first preview mode skips "Notifications show:".
        for _ in 0..<3 { _ = screen.handle(.key(.up)) }
        #expect(screen.lines(width: 60, height: 20).contains { $0.text.hasPrefix(" ▸ ( ) Off") })
    }

    // MARK: - Contact info

    func openAlice(_ app: inout AppModel) {
        _ = app.update(.key(.key(.enter)))
        _ = app.update(.chatOpened(AppFixture.contact(1, "alice"), [], firstUnreadId: nil, focusId: nil))
    }

    @Test func contactInfoMutesAliasesAndSetsReceipts() {
        var app = AppFixture.app()
        openAlice(&app)
        #expect(press(&app, .alt("i")).isEmpty)
        #expect(drawn(&app).contains("Mute notifications"))
        #expect(press(&app, .character("m")) == [.setNotifications(contactId: 1, .none)])
        var muted = AppFixture.contact(1, "alice")
        muted.enableNtfs = .none
        #expect(app.update(.contactChanged(muted)) == [.loadChatList])
        #expect(drawn(&app).contains("Unmute notifications"))
        #expect(app.chat?.contact.enableNtfs == NotificationChat.NotificationSetting.none)
        #expect(press(&app, .character("m")) == [.setNotifications(contactId: 1, .all)])
        // Receipts: default → on.
        #expect(drawn(&app).contains("Delivery receipts: default (on)"))
        #expect(press(&app, .character("r")) == [.setReceipts(contactId: 1, true)])
        // Alias: a prompt with the current one.
        _ = press(&app, .character("a"))
        type(&app, "Al")
        #expect(press(&app, .key(.enter)) == [.setAlias(contactId: 1, alias: "Al")])
        // Back under it is the contact info; Esc closes it.
        _ = press(&app, .key(.escape))
        #expect(app.overlays.isEmpty)
    }

    /// `l` in the contact info: default → the other layout → the default's own → default. The
    /// open chat is drawn in it at once (sent messages move to the right in classic bubbles),
    /// the other chats keep the Appearance setting, and each change is written.
    @Test func aChatHasALayoutOfItsOwn() {
        var app = AppFixture.app()
        openAlice(&app)
        _ = app.update(
            .chatOpened(
                AppFixture.contact(1, "alice"), [AppFixture.item(1, "hi there", sent: true, at: -60)],
                firstUnreadId: nil, focusId: nil))
        func sentRow(_ app: inout AppModel) -> String? {
            AppView().draw(&app).lines.map(\.text).first { $0.contains("hi there") }
        }
        let terminalRow = sentRow(&app) ?? ""
        _ = press(&app, .alt("i"))
        #expect(drawn(&app).contains("Layout: default (terminal)"))
        #expect(press(&app, .character("l")) == [.setChatLayout(chat: "@1", .classic)])
        #expect(drawn(&app).contains("Layout: classic (this chat)"))
        #expect(press(&app, .character("l")) == [.setChatLayout(chat: "@1", .terminal)])
        #expect(drawn(&app).contains("Layout: terminal (this chat)"))
        #expect(press(&app, .character("l")) == [.setChatLayout(chat: "@1", nil)])
        _ = press(&app, .character("l"))
        _ = press(&app, .key(.escape))
        #expect(app.openChatSettings.layout == .classic)
        let classicRow = sentRow(&app) ?? ""
        let column = { (row: String) in row.distance(from: row.startIndex, to: row.range(of: "hi there")!.lowerBound) }
        #expect(column(classicRow) > column(terminalRow) + 20, "\(terminalRow)\n\(classicRow)")
        // Bob's chat follows the Appearance setting.
        #expect(press(&app, .alt("2")) == [.openChat(contactId: 2, around: nil)])
        _ = app.update(.chatOpened(AppFixture.contact(2, "bob"), [], firstUnreadId: nil, focusId: nil))
        #expect(app.openChatSettings.layout == .terminal)
        // Opened again, alice's info shows her own layout.
        _ = press(&app, .alt("1"))
        _ = app.update(.chatOpened(AppFixture.contact(1, "alice"), [], firstUnreadId: nil, focusId: nil))
        _ = press(&app, .alt("i"))
        #expect(drawn(&app).contains("Layout: classic (this chat)"))
    }

    @Test func clearingAndDeletingAreConfirmedAndDeletingClosesTheChat() {
        var app = AppFixture.app()
        openAlice(&app)
        _ = press(&app, .alt("i"))
        _ = press(&app, .character("c"))
        #expect(drawn(&app).contains("Clear every message with alice"))
        #expect(press(&app, .character("n")).isEmpty, "no clears nothing")
        #expect(press(&app, .character("x")).isEmpty)
        #expect(press(&app, .character("y")) == [.deleteContact(contactId: 1)])
        #expect(app.update(.contactDeleted(contactId: 1)) == [.loadChatList])
        #expect(app.chat == nil)
        #expect(app.focus == .list)
        #expect(app.overlays.isEmpty)
        // Without an open chat (and the list empty) there is nothing to show.
        var empty = AppFixture.app([])
        #expect(press(&empty, .alt("i")).isEmpty)
        #expect(empty.overlays.isEmpty)
        #expect(empty.status?.isError == true)
    }

    @Test func theKeysAreInTheHelpAndTheListHints() {
        var app = AppFixture.app()
        #expect(drawn(&app).contains("Alt+I info · , settings"))
        _ = press(&app, .key(.function(1)))
        let help = drawn(&app)
        #expect(help.contains("Ctrl+S"))
        #expect(help.contains("Alt+I"))
    }
}

extension SettingsTests {
    /// A typed link goes as link content only with a preview: previews off (or a page that
    /// cannot be read) leave the message plain text. The preview itself is in the end-to-end
    /// test (a local HTTP server).
    @Test func aTypedLinkIsPlainTextWithoutPreviewsOrWithoutAPage() throws {
        let (defaults, dir) = try temporaryDefaults()
        defer { try? FileManager.default.removeItem(at: dir) }
        let closed = "look at http://127.0.0.1:9/nothing"
        #expect(AppEffects.messageContent(closed, groupDirectory: dir.path) == .text(closed))
        try defaults.set(.privacyLinkPreviews, false)
        let text = "see https://example.com/page"
        #expect(AppEffects.messageContent(text, groupDirectory: dir.path) == .text(text))
        #expect(AppEffects.messageContent("no link here", groupDirectory: dir.path) == .text("no link here"))
    }
}
