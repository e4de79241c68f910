package dev.omcp.app.settings;

import java.util.List;

/**
 * Every environment variable the gateway reads. {@code docs/configuration.md} documents each one;
 * a test fails when this list names a variable the page does not.
 */
public final class Variables {
    public static final Variable HOST = new Variable("HOST", List.of(), "127.0.0.1",
            "Address to listen on; set 0.0.0.0 in containers.", false);
    public static final Variable PORT = new Variable("PORT", List.of(), "3000",
            "TCP port to listen on; 0 picks a free port.", false);
    public static final Variable API_KEYS = new Variable("OMCP_API_KEYS", List.of(), "",
            "Bearer credentials of the agent transport as comma-separated name:token; unset means anonymous /mcp.", true);
    public static final Variable ALLOWED_ORIGINS = new Variable("OMCP_ALLOWED_ORIGINS", List.of(), "",
            "Comma-separated browser origins (scheme://host[:port]) allowed besides same-origin requests.", false);
    public static final Variable ALLOWED_HOSTS = new Variable("OMCP_ALLOWED_HOSTS", List.of(), "",
            "Comma-separated Host names accepted besides the loopback names of a loopback-bound gateway.", false);
    public static final Variable SHUTDOWN_GRACE = new Variable("OMCP_SHUTDOWN_GRACE", List.of(), "10",
            "Seconds in-flight requests may run after SIGTERM before the process stops.", false);
    public static final Variable LOG_LEVEL = new Variable("OMCP_LOG_LEVEL", List.of(), "info",
            "Log level of the gateway's own loggers: trace, debug, info, warn or error.", false);
    public static final Variable LOG_FORMAT = new Variable("OMCP_LOG_FORMAT", List.of(), "text",
            "Log line format: text, or json for one JSON object per line.", false);

    // --- Access control (docs/access-control.md) ---------------------------------------------------
    public static final Variable AUTH = new Variable("OMCP_AUTH", List.of(), "anonymous",
            "Management-plane authentication: anonymous (no login), basic (users file) or oidc (single sign-on).", false);
    public static final Variable USERS_FILE = new Variable("OMCP_USERS_FILE", List.of(), "",
            "Path of the users file of basic mode ({\"users\": [...]}, hashes from omcp hash-password).", false);
    public static final Variable SESSION_SECRET = new Variable("OMCP_SESSION_SECRET", List.of(), "",
            "Secret of at least 32 characters that signs session cookies; unset or shorter means a per-process secret.", true);
    public static final Variable SESSION_LIFETIME = new Variable("OMCP_SESSION_LIFETIME", List.of(), "43200",
            "Session cookie lifetime in seconds (60-604800).", false);
    public static final Variable AUTH_ALLOW_FALLBACK = new Variable("OMCP_AUTH_ALLOW_FALLBACK", List.of(), "false",
            "When basic-mode prerequisites are missing, run without authentication instead of exiting 1.", false);
    public static final Variable LOCKOUT_MAX_FAILURES = new Variable("OMCP_AUTH_LOCKOUT_MAX_FAILURES", List.of(), "5",
            "Failed logins of one account inside the window that lock it (1-100).", false);
    public static final Variable LOCKOUT_WINDOW = new Variable("OMCP_AUTH_LOCKOUT_WINDOW", List.of(), "900",
            "Sliding window of the failed-login count, seconds.", false);
    public static final Variable LOCKOUT_BASE = new Variable("OMCP_AUTH_LOCKOUT_BASE", List.of(), "60",
            "First lock of an account, seconds; each further lock of a streak doubles.", false);
    public static final Variable LOCKOUT_MAX = new Variable("OMCP_AUTH_LOCKOUT_MAX", List.of(), "3600",
            "Cap of one lock, seconds.", false);
    public static final Variable LOCKOUT_DISABLED = new Variable("OMCP_AUTH_LOCKOUT_DISABLED", List.of(), "false",
            "true disables account lockout (the 20 logins per minute per IP limit stays).", false);
    public static final Variable REVOCATION_FILE = new Variable("OMCP_AUTH_REVOCATION_FILE", List.of(), "",
            "JSONL file (mode 0600) that keeps session revocations across restarts; unset keeps them in memory.", false);
    public static final Variable REDIS_URL = new Variable("OMCP_REDIS_URL", List.of("OMCP_STORE_URL"), "",
            "redis:// or rediss:// URL of the store shared by replicas (lockout, revocations); unset keeps state per process.", true);
    public static final Variable OIDC_ISSUER = new Variable("OMCP_OIDC_ISSUER", List.of(), "",
            "Issuer URL of the OpenID provider, exactly as its discovery document names it.", false);
    public static final Variable OIDC_CLIENT_ID = new Variable("OMCP_OIDC_CLIENT_ID", List.of(), "",
            "Client id of the gateway at the OpenID provider.", false);
    public static final Variable OIDC_CLIENT_SECRET = new Variable("OMCP_OIDC_CLIENT_SECRET", List.of(), "",
            "Client secret at the OpenID provider; unset for a public client (PKCE only).", true);
    public static final Variable OIDC_REDIRECT_URI = new Variable("OMCP_OIDC_REDIRECT_URI", List.of(), "",
            "Callback URL registered at the provider, ending in /api/auth/oidc/callback.", false);
    public static final Variable OIDC_SCOPES = new Variable("OMCP_OIDC_SCOPES", List.of(), "openid profile email",
            "Space- or comma-separated scopes requested; openid is always added; a profile may add more.", false);
    public static final Variable OIDC_ROLES_CLAIM = new Variable("OMCP_OIDC_ROLES_CLAIM", List.of(), "groups",
            "ID-token claim holding groups or roles; a dotted name walks nested objects (realm_access.roles).", false);
    public static final Variable OIDC_ROLE_MAP = new Variable("OMCP_OIDC_ROLE_MAP", List.of(), "",
            "JSON object mapping claim values to a role or a list of roles, e.g. {\"sre\":\"operator\"}.", false);
    public static final Variable OIDC_TENANT_CLAIM = new Variable("OMCP_OIDC_TENANT_CLAIM", List.of(), "",
            "ID-token claim holding the tenant; unset means no tenant.", false);
    public static final Variable OIDC_PROFILE = new Variable("OMCP_OIDC_PROFILE", List.of(), "generic",
            "Provider profile setting claim defaults: generic, okta, entra (azure-ad), keycloak, google, auth0.", false);
    public static final Variable OIDC_DCR_ENABLED = new Variable("OMCP_OIDC_DCR_ENABLED", List.of(), "false",
            "true serves RFC 7591 dynamic client registration at POST /api/auth/oidc/register.", false);
    public static final Variable OIDC_DCR_STORE = new Variable("OMCP_OIDC_DCR_STORE", List.of(), "",
            "JSON file (mode 0600) of dynamic client registrations; unset keeps them in memory.", false);
    public static final Variable RBAC_POLICY_FILE = new Variable("OMCP_RBAC_POLICY_FILE", List.of(), "",
            "YAML file of custom roles (roles: {name: [resource:action, ...]}); invalid means exit 1.", false);
    public static final Variable OPA_URL = new Variable("OMCP_OPA_URL", List.of(), "",
            "Address of an OPA server deciding every permission (Data API); fails closed when unreachable.", false);
    public static final Variable OPA_DECISION = new Variable("OMCP_OPA_DECISION", List.of(), "omcp/authz/allow",
            "Path of the OPA decision under /v1/data/.", false);
    public static final Variable OPA_CACHE_TTL = new Variable("OMCP_OPA_CACHE_TTL", List.of(), "30",
            "Seconds an OPA decision is cached (0-3600).", false);
    public static final Variable OPA_TIMEOUT = new Variable("OMCP_OPA_TIMEOUT_MS", List.of(), "2000",
            "Timeout of one OPA request in milliseconds (100-30000).", false);
    public static final Variable CSRF_BYPASS_BEARER = new Variable("OMCP_CSRF_BYPASS_BEARER", List.of(), "true",
            "false makes requests with Authorization: Bearer also echo the CSRF token.", false);
    public static final Variable CSP_STRICT_REPORT = new Variable("OMCP_CSP_STRICT_REPORT", List.of(), "false",
            "true adds the strict content security policy in report-only mode, reporting to /api/csp-violations.", false);
    public static final Variable TRUST_PROXY = new Variable("OMCP_TRUST_PROXY", List.of(), "false",
            "Which proxies may set X-Forwarded-For/-Proto: true, loopback, a hop count, or a comma-separated IP list.", false);
    public static final Variable PASSWORD_MIN_LENGTH = new Variable("OMCP_PASSWORD_MIN_LENGTH", List.of(), "12",
            "omcp hash-password: minimum password length.", false);
    public static final Variable PASSWORD_MIN_CLASSES = new Variable("OMCP_PASSWORD_MIN_CLASSES", List.of(), "3",
            "omcp hash-password: minimum character classes (lower, upper, digit, symbol), 1-4.", false);
    public static final Variable PASSWORD_DENYLIST_DISABLED = new Variable("OMCP_PASSWORD_DENYLIST_DISABLED", List.of(), "false",
            "omcp hash-password: true skips the builtin common-password list.", false);
    public static final Variable PASSWORD_POLICY_DISABLED = new Variable("OMCP_PASSWORD_POLICY_DISABLED", List.of(), "false",
            "omcp hash-password: true accepts passwords that break the policy (violations are still printed).", false);

    /** The access-control variables, in the order the configuration page lists them. */
    public static final List<Variable> ACCESS_CONTROL = List.of(
            AUTH, USERS_FILE, SESSION_SECRET, SESSION_LIFETIME, AUTH_ALLOW_FALLBACK,
            LOCKOUT_MAX_FAILURES, LOCKOUT_WINDOW, LOCKOUT_BASE, LOCKOUT_MAX, LOCKOUT_DISABLED,
            REVOCATION_FILE, REDIS_URL,
            OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_REDIRECT_URI, OIDC_SCOPES, OIDC_ROLES_CLAIM, OIDC_ROLE_MAP,
            OIDC_TENANT_CLAIM, OIDC_PROFILE, OIDC_DCR_ENABLED, OIDC_DCR_STORE,
            RBAC_POLICY_FILE, OPA_URL, OPA_DECISION, OPA_CACHE_TTL, OPA_TIMEOUT,
            CSRF_BYPASS_BEARER, CSP_STRICT_REPORT, TRUST_PROXY,
            PASSWORD_MIN_LENGTH, PASSWORD_MIN_CLASSES, PASSWORD_DENYLIST_DISABLED, PASSWORD_POLICY_DISABLED);

    /** Every variable, in the order the configuration page lists them. */
    public static final List<Variable> ALL = concat(
            List.of(HOST, PORT, API_KEYS, ALLOWED_ORIGINS, ALLOWED_HOSTS, SHUTDOWN_GRACE, LOG_LEVEL, LOG_FORMAT),
            ACCESS_CONTROL);

    private static List<Variable> concat(List<Variable> first, List<Variable> second) {
        List<Variable> all = new java.util.ArrayList<>(first);
        all.addAll(second);
        return List.copyOf(all);
    }

    private Variables() {}
}
