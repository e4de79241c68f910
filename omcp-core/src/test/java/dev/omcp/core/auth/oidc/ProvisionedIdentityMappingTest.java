package dev.omcp.core.auth.oidc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.auth.MappedIdentity;
import dev.omcp.ports.auth.ProvisionedLogins;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Spec 5.6 and docs/scim.md: an OpenID login refused for a deprovisioned person, and given the roles of its SCIM groups. */
class ProvisionedIdentityMappingTest {
    private final ClaimMapping claims = new ClaimMapping("groups", Map.of(), "", Set.of("viewer", "operator", "admin"));

    /** Deprovisioned {@code gone}; the group of {@code ops} maps to operator. */
    private final ProvisionedLogins provisioning = new ProvisionedLogins() {
        @Override
        public Optional<String> refusal(Collection<String> names) {
            return names.contains("gone") ? Optional.of("the identity provider deleted the SCIM user gone") : Optional.empty();
        }

        @Override
        public List<String> groupRoles(Collection<String> names) {
            return names.contains("ops") ? List.of("operator") : List.of();
        }
    };
    private final ProvisionedIdentityMapping mapping = new ProvisionedIdentityMapping(claims, provisioning);

    @Test
    void aDeprovisionedPerson_isRefused_bySubPreferredUsernameOrEmail() {
        for (Map<String, Object> token : List.<Map<String, Object>>of(Map.of("sub", "gone"),
                Map.of("sub", "s-1", "preferred_username", "gone"), Map.of("sub", "s-1", "email", "gone"))) {
            MappedIdentity result = mapping.map(token);
            assertThat(result).isInstanceOf(MappedIdentity.Refused.class);
            assertThat(((MappedIdentity.Refused) result).reason()).contains("deleted").contains("SCIM");
        }
        assertThat(mapping.map(Map.of("sub", "s-1", "preferred_username", "someone"))).isInstanceOf(MappedIdentity.Mapped.class);
    }

    @Test
    void groupRoles_areAddedToTheClaimRoles_bySubOrAVerifiedEmailOnly() {
        MappedIdentity bySub = mapping.map(Map.of("sub", "ops", "groups", List.of("viewer")));
        assertThat(((MappedIdentity.Mapped) bySub).subject().roles()).containsExactly("viewer", "operator");
        MappedIdentity byEmail = mapping.map(Map.of("sub", "s-2", "email", "ops", "email_verified", true));
        assertThat(((MappedIdentity.Mapped) byEmail).subject().roles()).containsExactly("operator");
        // a name the provider did not verify grants nothing
        assertThat(((MappedIdentity.Mapped) mapping.map(Map.of("sub", "s-3", "email", "ops"))).subject().roles()).isEmpty();
        assertThat(((MappedIdentity.Mapped) mapping.map(Map.of("sub", "s-4", "preferred_username", "ops"))).subject().roles()).isEmpty();
    }

    @Test
    void aRefusalOfTheClaimMapping_staysItsOwn() {
        assertThat(mapping.map(Map.of("name", "no sub"))).isInstanceOf(MappedIdentity.Refused.class);
    }
}
