package dev.omcp.core.auth.oidc;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Provider profiles ({@code OMCP_OIDC_PROFILE}): where common providers put roles and tenant, and
 * which scopes ask for them. Explicit {@code OMCP_OIDC_*} settings always win over a profile.
 */
public enum OidcProfile {
    /** Any provider: roles in {@code groups}, no tenant claim. */
    GENERIC(List.of("generic"), "groups", "", List.of()),
    /** Okta: {@code groups} needs the {@code groups} scope (and a groups claim on the app). */
    OKTA(List.of("okta"), "groups", "", List.of("groups")),
    /** Microsoft Entra ID (Azure AD): app roles in {@code roles}, tenant id in {@code tid}. */
    ENTRA(List.of("entra", "azure-ad", "azuread", "azure"), "roles", "tid", List.of()),
    /** Keycloak: realm roles in {@code realm_access.roles}. */
    KEYCLOAK(List.of("keycloak"), "realm_access.roles", "", List.of()),
    /**
     * Google: no groups in ID tokens, so roles are mapped from {@code email} (only a verified one,
     * see {@link ClaimMapping}); the Workspace domain {@code hd} is the tenant.
     */
    GOOGLE(List.of("google"), "email", "hd", List.of()),
    /** Auth0: roles added by an Action under the namespaced claim {@code https://omcp/roles}. */
    AUTH0(List.of("auth0"), "https://omcp/roles", "", List.of());

    private final List<String> names;
    private final String rolesClaim;
    private final String tenantClaim;
    private final List<String> extraScopes;

    OidcProfile(List<String> names, String rolesClaim, String tenantClaim, List<String> extraScopes) {
        this.names = names;
        this.rolesClaim = rolesClaim;
        this.tenantClaim = tenantClaim;
        this.extraScopes = extraScopes;
    }

    /** The profile called {@code name} (case-insensitive; {@code azure-ad} is Entra). */
    public static Optional<OidcProfile> named(String name) {
        String wanted = name.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(p -> p.names.contains(wanted)).findFirst();
    }

    /** Every accepted profile name, for error messages. */
    public static String acceptedNames() {
        return Arrays.stream(values()).flatMap(p -> p.names.stream()).collect(Collectors.joining(", "));
    }

    public String rolesClaim() {
        return rolesClaim;
    }

    /** The tenant claim; empty when the profile has none. */
    public String tenantClaim() {
        return tenantClaim;
    }

    /** Scopes added to the default {@code openid profile email}. */
    public List<String> extraScopes() {
        return extraScopes;
    }
}
