import Foundation
import SimpleXChat
import SimpleXDesktop
import SimpleXSystem

/// Sharing into a group: through the running client, or with a core of our own as
/// `standalone(preparing:to:display:)` does for a contact. A file is offered to every member; each member's
/// transfer starts when it accepts, in whichever process runs then (as a contact's does).
extension ShareSender {
    /// Sends `items` to `group` with a core of our own, waiting until the relay has them for every member.
    func standalone(_ items: [SharedItem], to group: ChatGroup) async throws(Failure) {
        let defaults = GroupDefaults(container: container)
        let handoff = ClientHandoff(container: container, defaults: defaults, bus: bus, environment: environment, role: .share)
        let lock: FileLock
        do { lock = try await handoff.takeCore() } catch {
            throw Failure(description: error.description, status: ShareExit.tempFail)
        }
        let chat: ChatController
        do {
            let keychain = try await DesktopKeychain.open(container: container, bus: bus, environment: environment)
            chat = try await ChatController.open(
                groupDirectory: container.path, secrets: try AgentSecrets.load(from: keychain),
                databaseKey: try DatabaseKey.load(from: keychain))
        } catch {
            await handoff.handBack(lock)
            throw Failure(description: "\(error)", status: ShareExit.unavailable)
        }
        await chat.startSending()
        var failure: Failure?
        do {
            for item in items {
                if let path = item.path {
                    _ = try await chat.sendGroupFile(group.localDisplayName, path: path, content: item.content)
                } else {
                    _ = try await chat.sendGroup(group.localDisplayName, item.content)
                }
            }
        } catch {
            failure = Failure(description: "\(error)", status: ShareExit.dataError)
        }
        let delivered = await chat.waitForDeliveries(timeout: deliveryTimeout)
        await chat.stop()
        await handoff.handBack(lock)
        if let failure { throw failure }
        guard delivered else {
            throw Failure(
                description: "the relay cannot be reached: "
                    + (items.count == 1 ? "it is queued and goes out" : "they are queued and go out")
                    + " when SimpleX Chat runs next",
                status: ShareExit.tempFail)
        }
    }
}
