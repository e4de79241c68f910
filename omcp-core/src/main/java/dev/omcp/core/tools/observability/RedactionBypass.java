package dev.omcp.core.tools.observability;

import dev.omcp.ports.access.AccessDecision;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.identity.AuthKind;
import dev.omcp.ports.identity.Principal;
import java.util.Objects;
import java.util.Set;

/**
 * Who may read {@code query_logs} unredacted (spec 5.7; DECISIONS.md "Redaction"): a call skips redaction only when
 * its credential is listed in {@code OMCP_KEY_BYPASS_REDACTION} AND the principal behind it holds the RBAC permission
 * {@code redaction:bypass} AND the call sets {@code bypass_redaction: true}. This class decides the first two gates;
 * the tool checks the flag. A policy that cannot decide (OPA unreachable) grants nothing: redaction fails closed.
 */
public final class RedactionBypass {
    /** The permission spec 5.7 names. */
    public static final Permission PERMISSION = new Permission("redaction", "bypass");
    private static final RedactionBypass NOBODY = new RedactionBypass(Set.of(), null);

    private final Set<String> listedKeyNames;
    /** Null only for {@link #NOBODY}, which lists no credential and so never asks. */
    private final AccessPolicy policy;

    private RedactionBypass(Set<String> listedKeyNames, AccessPolicy policy) {
        this.listedKeyNames = Set.copyOf(listedKeyNames);
        this.policy = policy;
    }

    /** Nobody may skip redaction: the default, and an embedder's unless it lists credentials. */
    public static RedactionBypass nobody() {
        return NOBODY;
    }

    /**
     * @param listedKeyNames the API key names of {@code OMCP_KEY_BYPASS_REDACTION}
     * @param policy the access policy that decides {@code redaction:bypass} for the key's principal (its roles come from
     *     {@code OMCP_KEY_ROLES})
     */
    public static RedactionBypass of(Set<String> listedKeyNames, AccessPolicy policy) {
        Objects.requireNonNull(policy, "policy");
        return listedKeyNames.isEmpty() ? NOBODY : new RedactionBypass(listedKeyNames, policy);
    }

    /** Whether {@code principal} passes both gates of the credential: listed, and permitted. */
    public boolean grants(Principal principal) {
        if (principal.authKind() != AuthKind.API_KEY || !listedKeyNames.contains(principal.name())) {
            return false;
        }
        return policy.decide(principal, PERMISSION) instanceof AccessDecision.Allowed;
    }

    /** Whether any credential is listed at all. */
    public boolean anyListed() {
        return !listedKeyNames.isEmpty();
    }
}
