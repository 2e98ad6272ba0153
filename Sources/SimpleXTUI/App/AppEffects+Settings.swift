import Foundation
import SimpleXChat
import SimpleXDesktop
import SimpleXProtocol

extension AppEffects {
    /// Settings and contact info: GroupDefaults, the systemd units, the relays, the profile, and
    /// the contact's own settings in the core. Each result comes back as an event.
    func performSettings(_ effect: AppEffect) async throws {
        switch effect {
        case .changeSetting(.notificationMode(let mode)):
            let container = try GroupContainer(path: groupDirectory)
            let receiving = BackgroundReceiving(container: container, environment: environment)
            let bus = try? await DBusConnection.session()
            defer { bus?.close() }
            let (lines, ok) = try await receiving.set(mode, bus: bus)
            report(.notificationStatus(await receiving.report()))
            let last = lines.last ?? ""
            report(ok ? .notice("notifications: \(mode.rawValue) · \(last)") : .failed(last))
        case .changeSetting(.storeDBPassphrase(let on)):
            guard let setPassphraseStored else {
                return report(.failed("the database passphrase cannot be changed from here"))
            }
            try await setPassphraseStored(on)
            report(
                .notice(
                    on
                        ? "database passphrase saved in the keychain: not asked at start"
                        : "database passphrase removed from the keychain: asked at every start; notifications wait for the client"))
        case .changeSetting(.chatItemTTL(let seconds)):
            let deleted = try await chat.setChatItemTTL(seconds)
            report(
                .notice(
                    "delete messages after: \(ChatItemTTL.text(seconds))"
                        + (deleted > 0 ? "; \(deleted) older message\(deleted == 1 ? "" : "s") deleted" : "")))
        case .changeSetting(.contactReceipts(let on)):
            try await chat.setContactReceipts(enable: on, clearOverrides: false)
        case .changeSetting(let change):
            try Self.write(change, to: GroupDefaults(path: groupDirectory + "/groupDefaults.json"))
        case .setChatLayout(let chat, let layout):
            // Only the client writes this key: read, change one chat, write.
            let defaults = GroupDefaults(path: groupDirectory + "/groupDefaults.json")
            var layouts = defaults[.chatLayoutByChat]
            layouts[chat] = layout
            try defaults.set(.chatLayoutByChat, layouts)
        case .loadNotificationStatus:
            let container = try GroupContainer(path: groupDirectory)
            report(
                .notificationStatus(
                    await BackgroundReceiving(container: container, environment: environment).report()))
        case .loadServers:
            report(.servers(try await chat.servers()))
        case .addServer(let text):
            let added = try SMPServerAddress(text)
            var servers = try await chat.servers().map { try SMPServerAddress($0) }
            guard !servers.contains(added) else {
                return report(.failed("\(text) is one of your relays already"))
            }
            servers.append(added)
            try await chat.setServers(servers)
            report(.servers(try await chat.servers()))
            report(.notice("added \(added.hosts.first ?? text): new connections may use it"))
        case .removeServer(let text):
            let removed = try SMPServerAddress(text)
            let servers = try await chat.servers().map { try SMPServerAddress($0) }.filter { $0 != removed }
            guard !servers.isEmpty else {
                return report(.failed("a relay is needed: add another before removing this one"))
            }
            try await chat.setServers(servers)
            report(.servers(try await chat.servers()))
            report(.notice("removed \(removed.hosts.first ?? text): connections made on it stay there"))
        case .testServer(let text):
            let address: SMPServerAddress
            do { address = try SMPServerAddress(text) } catch {
                return report(.serverTested(text, failure: "\(error)"))
            }
            report(.serverTested(text, failure: await ChatController.testServer(address)))
        case .updateProfile(let displayName, let fullName):
            try await chat.updateProfile(displayName: displayName, fullName: fullName)
            report(.profileUpdated(await chat.user))
        case .setAlias(let contactId, let alias):
            let name = try await chat.contact(id: contactId).localDisplayName
            report(.contactChanged(try await chat.setAlias(name, alias: alias)))
        case .setNotifications(let contactId, let setting):
            let contact = try await chat.contact(id: contactId)
            var settings = contact.chatSettings
            settings.enableNtfs = setting
            report(.contactChanged(try await chat.setChatSettings(contact.localDisplayName, settings)))
        case .setReceipts(let contactId, let enable):
            let name = try await chat.contact(id: contactId).localDisplayName
            report(.contactChanged(try await chat.setSendReceipts(name, enable)))
        case .clearChat(let contactId):
            let name = try await chat.contact(id: contactId).localDisplayName
            let contact = try await chat.clearChat(name)
            report(.contactChanged(contact))
            report(.chatOpened(contact, [], firstUnreadId: nil, focusId: nil))
            report(.notice("the chat with \(contact.viewName) is cleared on this device"))
        case .deleteContact(let contactId):
            let name = try await chat.contact(id: contactId).localDisplayName
            try await chat.deleteContact(name)
            report(.contactDeleted(contactId: contactId))
        default:
            break
        }
    }

    /// Writes a GroupDefaults setting (every process reads it from there).
    static func write(_ change: SettingChange, to defaults: GroupDefaults) throws {
        switch change {
        case .notificationMode(let mode): try defaults.set(.notificationMode, mode)
        case .previewMode(let mode): try defaults.set(.ntfPreviewMode, mode)
        case .acceptImages(let on): try defaults.set(.privacyAcceptImages, on)
        case .encryptLocalFiles(let on): try defaults.set(.privacyEncryptLocalFiles, on)
        case .showPreviews(let on): try defaults.set(.privacyShowChatPreviews, on)
        case .saveDrafts(let on): try defaults.set(.privacySaveLastDraft, on)
        case .linkPreviews(let on): try defaults.set(.privacyLinkPreviews, on)
        case .theme(let name): try defaults.set(.currentTheme, name)
        case .chatLayout(let layout): try defaults.set(.chatLayout, layout)
        case .lockDelay(let seconds): try defaults.set(.laLockDelay, seconds)
        case .contactReceipts, .storeDBPassphrase, .chatItemTTL: break
        }
    }

    /// The settings as GroupDefaults has them (at start).
    public static func settings(from defaults: GroupDefaults) -> SettingsValues {
        let snapshot = defaults.snapshot()
        var values = SettingsValues()
        values.notificationMode = snapshot[.notificationMode]
        values.previewMode = snapshot[.ntfPreviewMode]
        values.acceptImages = snapshot[.privacyAcceptImages]
        values.encryptLocalFiles = snapshot[.privacyEncryptLocalFiles]
        values.showPreviews = snapshot[.privacyShowChatPreviews]
        values.saveDrafts = snapshot[.privacySaveLastDraft]
        values.linkPreviews = snapshot[.privacyLinkPreviews]
        values.theme = snapshot[.currentTheme]
        values.chatLayout = snapshot[.chatLayout]
        values.storeDBPassphrase = snapshot[.storeDBPassphrase]
        return values
    }
}
