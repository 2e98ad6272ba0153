extension KeyInput {
    /// The app's inputs for one decoded terminal event (typed text becomes one per character).
    public static func from(_ event: InputEvent) -> [KeyInput] {
        switch event {
        case .text(let text):
            return text.map { KeyInput.character($0) }
        case .key(.character(let character), let modifiers):
            if modifiers.contains(.control) { return [.control(Character(character.lowercased()))] }
            if modifiers.contains(.alt) { return [.alt(character)] }
            return [.character(character)]
        case .key(let key, let modifiers):
            guard let named = NamedKey(key) else { return [] }
            return [.key(named, modifiers)]
        case .paste(let text):
            return [.paste(text)]
        case .mouse(let mouse):
            switch mouse.action {
            case .wheelUp: return [.wheel(up: true)]
            case .wheelDown: return [.wheel(up: false)]
            case .press(.left): return [.click(row: mouse.position.row, column: mouse.position.column)]
            case .press(.right): return [.rightClick(row: mouse.position.row, column: mouse.position.column)]
            default: return []
            }
        case .focus(let focused):
            return [.focus(focused)]
        case .deviceAttributes:
            return []
        }
    }
}

extension NamedKey {
    init?(_ key: Key) {
        switch key {
        case .enter: self = .enter
        case .tab: self = .tab
        case .backspace: self = .backspace
        case .escape: self = .escape
        case .up: self = .up
        case .down: self = .down
        case .left: self = .left
        case .right: self = .right
        case .home: self = .home
        case .end: self = .end
        case .pageUp: self = .pageUp
        case .pageDown: self = .pageDown
        case .insert: self = .insert
        case .delete: self = .delete
        case .function(let number): self = .function(number)
        case .character: return nil
        }
    }
}
