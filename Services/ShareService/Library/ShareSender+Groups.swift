import Foundation
import SimpleXChat
import SimpleXDesktop
import SimpleXSystem

/// Sharing text into a group (files in groups are not in the core yet): through the running client,
/// or with a core of our own as `standalone(_:to:display:)` does for a contact.
extension ShareSender {
    /// Sends `text` to `group` with a core of our own, waiting until the relay has it for every member.
    func standalone(_ text: String, to group: ChatGroup) async throws(Failure) {
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
        do { _ = try await chat.sendGroup(group.localDisplayName, .text(text)) } catch {
            failure = Failure(description: "\(error)", status: ShareExit.dataError)
        }
        let delivered = await chat.waitForDeliveries(timeout: deliveryTimeout)
        await chat.stop()
        await handoff.handBack(lock)
        if let failure { throw failure }
        guard delivered else {
            throw Failure(
                description: "the relay cannot be reached: it is queued and goes out when SimpleX Chat runs next",
                status: ShareExit.tempFail)
        }
    }
}
