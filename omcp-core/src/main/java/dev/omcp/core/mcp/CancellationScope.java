package dev.omcp.core.mcp;

import java.util.Optional;

/**
 * Whose {@code notifications/cancelled} reaches a request: a caller's in one session, since request
 * ids are each client's own choice and two callers easily pick the same one.
 *
 * <p>A call without a session (in process, embedded) is scoped by its principal alone, which tells
 * authenticated callers apart. The anonymous principal tells nobody apart: every embedding service's
 * unauthenticated call has it, so sessionless anonymous calls share no scope at all, and no cancellation
 * reaches one of them. An anonymous caller that needs to cancel its calls opens a session
 * ({@code initialize}) and sends them in it, or interrupts its own calling thread.
 *
 * @param principalId the caller's {@code Principal.id()}
 * @param sessionId the call's session id; empty for a call without a session
 */
record CancellationScope(String principalId, String sessionId) {

    /** The scope of {@code call}; empty when it has none that is its caller's alone. */
    static Optional<CancellationScope> of(McpCall call) {
        if (call.session().isEmpty() && call.principal().isAnonymous()) {
            return Optional.empty();
        }
        return Optional.of(new CancellationScope(call.principal().id(), call.sessionId()));
    }
}
