package dev.omcp.core.auth.oidc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.auth.MappedIdentity;
import dev.omcp.ports.auth.SessionSubject;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClaimMappingTest {
    private static final Set<String> ROLES = Set.of("viewer", "operator", "admin");

    private static SessionSubject mapped(ClaimMapping mapping, Map<String, Object> claims) {
        return ((MappedIdentity.Mapped) mapping.map(claims)).subject();
    }

    @Test
    void theRoleMapTranslatesGroups_unmappedGroupsGrantNothing() {
        ClaimMapping mapping = new ClaimMapping("groups",
                Map.of("sre", List.of("operator"), "platform-admins", List.of("admin", "operator")), "", ROLES);
        SessionSubject subject = mapped(mapping, Map.of("sub", "u1", "name", "Una", "groups", List.of("sre", "admin", "platform-admins")));
        assertThat(subject.roles()).containsExactly("operator", "admin");
        assertThat(subject.name()).isEqualTo("Una");
    }

    @Test
    void withoutARoleMap_valuesThatAreRoleNamesAreUsed() {
        ClaimMapping mapping = new ClaimMapping("groups", Map.of(), "", ROLES);
        assertThat(mapped(mapping, Map.of("sub", "u1", "groups", List.of("viewer", "developers"))).roles()).containsExactly("viewer");
        assertThat(mapped(mapping, Map.of("sub", "u1", "groups", "admin")).roles()).containsExactly("admin");
    }

    @Test
    void dottedClaimNamesWalkNestedObjects_butAnExactTopLevelNameWins() {
        ClaimMapping keycloak = new ClaimMapping(OidcProfile.KEYCLOAK.rolesClaim(), Map.of(), "", ROLES);
        assertThat(mapped(keycloak, Map.of("sub", "u", "realm_access", Map.of("roles", List.of("operator")))).roles())
                .containsExactly("operator");
        ClaimMapping auth0 = new ClaimMapping(OidcProfile.AUTH0.rolesClaim(), Map.of(), "", ROLES);
        assertThat(mapped(auth0, Map.of("sub", "u", "https://omcp/roles", List.of("admin"))).roles()).containsExactly("admin");
    }

    @Test
    void aRolesClaimThatIsAnObject_grantsItsKeys_asZitadelSendsProjectRoles() {
        // ZITADEL: {"urn:zitadel:iam:org:project:roles": {"<role key>": {"<org id>": "<org domain>"}}}
        ClaimMapping mapping = new ClaimMapping("urn:zitadel:iam:org:project:roles", Map.of("sre", List.of("operator")), "", ROLES);
        Map<String, Object> roles = Map.of("sre", Map.of("2173", "acme.example"), "billing", Map.of("2173", "acme.example"));
        assertThat(mapped(mapping, Map.of("sub", "u", "urn:zitadel:iam:org:project:roles", roles)).roles()).containsExactly("operator");
    }

    @Test
    void anEmailGrantsItsMappedRolesOnlyWhenTheProviderVerifiedIt() {
        // OpenID Connect Core 5.1: email_verified says whether the provider checked the address. A
        // Google account may carry an address at another domain it never proved it owns.
        ClaimMapping google = new ClaimMapping(OidcProfile.GOOGLE.rolesClaim(), Map.of("boss@example.com", List.of("admin")),
                OidcProfile.GOOGLE.tenantClaim(), ROLES);
        // a Workspace account: its domain (hd) is the profile's tenant claim
        assertThat(mapped(google, Map.of("sub", "u", "hd", "example.com", "email", "boss@example.com", "email_verified", true)).roles())
                .containsExactly("admin");
        assertThat(mapped(google, Map.of("sub", "u", "hd", "example.com", "email", "boss@example.com", "email_verified", false))
                .roles()).isEmpty();
        assertThat(mapped(google, Map.of("sub", "u", "hd", "example.com", "email", "boss@example.com")).roles()).isEmpty();
        assertThat(mapped(google, Map.of("sub", "u", "hd", "example.com", "email", "boss@example.com", "email_verified", "yes"))
                .roles()).isEmpty();
        // some providers send the flag as the string "true"
        assertThat(mapped(google, Map.of("sub", "u", "hd", "example.com", "email", "boss@example.com", "email_verified", "true"))
                .roles()).containsExactly("admin");
        // the person still logs in, named by the address, with no permissions
        assertThat(mapped(google, Map.of("sub", "u", "hd", "example.com", "email", "boss@example.com")).name())
                .isEqualTo("boss@example.com");
    }

    @Test
    void anUnverifiedEmailIsNoTenant_soTheLoginIsRefused_ratherThanScopedToEveryTenant() {
        ClaimMapping mapping = new ClaimMapping("groups", Map.of(), "email", ROLES);
        assertThat(mapped(mapping, Map.of("sub", "u", "email", "a@acme.example", "email_verified", true)).tenant())
                .isEqualTo("a@acme.example");
        assertThat(mapping.map(Map.of("sub", "u", "email", "a@acme.example", "email_verified", false, "groups", "admin")))
                .isInstanceOfSatisfying(MappedIdentity.Refused.class, refused -> assertThat(refused.reason())
                        .contains("email claim").contains("email_verified"));
    }

    @Test
    void theTenantComesFromTheTenantClaim() {
        ClaimMapping mapping = new ClaimMapping("groups", Map.of(), "org", ROLES);
        assertThat(mapped(mapping, Map.of("sub", "u", "org", "acme")).tenant()).isEqualTo("acme");
        assertThat(mapped(mapping, Map.of("sub", "u", "org", List.of("acme"))).tenant()).isEqualTo("acme");
        assertThat(mapped(mapping, Map.of("sub", "u", "org", List.of("acme", "acme"))).tenant()).isEqualTo("acme");
        assertThat(mapped(mapping, Map.of("sub", "u", "org", "Ærø \u200c tenant")).tenant()).isEqualTo("Ærø \u200c tenant");
        // without a tenant claim configured, nobody has one, as in basic mode without tenants
        assertThat(mapped(new ClaimMapping("groups", Map.of(), "", ROLES), Map.of("sub", "u", "org", "acme")).tenant()).isEmpty();
    }

    @Test
    void aConfiguredTenantClaimThatIsMissingOrUnusable_refusesTheLogin_becauseNoTenantMeansEveryTenant() {
        // A session without a tenant operates the whole gateway (every tenant's sources and
        // postmortems). With OMCP_OIDC_TENANT_CLAIM set, a token that lacks it, or carries a value no
        // tenant can have, must not fall back to that.
        ClaimMapping mapping = new ClaimMapping("groups", Map.of("sre", List.of("operator")), "org", ROLES);
        Map<String, Object> missing = Map.of("sub", "u", "groups", List.of("sre"));
        assertThat(mapping.map(missing)).isInstanceOfSatisfying(MappedIdentity.Refused.class, refused -> assertThat(refused.reason())
                .isEqualTo("the ID token has no org claim, which names the tenant (OMCP_OIDC_TENANT_CLAIM); without a tenant the "
                        + "session would reach every tenant's data, so the identity provider must send one"));
        List<Object> unusable = List.of(42, true, Map.of("id", "acme"), "", " ", "x".repeat(257), "acme\n", "ac\u202eme",
                List.of(), List.of(42), List.of("acme", "globex"));
        for (Object value : unusable) {
            assertThat(mapping.map(Map.of("sub", "u", "groups", List.of("sre"), "org", value))).as("org %s", value)
                    .isInstanceOfSatisfying(MappedIdentity.Refused.class, refused -> assertThat(refused.reason())
                            .startsWith("the ID token's org claim, which names the tenant (OMCP_OIDC_TENANT_CLAIM), is not one "));
        }
        // a nested tenant claim is read like a nested roles claim
        ClaimMapping nested = new ClaimMapping("groups", Map.of(), "organization.id", ROLES);
        assertThat(mapped(nested, Map.of("sub", "u", "organization", Map.of("id", "acme"))).tenant()).isEqualTo("acme");
        assertThat(nested.map(Map.of("sub", "u", "organization", Map.of("name", "Acme")))).isInstanceOf(MappedIdentity.Refused.class);
    }

    @Test
    void theNameFallsBackToPreferredUsernameEmailAndSub() {
        ClaimMapping mapping = new ClaimMapping("groups", Map.of(), "", ROLES);
        assertThat(mapped(mapping, Map.of("sub", "u", "preferred_username", "una")).name()).isEqualTo("una");
        assertThat(mapped(mapping, Map.of("sub", "u", "email", "una@example.com")).name()).isEqualTo("una@example.com");
        assertThat(mapped(mapping, Map.of("sub", "u")).name()).isEqualTo("u");
    }

    @Test
    void claimsWithoutAUsableSubAreRefused() {
        ClaimMapping mapping = new ClaimMapping("groups", Map.of(), "", ROLES);
        assertThat(mapping.map(Map.of("name", "x"))).isInstanceOf(MappedIdentity.Refused.class);
        assertThat(mapping.map(Map.of("sub", 42))).isInstanceOf(MappedIdentity.Refused.class);
        assertThat(mapping.map(Map.of("sub", " "))).isInstanceOf(MappedIdentity.Refused.class);
    }

    @Test
    void profilesAreFoundByEveryName() {
        assertThat(OidcProfile.named("Azure-AD")).contains(OidcProfile.ENTRA);
        assertThat(OidcProfile.named("entra")).contains(OidcProfile.ENTRA);
        assertThat(OidcProfile.named("okta").orElseThrow().extraScopes()).containsExactly("groups");
        assertThat(OidcProfile.named("unknown")).isEmpty();
        assertThat(OidcProfile.acceptedNames()).contains("keycloak", "google", "auth0");
    }

    @Test
    void aSubjectThatARevocationCouldNotName_isRefused_controlCharactersOrASurroundingSpace() {
        // POST /api/auth/revocations {"sub": ...} refuses control characters and trims: a session
        // opened for such a subject could never be revoked by subject
        ClaimMapping mapping = new ClaimMapping("groups", Map.of(), "", ROLES);
        for (String sub : List.of("u-1\n", "u\u00071", "u-1\u0085", " u-1", "u-1 ", "u-1\t")) {
            assertThat(mapping.map(Map.of("sub", sub))).as("sub %s", sub.codePoints().boxed().toList())
                    .isInstanceOfSatisfying(MappedIdentity.Refused.class, refused -> assertThat(refused.reason())
                            .contains("sub claim holds control characters or begins or ends with a space")
                            .doesNotContain("u-1"));
        }
        // what real providers send keeps working, spaces and non-ASCII inside included
        for (String sub : List.of("248289761001", "auth0|5f7c8ec7c33c6c004bbafe82", "John Smith", "josé", "ad\u200Bmin")) {
            assertThat(mapped(mapping, Map.of("sub", sub)).sub()).isEqualTo(sub);
        }
    }
}
