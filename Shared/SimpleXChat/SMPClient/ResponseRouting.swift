import SimpleXProtocol

/// Where a transmission from the relay goes: the reply that resumes a waiting command, an event
/// for the agent, or nowhere. A pure decision, so the rules are tested without a connection.
enum ResponseRouting: Equatable {
    /// Resume the command with this correlation id (`ERR` already turned into `.server`).
    case reply(CorrelationID, Result<SMPResponse, SMPClientError>)
    /// Tell the agent.
    case event(SMPServerEvent)
    /// A late reply to a command no one waits for any more.
    case drop

    /// Routes `transmission`, given whether a command waits for its correlation id.
    static func route(_ transmission: SMPTransmission, isWaiting: (CorrelationID) -> Bool) -> ResponseRouting
    {
        let correlationID = transmission.correlationID
        let waited = !correlationID.isEmpty && isWaiting(correlationID)
        let response: SMPResponse
        do {
            response = try transmission.decodeResponse()
        } catch {
            // Unreadable: fail the command it answers; an unreadable event is dropped, not fatal.
            return waited ? .reply(correlationID, .failure(.protocolViolation("response: \(error)"))) : .drop
        }
        if waited {
            if case .err(let error) = response { return .reply(correlationID, .failure(.server(error))) }
            return .reply(correlationID, .success(response))
        }
        let queue = transmission.entityID
        switch response {
        // A MSG answering a command that timed out or was cancelled is still a delivery the
        // server waits to have acknowledged, so it goes to the agent as an event.
        case .msg(let messageID, let body):
            return .event(.message(recipientID: queue, messageID: messageID, encryptedBody: body))
        case .end: return .event(.end(recipientID: queue))
        case .deld: return .event(.deleted(recipientID: queue))
        default:
            // Other late replies (OK, PONG, ERR to an abandoned command) answer no one.
            return correlationID.isEmpty ? .event(.unexpected(entityID: queue, response: response)) : .drop
        }
    }
}
