import Foundation
import SimpleXChat
import SimpleXCrypto

/// `simplex-chat export FILE`, `simplex-chat import FILE [--replace]` and
/// `simplex-chat delete-database --yes` (iOS: Chat data → Export / Import / Delete database). Each
/// takes the core over first (the service suspended, core.lock held), so no chat runs while the
/// databases are copied or replaced; the archive passphrase is read from the terminal with echo off,
/// or as a line of standard input, never from the command line.
struct ArchiveCommand {
    let environment: [String: String]
    let output: @Sendable (String) -> Void
    let errors: @Sendable (String) -> Void
    /// The passphrase reader (the terminal or standard input); tests give their own.
    var readPassphrase: (String) -> SecureBytes? = { prompt in
        PassphrasePrompt.read(prompt) { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    }

    func export(to path: String) async -> Int32 {
        let target = Self.absolute(path)
        guard !FileManager.default.fileExists(atPath: target) else {
            errors("simplex-chat: \(path) exists: export to a new file")
            return ExitStatus.usage
        }
        guard let passphrase = newPassphrase() else { return ExitStatus.usage }
        return await withCore { access in
            let summary = try ChatArchive.export(
                container: access.container, keychain: access.keychain, databaseKey: access.databaseKey, to: target,
                passphrase: passphrase, limits: Self.limits(environment))
            output(
                "exported the chat to \(path): both databases and \(summary.files) file\(summary.files == 1 ? "" : "s"), \(FileChunking.readableSize(Int64(summary.bytes))), sealed with the archive passphrase; on another machine: simplex-chat import \((path as NSString).lastPathComponent)"
            )
        }
    }

    func `import`(from path: String, replace: Bool) async -> Int32 {
        let source = Self.absolute(path)
        guard FileManager.default.isReadableFile(atPath: source) else {
            errors("simplex-chat: cannot read \(path)")
            return ExitStatus.usage
        }
        return await withCore { access in
            if !replace,
                let user = try ChatController.activeUser(groupDirectory: access.container.path, databaseKey: access.databaseKey)
            {
                throw ClientFailure(
                    "this machine has a chat (\(user.profile.displayName)): add --replace to replace it with the archive's; nothing was changed",
                    status: ExitStatus.usage)
            }
            guard let passphrase = readPassphrase("Archive passphrase:") else {
                throw ClientFailure("the archive passphrase is needed to import", status: ExitStatus.usage)
            }
            let summary = try ChatArchive.import(
                from: source, passphrase: passphrase, container: access.container, keychain: access.keychain)
            output(
                "imported the chat from \(path): both databases and \(summary.files) file\(summary.files == 1 ? "" : "s"); start simplex-chat to go on with it (stop the chat on the other machine: one chat must not run in two places)"
            )
        }
    }

    func deleteDatabase(confirmed: Bool) async -> Int32 {
        guard confirmed else {
            errors("simplex-chat: delete-database erases every chat, contact and file here: add --yes to do it")
            return ExitStatus.usage
        }
        return await withCore { access in
            try ChatArchive.deleteDatabase(container: access.container, keychain: access.keychain)
            output("deleted the databases and files: the next start makes a new profile")
        }
    }

    /// A new archive passphrase: typed twice in a terminal, one line from a pipe.
    private func newPassphrase() -> SecureBytes? {
        guard let first = readPassphrase("Archive passphrase (needed to import it):"), first.count > 0 else {
            errors("simplex-chat: an archive passphrase is needed")
            return nil
        }
        if isatty(STDIN_FILENO) == 1 {
            guard let again = readPassphrase("The same passphrase again:"), again == first else {
                errors("simplex-chat: the two passphrases differ; nothing was exported")
                return nil
            }
        }
        return first
    }

    /// Runs `body` with the core taken over, then hands it back.
    private func withCore(_ body: (CoreAccess) async throws -> Void) async -> Int32 {
        let access: CoreAccess
        do {
            access = try await CoreAccess.open(environment: environment, askPassphrase: { readPassphrase($0) })
        } catch {
            errors("simplex-chat: \(error)")
            return error.status
        }
        do {
            try await body(access)
            await access.close()
            return ExitStatus.ok
        } catch {
            await access.close()
            let failure = ClientFailure(error)
            errors("simplex-chat: \(failure)")
            return failure.status
        }
    }

    /// Argon2id's moderate limits; tests set SIMPLEX_TEST_ARCHIVE_KDF=minimum to save seconds.
    static func limits(_ environment: [String: String]) -> PasswordHash.Limits {
        environment["SIMPLEX_TEST_ARCHIVE_KDF"] == "minimum" ? .minimum : .moderate
    }


    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
