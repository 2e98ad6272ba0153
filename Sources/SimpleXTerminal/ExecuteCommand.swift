import SimpleXChat
import SimpleXProtocol

/// `simplex-chat -e '<command>'`: runs one chat command in SimpleX's syntax against the group
/// directory and prints the JSON response on one line, as SimpleX's terminal app does, so scripts
/// can drive the chat.
///
/// Exit status 0 with `{"result":...}`; 1 with `{"error":...}` when the command fails (and when
/// there is no user profile yet, with a hint on standard error); 64 (usage) with a one-line error
/// when the text is not a command. Commands that use the network start the chat first and give
/// what they sent up to `deliveryTimeout` to reach the relay.
struct ExecuteCommand {
    let environment: [String: String]
    let text: String
    let servers: [String]
    let output: @Sendable (String) -> Void
    let errors: @Sendable (String) -> Void
    /// The command came as an argument (visible to every process on the machine), not on standard input.
    var fromCommandLine = true
    var deliveryTimeout: Duration = .seconds(10)

    func run() async -> Int32 {
        let passphraseCommand: DatabasePassphraseCommand?
        do { passphraseCommand = try DatabasePassphraseCommand.parse(text) } catch {
            errors("simplex-chat: \(error)")
            return ExitStatus.usage
        }
        if let passphraseCommand {
            if fromCommandLine, case .change = passphraseCommand {
                errors(
                    "simplex-chat: a passphrase in an argument can be read by other processes (ps): give the command on standard input, e.g. printf '%s' '/_db encryption {…}' | simplex-chat -e -")
                return ExitStatus.usage
            }
            return await run(passphraseCommand)
        }
        let command: ChatCommand
        do { command = try ChatCommand.parse(text) } catch {
            errors("simplex-chat: \(error)")
            return ExitStatus.usage
        }
        let access: CoreAccess
        do { access = try await CoreAccess.open(environment: environment) } catch {
            errors("simplex-chat: \(error)")
            return error.status
        }
        let status = await run(command, access)
        await access.close()
        return status
    }

    private func run(_ command: ChatCommand, _ access: CoreAccess) async -> Int32 {
        let chat: ChatController
        do {
            let key = access.databaseKey
            if try ChatController.activeUser(groupDirectory: access.container.path, databaseKey: key) == nil {
                return try firstUser(command, access: access)
            }
            try access.applyServers(servers, environment: environment, note: errors)
            chat = try await access.openChat()
        } catch {
            let failure = ClientFailure(error)
            errors("simplex-chat: \(failure)")
            return failure.status
        }
        if command.usesNetwork { await chat.start() }
        let response = await chat.execute(command)
        if await chat.isStarted, !(await chat.waitForDeliveries(timeout: deliveryTimeout)) {
            errors(
                "simplex-chat: some messages are still waiting for a relay; they go out when the chat runs next"
            )
        }
        await chat.stop()
        output(response.jsonText)
        return response.chatError == nil ? ExitStatus.ok : ExitStatus.failure
    }

    /// `/_db encryption {…}`, `/db key …` and the rest (SimpleX's APIStorageEncryption): the chat
    /// is not started here, so the databases are rewritten at once; `cmdOk`, or an error saying
    /// why (a wrong current passphrase changes nothing).
    private func run(_ command: DatabasePassphraseCommand) async -> Int32 {
        let access: CoreAccess
        do { access = try await CoreAccess.open(environment: environment) } catch {
            errors("simplex-chat: \(error)")
            return error.status
        }
        let status = passphrase(command, access)
        await access.close()
        return status
    }

    private func passphrase(_ command: DatabasePassphraseCommand, _ access: CoreAccess) -> Int32 {
        do throws(ClientFailure) {
            switch command {
            case .store(let store): errors("simplex-chat: " + (try LineMode.setStored(store, access: access)))
            case .change(let current, let new):
                let key = try LineMode.currentKey(current, access: access)
                _ = try LineMode.changeKey(from: key, to: new, access: access)
                errors("simplex-chat: database passphrase changed")
            }
        } catch {
            output(ChatResponse.chatCmdError(user: nil, chatError: .commandError(error.description)).jsonText)
            errors("simplex-chat: \(error)")
            return ExitStatus.failure
        }
        output(ChatResponse.cmdOk(user: nil).jsonText)
        return ExitStatus.ok
    }

    /// With no user yet, only `/create user <name>` can run, and what needs no user at all
    /// (`/_parse markdown`, as in SimpleX).
    private func firstUser(_ command: ChatCommand, access: CoreAccess) throws -> Int32 {
        if case .apiParseMarkdown(let text) = command {
            output(ChatResponse.parsedMarkdown(text).jsonText)
            return ExitStatus.ok
        }
        guard case .createActiveUser(let name) = command else {
            output(ChatResponse.chatCmdError(user: nil, chatError: .noActiveUser).jsonText)
            errors(
                "simplex-chat: no user profile yet: run simplex-chat --cli first (or simplex-chat -e '/create user <name>')"
            )
            return ExitStatus.failure
        }
        let user = try ChatController.createUser(
            groupDirectory: access.container.path, profile: Profile(displayName: name, fullName: ""),
            databaseKey: access.databaseKey)
        try access.applyServers(servers, environment: environment, note: errors)
        output(ChatResponse.activeUser(user: user).jsonText)
        return ExitStatus.ok
    }
}
