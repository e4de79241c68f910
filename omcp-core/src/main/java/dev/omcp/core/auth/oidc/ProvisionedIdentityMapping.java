package dev.omcp.core.auth.oidc;

import dev.omcp.ports.auth.ExternalIdentityMapping;
import dev.omcp.ports.auth.MappedIdentity;
import dev.omcp.ports.auth.ProvisionedLogins;
import dev.omcp.ports.auth.SessionSubject;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An OpenID login as SCIM provisioning governs it (spec 5.6, docs/scim.md): the claims are mapped as
 * usual, then a person the identity provider deprovisioned is refused, and the roles of the person's
 * provisioned groups are added to the claim-mapped ones.
 *
 * <p>Which SCIM {@code userName} is this person? The session is named by the {@code sub} claim (and a
 * deprovisioning revokes the {@code sub} named like the {@code userName}), but providers often
 * provision a {@code userName} that the ID token carries as {@code preferred_username} or
 * {@code email} instead. So:
 * <ul>
 *   <li>refusal looks at {@code sub}, {@code preferred_username} and {@code email}: refusing is the
 *       safe side, and each is this person's own claim, so no one can be refused by another's name;
 *   <li>roles come only from {@code sub} and an {@code email} the provider verified
 *       ({@code email_verified} true): {@code preferred_username} is neither unique nor stable
 *       (OpenID Connect Core 5.7), so a person able to choose it could otherwise take another's roles.
 * </ul>
 */
public final class ProvisionedIdentityMapping implements ExternalIdentityMapping {
    private static final int MAX_TEXT = 256;

    private final ExternalIdentityMapping claims;
    private final ProvisionedLogins provisioned;

    /**
     * @param claims the claim mapping ({@link ClaimMapping})
     * @param provisioned what SCIM provisioning says of a login
     */
    public ProvisionedIdentityMapping(ExternalIdentityMapping claims, ProvisionedLogins provisioned) {
        this.claims = Objects.requireNonNull(claims, "claims");
        this.provisioned = Objects.requireNonNull(provisioned, "provisioned");
    }

    @Override
    public MappedIdentity map(Map<String, Object> claimValues) {
        MappedIdentity mapped = claims.map(claimValues);
        if (!(mapped instanceof MappedIdentity.Mapped ok)) {
            return mapped;
        }
        SessionSubject subject = ok.subject();
        List<String> anyName = new ArrayList<>(List.of(subject.sub()));
        text(claimValues, "preferred_username").ifPresent(anyName::add);
        text(claimValues, "email").ifPresent(anyName::add);
        Optional<String> refused = provisioned.refusal(anyName);
        if (refused.isPresent()) {
            return new MappedIdentity.Refused(refused.get() + "; this person may not sign in to this gateway any more (SCIM"
                    + " deprovisioning); the identity provider provisions the person again to let them back in");
        }
        List<String> trustedNames = new ArrayList<>(List.of(subject.sub()));
        Object verified = claimValues.get("email_verified");
        if (Boolean.TRUE.equals(verified) || "true".equals(verified)) {
            text(claimValues, "email").ifPresent(trustedNames::add);
        }
        List<String> added = provisioned.groupRoles(trustedNames);
        if (added.isEmpty()) {
            return mapped;
        }
        Set<String> roles = new LinkedHashSet<>(subject.roles());
        roles.addAll(added);
        return new MappedIdentity.Mapped(new SessionSubject(subject.sub(), subject.name(), List.copyOf(roles), subject.tenant()));
    }

    private static Optional<String> text(Map<String, Object> claimValues, String name) {
        return claimValues.get(name) instanceof String value && !value.isBlank() && value.length() <= MAX_TEXT
                ? Optional.of(value) : Optional.empty();
    }
}
