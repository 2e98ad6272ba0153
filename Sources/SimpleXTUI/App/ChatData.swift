import Foundation
import SimpleXChat

/// What Settings → Chat data asks of the client (seed 002's DatabaseView): stop and run the chat,
/// and, with it stopped, export, import or delete the database and change its passphrase. (Deleting
/// the files is the running core's, `AppEffect.deleteAllFiles`: it forgets their keys.) The client (`TUIMode`) does them; each closure throws a one-line reason.
public struct ChatDataAccess: Sendable {
    /// Stops the chat core (nothing is received or sent until it runs again).
    public var stop: @Sendable () async -> Void
    /// An archive of the whole chat at `path`, sealed with the passphrase; returns the line to show.
    public var export: @Sendable (_ path: String, _ passphrase: String) async throws -> String
    /// Replaces the chat with the archive's (the client then starts again on it).
    public var importArchive: @Sendable (_ path: String, _ passphrase: String) async throws -> String
    /// Erases the databases and files (the client then starts again, empty).
    public var deleteDatabase: @Sendable () async throws -> String
    /// Rewrites the databases under a new passphrase (empty: a random key in the keychain); the
    /// client then starts again with the new key.
    public var changePassphrase: @Sendable (_ current: String, _ new: String) async throws -> String
    /// The files kept in the group directory (`files/`).
    public var filesUsage: @Sendable () -> FilesUsage

    public init(
        stop: @escaping @Sendable () async -> Void,
        export: @escaping @Sendable (String, String) async throws -> String,
        importArchive: @escaping @Sendable (String, String) async throws -> String,
        deleteDatabase: @escaping @Sendable () async throws -> String,
        changePassphrase: @escaping @Sendable (String, String) async throws -> String,
        filesUsage: @escaping @Sendable () -> FilesUsage
    ) {
        self.stop = stop
        self.export = export
        self.importArchive = importArchive
        self.deleteDatabase = deleteDatabase
        self.changePassphrase = changePassphrase
        self.filesUsage = filesUsage
    }
}

/// The files kept in the group directory (`files/`): how many, and their size.
public struct FilesUsage: Equatable, Sendable {
    public var count: Int
    public var bytes: Int
    public init(count: Int, bytes: Int) {
        self.count = count
        self.bytes = bytes
    }

    public init(_ usage: (count: Int, bytes: Int64)) {
        self.init(count: usage.count, bytes: Int(usage.bytes))
    }

    var text: String {
        count == 0 ? "none" : "\(count) file\(count == 1 ? "" : "s"), \(FileChunking.readableSize(Int64(bytes)))"
    }
}

/// A Chat data action, for the runtime.
public enum ChatDataAction: Equatable, Sendable {
    case stop
    /// Runs the chat again: the client starts anew on the group directory.
    case start
    case export(path: String, passphrase: String)
    case importArchive(path: String, passphrase: String)
    case deleteDatabase
    case changePassphrase(current: String, new: String)
    case loadUsage
}

extension AppModel {
    /// A prompt of Chat data (the passphrase ones drawn as dots).
    static func chatDataPrompt(_ kind: TextPrompt.Kind) -> TextPrompt {
        let (title, hint): (String, String) =
            switch kind {
            case .exportPath: ("Export the database to", "a new file (~ is your home); Enter, Esc cancels")
            case .exportPassphrase: ("Archive passphrase", "needed to import it; Enter, Esc cancels")
            case .exportPassphraseConfirm: ("The archive passphrase again", "Enter exports, Esc cancels")
            case .importPath: ("Import a database from", "an archive made by Export; Enter, Esc cancels")
            case .importPassphrase: ("Archive passphrase", "the one it was exported with; Enter, Esc cancels")
            case .databasePassphraseCurrent: ("Current database passphrase", "Enter, Esc cancels")
            case .databasePassphraseNew:
                ("New database passphrase", "empty: a random key kept in the keychain; Enter, Esc cancels")
            default: ("The new passphrase again", "Enter rewrites both databases, Esc cancels")
            }
        var prompt = TextPrompt(kind: kind, title: title, hint: hint)
        prompt.masked = kind != .exportPath && kind != .importPath
        return prompt
    }

    static func isChatDataPrompt(_ kind: TextPrompt.Kind) -> Bool {
        switch kind {
        case .exportPath, .exportPassphrase, .exportPassphraseConfirm, .importPath, .importPassphrase,
            .databasePassphraseCurrent, .databasePassphraseNew, .databasePassphraseConfirm:
            true
        default: false
        }
    }

    /// Enter in a Chat data prompt: the next prompt, a confirmation, or the action.
    mutating func submitChatDataPrompt(_ prompt: inout TextPrompt, value: String) -> [AppEffect] {
        func next(_ kind: TextPrompt.Kind) -> [AppEffect] {
            overlays.append(.prompt(Self.chatDataPrompt(kind)))
            return []
        }
        func reject(_ problem: String) -> [AppEffect] {
            prompt.error = problem
            overlays.append(.prompt(prompt))
            return []
        }
        let path = (value.trimmingCharacters(in: .whitespaces) as NSString).expandingTildeInPath
        switch prompt.kind {
        case .exportPath:
            guard !path.isEmpty else { return reject("a file to write the archive to") }
            guard !FileManager.default.fileExists(atPath: path) else { return reject("\(value) exists: choose a new file") }
            return next(.exportPassphrase(path: path))
        case .exportPassphrase(let path):
            guard !value.isEmpty else { return reject("an archive needs a passphrase") }
            return next(.exportPassphraseConfirm(path: path, first: value))
        case .exportPassphraseConfirm(let path, let first):
            guard value == first else {
                var again = Self.chatDataPrompt(.exportPassphrase(path: path))
                again.error = "the two passphrases differ: type it again"
                overlays.append(.prompt(again))
                return []
            }
            status = ("exporting…", false)
            return [.chatData(.export(path: path, passphrase: value))]
        case .importPath:
            guard FileManager.default.isReadableFile(atPath: path) else { return reject("cannot read \(value)") }
            return next(.importPassphrase(path: path))
        case .importPassphrase(let path):
            overlays.append(
                .confirm(
                    question: "Import replaces every chat, contact and file here with the archive's. Import? (y/n)",
                    effects: [.chatData(.importArchive(path: path, passphrase: value))]))
            return []
        case .databasePassphraseCurrent:
            return next(.databasePassphraseNew(current: value))
        case .databasePassphraseNew(let current):
            if value.isEmpty {
                status = ("rewriting both databases…", false)
                return [.chatData(.changePassphrase(current: current, new: ""))]
            }
            return next(.databasePassphraseConfirm(current: current, first: value))
        case .databasePassphraseConfirm(let current, let first):
            guard value == first else {
                var again = Self.chatDataPrompt(.databasePassphraseNew(current: current))
                again.error = "the two passphrases differ: type it again"
                overlays.append(.prompt(again))
                return []
            }
            status = ("rewriting both databases…", false)
            return [.chatData(.changePassphrase(current: current, new: value))]
        default:
            return []
        }
    }

    /// A Chat data row chosen in Settings.
    mutating func chatDataAction(_ action: SettingsScreen.DataAction) -> [AppEffect] {
        let running = preferences.chatRunning
        if !running, action == .deleteFiles {
            status = ("run the chat first (Run chat): the core forgets the files' keys as it deletes them", true)
            return []
        }
        if running, action != .toggleRunning, action != .deleteFiles {
            status = ("stop the chat first (Run chat): its databases must not change meanwhile", true)
            return []
        }
        switch action {
        case .toggleRunning:
            if running {
                overlays.append(
                    .confirm(
                        question: "Stop the chat? Nothing is received or sent until it runs again. (y/n)",
                        effects: [.chatData(.stop)]))
                return []
            }
            status = ("starting the chat…", false)
            return [.chatData(.start)]
        case .export: return next(.exportPath)
        case .importArchive: return next(.importPath)
        case .passphrase:
            return next(preferences.databasePassphraseSet ? .databasePassphraseCurrent : .databasePassphraseNew(current: ""))
        case .deleteDatabase:
            overlays.append(
                .confirm(
                    question: "Delete the database? Every chat, contact and file here is erased for good. (y/n)",
                    effects: [.chatData(.deleteDatabase)]))
            return []
        case .deleteFiles:
            overlays.append(
                .confirm(
                    question: "Delete all files and media kept here (\(preferences.filesUsage.text))? (y/n)",
                    effects: [.deleteAllFiles]))
            return []
        }
        func next(_ kind: TextPrompt.Kind) -> [AppEffect] {
            overlays.append(.prompt(Self.chatDataPrompt(kind)))
            return []
        }
    }

    /// A Chat data result: the chat's state, the files' usage, and a line to show.
    mutating func chatDataChanged(running: Bool?, usage: FilesUsage?, note: String?, isError: Bool) -> [AppEffect] {
        if let running { preferences.chatRunning = running }
        if let usage { preferences.filesUsage = usage }
        for index in overlays.indices {
            if case .settings(var screen) = overlays[index] {
                if let running { screen.values.chatRunning = running }
                if let usage { screen.values.filesUsage = usage }
                overlays[index] = .settings(screen)
            }
        }
        if let note { status = (note, isError) }
        return []
    }
}
