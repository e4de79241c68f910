package dev.omcp.app.settings;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.adapters.http.opa.OpaDecisionClient;
import dev.omcp.adapters.http.security.TrustedProxies;
import dev.omcp.core.auth.oidc.OidcProfile;
import dev.omcp.core.auth.password.PasswordRules;
import dev.omcp.ports.auth.BlocklistShares;
import dev.omcp.ports.auth.LockoutPolicy;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Reads the access-control variables; every problem goes to the shared {@link Environment}. */
final class AccessControlSettingsReader {
    private static final int MIN_SECRET = 32;

    private AccessControlSettingsReader() {}

    /**
     * Unset, {@code OMCP_AUTH} means anonymous (spec 5.1): every {@code /api/*} request is accepted.
     * An operator who configured an identity provider or a users file and forgot {@code OMCP_AUTH}
     * would get exactly that, an open management plane, behind one warning. So when a login is
     * configured but no mode chosen, the start is refused; choosing {@code anonymous} explicitly
     * keeps the spec's behaviour (then the login variables are only warned about as unused, since one
     * environment file may serve several profiles).
     */
    private static void refuseAnImplicitAnonymousPlaneWithALoginConfigured(Environment env) {
        if (env.raw(Variables.AUTH).isPresent()) {
            return;
        }
        Optional<Variable> login = Variables.ACCESS_CONTROL.stream()
                .filter(variable -> variable.equals(Variables.USERS_FILE) || variable.name().startsWith("OMCP_OIDC_"))
                .filter(variable -> env.raw(variable).isPresent()).findFirst();
        login.ifPresent(variable -> env.problem(Variables.AUTH, "is not set, so the management API would accept every request without "
                + "login (anonymous), yet " + variable.name() + " configures a login; set OMCP_AUTH="
                + (variable.equals(Variables.USERS_FILE) ? "basic" : "oidc") + " to require it, or OMCP_AUTH=anonymous to run without "
                + "login on purpose"));
    }

    /**
     * With a shared store the revocations of every replica live there. A file as well would be
     * replayed by each replica into the shared list at its start, stale or not, and then hold that
     * whole list: one replica's record of nothing in particular. The replays raise the store's
     * generation count, so a store back at older data could look whole to the other replicas, and an
     * entry stamped ahead of the clock prunes entries still in force from the shared list.
     */
    private static void refuseARevocationFileWithTheSharedStore(Environment env) {
        if (env.raw(Variables.REVOCATION_FILE).isPresent() && env.raw(Variables.REDIS_URL).isPresent()) {
            env.problem(Variables.REVOCATION_FILE, "is set together with the shared store (OMCP_REDIS_URL or its alias OMCP_STORE_URL), "
                    + "which keeps the revocations of every replica itself; the file is for a single gateway. Unset "
                    + "OMCP_AUTH_REVOCATION_FILE, or unset the store's URL to run one gateway with the file");
        }
    }

    static AccessControlSettings read(Environment env) {
        String mode = env.oneOf(Variables.AUTH, List.of("anonymous", "basic", "oidc"));
        refuseAnImplicitAnonymousPlaneWithALoginConfigured(env);
        Optional<String> secret = env.raw(Variables.SESSION_SECRET);
        if (secret.isPresent() && secret.get().length() < MIN_SECRET) {
            // refused, not replaced by a per-process secret: replicas would then reject each other's
            // cookies and every restart would log everybody out, behind a warning that is easy to miss
            env.problem(Variables.SESSION_SECRET, "is " + secret.get().length() + " characters long; it needs at least " + MIN_SECRET
                    + " (the value is not shown). Generate one with: openssl rand -base64 48; or unset it for a per-process secret");
            secret = Optional.empty();
        }
        int lifetime = env.seconds(Variables.SESSION_LIFETIME, 60, 7 * 24 * 3600);
        Optional<LockoutPolicy> lockout = lockout(env);
        Optional<AccessControlSettings.Oidc> oidc = mode.equals("oidc") ? Optional.of(oidc(env)) : Optional.empty();
        Optional<String> policyFile = env.file(Variables.RBAC_POLICY_FILE).map(java.nio.file.Path::toString);
        Optional<AccessControlSettings.Opa> opa = opa(env);
        if (policyFile.isPresent() && opa.isPresent()) {
            env.problem(Variables.OPA_URL, "and OMCP_RBAC_POLICY_FILE are both set; choose one policy source");
        }
        String trustProxy = trustProxy(env);
        Optional<String> redis = env.raw(Variables.REDIS_URL);
        if (redis.isPresent() && !redis.get().toLowerCase(Locale.ROOT).matches("rediss?://.+")) {
            env.problem(Variables.REDIS_URL, "must be redis://host:port or rediss://host:port (the value is not shown: it may hold a password)");
            redis = Optional.empty();
        }
        AccessControlSettings.RedisTlsFiles redisTls = redisTls(env, redis);
        refuseARevocationFileWithTheSharedStore(env);
        return new AccessControlSettings(
                mode,
                env.file(Variables.USERS_FILE).map(java.nio.file.Path::toString),
                secret,
                Duration.ofSeconds(lifetime),
                env.flag(Variables.AUTH_ALLOW_FALLBACK),
                lockout,
                env.file(Variables.REVOCATION_FILE).map(java.nio.file.Path::toString),
                env.integer(Variables.REVOCATIONS_PER_TENANT, 1, BlocklistShares.maxPerTenant(BlocklistShares.DEFAULT_CAPACITY)),
                redis,
                redisTls,
                oidc,
                policyFile,
                opa,
                env.flag(Variables.CSRF_BYPASS_BEARER),
                env.flag(Variables.CSP_STRICT_REPORT),
                trustProxy,
                passwordRules(env));
    }

    /**
     * {@code OMCP_TRUST_PROXY} (spec 5.2 rule 5) in the canonical form of {@link TrustedProxies#description()}, so that
     * whoever reads it sees one spelling per meaning ({@code 0} and {@code FALSE} both trust nobody and read as
     * {@code false}). A value of commas alone is refused like every list: read as unset, an address list a template
     * left empty would make the proxy every client, one address sharing the per-address login limit.
     */
    private static String trustProxy(Environment env) {
        String value = env.string(Variables.TRUST_PROXY);
        if (value.contains(",") && env.list(Variables.TRUST_PROXY).isEmpty()) {
            return "false"; // the list reported the problem
        }
        try {
            return TrustedProxies.parse(value).description();
        } catch (IllegalArgumentException e) {
            env.problem(Variables.TRUST_PROXY, e.getMessage());
            return "false";
        }
    }

    /** The TLS files of the shared store: each needs a rediss:// URL, and a client certificate needs its key. */
    private static AccessControlSettings.RedisTlsFiles redisTls(Environment env, Optional<String> redisUrl) {
        List<Variable> files = List.of(Variables.REDIS_CA_FILE, Variables.REDIS_CERT_FILE, Variables.REDIS_KEY_FILE);
        env.requiresWith(Variables.REDIS_URL, files);
        AccessControlSettings.RedisTlsFiles tls = new AccessControlSettings.RedisTlsFiles(
                env.file(Variables.REDIS_CA_FILE).map(java.nio.file.Path::toString),
                env.file(Variables.REDIS_CERT_FILE).map(java.nio.file.Path::toString),
                env.file(Variables.REDIS_KEY_FILE).map(java.nio.file.Path::toString));
        if (redisUrl.isPresent() && !redisUrl.get().toLowerCase(Locale.ROOT).startsWith("rediss://")) {
            for (Variable file : files) {
                if (env.raw(file).isPresent()) {
                    env.problem(file, "is set but OMCP_REDIS_URL is not a rediss:// URL; use rediss:// for a server that "
                            + "speaks TLS, or unset " + file.name());
                }
            }
        }
        if (env.raw(Variables.REDIS_CERT_FILE).isPresent() != env.raw(Variables.REDIS_KEY_FILE).isPresent()) {
            Variable set = env.raw(Variables.REDIS_CERT_FILE).isPresent() ? Variables.REDIS_CERT_FILE : Variables.REDIS_KEY_FILE;
            Variable missing = set == Variables.REDIS_CERT_FILE ? Variables.REDIS_KEY_FILE : Variables.REDIS_CERT_FILE;
            env.problem(set, "is set but " + missing.name() + " is not; a client certificate needs its private key: set both "
                    + "or neither");
        }
        return tls;
    }

    /** The password rules alone, for {@code omcp hash-password}. */
    static PasswordRules passwordRules(Environment env) {
        int minLength = env.integer(Variables.PASSWORD_MIN_LENGTH, 1, 1024);
        int minClasses = env.integer(Variables.PASSWORD_MIN_CLASSES, 1, 4);
        return new PasswordRules(minLength, minClasses,
                !env.flag(Variables.PASSWORD_DENYLIST_DISABLED), !env.flag(Variables.PASSWORD_POLICY_DISABLED));
    }

    private static Optional<LockoutPolicy> lockout(Environment env) {
        boolean disabled = env.flag(Variables.LOCKOUT_DISABLED);
        int maxFailures = env.integer(Variables.LOCKOUT_MAX_FAILURES, 1, 100);
        int window = env.seconds(Variables.LOCKOUT_WINDOW, 1, 86_400);
        int problemsBefore = env.problems().size();
        int base = env.seconds(Variables.LOCKOUT_BASE, 1, 86_400);
        int max = env.seconds(Variables.LOCKOUT_MAX, 1, 7 * 86_400);
        if (env.problems().size() != problemsBefore) {
            // the start is refused anyway; compared with a rejected value's stand-in, its default, the
            // operator would also be told about a value they never set
            return Optional.of(LockoutPolicy.DEFAULT);
        }
        if (max < base) {
            env.problem(Variables.LOCKOUT_MAX, "(" + max + " s" + (env.raw(Variables.LOCKOUT_MAX).isEmpty() ? ", the default" : "")
                    + ") must not be shorter than OMCP_AUTH_LOCKOUT_BASE (" + base + " s); raise OMCP_AUTH_LOCKOUT_MAX or lower "
                    + "OMCP_AUTH_LOCKOUT_BASE");
            return Optional.of(LockoutPolicy.DEFAULT);
        }
        if (disabled) {
            return Optional.empty();
        }
        return Optional.of(new LockoutPolicy(maxFailures, Duration.ofSeconds(window), Duration.ofSeconds(base),
                Duration.ofSeconds(max), Duration.ofHours(24).compareTo(Duration.ofSeconds(window)) >= 0
                        ? Duration.ofHours(24) : Duration.ofSeconds(window)));
    }

    private static AccessControlSettings.Oidc oidc(Environment env) {
        String profileName = env.string(Variables.OIDC_PROFILE);
        OidcProfile profile = OidcProfile.named(profileName).orElseGet(() -> {
            env.problem(Variables.OIDC_PROFILE, "must be one of " + OidcProfile.acceptedNames() + ", got '" + profileName + "'");
            return OidcProfile.GENERIC;
        });
        URI issuer = requiredUrl(env, Variables.OIDC_ISSUER, true);
        URI redirect = requiredUrl(env, Variables.OIDC_REDIRECT_URI, false);
        String clientId = env.raw(Variables.OIDC_CLIENT_ID).orElse("");
        if (clientId.isEmpty()) {
            env.problem(Variables.OIDC_CLIENT_ID, "is required when OMCP_AUTH=oidc");
        }
        Set<String> scopes = new LinkedHashSet<>();
        scopes.add("openid");
        for (String scope : env.string(Variables.OIDC_SCOPES).split("[\\s,]+")) {
            if (!scope.isBlank()) {
                scopes.add(scope.trim());
            }
        }
        scopes.addAll(profile.extraScopes());
        String rolesClaim = env.raw(Variables.OIDC_ROLES_CLAIM).orElse(profile.rolesClaim());
        String tenantClaim = env.raw(Variables.OIDC_TENANT_CLAIM).orElse(profile.tenantClaim());
        return new AccessControlSettings.Oidc(issuer, clientId, env.raw(Variables.OIDC_CLIENT_SECRET).orElse(""), redirect,
                List.copyOf(scopes), rolesClaim, roleMap(env), tenantClaim, profile.name().toLowerCase(Locale.ROOT),
                env.flag(Variables.OIDC_DCR_ENABLED), env.file(Variables.OIDC_DCR_STORE).map(java.nio.file.Path::toString));
    }

    private static URI requiredUrl(Environment env, Variable variable, boolean issuer) {
        Optional<String> raw = env.raw(variable);
        URI fallback = URI.create("https://invalid.invalid/");
        if (raw.isEmpty()) {
            env.problem(variable, "is required when OMCP_AUTH=oidc");
            return fallback;
        }
        URI uri;
        try {
            uri = new URI(raw.get());
        } catch (URISyntaxException e) {
            env.problem(variable, "is not a URL" + HttpUrls.shown(raw.get()));
            return fallback;
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        boolean loopback = uri.getHost() != null && (uri.getHost().equals("localhost") || uri.getHost().startsWith("127.")
                || uri.getHost().equals("[::1]"));
        if (uri.getHost() == null || !(scheme.equals("https") || (scheme.equals("http") && (loopback || !issuer)))) {
            env.problem(variable, (issuer ? "must be an https URL (http only on localhost)" : "must be an absolute http(s) URL")
                    + HttpUrls.shown(raw.get()));
            return fallback;
        }
        if (uri.getRawFragment() != null) {
            env.problem(variable, "must not have a fragment");
        }
        return uri;
    }

    private static Map<String, List<String>> roleMap(Environment env) {
        Optional<String> raw = env.raw(Variables.OIDC_ROLE_MAP);
        Map<String, List<String>> map = new LinkedHashMap<>();
        if (raw.isEmpty()) {
            return map;
        }
        JsonObject object;
        try (JsonReader reader = Jsonp.reader((raw.get()))) {
            object = reader.readObject();
        } catch (JsonException | IllegalStateException e) {
            env.problem(Variables.OIDC_ROLE_MAP, "must be a JSON object such as {\"sre\": \"operator\", \"admins\": [\"admin\"]}");
            return map;
        }
        for (Map.Entry<String, JsonValue> entry : object.entrySet()) {
            List<String> roles = new ArrayList<>();
            JsonValue value = entry.getValue();
            if (value instanceof JsonString text) {
                roles.add(text.getString());
            } else if (value.getValueType() == JsonValue.ValueType.ARRAY
                    && value.asJsonArray().stream().allMatch(item -> item instanceof JsonString)) {
                value.asJsonArray().forEach(item -> roles.add(((JsonString) item).getString()));
            } else {
                env.problem(Variables.OIDC_ROLE_MAP, "value of '" + entry.getKey() + "' must be a role name or an array of role names");
                continue;
            }
            map.put(entry.getKey(), roles);
        }
        return map;
    }

    private static Optional<AccessControlSettings.Opa> opa(Environment env) {
        Optional<String> url = env.raw(Variables.OPA_URL);
        env.requiresWith(Variables.OPA_URL, List.of(Variables.OPA_DECISION, Variables.OPA_CACHE_TTL, Variables.OPA_TIMEOUT,
                Variables.OPA_TOKEN, Variables.OPA_BREAKER_FAILURES, Variables.OPA_BREAKER_COOLDOWN));
        int ttl = env.seconds(Variables.OPA_CACHE_TTL, 0, 3600);
        int timeout = env.milliseconds(Variables.OPA_TIMEOUT, 100, 30_000);
        int breakerFailures = env.integer(Variables.OPA_BREAKER_FAILURES, 1, 100);
        int breakerCoolDown = env.milliseconds(Variables.OPA_BREAKER_COOLDOWN, 100, 300_000);
        if (url.isEmpty()) {
            return Optional.empty();
        }
        String decision = env.string(Variables.OPA_DECISION);
        boolean decisionUsable = opaDecisionUsable(env, Variables.OPA_DECISION, decision);
        Optional<String> token = env.raw(Variables.OPA_TOKEN);
        boolean tokenUsable = token.isEmpty() || opaTokenUsable(env, token.get());
        if (!opaUrlUsable(env, url.get()) || !decisionUsable || !tokenUsable) {
            return Optional.empty();
        }
        return Optional.of(new AccessControlSettings.Opa(url.get(), decision, Duration.ofSeconds(ttl), Duration.ofMillis(timeout),
                token, breakerFailures, Duration.ofMillis(breakerCoolDown)));
    }

    /**
     * An OPA address the gateway can append {@code /v1/data/<decision>} to, or a full Data API URL of
     * a decision; anything else would fail only at the first permission check, as a 503 for everyone.
     * A value with user info or a query is never repeated: either may hold a password or a token.
     */
    private static boolean opaUrlUsable(Environment env, String url) {
        if (!HttpUrls.usable(url)) {
            env.problem(Variables.OPA_URL, "must be an http(s) URL with a host such as http://opa:8181" + HttpUrls.shown(url));
            return false;
        }
        URI uri = URI.create(url);
        if (uri.getRawUserInfo() != null) {
            // the JDK client would not even send them: OPA's token authentication reads a bearer token
            env.problem(Variables.OPA_URL, "must not carry credentials before the host (user:password@; the value is not shown): "
                    + "give the address as http(s)://host[:port] and OPA's token in OMCP_OPA_TOKEN");
            return false;
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            env.problem(Variables.OPA_URL, "must not have a query ('?...') or a fragment ('#...'): the gateway appends "
                    + "/v1/data/<OMCP_OPA_DECISION> to its path; give http(s)://host[:port][/path]" + HttpUrls.shown(url));
            return false;
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath().replaceAll("/+$", "");
        int data = path.indexOf("/v1/data/");
        if (data >= 0) {
            if (env.raw(Variables.OPA_DECISION).isPresent()) {
                env.problem(Variables.OPA_URL, "names a decision (its path holds /v1/data/) and OMCP_OPA_DECISION is set too, so one "
                        + "of them would be ignored; give the server's address alone (such as http://opa:8181) and the decision in "
                        + "OMCP_OPA_DECISION, or unset OMCP_OPA_DECISION");
                return false;
            }
            return opaDecisionUsable(env, Variables.OPA_URL, path.substring(data + "/v1/data/".length()));
        }
        if (path.endsWith("/v1/data")) {
            env.problem(Variables.OPA_URL, "ends in /v1/data, which the gateway appends itself (it asks "
                    + "<OMCP_OPA_URL>/v1/data/<OMCP_OPA_DECISION>); give the server's address, such as http://opa:8181");
            return false;
        }
        return true;
    }

    /**
     * A decision path under {@code /v1/data/}: segments of letters, digits, {@code _} and {@code -},
     * separated by {@code /} or (as in a Rego package name) {@code .}. An empty segment ({@code a//b},
     * {@code a..b}) or the API prefix pasted in would ask a document no policy defines, and every
     * question would be denied as undefined.
     */
    private static boolean opaDecisionUsable(Environment env, Variable variable, String decision) {
        String shown = decision.length() > 64 ? decision.substring(0, 64) + "..." : decision;
        if (!decision.matches("[A-Za-z0-9_./-]{1,256}")) {
            env.problem(variable, "must name a decision such as omcp/authz/allow (or omcp.authz.allow): letters, digits, '_' and '-' "
                    + "in segments separated by '/' or '.', at most 256 characters, got '" + shown + "'");
            return false;
        }
        String path = OpaDecisionClient.decisionPath(decision);
        if (path.startsWith("v1/data/") || path.equals("v1/data")) {
            env.problem(variable, "starts with v1/data, which the gateway adds itself; give the path after it, such as omcp/authz/allow,"
                    + " got '" + shown + "'");
            return false;
        }
        if (path.isEmpty() || List.of(path.split("/", -1)).contains("")) {
            env.problem(variable, "has an empty segment ('//', '..' or nothing between separators), which names no rule; write it "
                    + "as omcp/authz/allow or omcp.authz.allow, got '" + shown + "'");
            return false;
        }
        return true;
    }

    /** A token that can go in an HTTP header as it is; never repeated, since it is a secret. */
    private static boolean opaTokenUsable(Environment env, String token) {
        if (token.regionMatches(true, 0, "Bearer ", 0, "Bearer ".length())) {
            env.problem(Variables.OPA_TOKEN, "starts with 'Bearer ', which the gateway adds itself; give the token alone (the value is "
                    + "not shown)");
            return false;
        }
        if (!token.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            env.problem(Variables.OPA_TOKEN, "must be printable ASCII without spaces (the value is not shown); look for a line break, a"
                    + " space or an invisible character pasted with it");
            return false;
        }
        return true;
    }
}
