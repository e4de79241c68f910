package dev.omcp.ports.access;

import dev.omcp.ports.identity.Principal;
import java.util.List;

/**
 * Driving port: who may do what on the management plane (spec 5.5). The HTTP adapter asks it for
 * every route that declares a permission; {@code /api/me} lists {@link #permissionsOf} so a UI can
 * hide what the caller may not do. Thread-safe.
 */
public interface AccessPolicy {

    /** Whether {@code principal} holds {@code permission}. */
    AccessDecision decide(Principal principal, Permission permission);

    /** Every permission of the catalog {@code principal} holds, in catalog order. */
    List<Permission> permissionsOf(Principal principal);

    /** Every permission a route may check, in a stable order. */
    List<Permission> catalog();

    /** The policy as {@code GET /api/policy} shows it. */
    PolicyView view();
}
