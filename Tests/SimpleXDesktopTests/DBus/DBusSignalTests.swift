import SimpleXDesktop
import Testing

@Suite(.timeLimit(.minutes(1)))
struct DBusSignalTests {
    @Test func aSubscriberReceivesOnlyTheMemberItAskedFor() async throws {
        let pair = try await DBusPair()
        let wanted = try await pair.client.signals(interface: DBusPair.interface, member: "Wanted")
        let all = try await pair.client.signals(path: DBusPair.path)

        try await pair.server.emitSignal(
            path: DBusPair.path, interface: DBusPair.interface, name: "Other", arguments: [.uint32(1)])
        try await pair.server.emitSignal(
            path: DBusPair.path, interface: DBusPair.interface, name: "Wanted",
            arguments: [.string("x"), .variantDictionary(["n": .int32(2)])])

        let first = try #require(try await next(wanted))
        #expect(first.member == "Wanted")
        #expect(first.arguments == [.string("x"), .variantDictionary(["n": .int32(2)])])
        #expect(first.sender == pair.server.uniqueName)
        #expect(first.path == DBusPair.path)

        #expect(try await next(all)?.member == "Other")
        #expect(try await next(all)?.member == "Wanted")
    }

    @Test func aWellKnownSenderFilterIgnoresOtherEmitters() async throws {
        let pair = try await DBusPair()
        let stranger = try await DBusConnection(address: pair.bus.address)
        try await pair.server.requestName("chat.simplex.Emitter")
        let fromEmitter = try await pair.client.signals(sender: "chat.simplex.Emitter")

        try await stranger.emitSignal(
            path: DBusPair.path, interface: DBusPair.interface, name: "Changed",
            arguments: [.string("stranger")])
        try await pair.server.emitSignal(
            path: DBusPair.path, interface: DBusPair.interface, name: "Changed",
            arguments: [.string("emitter")])

        let signal = try #require(try await next(fromEmitter))
        #expect(signal.arguments == [.string("emitter")])
        #expect(signal.sender == pair.server.uniqueName)
    }
}
