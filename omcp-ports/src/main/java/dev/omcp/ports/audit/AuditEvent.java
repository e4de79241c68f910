package dev.omcp.ports.audit;

/**
 * One thing that happened on the management plane, as the caller knows it. The audit trail adds
 * the time, the sequence number and the hashes.
 *
 * @param actor who did it: the principal id (for example {@code user:alice}), or the user name of
 *     a refused login
 * @param tenant the actor's tenant; {@code null} or empty when none
 * @param resource what was acted on, for example {@code sources}
 * @param action what was done, for example {@code create}, {@code update}, {@code delete}
 * @param method the HTTP method of the request; {@code null} for events without a request
 * @param path the request path, without the query string; {@code null} for events without a request
 * @param status the HTTP status answered; {@code 0} for events without a request
 * @param ip the client address; {@code null} when unknown
 * @param target the {@code :name} path parameter naming the object acted on; {@code null} when none
 */
public record AuditEvent(
        String actor,
        String tenant,
        String resource,
        String action,
        String method,
        String path,
        int status,
        String ip,
        String target) {}
