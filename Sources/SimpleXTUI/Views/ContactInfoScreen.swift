import Foundation
import SimpleXChat

/// Alt+I: the open chat's contact — profile, alias, notifications, delivery receipts, the
/// chat's layout, and clearing the chat or deleting the contact (both confirmed).
public struct ContactInfoScreen: Sendable {
    public enum Action: CaseIterable, Equatable, Sendable {
        case alias, mute, receipts, layout, clearChat, deleteContact
    }

    /// What the app does after a key.
    public enum Outcome: Equatable, Sendable {
        case none
        case close
        case effect(AppEffect)
        case prompt(TextPrompt.Kind, text: String)
        case confirm(question: String, effect: AppEffect)
    }

    public var contact: ChatContact
    /// The user's own receipts setting, which a contact without one follows.
    public var userReceipts: Bool
    /// This chat's own layout (nil: it follows `defaultLayout`, the Appearance setting).
    public var layout: ChatLayout?
    public var defaultLayout: ChatLayout
    public var selected = 0

    public init(
        contact: ChatContact, userReceipts: Bool, layout: ChatLayout? = nil, defaultLayout: ChatLayout = .terminal
    ) {
        self.contact = contact
        self.userReceipts = userReceipts
        self.layout = layout
        self.defaultLayout = defaultLayout
    }

    /// The key of each action, shown beside it.
    static func key(_ action: Action) -> Character {
        switch action {
        case .alias: "a"
        case .mute: "m"
        case .receipts: "r"
        case .layout: "l"
        case .clearChat: "c"
        case .deleteContact: "x"
        }
    }

    func title(_ action: Action) -> String {
        switch action {
        case .alias: "Alias: " + (contact.localAlias.isEmpty ? "(none)" : contact.localAlias)
        case .mute: contact.enableNtfs == .all ? "Mute notifications" : "Unmute notifications (muted 🔕)"
        case .receipts:
            switch contact.sendRcpts {
            case nil: "Delivery receipts: default (\(userReceipts ? "on" : "off"))"
            case true?: "Delivery receipts: on"
            case false?: "Delivery receipts: off"
            }
        case .layout:
            layout.map { "Layout: \($0.rawValue) (this chat)" } ?? "Layout: default (\(defaultLayout.rawValue))"
        case .clearChat: "Clear chat (on this device)"
        case .deleteContact: "Delete contact"
        }
    }

    public mutating func handle(_ key: KeyInput) -> Outcome {
        let actions = Action.allCases
        switch key {
        case .key(.escape, _): return .close
        case .key(.up, _): selected = max(0, selected - 1)
        case .key(.down, _): selected = min(actions.count - 1, selected + 1)
        case .key(.enter, _), .character(" "): return run(actions[selected])
        case .character(let character):
            if let action = actions.first(where: { Self.key($0) == character }) {
                selected = actions.firstIndex(of: action) ?? selected
                return run(action)
            }
        default: break
        }
        return .none
    }

    private func run(_ action: Action) -> Outcome {
        let id = contact.contactId
        switch action {
        case .alias:
            return .prompt(.alias(contactId: id), text: contact.localAlias)
        case .mute:
            return .effect(.setNotifications(contactId: id, contact.enableNtfs == .all ? .none : .all))
        case .receipts:
            // default → on → off → default
            let next: Bool? =
                switch contact.sendRcpts {
                case nil: true
                case true?: false
                case false?: nil
                }
            return .effect(.setReceipts(contactId: id, next))
        case .layout:
            // default → the other layout → the default's own, kept for this chat → default
            let other: ChatLayout = defaultLayout == .terminal ? .classic : .terminal
            let next: ChatLayout? =
                switch layout {
                case nil: other
                case defaultLayout?: nil
                default: defaultLayout
                }
            return .effect(.setChatLayout(chat: "@\(id)", next))
        case .clearChat:
            return .confirm(
                question: "Clear every message with \(contact.viewName) on this device? y / n",
                effect: .clearChat(contactId: id))
        case .deleteContact:
            return .confirm(
                question: "Delete \(contact.viewName) and the chat? They can no longer message you. y / n",
                effect: .deleteContact(contactId: id))
        }
    }

    public func lines(width: Int, height: Int) -> [StyledLine] {
        var lines = [
            StyledLine(" " + contact.profile.displayName, Style(attributes: .bold)).truncated(to: width)
        ]
        let secondary = Style(foreground: .brightBlack)
        if !contact.profile.fullName.isEmpty {
            lines.append(StyledLine(" " + contact.profile.fullName).truncated(to: width))
        }
        if contact.localDisplayName != contact.profile.displayName {
            lines.append(
                StyledLine(" known here as \(contact.localDisplayName)", secondary).truncated(to: width))
        }
        let state = !contact.active ? "deleted you" : contact.ready ? "connected" : "connecting…"
        lines.append(StyledLine(" " + state, secondary))
        lines.append(StyledLine())
        for (index, action) in Action.allCases.enumerated() {
            let style = index == selected ? Style(attributes: .reverse) : Style.plain
            let line = StyledLine(" \(Self.key(action))  \(title(action))", style)
            lines.append(line.truncated(to: width).padded(to: width, style))
        }
        lines.append(StyledLine(" ↑↓ choose · Enter or the key · Esc back", secondary).truncated(to: width))
        return Array(lines.prefix(max(1, height)))
    }
}
