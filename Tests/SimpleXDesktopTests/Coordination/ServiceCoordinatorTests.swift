import SimpleXChat
import SimpleXDesktop
import Testing

/// The service's side of the handshake as a state machine, without a bus, a lock or a core.
@Suite struct ServiceCoordinatorTests {
    /// Runs `events` from a fresh machine and returns every action, in order.
    func run(_ events: [ServiceCoordinator.Event], from machine: ServiceCoordinator = .init())
        -> (ServiceCoordinator, [ServiceCoordinator.Action])
    {
        var machine = machine
        let actions = events.flatMap { machine.handle($0) }
        return (machine, actions)
    }

    @Test func inInstantModeItTakesTheLockThenStartsTheCoreThenIsActive() {
        let (machine, actions) = run([.wanted(instant: true), .lockAcquired, .coreStarted])
        #expect(actions == [.setState(.starting), .takeLock, .startCore, .setState(.active)])
        #expect(machine.state == .active)
    }

    @Test func outsideInstantModeNothingRuns() {
        let (machine, actions) = run([.wanted(instant: false)])
        #expect(actions.isEmpty)
        #expect(machine.state == .created)
    }

    @Test func aLockHeldByTheClientLeavesItSuspendedUntilWantedAgain() {
        let (machine, actions) = run([.wanted(instant: true), .lockBusy])
        #expect(actions == [.setState(.starting), .takeLock, .setState(.suspended)])
        // The client quits (Resume, or its bus name vanished): the service tries again.
        let (again, more) = run([.wanted(instant: true), .lockAcquired, .coreStarted], from: machine)
        #expect(more == [.setState(.starting), .takeLock, .startCore, .setState(.active)])
        #expect(again.state == .active)
    }

    @Test func suspendStopsTheCoreReleasesTheLockAndOnlyThenAnswers() {
        let (active, _) = run([.wanted(instant: true), .lockAcquired, .coreStarted])
        var machine = active
        #expect(machine.handle(.suspendRequested(call: 7)) == [.setState(.suspending), .stopCore])
        #expect(machine.state == .suspending)
        #expect(machine.handle(.coreStopped)
            == [.releaseLock, .setState(.suspended), .replySuspend(call: 7, suspended: true)])
        #expect(machine.state == .suspended)
        #expect(machine.pendingSuspends.isEmpty)
    }

    @Test func suspendWhenAlreadySuspendedIsAnsweredAtOnce() {
        var machine = ServiceCoordinator()
        #expect(machine.handle(.suspendRequested(call: 1)) == [.replySuspend(call: 1, suspended: true)])
        let (suspended, _) = run([.wanted(instant: true), .lockBusy])
        machine = suspended
        #expect(machine.handle(.suspendRequested(call: 2)) == [.replySuspend(call: 2, suspended: true)])
    }

    @Test func aSuspendDuringStartWinsOverTheStart() {
        // Before the lock: the lock is let go at once and the core never starts.
        let (beforeLock, early) = run([.wanted(instant: true), .suspendRequested(call: 1), .lockAcquired])
        #expect(
            early == [
                .setState(.starting), .takeLock, .releaseLock, .setState(.suspended),
                .replySuspend(call: 1, suspended: true),
            ])
        #expect(beforeLock.state == .suspended)
        // While the core starts: it is stopped as soon as it has started.
        let (whileStarting, late) = run([
            .wanted(instant: true), .lockAcquired, .suspendRequested(call: 2), .coreStarted, .coreStopped,
        ])
        #expect(
            late == [
                .setState(.starting), .takeLock, .startCore, .setState(.suspending), .stopCore, .releaseLock,
                .setState(.suspended), .replySuspend(call: 2, suspended: true),
            ])
        #expect(whileStarting.state == .suspended)
    }

    @Test func aSuspendThatTimesOutIsAnsweredFalseOnceAndNotAgain() {
        let (active, _) = run([.wanted(instant: true), .lockAcquired, .coreStarted])
        var machine = active
        _ = machine.handle(.suspendRequested(call: 3))
        #expect(machine.handle(.suspendTimedOut(call: 3)) == [.replySuspend(call: 3, suspended: false)])
        #expect(machine.handle(.coreStopped) == [.releaseLock, .setState(.suspended)])
        #expect(machine.handle(.suspendTimedOut(call: 3)) == [])
    }

    @Test func aCoreThatCannotStartReleasesTheLockAndSaysWhy() {
        let (machine, actions) = run([.wanted(instant: true), .lockAcquired, .coreFailed(reason: "keychain: locked")])
        #expect(
            actions == [
                .setState(.starting), .takeLock, .startCore, .log("cannot start the chat core: keychain: locked"),
                .releaseLock, .setState(.suspended),
            ])
        #expect(machine.state == .suspended)
    }

    @Test func wantedWhileRunningChangesNothing() {
        let (active, _) = run([.wanted(instant: true), .lockAcquired, .coreStarted])
        var machine = active
        #expect(machine.handle(.wanted(instant: true)) == [])
        #expect(machine.state == .active)
    }

    @Test func shutdownStopsACoreThatRunsAndFinishesAfter() {
        let (active, _) = run([.wanted(instant: true), .lockAcquired, .coreStarted])
        var machine = active
        #expect(machine.handle(.shutdown) == [.setState(.suspending), .stopCore])
        #expect(machine.handle(.coreStopped) == [.releaseLock, .setState(.suspended), .finished])
        // Nothing starts again once shutting down.
        #expect(machine.handle(.wanted(instant: true)) == [])
        var idle = ServiceCoordinator()
        #expect(idle.handle(.shutdown) == [.finished])
    }

    // MARK: - Passes (periodic mode, ReceiveNow)

    @Test func aPassTakesTheLockReceivesWithoutSubscribingThenStopsAndReleases() {
        let (machine, actions) = run([.passRequested, .lockAcquired, .passFinished, .coreStopped])
        #expect(
            actions == [
                .setState(.starting), .takeLock, .setState(.active), .receivePending, .setState(.suspending),
                .stopCore, .releaseLock, .setState(.suspended),
            ])
        #expect(machine.state == .suspended)
        #expect(!machine.passing)
    }

    @Test func aPassWhileTheClientHoldsTheLockDoesNothing() {
        let (machine, actions) = run([.passRequested, .lockBusy])
        #expect(actions == [.setState(.starting), .takeLock, .setState(.suspended)])
        #expect(!machine.passing)
        // A later wanted in instant mode subscribes as usual, not a pass.
        let (_, more) = run([.wanted(instant: true), .lockAcquired], from: machine)
        #expect(more == [.setState(.starting), .takeLock, .startCore])
    }

    @Test func aPassWhileSubscribedChangesNothing() {
        let (active, _) = run([.wanted(instant: true), .lockAcquired, .coreStarted])
        var machine = active
        #expect(machine.handle(.passRequested) == [])
        #expect(machine.state == .active)
        #expect(!machine.passing)
    }

    @Test func aSuspendCutsAPassShortAndIsAnsweredOnceTheCoreIsStopped() {
        let (passing, _) = run([.passRequested, .lockAcquired])
        var machine = passing
        #expect(machine.handle(.suspendRequested(call: 3)) == [.setState(.suspending), .stopCore])
        // The pass returns early once the core stops: that is no second stop.
        #expect(machine.handle(.passFinished) == [])
        #expect(
            machine.handle(.coreStopped) == [.releaseLock, .setState(.suspended), .replySuspend(call: 3, suspended: true)])
    }

    @Test func aPassThatCannotOpenTheCoreReleasesTheLock() {
        let (machine, actions) = run([.passRequested, .lockAcquired, .coreFailed(reason: "keychain: locked")])
        #expect(
            actions == [
                .setState(.starting), .takeLock, .setState(.active), .receivePending,
                .log("cannot start the chat core: keychain: locked"), .releaseLock, .setState(.suspended),
            ])
        #expect(machine.state == .suspended)
    }
}
