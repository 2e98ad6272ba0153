import Foundation

/// Signal subscriptions: bus match rules, and tracking the owner of a well-known sender name so
/// that each subscription sees only its own signals. Everything here runs on the loop thread.
extension DBusLoop {
    /// How long the bus daemon gets to answer AddMatch, GetNameOwner and friends.
    static let busTimeout = Duration.seconds(25)

    /// Adds the subscription and its match rule; `done` runs once the bus has the rule (and, for a
    /// well-known sender, once we know its current owner), or with the error.
    func subscribe(
        id: UInt64, filter: DBusSignalFilter, continuation: AsyncStream<DBusSignal>.Continuation,
        done: @escaping (DBusError?) -> Void
    ) {
        subscriptions[id] = (filter, continuation)
        busCall("AddMatch", [.string(filter.matchRule)]) { [self] result in
            if case .failure(let error) = result {
                subscriptions[id] = nil
                continuation.finish()
                return done(error)
            }
            guard let name = filter.wellKnownSender else { return done(nil) }
            watchOwner(of: name) { done(nil) }
        }
    }

    /// Removes the subscription and its match rule (no reply awaited).
    func unsubscribe(id: UInt64) {
        guard let subscription = subscriptions.removeValue(forKey: id) else { return }
        subscription.continuation.finish()
        busCall("RemoveMatch", [.string(subscription.filter.matchRule)], complete: nil)
        guard let name = subscription.filter.wellKnownSender, var watch = watchedNames[name] else { return }
        watch.uses -= 1
        if watch.uses > 0 {
            watchedNames[name] = watch
        } else {
            watchedNames[name] = nil
            busCall("RemoveMatch", [.string(Self.ownerChangedRule(name))], complete: nil)
        }
    }

    private func watchOwner(of name: String, then: @escaping () -> Void) {
        if watchedNames[name] != nil {
            watchedNames[name]?.uses += 1
            return then()
        }
        watchedNames[name] = (owner: nil, uses: 1)
        busCall("AddMatch", [.string(Self.ownerChangedRule(name))], complete: nil)
        busCall("GetNameOwner", [.string(name)]) { [self] result in
            if case .success(let reply) = result, watchedNames[name] != nil {
                var reader = DBusMessageReader(message: reply)
                watchedNames[name]?.owner = (try? reader.read())?.string
            }
            then()
        }
    }

    private static func ownerChangedRule(_ name: String) -> String {
        "type='signal',sender='\(DBusNames.bus)',interface='\(DBusNames.bus)',"
            + "member='NameOwnerChanged',arg0='\(name)'"
    }

    /// Calls a method of the bus daemon itself; without `complete` no reply is requested.
    func busCall(_ method: String, _ arguments: [DBusValue], complete: Completion?) {
        let target = CallTarget(
            destination: DBusNames.bus, path: DBusNames.busPath, interface: DBusNames.bus, method: method)
        startCall(
            id: makeID(), target, deadline: .now + Self.busTimeout, timeout: Self.busTimeout,
            encode: { (writer) throws(DBusError) in try writer.append(arguments) }, complete: complete)
    }
}
