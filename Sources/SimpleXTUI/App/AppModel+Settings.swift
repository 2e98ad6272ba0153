import Foundation
import SimpleXChat
import SimpleXProtocol

extension AppModel {
    /// The settings as the client has them now (the screen's copy).
    var settingsValues: SettingsValues {
        var values = preferences
        values.showPreviews = showPreviews
        values.saveDrafts = saveDrafts
        values.chatLayout = chatSettings.layout
        values.contactReceipts = user?.sendRcptsContacts ?? values.contactReceipts
        values.lock = lock.settings
        return values
    }

    static func isLockPrompt(_ kind: TextPrompt.Kind) -> Bool {
        switch kind {
        case .newPasscode, .confirmPasscode, .currentPasscode, .selfDestructName: true
        default: false
        }
    }

    /// Opens Settings at its root; the relays are loaded for the network page.
    mutating func openSettings() -> [AppEffect] {
        guard let user else { return [] }
        overlays.append(.settings(SettingsScreen(values: settingsValues, profile: user.profile)))
        return [.loadServers]
    }

    /// Opens the contact info of the open chat, or in the list of the selected contact.
    mutating func openContactInfo() -> [AppEffect] {
        if let group = focus == .list ? chatList.selected?.group ?? groupChat?.group : groupChat?.group ?? chatList.selected?.group {
            return [.loadGroupInfo(groupId: group.groupId)]
        }
        let contact =
            focus == .list
            ? chatList.selected?.contact ?? chat?.contact : chat?.contact ?? chatList.selected?.contact
        guard let contact else {
            status = ("open a chat first: its contact's info is shown", true)
            return []
        }
        overlays.append(
            .contactInfo(
                ContactInfoScreen(
                    contact: contact, userReceipts: user?.sendRcptsContacts ?? true,
                    layout: chatLayouts["@\(contact.contactId)"], defaultLayout: chatSettings.layout)))
        return []
    }

    /// The open chat's view settings: its own layout, else the Appearance setting.
    var openChatSettings: ChatViewSettings {
        var settings = chatSettings
        if let contact = chat?.contact, let layout = chatLayouts["@\(contact.contactId)"] { settings.layout = layout }
        settings.userName = user?.profile.displayName ?? settings.userName
        return settings
    }

    /// Applies a changed setting to the running client; the effect writes it.
    mutating func applySetting(_ change: SettingChange) -> [AppEffect] {
        preferences.apply(change)
        switch change {
        case .showPreviews(let on): showPreviews = on
        case .saveDrafts(let on): saveDrafts = on
        case .chatLayout(let layout): chatSettings.layout = layout
        case .theme(let name): chatSettings.theme = Theme.named(currentTheme: name)
        case .contactReceipts(let on): user?.sendRcptsContacts = on
        case .lockDelay(let seconds): lock.settings.delay = seconds
        case .chatItemTTL: break
        case .notificationMode, .previewMode, .acceptImages, .linkPreviews, .encryptLocalFiles, .storeDBPassphrase:
            break
        }
        return [.changeSetting(change)]
    }

    // MARK: - Keys

    mutating func handleSettingsKey(_ key: KeyInput, _ screen: SettingsScreen) -> [AppEffect] {
        var screen = screen
        let outcome = screen.handle(key)
        if outcome != .close { overlays.append(.settings(screen)) }
        switch outcome {
        case .none, .close: return []
        case .change(let change): return applySetting(change)
        case .effect(let effect): return [effect]
        case .error(let message):
            status = (message, true)
            return []
        case .lockNow:
            return lockNow()
        case .data(let action):
            return chatDataAction(action)
        case .prompt(let kind, _) where Self.isChatDataPrompt(kind):
            overlays.append(.prompt(Self.chatDataPrompt(kind)))
            return []
        case .prompt(let kind, let text) where Self.isLockPrompt(kind):
            var prompt = Self.passcodePrompt(kind)
            prompt.field = ComposeState(text: text)
            overlays.append(.prompt(prompt))
            return []
        case .prompt(let kind, let text):
            let (title, hint) =
                switch kind {
                case .addServer:
                    ("Add a relay", "smp://<fingerprint>@<host>[:port], Enter adds it, Esc cancels")
                case .profileDisplayName:
                    ("Your display name", "one word, sent to your contacts; Enter saves, Esc cancels")
                default: ("Your full name", "optional, sent to your contacts; Enter saves, Esc cancels")
                }
            overlays.append(.prompt(TextPrompt(kind: kind, title: title, hint: hint, text: text)))
            return []
        }
    }

    mutating func handleContactInfoKey(_ key: KeyInput, _ screen: ContactInfoScreen) -> [AppEffect] {
        var screen = screen
        let outcome = screen.handle(key)
        if outcome != .close { overlays.append(.contactInfo(screen)) }
        switch outcome {
        case .none, .close: return []
        case .effect(.setChatLayout(let chat, let layout)):
            chatLayouts[chat] = layout
            screen.layout = layout
            overlays[overlays.count - 1] = .contactInfo(screen)
            return [.setChatLayout(chat: chat, layout)]
        case .effect(let effect): return [effect]
        case .prompt(let kind, let text):
            overlays.append(
                .prompt(
                    TextPrompt(
                        kind: kind, title: "Alias for \(screen.contact.localDisplayName)",
                        hint: "shown instead of their name, here only; empty removes it", text: text)))
            return []
        case .confirm(let question, let effect):
            overlays.append(.confirm(question: question, effects: [effect]))
            return []
        }
    }

    /// Enter in a settings or contact info prompt.
    mutating func submitSettingsPrompt(_ prompt: inout TextPrompt, value: String) -> [AppEffect] {
        func reject(_ problem: String) -> [AppEffect] {
            prompt.error = problem
            overlays.append(.prompt(prompt))
            return []
        }
        switch prompt.kind {
        case .addServer:
            let address: SMPServerAddress
            do { address = try SMPServerAddress(value) } catch {
                return reject("not a relay address: \(error)")
            }
            let current = (settingsScreen?.servers ?? []).compactMap { try? SMPServerAddress($0) }
            if current.contains(address) { return reject("this is one of your relays already") }
            return [.addServer(value)]
        case .profileDisplayName:
            if let problem = Self.displayNameProblem(value) { return reject(problem) }
            return [.updateProfile(displayName: value, fullName: user?.profile.fullName ?? "")]
        case .profileFullName:
            return [.updateProfile(displayName: user?.profile.displayName ?? "", fullName: value)]
        case .alias(let contactId):
            return [.setAlias(contactId: contactId, alias: value)]
        default:
            return []
        }
    }

    // MARK: - Results

    /// The settings screen in the overlays (under a prompt, perhaps).
    var settingsScreen: SettingsScreen? {
        for case .settings(let screen) in overlays.reversed() { return screen }
        return nil
    }

    private mutating func updateSettingsScreen(_ change: (inout SettingsScreen) -> Void) {
        for index in overlays.indices {
            if case .settings(var screen) = overlays[index] {
                change(&screen)
                overlays[index] = .settings(screen)
            }
        }
    }

    mutating func applySettingsResult(_ event: AppEvent) -> [AppEffect] {
        switch event {
        case .servers(let servers):
            updateSettingsScreen { screen in
                screen.servers = servers
                if screen.page == .network { screen.selected = min(screen.selected, servers.count + 1) }
            }
        case .serverTested(let server, let failure):
            updateSettingsScreen { $0.serverTests[server] = failure.map { "failed: \($0)" } ?? "OK" }
            status = failure.map { ("\(server): \($0)", true) } ?? ("\(server) answered: OK", false)
        case .notificationStatus(let lines):
            updateSettingsScreen { $0.notificationStatus = Array(lines.dropFirst()) }
        case .profileUpdated(let updated):
            user = updated
            updateSettingsScreen { $0.profile = updated.profile }
            status = ("profile saved: your contacts get it", false)
        case .contactChanged(let contact):
            if chat?.contact.contactId == contact.contactId { chat?.updateContact(contact) }
            for index in overlays.indices {
                if case .contactInfo(var screen) = overlays[index],
                    screen.contact.contactId == contact.contactId
                {
                    screen.contact = contact
                    overlays[index] = .contactInfo(screen)
                }
            }
            return [.loadChatList]
        case .contactDeleted(let contactId):
            overlays.removeAll {
                if case .contactInfo(let screen) = $0 { screen.contact.contactId == contactId } else { false }
            }
            if chat?.contact.contactId == contactId {
                chat = nil
                compose.clear()
                focus = .list
                narrowShowsChat = false
            }
            drafts["@\(contactId)"] = nil
            status = ("contact deleted", false)
            return [.loadChatList]
        default:
            break
        }
        return []
    }
}
