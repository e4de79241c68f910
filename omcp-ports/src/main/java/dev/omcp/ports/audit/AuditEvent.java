package dev.omcp.ports.audit;

import java.util.Objects;

/**
 * What one audited management request did, as the HTTP adapter knows it. The audit log adds
 * {@code ts}, {@code seq}, {@code prevHash} and {@code hash} (DECISIONS.md, audit entry).
 *
 * @param actor who made the request: the principal id of the session ({@code alice}), the
 *     username tried at a login, {@code anonymous} in anonymous mode, or {@code unauthenticated}
 *     when a request without a valid session was refused
 * @param tenant the actor's tenant; empty string when none
 * @param resource the resource of the permission the route checks, for example {@code sources};
 *     for routes without a permission the area, for example {@code auth}
 * @param action the action, for example {@code write}, {@code delete} or {@code login}
 * @param method the HTTP method, upper case
 * @param path the request path as received, without the query string
 * @param status the HTTP status answered
 * @param ip the client address, after the {@code OMCP_TRUST_PROXY} rules
 * @param target what was acted on: the {@code :name} / {@code :id} path parameter or a value the
 *     route names (for example a revoked {@code sid}); empty string when none
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
        String target) {

    public AuditEvent {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(ip, "ip");
        Objects.requireNonNull(target, "target");
        if (status < 100 || status > 599) {
            throw new IllegalArgumentException("status must be an HTTP status code 100-599, got " + status);
        }
    }
}
