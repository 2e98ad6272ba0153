import Foundation
import SimpleXChat

extension AppModel {
    /// Keys go to the top overlay; Esc closes it.
    mutating func handleOverlayKey(_ key: KeyInput) -> [AppEffect] {
        guard let top = overlays.popLast() else { return [] }
        if case .control("q") = key { return [.quit] }
        // These take Esc themselves (back a page before closing).
        if case .settings(let screen) = top { return handleSettingsKey(key, screen) }
        if case .contactInfo(let screen) = top { return handleContactInfoKey(key, screen) }
        if case .groupInfo(let screen) = top { return handleGroupInfoKey(key, screen) }
        if case .key(.escape, _) = key {
            // The first-run name cannot be skipped: without a profile there is no chat.
            if case .prompt(let prompt) = top, prompt.kind == .displayName { overlays.append(top) }
            if case .shareTo(let id, _, _) = top { return [.answerShare(id: id, contactId: nil)] }
            return []
        }
        switch top {
        case .help, .qrCode, .settings, .contactInfo, .groupInfo:
            return []
        case .info(let title, let lines, let scroll):
            switch key {
            case .key(.up, _): overlays.append(.info(title: title, lines: lines, scroll: max(0, scroll - 1)))
            case .key(.down, _): overlays.append(.info(title: title, lines: lines, scroll: min(max(0, lines.count - 1), scroll + 1)))
            default: break
            }
            return []
        case .link(let title, let link):
            if case .key(.enter, _) = key { return [.openLink(link)] }
            if case .character("c") = key {
                status = ("copied", false)
                return [.copy(link)]
            }
            if case .character("q") = key {
                overlays.append(.link(title: title, link: link))
                overlays.append(.qrCode(link))
                return []
            }
            overlays.append(.link(title: title, link: link))
            return []
        case .confirm(let question, let effects):
            switch key {
            case .character("y"), .character("Y"): return effects
            case .character("n"), .character("N"): return []
            default:
                overlays.append(.confirm(question: question, effects: effects))
                return []
            }
        case .quickSwitcher(var switcher):
            switch key {
            case .key(.enter, _):
                guard let entry = switcher.choice else { return [] }
                chatList.selectedID = entry.id
                return openSelected()
            case .key(.up, _): switcher.selected = max(0, switcher.selected - 1)
            case .key(.down, _): switcher.selected = min(max(0, switcher.matches.count - 1), switcher.selected + 1)
            default:
                edit(&switcher.query, key)
                switcher.selected = 0
            }
            overlays.append(.quickSwitcher(switcher))
            return []
        case .menu(var menu):
            switch key {
            case .key(.up, _): menu.selected = max(0, menu.selected - 1)
            case .key(.down, _): menu.selected = min(menu.actions.count - 1, menu.selected + 1)
            case .key(.enter, _):
                return runOnChat(menu.actions[menu.selected], menu.item)
            case .character(let character):
                if let action = menu.actions.first(where: { $0.key == character }) { return runOnChat(action, menu.item) }
            default: break
            }
            overlays.append(.menu(menu))
            return []
        case .reactions(var picker):
            var chosen: MsgReactionEmoji?
            switch key {
            case .key(.left, _): picker.selected = max(0, picker.selected - 1)
            case .key(.right, _): picker.selected = min(ReactionPicker.emoji.count - 1, picker.selected + 1)
            case .key(.enter, _): chosen = ReactionPicker.emoji[picker.selected]
            case .character(let digit) where digit.isNumber:
                let index = Int(String(digit))! - 1
                if ReactionPicker.emoji.indices.contains(index) { chosen = ReactionPicker.emoji[index] }
            default: break
            }
            guard let chosen else {
                overlays.append(.reactions(picker))
                return []
            }
            if let groupItem = picker.groupItem, let groupId = picker.groupId {
                return [.reactGroup(groupId: groupId, item: groupItem, emoji: chosen, add: !picker.isMine(chosen))]
            }
            guard let chat, let item = picker.item else { return [] }
            return [.react(contactId: chat.contact.contactId, item: item, emoji: chosen, add: !picker.isMine(chosen))]
        case .reportReason(var picker):
            var chosen: ReportReason?
            switch key {
            case .key(.up, _): picker.selected = max(0, picker.selected - 1)
            case .key(.down, _): picker.selected = min(ReportReasonPicker.reasons.count - 1, picker.selected + 1)
            case .key(.enter, _): chosen = ReportReasonPicker.reasons[picker.selected].reason
            case .character(let digit) where digit.isNumber:
                let index = Int(String(digit))! - 1
                if ReportReasonPicker.reasons.indices.contains(index) { chosen = ReportReasonPicker.reasons[index].reason }
            default: break
            }
            guard let chosen else {
                overlays.append(.reportReason(picker))
                return []
            }
            let title = ReportReasonPicker.reasons.first { $0.reason == chosen }?.title ?? chosen.rawValue
            overlays.append(
                .prompt(
                    TextPrompt(
                        kind: .reportComment(groupId: picker.groupId, item: picker.item, reason: chosen),
                        title: "Report: \(title)",
                        hint: chosen == .other
                            ? "say why (the moderators read it); Enter sends, Esc cancels"
                            : "a comment for the moderators (optional); Enter sends, Esc cancels")))
            return []
        case .forwardTo(let items, var list):
            if list.pickerKey(key) {
                guard let target = list.selected?.contact else { return [] }
                chat?.selectedIds.removeAll()
                status = ("forwarded to \(target.viewName)", false)
                return [.forward(items: items, toContactId: target.contactId)]
            }
            overlays.append(.forwardTo(items: items, list))
            return []
        case .searchResults(let text, let found, var selected):
            switch key {
            case .key(.up, _): selected = max(0, selected - 1)
            case .key(.down, _): selected = min(max(0, found.count - 1), selected + 1)
            case .key(.enter, _):
                guard found.indices.contains(selected) else { return [] }
                let result = found[selected]
                chatList.selectedID = "@\(result.contact.contactId)"
                var effects = open(contact: result.contact, around: result.item.itemId)
                if effects.isEmpty { effects = [.openChat(contactId: result.contact.contactId, around: result.item.itemId)] }
                chat?.highlight = text
                return effects
            default: break
            }
            overlays.append(.searchResults(text: text, found, selected: selected))
            return []
        case .shareTo(let id, let summary, var list):
            if list.pickerKey(key) { return [.answerShare(id: id, contactId: list.selected?.contact?.contactId)] }
            overlays.append(.shareTo(id: id, summary: summary, list))
            return []
        case .request(var dialog):
            var choice: RequestDialog.Choice?
            switch key {
            case .key(.up, _): dialog.selected = max(0, dialog.selected - 1)
            case .key(.down, _): dialog.selected = min(2, dialog.selected + 1)
            case .key(.enter, _): choice = RequestDialog.Choice.allCases[dialog.selected]
            case .character("a"): choice = .accept
            case .character("i"): choice = .acceptIncognito
            case .character("x"): choice = .reject
            default: break
            }
            switch choice {
            case .accept: return [.acceptRequest(dialog.request, incognito: false)]
            case .acceptIncognito: return [.acceptRequest(dialog.request, incognito: true)]
            case .reject: return [.rejectRequest(dialog.request)]
            case nil:
                overlays.append(.request(dialog))
                return []
            }
        case .prompt(var prompt):
            if case .key(.enter, _) = key { return submit(&prompt) }
            if case .key(.tab, _) = key, prompt.kind == .attachFile {
                prompt.field = ComposeState(text: PathCompletion.complete(prompt.field.string))
            } else {
                edit(&prompt.field, key)
            }
            prompt.error = nil
            overlays.append(.prompt(prompt))
            return []
        }
    }

    private mutating func runOnChat(_ action: ItemAction, _ item: ChatItem) -> [AppEffect] {
        guard var chat else { return [] }
        let effects = run(action, on: item, in: &chat)
        self.chat = chat
        return effects
    }

    /// Typing into a one-line field.
    private func edit(_ field: inout ComposeState, _ key: KeyInput) {
        switch key {
        case .character(let character): field.insert(String(character))
        case .paste(let text): field.insert(text.filter { !$0.isNewline })
        case .key(.backspace, _): field.backspace()
        case .key(.delete, _): field.deleteForward()
        case .key(.left, _): field.moveLeft()
        case .key(.right, _): field.moveRight()
        case .key(.home, _), .control("a"): field.moveLineStart()
        case .key(.end, _), .control("e"): field.moveLineEnd()
        case .control("u"): field.deleteToLineStart()
        case .control("w"): field.deleteWordBackward()
        default: break
        }
    }

    /// Enter in a prompt: its value checked, then acted on (a bad value keeps the prompt open
    /// with the reason).
    private mutating func submit(_ prompt: inout TextPrompt) -> [AppEffect] {
        let value = prompt.field.string.trimmingCharacters(in: .whitespaces)
        switch prompt.kind {
        case .newPasscode, .confirmPasscode, .currentPasscode, .selfDestructName:
            return submitPasscodePrompt(&prompt, value: prompt.field.string)
        case .exportPath, .exportPassphrase, .exportPassphraseConfirm, .importPath, .importPassphrase,
            .databasePassphraseCurrent, .databasePassphraseNew, .databasePassphraseConfirm:
            return submitChatDataPrompt(&prompt, value: prompt.field.string)
        case .displayName:
            if let problem = Self.displayNameProblem(value) {
                prompt.error = problem
                overlays.append(.prompt(prompt))
                return []
            }
            return [.createProfile(displayName: value)]
        case .connectLink:
            guard value.hasPrefix("simplex:") || value.hasPrefix("https://simplex.chat/") || value.contains("/invitation#") || value.contains("/contact#")
            else {
                prompt.error = "not a SimpleX link: it starts with simplex:/ or https://simplex.chat/"
                overlays.append(.prompt(prompt))
                return []
            }
            return [.connect(link: value)]
        case .attachFile:
            let path = (value as NSString).expandingTildeInPath
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                prompt.error = "no such file: \(value)"
                overlays.append(.prompt(prompt))
                return []
            }
            guard !isDirectory.boolValue else {
                prompt.error = "\(value) is a directory: choose a file"
                overlays.append(.prompt(prompt))
                return []
            }
            if let groupChat { return [.sendGroupFile(groupId: groupChat.group.groupId, path: path)] }
            guard let chat else { return [] }
            return [.sendFile(contactId: chat.contact.contactId, path: path)]
        case .searchAll:
            guard !value.isEmpty else { return [] }
            return [.searchAll(text: value)]
        case .search:
            guard var chat else { return [] }
            chat.highlight = value.isEmpty ? nil : value
            self.chat = chat
            guard !value.isEmpty else { return [] }
            let search = ChatSearch(contactId: chat.contact.contactId, text: value)
            self.search = search
            return [search.firstRequest]
        case .addServer, .alias, .profileDisplayName, .profileFullName:
            return submitSettingsPrompt(&prompt, value: value)
        case .newGroup, .inviteMembers:
            return submitGroupPrompt(&prompt, value: value)
        case .reportComment(let groupId, let item, let reason):
            guard reason != .other || !value.isEmpty else {
                prompt.error = "a report for another reason says why"
                overlays.append(.prompt(prompt))
                return []
            }
            status = ("reported to the moderators", false)
            return [.reportGroupItem(groupId: groupId, item: item, reason: reason, text: value)]
        }
    }

    /// Why `name` cannot be a display name (`Profile.displayNameProblem`).
    static func displayNameProblem(_ name: String) -> String? { Profile.displayNameProblem(name) }
}

/// Tab completion of a file path typed in the attach prompt.
enum PathCompletion {
    /// `typed` extended by the longest prefix its directory's entries share.
    static func complete(_ typed: String) -> String {
        let expanded = (typed as NSString).expandingTildeInPath
        let directory = expanded.hasSuffix("/") ? expanded : (expanded as NSString).deletingLastPathComponent
        let prefix = expanded.hasSuffix("/") ? "" : (expanded as NSString).lastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory) else { return typed }
        let candidates = names.filter { $0.hasPrefix(prefix) && !$0.hasPrefix(".") || (prefix.hasPrefix(".") && $0.hasPrefix(prefix)) }.sorted()
        guard let first = candidates.first else { return typed }
        var common = first
        for name in candidates.dropFirst() {
            while !name.hasPrefix(common) { common.removeLast() }
        }
        var result = (directory as NSString).appendingPathComponent(common)
        var isDirectory: ObjCBool = false
        if candidates.count == 1, FileManager.default.fileExists(atPath: result, isDirectory: &isDirectory), isDirectory.boolValue {
            result += "/"
        }
        return result
    }
}
