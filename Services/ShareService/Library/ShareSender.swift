import Foundation
import SimpleXChat
import SimpleXDesktop
import SimpleXSystem

/// Sends a share, DESIGN §4: through the running client (`Share` on `chat.simplex.Chat`, which
/// sends and shows it), or by taking the chat for the moment it needs — shareState sendingMessage,
/// the service suspended, core.lock, the core started without subscribing, the items sent and
/// handed to the relay, then everything handed back (the service resumed in instant mode).
struct ShareSender {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        let status: Int32
    }

    let container: GroupContainer
    let environment: [String: String]
    let bus: DBusConnection?
    /// How long the relay may take to take the items.
    var deliveryTimeout: Duration = .seconds(15)
    /// How long files may take to be accepted and handed over.
    var waits = TransferWaits()

    var names: CoordinationNames { CoordinationNames(container: container, environment: environment) }

    /// Whether the client runs (and so sends for us).
    func clientRuns() async -> Bool {
        guard let bus else { return false }
        return (try? await bus.nameHasOwner(names.client)) == true
    }

    /// `Share` on the running client; the item reference it sent.
    func throughClient(_ text: String?, _ files: [String], to contact: ChatContact) async throws(Failure)
        -> String
    {
        try await throughClient(text, files, chat: "@\(contact.contactId)")
    }

    /// `Share` on the running client to chat `ref` (`@12`, `#3`); the item reference it sent.
    func throughClient(_ text: String?, _ files: [String], chat ref: String) async throws(Failure) -> String {
        guard let bus else { throw Failure(description: "no session bus", status: ShareExit.unavailable) }
        do {
            let reply = try await callShare(bus, text, files, chat: ref, timeout: .seconds(30))
            return reply.first?.string ?? ref
        } catch let error as DBusError {
            throw Failure(
                description: "the running client did not send it: \(error.message)",
                status: ShareExit.dataError)
        } catch {
            throw Failure(
                description: "the running client did not send it: \(error)", status: ShareExit.unavailable)
        }
    }

    /// `Share` with no chat: the running client asks its user where to send it. The item
    /// reference sent; nil when the client has no picker (the line mode).
    func throughClientPicker(_ text: String?, _ files: [String]) async throws(Failure) -> String? {
        guard let bus else { return nil }
        do {
            // The user is choosing: as long as they take, within reason.
            return try await callShare(bus, text, files, chat: "", timeout: .seconds(600)).first?.string
        } catch let error as DBusError {
            if error.message.contains("no chat picker") { return nil }
            throw Failure(
                description: "the running client did not send it: \(error.message)", status: ShareExit.usage)
        } catch {
            throw Failure(
                description: "the running client did not send it: \(error)", status: ShareExit.unavailable)
        }
    }

    /// The `Share(a{sv} content, s chat)` call on the client's bus name.
    private func callShare(
        _ bus: DBusConnection, _ text: String?, _ files: [String], chat: String, timeout: Duration
    ) async throws -> [DBusValue] {
        var content: [String: DBusValue] = [:]
        if let text { content["text"] = .string(text) }
        if !files.isEmpty { content["files"] = .stringArray(files) }
        return try await bus.call(
            destination: names.client, path: CoordinationNames.clientPath,
            interface: CoordinationNames.clientInterface,
            method: "Share", arguments: [.variantDictionary(content), .string(chat)], timeout: timeout)
    }

    /// Sends with a core of our own, and stays while the contact accepts the files and they are
    /// handed to the relay (progress on `display`); returns the items `prepare` made and where the
    /// files stand. The core is asked for first and `prepare` (the files kept, thumbnails, link
    /// previews) and the keychain run while the service suspends, so the suspension's time is not
    /// added to theirs; a preparation that fails hands the core back (the service resumes).
    func standalone(
        preparing prepare: () throws(Failure) -> [SharedItem], to contact: ChatContact,
        display: ProgressDisplay?
    ) async throws(Failure) -> (items: [SharedItem], progress: ShareProgress?) {
        let defaults = GroupDefaults(container: container)
        let handoff = ClientHandoff(
            container: container, defaults: defaults, bus: bus, environment: environment, role: .share)
        let taking = Task { () -> Result<TakenCore, ClientHandoff.Failure> in
            do throws(ClientHandoff.Failure) {
                return .success(TakenCore(lock: try await handoff.takeCore()))
            } catch {
                return .failure(error)
            }
        }
        let prepared: Result<([SharedItem], (agent: AgentSecrets, database: DatabaseKey)), Failure>
        do throws(Failure) {
            let items = try prepare()
            prepared = .success((items, try await secrets()))
        } catch {
            prepared = .failure(error)
        }
        let lock: FileLock
        switch await taking.value {
        case .success(let taken): lock = taken.lock
        case .failure(let error):
            if case .failure(let failure) = prepared { throw failure }
            throw Failure(description: error.description, status: ShareExit.tempFail)
        }
        let items: [SharedItem]
        let chat: ChatController
        do {
            let secrets: (agent: AgentSecrets, database: DatabaseKey)
            (items, secrets) = try prepared.get()
            chat = try await ChatController.open(
                groupDirectory: container.path, secrets: secrets.agent, databaseKey: secrets.database)
        } catch {
            await handoff.handBack(lock)
            if let failure = error as? Failure { throw failure }
            throw Failure(description: "\(error)", status: ShareExit.unavailable)
        }
        await chat.startSending()
        // The contact's acceptance of a file comes on their connection: subscribed now, so its
        // SUB goes out with the offer rather than after it.
        if items.contains(where: { $0.path != nil }) { await chat.receive(from: contact) }
        var sent = 0
        var offered: [ChatFile] = []
        var failure: Failure?
        do {
            for item in items {
                if let path = item.path {
                    let offer = try await chat.sendFile(
                        to: contact.localDisplayName, path: path, content: item.content)
                    if let file = offer.file { offered.append(file) }
                } else {
                    _ = try await chat.send(to: contact.localDisplayName, item.content)
                }
                sent += 1
            }
        } catch {
            failure = Failure(description: "\(error)", status: ShareExit.dataError)
        }
        let delivered = await chat.waitForDeliveries(timeout: deliveryTimeout)
        var progress: ShareProgress?
        if failure == nil, delivered, !offered.isEmpty {
            progress = await waitForTransfers(offered, of: chat, to: contact, display: display)
        }
        await chat.stop()
        await handoff.handBack(lock)
        if let failure { throw failure }
        guard delivered else {
            throw Failure(
                description: "the relay cannot be reached: "
                    + (sent == 1 ? "it is queued and goes out" : "they are queued and go out")
                    + " when SimpleX Chat runs next",
                status: ShareExit.tempFail)
        }
        if let progress {
            if let failed = progress.failures.first {
                throw Failure(
                    description: "\(failed.name) was not sent: \(failed.reason)", status: ShareExit.dataError)
            }
            if progress.isAccepted && !progress.isFinished {
                throw Failure(
                    description:
                        "the relay takes too long: \(progress.percent)% handed over, the rest goes when "
                        + "SimpleX Chat runs next",
                    status: ShareExit.tempFail)
            }
        }
        return (items, progress)
    }

    /// The agent's secrets and the databases' key from the keychain; a keychain behind a passphrase
    /// is simplex-chat's to open.
    private func secrets() async throws(Failure) -> (agent: AgentSecrets, database: DatabaseKey) {
        do {
            let keychain = try await DesktopKeychain.open(
                container: container, bus: bus, environment: environment)
            return (try AgentSecrets.load(from: keychain), try DatabaseKey.load(from: keychain))
        } catch {
            if let error = error as? KeychainError { throw ShareMain.failure(error) }
            throw Failure(description: "\(error)", status: ShareExit.unavailable)
        }
    }
}

/// core.lock passed from the task that takes it to the one caller that awaits it, never shared.
private struct TakenCore: @unchecked Sendable {
    let lock: FileLock
}

/// sysexits(3).
enum ShareExit {
    static let ok: Int32 = 0
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let unavailable: Int32 = 69
    static let tempFail: Int32 = 75
}

extension ShareSender {
    /// Why nothing can be shared while the database passphrase is not kept in the keychain.
    static let passphraseNotStored =
        "the database passphrase is not stored in the keychain, and only simplex-chat asks for it: "
        + "start simplex-chat and share again (it then sends what you share)"
}
