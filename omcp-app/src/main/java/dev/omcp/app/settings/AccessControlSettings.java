package dev.omcp.app.settings;

import dev.omcp.core.auth.password.PasswordRules;
import dev.omcp.ports.auth.BlocklistShares;
import dev.omcp.ports.auth.LockoutPolicy;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The access-control settings (docs/access-control.md), validated.
 *
 * @param authMode {@code anonymous}, {@code basic} or {@code oidc}
 * @param usersFile path of the users file (basic mode)
 * @param sessionSecret the configured secret (at least 32 characters; a shorter one is an invalid setting)
 * @param sessionLifetime session cookie lifetime
 * @param allowFallback run anonymous when basic prerequisites are missing
 * @param lockout the lockout rule; empty when disabled
 * @param revocationFile the revocation journal
 * @param revocationsPerTenant live blocklist entries one tenant may hold before its admins' revocations are refused
 * @param redisUrl the shared store
 * @param redisTls the TLS files of a {@code rediss://} store
 * @param oidc the OIDC settings (oidc mode)
 * @param policyFile the custom role policy
 * @param opa the OPA settings
 * @param csrfBypassBearer whether bearer requests skip CSRF
 * @param cspStrictReport whether the strict CSP is reported
 * @param trustProxy the validated {@code OMCP_TRUST_PROXY} value in its canonical form ({@code false} when it trusts nobody)
 * @param passwordRules the password policy of {@code omcp hash-password}
 */
public record AccessControlSettings(
        String authMode,
        Optional<String> usersFile,
        Optional<String> sessionSecret,
        Duration sessionLifetime,
        boolean allowFallback,
        Optional<LockoutPolicy> lockout,
        Optional<String> revocationFile,
        int revocationsPerTenant,
        Optional<String> redisUrl,
        RedisTlsFiles redisTls,
        Optional<Oidc> oidc,
        Optional<String> policyFile,
        Optional<Opa> opa,
        boolean csrfBypassBearer,
        boolean cspStrictReport,
        String trustProxy,
        PasswordRules passwordRules) {

    public AccessControlSettings {
        Objects.requireNonNull(authMode, "authMode");
        Objects.requireNonNull(sessionLifetime, "sessionLifetime");
        Objects.requireNonNull(trustProxy, "trustProxy");
        Objects.requireNonNull(passwordRules, "passwordRules");
        Objects.requireNonNull(redisTls, "redisTls");
    }

    /** The defaults: anonymous mode, nothing configured. */
    public static AccessControlSettings defaults() {
        return new AccessControlSettings("anonymous", Optional.empty(), Optional.empty(), Duration.ofHours(12), false,
                Optional.of(LockoutPolicy.DEFAULT), Optional.empty(), BlocklistShares.of(BlocklistShares.DEFAULT_CAPACITY).perTenant(),
                Optional.empty(), RedisTlsFiles.NONE, Optional.empty(),
                Optional.empty(), Optional.empty(), true, false, "false", PasswordRules.DEFAULT);
    }

    /**
     * OIDC settings, after the provider profile's defaults.
     *
     * @param issuer issuer URL
     * @param clientId client id
     * @param clientSecret client secret; empty for a public client
     * @param redirectUri callback URL
     * @param scopes requested scopes, {@code openid} first
     * @param rolesClaim claim holding roles or groups
     * @param roleMap claim value to roles
     * @param tenantClaim claim holding the tenant; empty for none
     * @param profile the profile name
     * @param dcrEnabled whether dynamic client registration is served
     * @param dcrStore file of registrations
     */
    public record Oidc(URI issuer, String clientId, String clientSecret, URI redirectUri, List<String> scopes, String rolesClaim,
            Map<String, List<String>> roleMap, String tenantClaim, String profile, boolean dcrEnabled, Optional<String> dcrStore) {
        public Oidc {
            scopes = List.copyOf(scopes);
            roleMap = Map.copyOf(roleMap);
        }

        @Override
        public String toString() {
            return "Oidc[issuer=" + issuer + ", clientId=" + clientId + ", secret " + (clientSecret.isEmpty() ? "none" : "hidden")
                    + ", redirectUri=" + redirectUri + ", scopes=" + scopes + ", rolesClaim=" + rolesClaim + ", profile=" + profile + "]";
        }
    }

    /**
     * The TLS files of a {@code rediss://} shared store; each empty one leaves the JVM's default.
     *
     * @param caFile the CAs the store's certificate must chain to, instead of the JVM's
     * @param certFile the client certificate chain the gateway presents
     * @param keyFile the client certificate's private key (may be the same file)
     */
    public record RedisTlsFiles(Optional<String> caFile, Optional<String> certFile, Optional<String> keyFile) {
        /** No file: the JVM's trust store, no client certificate. */
        public static final RedisTlsFiles NONE = new RedisTlsFiles(Optional.empty(), Optional.empty(), Optional.empty());

        public RedisTlsFiles {
            Objects.requireNonNull(caFile, "caFile");
            Objects.requireNonNull(certFile, "certFile");
            Objects.requireNonNull(keyFile, "keyFile");
        }
    }

    /**
     * OPA settings.
     *
     * @param url the server address (or a full Data API URL)
     * @param decision the decision path under {@code /v1/data/}
     * @param cacheTtl how long decisions are cached
     * @param timeout timeout of one request
     * @param token the bearer token sent to OPA ({@code OMCP_OPA_TOKEN}); secret, so not in {@link #toString()}
     * @param breakerFailures failures in a row after which OPA is not asked for {@code breakerCoolDown}
     * @param breakerCoolDown how long requests are refused at once before one probes OPA again
     */
    public record Opa(String url, String decision, Duration cacheTtl, Duration timeout, Optional<String> token, int breakerFailures,
            Duration breakerCoolDown) {
        public Opa {
            Objects.requireNonNull(breakerCoolDown, "breakerCoolDown");
            Objects.requireNonNull(url, "url");
            Objects.requireNonNull(decision, "decision");
            Objects.requireNonNull(cacheTtl, "cacheTtl");
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(token, "token");
        }

        @Override
        public String toString() {
            return "Opa[url=" + url + ", decision=" + decision + ", cacheTtl=" + cacheTtl + ", timeout=" + timeout
                    + ", token=" + (token.isPresent() ? "hidden" : "none") + ", breakerFailures=" + breakerFailures
                    + ", breakerCoolDown=" + breakerCoolDown + "]";
        }
    }

    @Override
    public String toString() {
        return "AccessControlSettings[authMode=" + authMode + ", usersFile=" + usersFile + ", sessionSecret="
                + (sessionSecret.isPresent() ? "hidden" : "none") + ", redis=" + (redisUrl.isPresent() ? "set" : "none") + ", redisTls=" + redisTls
                + ", oidc=" + oidc + ", policyFile=" + policyFile + ", opa=" + opa + ", trustProxy=" + trustProxy + "]";
    }
}
