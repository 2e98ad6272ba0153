import Foundation
import SimpleXChat

/// The whole screen drawn from the state: the chat list and the chat side by side (one at a
/// time below 80 columns), the compose field, the status or key hint line, overlays on top.
public struct AppView: Sendable {
    public var theme = AppTheme()
    /// The items' layout: the chat view's (`ChatViewLayout`, cached) unless a test gives its own.
    let layout: ItemLayouter?
    let layouter: ChatItemLayouter
    let listRows = ChatListRowCache()

    public init(layout: ItemLayouter? = nil, theme: AppTheme = AppTheme(), symbols: SymbolSet = .unicode) {
        self.layout = layout
        self.theme = theme
        layouter = ChatItemLayouter(symbols: symbols)
    }

    /// Rows of the screen and where the cursor goes (nil: hidden).
    public struct Screen {
        public var lines: [StyledLine]
        public var cursor: (row: Int, column: Int)?
        /// Set when the open chat's view nears the oldest (or newest) item it holds: the next
        /// page is due (`AppModel.pageRequest`).
        public var wantsOlder = false
        public var wantsNewer = false
        /// The chat shows the oldest (or newest) item it holds, and more exist: a page asked
        /// for now is waited for.
        public var reachedEnd = false
    }

    /// Width of the chat list beside the chat.
    static func listWidth(_ width: Int) -> Int { min(36, max(24, width / 4)) }

    public func draw(_ state: inout AppModel) -> Screen {
        let width = max(1, state.width)
        let height = max(1, state.height)
        // SimpleX Lock: nothing of the chats, the overlays or the status line is drawn.
        if state.lock.locked { return lockScreen(state.lock, width: width, height: height) }
        let bodyHeight = max(1, height - 1)
        var screen = Screen(lines: [], cursor: nil)
        var listStyle = theme.list
        listStyle.showPreviews = state.showPreviews
        if state.isNarrow {
            if state.narrowShowsChat, state.chat != nil {
                screen = drawChat(&state, width: width, height: bodyHeight, column: 0)
            } else if state.narrowShowsChat, state.groupChat != nil {
                screen = drawGroupChat(&state, width: width, height: bodyHeight, column: 0)
            } else {
                screen.lines = state.chatList.lines(
                    width: width, height: bodyHeight, style: listStyle, now: state.now, cache: listRows)
            }
        } else {
            let listWidth = Self.listWidth(width)
            let list = state.chatList.lines(
                width: listWidth, height: bodyHeight, style: listStyle, now: state.now, cache: listRows)
            var right: Screen
            if state.chat != nil {
                right = drawChat(&state, width: width - listWidth - 1, height: bodyHeight, column: listWidth + 1)
            } else if state.groupChat != nil {
                right = drawGroupChat(&state, width: width - listWidth - 1, height: bodyHeight, column: listWidth + 1)
            } else {
                right = Screen(lines: welcome(width: width - listWidth - 1, height: bodyHeight, state: state), cursor: nil)
            }
            let divider = Span("│", Style(foreground: state.focus == .list ? theme.accent : theme.secondary))
            screen.wantsOlder = right.wantsOlder
            screen.wantsNewer = right.wantsNewer
            screen.reachedEnd = right.reachedEnd
            screen.cursor = right.cursor
            for row in 0..<bodyHeight {
                var line = (row < list.count ? list[row] : StyledLine()).truncated(to: listWidth).padded(to: listWidth)
                line.append(divider)
                if row < right.lines.count { line.append(right.lines[row]) }
                screen.lines.append(line)
            }
            if state.focus == .list { screen.cursor = nil }
        }
        while screen.lines.count < bodyHeight { screen.lines.append(StyledLine()) }
        screen.lines = Array(screen.lines.prefix(bodyHeight))
        screen.lines.append(bottomLine(state, width: width))
        if case .qrCode(let link) = state.overlays.last {
            screen = Screen(lines: qrScreen(link, width: width, height: height, noColor: state.noColor), cursor: nil)
        } else if let overlay = state.overlays.last {
            drawOverlay(overlay, on: &screen, width: width, height: height, state: state)
        }
        return screen
    }

    // MARK: - The chat pane

    private func drawChat(_ state: inout AppModel, width: Int, height: Int, column: Int) -> Screen {
        guard var chat = state.chat else { return Screen(lines: [], cursor: nil) }
        var header = StyledLine()
        header.append(" " + chat.contact.viewName, Style(attributes: .bold))
        if !chat.contact.profile.fullName.isEmpty, chat.contact.profile.fullName != chat.contact.viewName {
            header.append(" (\(chat.contact.profile.fullName))", Style(foreground: theme.secondary))
        }
        if !chat.contact.ready { header.append(" · connecting…", Style(foreground: theme.warning)) }
        if let filter = chat.filter { header.append(" · only \(filter.rawValue) (Alt+C)", Style(foreground: theme.accent)) }
        if chat.contact.enableNtfs != .all { header.append(" · muted", Style(foreground: theme.secondary)) }
        if !chat.selectedIds.isEmpty { header.append(" · \(chat.selectedIds.count) selected: d delete, f forward", Style(foreground: theme.accent)) }
        let composeRows = min(8, max(1, height / 4))
        let composed = state.compose.lines(
            width: width, maxRows: composeRows,
            placeholder: chat.contact.ready ? "Message" : "connecting: messages are sent once connected", style: theme.compose)
        let chatHeight = max(1, height - 2 - composed.lines.count)
        let settings = state.openChatSettings
        let itemLayout = layout ?? layouter.layouter(
            settings: settings, contactName: chat.contact.viewName, now: state.now, fileProgress: state.fileProgress)
        var drawn = chat.draw(
            width: width, height: chatHeight, layout: itemLayout,
            layoutKey: layout == nil
                ? Self.layoutKey(settings, contact: chat.contact.viewName, now: state.now, layouter: layouter) : 0)
        chat.drawnRows = drawn.rows
        if chat.loading, drawn.reachedTop {
            drawn.lines[0] = StyledLine("  loading…", Style(foreground: theme.secondary))
        }
        if chat.newBelow > 0 || chat.scroll > 0 || chat.hasNewer {
            let label = chat.newBelow > 0 ? " ↓ \(chat.newBelow) new " : " ↓ End "
            let badge = StyledLine(label, Style(foreground: theme.accent, attributes: [.bold, .reverse]))
            let row = drawn.lines.count - 1
            drawn.lines[row] = drawn.lines[row].truncated(to: width).overlaid(badge, at: max(0, width - badge.width - 1), totalWidth: width)
        }
        var lines = [header.truncated(to: width)]
        lines += drawn.lines.map { $0.truncated(to: width) }
        lines.append(StyledLine(String(repeating: "─", count: width), Style(foreground: state.focus == .compose ? theme.accent : theme.secondary)))
        let composeTop = lines.count
        lines += composed.lines
        var screen = Screen(lines: lines, cursor: nil)
        if state.focus == .compose {
            screen.cursor = (composeTop + composed.cursor.row, column + min(width - 1, composed.cursor.column))
        }
        screen.wantsOlder = (drawn.reachedTop || drawn.nearTop) && chat.wantsOlder
        screen.wantsNewer = (drawn.reachedBottom || drawn.nearBottom) && chat.wantsNewer
        screen.reachedEnd = (drawn.reachedTop && chat.hasOlder) || (drawn.reachedBottom && chat.hasNewer)
        state.chat = chat
        return screen
    }

    /// What every item's layout depends on besides the item: the settings, the contact's name,
    /// the day (date separators say "today"), the cell size pictures are fitted with.
    static func layoutKey(_ settings: ChatViewSettings, contact: String, now: Date, layouter: ChatItemLayouter) -> Int {
        var hasher = Hasher()
        hasher.combine(settings)
        hasher.combine(contact)
        hasher.combine(layouter.cellPixelSize)
        hasher.combine(Int(now.timeIntervalSince1970 / 86_400))
        return hasher.finalize()
    }

    /// The lock screen: the title, the passcode as dots, why the last one was refused.
    private func lockScreen(_ lock: LockState, width: Int, height: Int) -> Screen {
        var lines = Array(repeating: StyledLine(), count: max(0, height / 3))
        let indent = String(repeating: " ", count: max(1, (width - 40) / 2))
        lines.append(StyledLine(indent + "SimpleX Lock", Style(attributes: .bold)).truncated(to: width))
        lines.append(StyledLine())
        lines.append(StyledLine(indent + (lock.checking ? "Checking…" : "Enter passcode"), Style(foreground: theme.secondary)).truncated(to: width))
        let dots = String(repeating: "•", count: min(lock.field.text.count, max(0, width - indent.count - 2)))
        lines.append(StyledLine(indent + "> " + dots).truncated(to: width))
        let cursor = (row: lines.count - 1, column: min(width - 1, indent.count + 2 + dots.count))
        lines.append(StyledLine())
        if let error = lock.error { lines.append(StyledLine(indent + error, Style(foreground: theme.error)).truncated(to: width)) }
        lines.append(StyledLine(indent + "Enter unlocks · Ctrl+Q quits", Style(foreground: theme.secondary)).truncated(to: width))
        while lines.count < height { lines.append(StyledLine()) }
        return Screen(lines: Array(lines.prefix(height)), cursor: cursor)
    }

    private func welcome(width: Int, height: Int, state: AppModel) -> [StyledLine] {
        var lines = Array(repeating: StyledLine(), count: max(0, height / 3))
        let name = state.user?.profile.displayName ?? ""
        lines.append(StyledLine("  SimpleX Chat" + (name.isEmpty ? "" : " · \(name)"), Style(attributes: .bold)))
        lines.append(StyledLine())
        for hint in [
            "Enter opens the selected chat, typing filters the list",
            "Ctrl+N  make a one-time invitation link",
            "Ctrl+O  connect via a link someone gave you",
            "Alt+A   your SimpleX address",
            "Ctrl+K  go to a chat by name",
            "Ctrl+S  settings (or , in the list) · Alt+I  contact info",
            "F1 / ?  all keys",
        ] {
            lines.append(StyledLine("  " + hint, Style(foreground: theme.secondary)).truncated(to: width))
        }
        return lines
    }

    /// A link's QR code on the whole screen, centred, or why it does not fit.
    private func qrScreen(_ link: String, width: Int, height: Int, noColor: Bool) -> [StyledLine] {
        var lines: [StyledLine]
        do {
            let code = try QRCode(link, maxWidth: width)
            lines = code.lines(noColor ? .lightInk : .colors)
        } catch {
            lines = [StyledLine(" \(error)", Style(foreground: theme.error))]
        }
        if lines.count > height - 1 || (lines.first?.width ?? 0) > width {
            lines = [
                StyledLine(" The QR code needs \(lines.first?.width ?? 0)×\(lines.count + 1) cells; this terminal is \(width)×\(height).", Style(foreground: theme.warning)),
                StyledLine(" Enlarge the window or make the font smaller, or copy the link (c).", Style(foreground: theme.secondary)),
            ]
        }
        let left = max(0, (width - (lines.first?.width ?? 0)) / 2)
        let top = max(0, (height - 1 - lines.count) / 2)
        var screen = Array(repeating: StyledLine(), count: top)
        screen += lines.map { StyledLine(String(repeating: " ", count: left)).appending($0) }
        while screen.count < height - 1 { screen.append(StyledLine()) }
        screen.append(StyledLine(" Scan it with SimpleX Chat on your phone · Esc returns", Style(foreground: theme.secondary)))
        return screen
    }

    // MARK: - The bottom line

    private func bottomLine(_ state: AppModel, width: Int) -> StyledLine {
        if let status = state.status {
            return StyledLine(" " + status.text, Style(foreground: status.isError ? theme.error : theme.accent)).truncated(to: width)
        }
        if !state.preferences.chatRunning {
            return StyledLine(" Chat stopped: nothing is received or sent · Ctrl+S → Chat data → Run chat starts it", Style(foreground: theme.warning)).truncated(to: width)
        }
        let hint: String
        switch state.focus {
        case .list:
            hint = "↑↓ chats · Enter open · Alt+I info · , settings · type to filter · Tab compose · Ctrl+K go to · Ctrl+N invite · Ctrl+O connect · Alt+G new group · ? help · Ctrl+Q quit"
        case .compose where state.groupChat != nil:
            hint = "Enter send to the group · Alt+Enter new line · PgUp/PgDn scroll · Alt+I group info · Tab list"
        case .compose:
            hint = "Enter send · Alt+Enter new line · ↑ messages · PgUp/PgDn scroll · Ctrl+T attach · Ctrl+F search · Ctrl+X editor · Tab list"
        case .messages where state.groupChat != nil:
            hint = "↑↓ move · e edit · D delete for everyone · c copy · i info · Esc compose"
        case .messages:
            hint = state.chat?.selectedIds.isEmpty == false
                ? "↑↓ move · Space select · d delete · f forward · Esc stop selecting"
                : "↑↓ move · Enter actions · r reply · e edit · + react · c copy · f forward · d delete · i info · Esc compose"
        }
        return StyledLine(" " + hint, Style(foreground: theme.secondary)).truncated(to: width)
    }

    // MARK: - Overlays

    private func drawOverlay(_ overlay: Overlay, on screen: inout Screen, width: Int, height: Int, state: AppModel) {
        let boxWidth = max(10, min(width - 2, 76))
        let inner = boxWidth - 2
        var content: [StyledLine]
        var cursor: (row: Int, column: Int)?
        switch overlay {
        case .help:
            content = HelpScreen.lines(width: inner)
        case .quickSwitcher(let switcher):
            content = switcher.lines(width: inner, height: max(3, height - 6))
        case .menu(let menu):
            content = menu.lines(width: inner)
        case .reactions(let picker):
            content = picker.lines(width: inner)
        case .reportReason(let picker):
            content = picker.lines(width: inner)
        case .info(let title, let lines, let scroll):
            content = [StyledLine(" " + title, Style(attributes: .bold))]
            for line in lines.dropFirst(scroll).prefix(max(1, height - 6)) {
                content += StyledLine.wrap([TextRun(" " + line)], width: inner)
            }
            content.append(StyledLine(" ↑↓ scroll · Esc close", Style(foreground: theme.secondary)))
        case .link(let title, let link):
            content = StyledLine.wrap([TextRun(" " + title, Style(attributes: .bold))], width: inner)
            content += StyledLine.wrap([TextRun(link, Style(foreground: theme.link, attributes: .underline, link: link))], width: inner)
            content.append(StyledLine(" Enter opens it · c copies · q shows the QR code · Esc closes", Style(foreground: theme.secondary)))
        case .prompt(let prompt):
            content = [StyledLine(" " + prompt.title, Style(attributes: .bold))]
            let shown = prompt.masked ? ComposeState(text: String(repeating: "•", count: prompt.field.text.count)) : prompt.field
            let field = shown.lines(width: inner - 1, maxRows: 3, placeholder: "", style: theme.compose)
            cursor = (content.count + field.cursor.row, 1 + field.cursor.column)
            content += field.lines.map { line in var padded = StyledLine(" "); padded.append(line); return padded }
            if let error = prompt.error { content.append(StyledLine(" " + error, Style(foreground: theme.error))) }
            content.append(StyledLine(" " + prompt.hint, Style(foreground: theme.secondary)))
        case .forwardTo(let items, var list):
            content = [StyledLine(" Forward \(items.count == 1 ? "the message" : "\(items.count) messages") to:", Style(attributes: .bold))]
            content += list.lines(width: inner, height: max(4, height - 8), style: theme.list, now: state.now)
            content.append(StyledLine(" type to filter · Enter forwards · Esc cancels", Style(foreground: theme.secondary)))
        case .request(let dialog):
            content = dialog.lines(width: inner)
        case .searchResults(let text, let found, let selected):
            content = [StyledLine(" \(found.count) found for “\(text)” in all chats", Style(attributes: .bold))]
            let rows = max(3, height - 8)
            let first = max(0, min(selected - rows / 2, found.count - rows))
            for (index, result) in found.enumerated().dropFirst(first).prefix(rows) {
                let style = index == selected ? Style(attributes: .reverse) : Style.plain
                var line = StyledLine(" \(result.contact.viewName) ", style.with(.bold))
                line.append(ChatTime.listText(result.item.timestamp, now: state.now, timeZone: theme.list.timeZone, format: theme.list.timeFormat) + "  ", style.foreground(theme.secondary))
                line.append(Markdown.hidingSecrets(result.item.text).replacingOccurrences(of: "\n", with: " "), style)
                content.append(line.truncated(to: inner).padded(to: inner, style))
            }
            content.append(StyledLine(" ↑↓ choose · Enter opens the chat there · Esc closes", Style(foreground: theme.secondary)))
        case .shareTo(_, let summary, var list):
            content = [StyledLine(" Send \(summary) to:", Style(attributes: .bold))]
            content += list.lines(width: inner, height: max(4, height - 8), style: theme.list, now: state.now)
            content.append(StyledLine(" type to filter · Enter sends · Esc declines", Style(foreground: theme.secondary)))
        case .confirm(let question, _):
            content = [StyledLine(" " + question, Style(attributes: .bold))]
        case .settings(let settings):
            content = settings.lines(width: inner, height: max(4, height - 4))
        case .contactInfo(let info):
            content = info.lines(width: inner, height: max(4, height - 4))
        case .groupInfo(let info):
            content = info.lines(width: inner, height: max(4, height - 4))
        case .qrCode:
            return
        }
        content = content.prefix(max(1, height - 2)).map { $0.truncated(to: inner).padded(to: inner) }
        let top = max(0, (height - content.count - 2) / 2)
        let left = max(0, (width - boxWidth) / 2)
        let border = Style(foreground: theme.accent)
        var boxed = [StyledLine("╭" + String(repeating: "─", count: inner) + "╮", border)]
        for line in content {
            var row = StyledLine("│", border)
            row.append(line)
            row.append("│", border)
            boxed.append(row)
        }
        boxed.append(StyledLine("╰" + String(repeating: "─", count: inner) + "╯", border))
        for (offset, line) in boxed.enumerated() where top + offset < screen.lines.count {
            screen.lines[top + offset] = screen.lines[top + offset].overlaid(line, at: left, totalWidth: width)
        }
        screen.cursor = cursor.map { (top + 1 + $0.row, left + 1 + $0.column) }
    }
}

/// The client's colours (the chat view's come with its layout).
public struct AppTheme: Sendable {
    public var accent = Color.blue
    public var secondary = Color.brightBlack
    public var warning = Color.yellow
    public var error = Color.red
    public var link = Color.blue
    public var list = ChatListStyle()
    public var compose = ComposeStyle()
    public init() {}
}
