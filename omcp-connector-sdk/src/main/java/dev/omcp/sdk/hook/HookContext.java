package dev.omcp.sdk.hook;

import java.util.Objects;

/**
 * What a hook learns about the call it runs around (spec 2.4).
 *
 * @param principal the identity making the call, for example {@code key:ci-bot} or {@code anonymous}
 * @param tenant the tenant the call runs in; empty string when the gateway is not multi-tenant
 * @param kind the hook point that fired
 * @param target the tool name, resource URI or prompt name the call addresses
 */
public record HookContext(String principal, String tenant, HookKind kind, String target) {
    public HookContext {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(target, "target");
    }
}
