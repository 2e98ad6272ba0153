import Foundation
import SimpleXChat

extension AppModel {
    /// Applies `event`; returns what the edge must do. Pure: no I/O, the clock comes in events.
    public mutating func update(_ event: AppEvent) -> [AppEffect] {
        switch event {
        case .key(let key):
            if case .focus(let focused) = key {
                terminalFocused = focused
                // "Lock after: immediately": the terminal left the user's sight.
                return !focused && lock.settings.delay == 0 ? lockNow() : []
            }
            if lock.locked { return handleLockKey(key) }
            status = nil
            return handleKey(key)
        case .resize(let width, let height):
            self.width = max(1, width)
            self.height = max(1, height)
            return []
        case .tick(let date):
            now = date
            return []
        case .terminalClosed:
            return quit()
        case .lockIdle:
            return lockNow()
        case .passcodeChecked(let verdict):
            return passcodeChecked(verdict)
        case .lockChanged(let settings, let note, let isError):
            return lockChanged(settings, note: note, isError: isError)
        case .chatDataChanged(let running, let usage, let note, let isError):
            return chatDataChanged(running: running, usage: usage, note: note, isError: isError)
        default:
            return apply(event)
        }
    }

    // MARK: - Keys

    mutating func handleKey(_ key: KeyInput) -> [AppEffect] {
        if !overlays.isEmpty { return handleOverlayKey(key) }
        // Keys that work everywhere.
        switch key {
        case .control("q"):
            return quit()
        case .control("c"):
            if focus == .compose, !compose.text.isEmpty {
                compose.clear()
                return []
            }
            return quit()
        case .control("z"):
            return [.suspend]
        case .control("k"):
            overlays.append(.quickSwitcher(QuickSwitcher(entries: chatList.entries)))
            return []
        case .control("n"):
            return [.createInvitation]
        case .control("o"):
            overlays.append(.prompt(TextPrompt(kind: .connectLink, title: "Connect via link", hint: "paste a SimpleX invitation or address link, Enter to connect")))
            return []
        case .key(.function(1), _):
            overlays.append(.help)
            return []
        case .alt(let digit) where digit.isNumber && digit != "0":
            chatList.select(index: Int(String(digit))! - 1)
            return openSelected()
        case .alt("u"):
            chatList.unreadOnly.toggle()
            return []
        case .alt("a"):
            return [.showAddress]
        case .alt("g"):
            overlays.append(.prompt(TextPrompt(kind: .newGroup, title: "New group", hint: "the group's name, Enter creates it")))
            return []
        case .control("s"):
            return openSettings()
        case .alt("i"):
            return openContactInfo()
        case .key(.tab, let modifiers):
            // After `@` in a group's compose field Tab completes a member's name; else it moves focus.
            if modifiers.isEmpty, focus == .compose, let group = groupChat, Self.mentionPrefix(compose) != nil {
                completeMention(group)
                return []
            }
            return cycleFocus(backwards: modifiers.contains(.shift))
        case .click(let row, let column):
            return click(row: row, column: column)
        case .rightClick(let row, let column):
            return click(row: row, column: column, menu: true)
        default:
            break
        }
        switch focus {
        case .list: return handleListKey(key)
        case .compose: return handleComposeKey(key)
        case .messages: return groupChat.map { handleGroupMessagesKey(key, $0) } ?? handleMessagesKey(key)
        }
    }

    /// A click: on a chat in the list opens it; on a message puts the item cursor on it (a
    /// second click, or a right click, opens its actions menu); elsewhere in the chat it
    /// focuses the compose field.
    private mutating func click(row: Int, column: Int, menu: Bool = false) -> [AppEffect] {
        let listShown = !isNarrow || !narrowShowsChat || chat == nil
        let listWidth = isNarrow ? width : AppView.listWidth(width)
        if listShown, column < listWidth {
            // The list's header is row 0; each chat takes two rows.
            guard row >= 1 else { return [] }
            let index = chatList.scrollTop + (row - 1) / 2
            let shown = chatList.visible
            guard shown.indices.contains(index) else { return [] }
            chatList.selectedID = shown[index].id
            focus = .list
            return openSelected()
        }
        guard var chat else { return [] }
        // The chat's header is row 0; its message area starts below it.
        guard let hit = chat.drawnRows.first(where: { $0.rows.contains(row - 1) }) else {
            focus = .compose
            return []
        }
        let again = focus == .messages && chat.cursorItemId == hit.itemId
        chat.cursorItemId = hit.itemId
        self.chat = chat
        focus = .messages
        return menu || again ? handleMessagesKey(.key(.enter)) : []
    }

    /// Alt+C: all items → images → videos → voice → files → links → all again.
    private mutating func cycleFilter(in chat: inout ChatViewState) -> [AppEffect] {
        let order: [ChatContentFilter?] = [nil] + ChatContentFilter.allCases.map { $0 }
        let index = order.firstIndex { $0 == chat.filter } ?? 0
        chat.filter = order[(index + 1) % order.count]
        chat.removeAll()
        chat.loading = true
        status = (chat.filter.map { "only \($0.rawValue): Alt+C for the next kind" } ?? "every message again", false)
        return [.openFiltered(contactId: chat.contact.contactId, filter: chat.filter)]
    }

    mutating func quit() -> [AppEffect] {
        running = false
        return saveDraftEffects() + [.quit]
    }

    private mutating func cycleFocus(backwards: Bool) -> [AppEffect] {
        guard chat != nil || groupChat != nil else {
            focus = .list
            return []
        }
        switch focus {
        case .list:
            focus = .compose
            narrowShowsChat = true
        case .compose, .messages:
            chat?.cursorItemId = nil
            focus = .list
            narrowShowsChat = false
        }
        return []
    }

    // MARK: - Chat list

    mutating func handleListKey(_ key: KeyInput) -> [AppEffect] {
        switch key {
        case .key(.up, _): chatList.move(-1)
        case .key(.down, _): chatList.move(1)
        case .key(.pageUp, _): chatList.move(-8)
        case .key(.pageDown, _): chatList.move(8)
        case .key(.home, _): chatList.move(-chatList.entries.count)
        case .key(.end, _): chatList.move(chatList.entries.count)
        case .key(.enter, _): return openSelected()
        case .key(.right, _) where chat != nil:
            focus = .compose
            narrowShowsChat = true
        case .key(.backspace, _):
            if !chatList.filter.isEmpty { chatList.filter.removeLast() }
        case .key(.escape, _):
            chatList.filter = ""
        case .character("?") where chatList.filter.isEmpty:
            overlays.append(.help)
        case .control("f"):
            overlays.append(.prompt(TextPrompt(kind: .searchAll, title: "Search all chats", hint: "Enter finds, Esc closes")))
        case .character(",") where chatList.filter.isEmpty:
            return openSettings()
        case .character(let character):
            chatList.filter.append(character)
            chatList.selectedID = chatList.visible.first?.id
        case .paste(let text):
            chatList.filter += text.filter { !$0.isNewline }
        case .wheel(let up): chatList.move(up ? -1 : 1)
        default: break
        }
        return []
    }

    /// Opens the selected entry: a chat, or for a request its accept dialog.
    mutating func openSelected() -> [AppEffect] {
        guard let entry = chatList.selected else { return [] }
        switch entry.kind {
        case .contact(let contact):
            chatList.filter = ""
            chatList.selectedID = entry.id
            return open(contact: contact, around: nil)
        case .request(let request):
            overlays.append(.request(RequestDialog(request: request)))
            return []
        case .pending:
            status = ("waiting for the other side to use your link; Ctrl+N makes a new one", false)
            return []
        case .group(let group):
            return open(group: group)
        }
    }

    /// Opens `contact`'s chat (keeping the draft of the one left), at its first unread item or
    /// `around` an item (a search result, a notification).
    mutating func open(contact: ChatContact, around: Int64?) -> [AppEffect] {
        var effects = saveDraftEffects()
        if let current = chat, current.contact.contactId == contact.contactId, around == nil {
            focus = .compose
            narrowShowsChat = true
            return effects
        }
        let id = "@\(contact.contactId)"
        groupChat = nil
        compose = ComposeState(text: saveDrafts ? drafts[id] ?? "" : "")
        chat = ChatViewState(contact: contact, items: [])
        chat?.loading = true
        focus = .compose
        narrowShowsChat = true
        effects.append(.openChat(contactId: contact.contactId, around: around))
        return effects
    }

    private mutating func saveDraftEffects() -> [AppEffect] {
        guard let chat, saveDrafts else { return [] }
        let text = compose.string
        let previous = drafts[chat.id]
        drafts[chat.id] = text.isEmpty ? nil : text
        return previous == drafts[chat.id] ? [] : [.saveDraft(chatId: chat.id, text: drafts[chat.id])]
    }

    // MARK: - Compose

    mutating func handleComposeKey(_ key: KeyInput) -> [AppEffect] {
        if let groupChat { return handleGroupComposeKey(key, groupChat) }
        guard var chat else {
            focus = .list
            return []
        }
        defer { self.chat = chat }
        switch key {
        case .key(.enter, let modifiers) where modifiers.contains(.shift) || modifiers.contains(.alt):
            compose.newline()
        case .alt("\r"), .alt("\n"), .control("j"):
            compose.newline()
        case .key(.enter, _):
            return send(in: &chat)
        case .paste(let text):
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if let path = Self.pastedFilePath(trimmed) {
                overlays.append(.prompt(TextPrompt(kind: .attachFile, title: "Attach this file?", hint: "Enter sends it, Esc cancels", text: path)))
            } else {
                compose.insert(text)
            }
        case .character(let character): compose.insert(String(character))
        case .key(.backspace, _): compose.backspace()
        case .key(.delete, _): compose.deleteForward()
        case .control("w"): compose.deleteWordBackward()
        case .control("u"): compose.deleteToLineStart()
        case .key(.left, let modifiers): modifiers.contains(.control) ? compose.moveWordLeft() : compose.moveLeft()
        case .key(.right, let modifiers): modifiers.contains(.control) ? compose.moveWordRight() : compose.moveRight()
        case .alt("b"): compose.moveWordLeft()
        case .alt("f"): compose.moveWordRight()
        case .key(.home, _), .control("a"): compose.moveLineStart()
        case .key(.end, _), .control("e"): compose.moveLineEnd()
        case .key(.up, _):
            if !compose.moveUp(), compose.text.isEmpty || compose.mode != .new {
                focus = .messages
                chat.moveCursor(-1)
            }
        case .key(.down, _): _ = compose.moveDown()
        case .key(.pageUp, _): chat.scrollBy(max(1, height / 2))
        case .key(.pageDown, _): chat.scrollBy(-max(1, height / 2))
        case .wheel(let up): chat.scrollBy(up ? 3 : -3)
        case .key(.escape, _):
            if compose.mode != .new {
                if case .edit = compose.mode { compose.clear() } else { compose.mode = .new }
            } else if isNarrow {
                narrowShowsChat = false
                focus = .list
            } else {
                focus = .list
            }
        case .control("x"):
            return [.openEditor(compose.string)]
        case .control("t"):
            overlays.append(.prompt(TextPrompt(kind: .attachFile, title: "Attach a file", hint: "a path (Tab completes), Enter sends, Esc cancels")))
        case .alt("c"):
            return cycleFilter(in: &chat)
        case .control("f"):
            overlays.append(.prompt(TextPrompt(kind: .search, title: "Search in \(chat.contact.viewName)", hint: "Enter finds, Esc closes")))
        default: break
        }
        return []
    }

    private mutating func send(in chat: inout ChatViewState) -> [AppEffect] {
        guard !compose.isEmpty else { return [] }
        guard compose.remaining >= 0 else {
            status = ("the message is \(-compose.remaining) bytes over the limit", true)
            return []
        }
        let text = compose.string
        let contactId = chat.contact.contactId
        let effect: AppEffect
        switch compose.mode {
        case .new: effect = .send(contactId: contactId, text: text, quoting: nil)
        case .reply(let item): effect = .send(contactId: contactId, text: text, quoting: item)
        case .edit(let item): effect = .edit(contactId: contactId, item: item, text: text)
        }
        compose.clear()
        chat.scrollToBottom()
        var effects = [effect]
        if saveDrafts, drafts.removeValue(forKey: chat.id) != nil { effects.append(.saveDraft(chatId: chat.id, text: nil)) }
        return effects
    }

    /// A pasted (or dropped) absolute path or `file://` URI of an existing file.
    static func pastedFilePath(_ text: String) -> String? {
        guard !text.contains("\n") else { return nil }
        var path = text
        if path.hasPrefix("file://") {
            path = String(path.dropFirst("file://".count))
            if !path.hasPrefix("/") { path = String(path.drop { $0 != "/" }) }
            path = path.removingPercentEncoding ?? path
        } else if path.count >= 2, path.first == "'", path.last == "'" {
            path = String(path.dropFirst().dropLast())
        }
        guard path.hasPrefix("/") else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
        return path
    }
}
