package dev.omcp.core.auth.oidc;

import dev.omcp.ports.auth.ExternalIdentityMapping;
import dev.omcp.ports.auth.MappedIdentity;
import dev.omcp.ports.auth.SessionSubject;
import dev.omcp.sdk.connector.SourceConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Turns verified ID-token claims into a session subject (spec 5.1).
 *
 * <p>Roles: the values of the roles claim (a string, an array of strings, or an object whose keys
 * are the values, as ZITADEL sends project roles; a dotted name such as
 * {@code realm_access.roles} walks nested objects when no top-level claim has that exact name).
 * With a role map ({@code OMCP_OIDC_ROLE_MAP}) only mapped values grant roles; without one, values
 * that are exactly a role name of the policy are taken as that role. Values naming no role are
 * ignored, so a person without any mapped group logs in with no permissions.
 *
 * <p>The {@code sub} claim must be 1-256 characters without control characters or a leading or
 * trailing space (OpenID Connect Core 2 asks for at most 255 ASCII characters): sessions are revoked
 * by naming it, and the revocation refuses control characters and trims what it is given.
 *
 * <p>An {@code email} claim grants roles or a tenant only when {@code email_verified} is true
 * (OpenID Connect Core 5.1): an address the provider did not verify is only what the person typed,
 * so mapping it (the {@code google} profile maps addresses) would let anyone claim a mapped one.
 *
 * <p>With a tenant claim, every login must name exactly one usable tenant: a session without one
 * operates every tenant's data, so a missing or unusable tenant refuses the login (fail closed).
 */
public final class ClaimMapping implements ExternalIdentityMapping {
    private static final int MAX_VALUES = 256;
    private static final int MAX_TEXT = 256;
    private static final String EMAIL = "email";

    private final String rolesClaim;
    private final Map<String, List<String>> roleMap;
    private final String tenantClaim;
    private final Set<String> knownRoles;

    /**
     * @param rolesClaim claim holding group or role values
     * @param roleMap claim value to role names; empty to use values that are role names as they are
     * @param tenantClaim claim holding the tenant; empty for none
     * @param knownRoles role names of the active policy
     */
    public ClaimMapping(String rolesClaim, Map<String, List<String>> roleMap, String tenantClaim, Set<String> knownRoles) {
        this.rolesClaim = Objects.requireNonNull(rolesClaim, "rolesClaim");
        Map<String, List<String>> copy = new LinkedHashMap<>();
        roleMap.forEach((value, roles) -> copy.put(value, List.copyOf(roles)));
        this.roleMap = Map.copyOf(copy);
        this.tenantClaim = Objects.requireNonNull(tenantClaim, "tenantClaim");
        this.knownRoles = Set.copyOf(knownRoles);
    }

    @Override
    public MappedIdentity map(Map<String, Object> claims) {
        Object sub = claims.get("sub");
        if (!(sub instanceof String subject) || subject.isBlank() || subject.length() > MAX_TEXT) {
            return new MappedIdentity.Refused("the ID token has no usable sub claim");
        }
        // An admin revokes a person's sessions by naming this value (POST /api/auth/revocations), which
        // refuses control characters and trims: a subject either way could never be revoked.
        if (subject.chars().anyMatch(Character::isISOControl) || !subject.trim().equals(subject)) {
            return new MappedIdentity.Refused("the ID token's sub claim holds control characters or begins or ends with "
                    + "a space, so its sessions could not be revoked; the identity provider must send a plain identifier");
        }
        String name = firstText(claims, "name", "preferred_username", "email").orElse(subject);
        Set<String> roles = new LinkedHashSet<>();
        for (String value : values(trusted(claims, rolesClaim))) {
            if (roleMap.isEmpty()) {
                if (knownRoles.contains(value)) {
                    roles.add(value);
                }
            } else {
                roles.addAll(roleMap.getOrDefault(value, List.of()));
            }
        }
        String tenant = "";
        if (!tenantClaim.isEmpty()) {
            Optional<String> problem = tenantProblem(claims);
            if (problem.isPresent()) {
                return new MappedIdentity.Refused(problem.get());
            }
            tenant = tenantOf(claim(claims, tenantClaim));
        }
        return new MappedIdentity.Mapped(new SessionSubject(subject, name, List.copyOf(roles), tenant));
    }

    /**
     * Why the claims name no tenant, when the tenant claim is set. A session without a tenant
     * operates every tenant's data, so a token that lacks the claim, or carries a value no tenant
     * can have (a number, an object, several tenants, text a source could not be bound to), is
     * refused rather than given that reach.
     */
    private Optional<String> tenantProblem(Map<String, Object> claims) {
        String what = tenantClaim + " claim, which names the tenant (OMCP_OIDC_TENANT_CLAIM)";
        Object value = claim(claims, tenantClaim);
        if (value == null) {
            return Optional.of("the ID token has no " + what + "; without a tenant the session would reach every tenant's data, "
                    + "so the identity provider must send one");
        }
        if (tenantClaim.equals(EMAIL) && !verifiedEmail(claims.get("email_verified"))) {
            return Optional.of("the ID token's " + what + ", is not one the identity provider verified (email_verified is not "
                    + "true), so it cannot name a tenant");
        }
        if (tenantOf(value).isEmpty()) {
            return Optional.of("the ID token's " + what + ", is not one tenant name: it must be a string (or an array holding "
                    + "one) of 1-" + SourceConfig.MAX_TENANT + " characters without control, format or line-separator characters");
        }
        return Optional.empty();
    }

    /** The one tenant a claim value names, or "" when it names none or several. */
    private static String tenantOf(Object value) {
        Set<String> names = new LinkedHashSet<>();
        if (value instanceof String text) {
            names.add(text);
        } else if (value instanceof List<?> list && !list.isEmpty() && list.size() <= MAX_VALUES) {
            for (Object item : list) {
                names.add(item instanceof String text ? text : "");
            }
        }
        if (names.size() != 1) {
            return "";
        }
        String tenant = names.iterator().next();
        return !tenant.isBlank() && SourceConfig.isValidTenant(tenant) ? tenant : "";
    }

    private static Optional<String> firstText(Map<String, Object> claims, String... names) {
        for (String claimName : names) {
            if (claims.get(claimName) instanceof String text && !text.isBlank() && text.length() <= MAX_TEXT) {
                return Optional.of(text);
            }
        }
        return Optional.empty();
    }

    /** The claim's value, or null for an email address its provider did not verify. */
    private static Object trusted(Map<String, Object> claims, String name) {
        if (name.equals(EMAIL) && !verifiedEmail(claims.get("email_verified"))) {
            return null;
        }
        return claim(claims, name);
    }

    /** True as a JSON boolean, or as the string some providers send instead. */
    private static boolean verifiedEmail(Object flag) {
        return Boolean.TRUE.equals(flag) || "true".equals(flag);
    }

    /** The claim with this exact name, else the value at the dotted path. */
    static Object claim(Map<String, Object> claims, String name) {
        if (claims.containsKey(name)) {
            return claims.get(name);
        }
        Object current = claims;
        for (String part : name.split("\\.")) {
            if (!(current instanceof Map<?, ?> map)) {
                return null;
            }
            current = map.get(part);
        }
        return current;
    }

    /**
     * The role values of the claim: a string, the strings of an array, or the keys of an object
     * (ZITADEL sends project roles as {@code {"<role key>": {"<org id>": "<org domain>"}}}).
     */
    private static List<String> values(Object value) {
        List<String> values = new ArrayList<>();
        if (value instanceof String text) {
            addText(values, text);
        } else if (value instanceof List<?> list) {
            addTexts(values, list);
        } else if (value instanceof Map<?, ?> object) {
            addTexts(values, object.keySet());
        }
        return values;
    }

    private static void addTexts(List<String> values, Iterable<?> items) {
        for (Object item : items) {
            if (values.size() >= MAX_VALUES) {
                break;
            }
            if (item instanceof String text) {
                addText(values, text);
            }
        }
    }

    private static void addText(List<String> values, String text) {
        if (!text.isBlank() && text.length() <= MAX_TEXT) {
            values.add(text);
        }
    }
}
