import Foundation
import SimpleXChat

extension AppModel {
    /// Keys on the item cursor: move, and the context actions (seed 000 §7–§8).
    mutating func handleMessagesKey(_ key: KeyInput) -> [AppEffect] {
        guard var chat else {
            focus = .list
            return []
        }
        defer { self.chat = chat }
        switch key {
        case .key(.up, _), .character("k"): chat.moveCursor(-1)
        case .key(.down, _), .character("j"):
            chat.moveCursor(1)
            if chat.cursorItemId == nil { focus = .compose }
        case .key(.pageUp, _): chat.moveCursor(-10)
        case .key(.pageDown, _): chat.moveCursor(10)
        case .key(.home, _), .character("g"): chat.moveCursor(-chat.items.count)
        case .key(.end, _), .character("G"):
            chat.scrollToBottom()
            focus = .compose
        case .wheel(let up): chat.moveCursor(up ? -1 : 1)
        case .character("n") where search?.contactId == chat.contact.contactId,
            .character("N") where search?.contactId == chat.contact.contactId:
            return stepSearch(older: key == .character("n"), in: &chat)
        case .key(.escape, _):
            if !chat.selectedIds.isEmpty {
                chat.selectedIds.removeAll()
            } else {
                chat.cursorItemId = nil
                focus = .compose
            }
        case .key(.enter, _), .character(" "):
            guard let item = chat.cursorItem else { return [] }
            if !chat.selectedIds.isEmpty {
                toggleSelection(item, in: &chat)
                return []
            }
            overlays.append(.menu(ItemMenu(item: item, contactReady: chat.contact.ready)))
        case .character(let character):
            guard let item = chat.cursorItem else { return [] }
            if !chat.selectedIds.isEmpty { return selectionKey(character, in: &chat) }
            guard let action = ItemAction.applicable(to: item, contactReady: chat.contact.ready).first(where: { $0.key == character })
            else {
                if character == "?" { overlays.append(.help) }
                return []
            }
            return run(action, on: item, in: &chat)
        default: break
        }
        return []
    }

    /// Runs a context action on `item` (from its key or the menu).
    mutating func run(_ action: ItemAction, on item: ChatItem, in chat: inout ChatViewState) -> [AppEffect] {
        let contactId = chat.contact.contactId
        switch action {
        case .reply:
            compose.mode = .reply(item)
            focus = .compose
            chat.cursorItemId = nil
        case .edit:
            compose = ComposeState(text: item.text, mode: .edit(item))
            focus = .compose
            chat.cursorItemId = nil
        case .forward:
            overlays.append(.forwardTo(items: [item], ChatListView(entries: chatList.entries.filter { $0.contact?.ready == true })))
        case .copy:
            status = ("copied", false)
            return [.copy(item.text)]
        case .react:
            overlays.append(.reactions(ReactionPicker(item: item)))
        case .info:
            return [.itemInfo(contactId: contactId, item: item)]
        case .select:
            chat.selectedIds = [item.itemId]
        case .saveFile:
            guard let file = item.file else { return [] }
            if file.status == .rcvInvitation { return [.receiveFile(fileId: file.fileId)] }
            guard file.filePath != nil, file.status == .rcvComplete || file.direction == .sent else {
                status = ("the file is not here yet (\(file.status.rawValue.replacingOccurrences(of: "_", with: " ")))", true)
                return []
            }
            return [.saveToDownloads(file: file)]
        case .openFile:
            guard let file = item.file else { return [] }
            return [.openFile(file)]
        case .openLink:
            guard let link = ItemAction.firstLink(in: item.text) else { return [] }
            overlays.append(.link(title: "Open this link?", link: link))
        case .reveal:
            if chat.revealedIds.contains(item.itemId) { chat.revealedIds.remove(item.itemId) } else { chat.revealedIds.insert(item.itemId) }
        case .deleteForMe:
            overlays.append(.confirm(question: "Delete this message for you? (y/n)", effects: [.delete(contactId: contactId, items: [item], forEveryone: false)]))
        case .deleteForEveryone:
            overlays.append(.confirm(question: "Delete this message for everyone? (y/n)", effects: [.delete(contactId: contactId, items: [item], forEveryone: true)]))
        }
        return []
    }

    /// n / N: the next older or newer search result, loaded around it when not in the window;
    /// the next page of results is asked for as the steps near the end of those loaded.
    private mutating func stepSearch(older: Bool, in chat: inout ChatViewState) -> [AppEffect] {
        guard var search, search.contactId == chat.contact.contactId else { return [] }
        let current = chat.cursorItemId.flatMap { search.results.firstIndex(of: $0) } ?? -1
        let (result, request) = search.step(from: current, older: older)
        self.search = search
        let asked = request.map { [$0] } ?? []
        guard let result else {
            status = (older ? (search.loading ? "searching for older results…" : "no older result") : "no newer result", false)
            return asked
        }
        return showSearchResult(result, in: &chat) + asked
    }

    private mutating func toggleSelection(_ item: ChatItem, in chat: inout ChatViewState) {
        if chat.selectedIds.contains(item.itemId) { chat.selectedIds.remove(item.itemId) } else { chat.selectedIds.insert(item.itemId) }
    }

    /// Keys in selection mode: Space/Enter toggles, d deletes, f forwards the selected items.
    private mutating func selectionKey(_ character: Character, in chat: inout ChatViewState) -> [AppEffect] {
        let selected = chat.items.filter { chat.selectedIds.contains($0.itemId) }
        switch character {
        case "d":
            overlays.append(
                .confirm(
                    question: "Delete \(selected.count) message\(selected.count == 1 ? "" : "s") for you? (y/n)",
                    effects: [.delete(contactId: chat.contact.contactId, items: selected, forEveryone: false)]))
        case "f":
            overlays.append(.forwardTo(items: selected, ChatListView(entries: chatList.entries.filter { $0.contact?.ready == true })))
        case "v":
            if let item = chat.cursorItem { toggleSelection(item, in: &chat) }
        default: break
        }
        return []
    }
}
