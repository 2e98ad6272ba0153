import SimpleXChat

extension ChatViewItem.Event {
    /// The row an event item of the core is (iOS: IntegrityErrorItemView, CIRcvDecryptionError,
    /// CIEventView, CIChatFeatureView, CIFeaturePreferenceView).
    init(_ event: ChatItemEvent) {
        switch event {
        case .rcvIntegrityError(.msgSkipped(let from, let to)):
            self = .messagesSkipped(Int(to - from + 1))
        case .rcvIntegrityError(let error):
            // iOS's words for the other integrity errors.
            switch error {
            case .msgBadId: self = .messageError("bad message ID")
            case .msgBadHash: self = .messageError("bad message hash")
            default: self = .messageError("duplicate message")
            }
        case .rcvDecryptionError(_, let count):
            self = .decryptionError(messages: count)
        case .rcvDirectE2EEInfo:
            self = .connection(event.text)
        case .rcvChatFeature(let feature, let enabled, let param),
            .sndChatFeature(let feature, let enabled, let param):
            self = .feature(
                name: feature.name, state: ChatItemEvent.featureState(feature, enabled, param: param))
        case .rcvChatPreference(let feature, let allowed, let param):
            self = .preference(name: feature.name, value: Self.offer(allowed, param))
        case .sndChatPreference(let feature, let allowed, let param):
            self = .preference(name: feature.name, value: "you " + Self.offer(allowed, param))
        }
    }

    /// `offered 1 day`, `offered`, `cancelled`.
    private static func offer(_ allowed: FeatureAllowed, _ param: Int?) -> String {
        guard allowed != .no else { return "cancelled" }
        return "offered" + (param.map { " " + ChatItemEvent.timedTTLText($0) } ?? "")
    }
}
