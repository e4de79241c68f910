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
    public static final Variable KEY_TENANTS = new Variable("OMCP_KEY_TENANTS", List.of(), "",
            "Tenant of each API key as name=tenant;name=tenant: its tools see only that tenant's sources and the unbound ones.", false);
    public static final Variable KEY_TOOLS = new Variable("OMCP_KEY_TOOLS", List.of(), "",
            "Tool allow-list of each API key as name=toolA|toolB;...: the key sees and may call only those tools.", false);
    public static final Variable KEY_SOURCES = new Variable("OMCP_KEY_SOURCES", List.of(), "",
            "Source allow-list of each API key as name=sourceA|sourceB;...: the key's tool calls use only those sources.", false);
    public static final Variable KEY_PRODUCTS = new Variable("OMCP_KEY_PRODUCTS", List.of(), "",
            "Products of each API key as name=productA|productB;...: the key may use only those Products' endpoints, and at /mcp"
                    + " only their tools.", false);
    public static final Variable KEY_ROLES = new Variable("OMCP_KEY_ROLES", List.of(), "",
            "Roles of each API key as name=roleA|roleB;...: they answer the agent side's permission checks (redaction:bypass);"
                    + " the management API takes no API key.", false);
    public static final Variable KEY_BYPASS_REDACTION = new Variable("OMCP_KEY_BYPASS_REDACTION", List.of(), "",
            "Comma-separated API key names that may read query_logs unredacted when a call sets bypass_redaction and the key's"
                    + " roles (OMCP_KEY_ROLES) hold redaction:bypass (spec 5.7).", false);
    public static final Variable KEY_RATE_PER_MIN = new Variable("OMCP_KEY_RATE_PER_MIN", List.of(), "",
            "Per API key override of the MCP rate limit as name=count;name=off; an unknown key or a bad count is skipped with a"
                    + " warning (spec 8).", false);
    public static final Variable ALLOWED_ORIGINS = new Variable("OMCP_ALLOWED_ORIGINS", List.of(), "",
            "Comma-separated browser origins (scheme://host[:port]) allowed besides same-origin requests.", false);
    public static final Variable ALLOWED_HOSTS = new Variable("OMCP_ALLOWED_HOSTS", List.of(), "",
            "Comma-separated Host names accepted: besides localhost, 127.0.0.1 and [::1] on a loopback bind; the only ones accepted"
                    + " on any other bind, which answers any Host while this is unset.", false);
    public static final Variable MCP_MAX_SESSIONS_PER_CREDENTIAL = new Variable("OMCP_MCP_MAX_SESSIONS_PER_CREDENTIAL", List.of(),
            "1000", "MCP sessions one credential (an API key, or everyone in anonymous mode) may hold open at once.", false);
    public static final Variable MCP_MAX_SESSIONS = new Variable("OMCP_MCP_MAX_SESSIONS", List.of(), "10000",
            "MCP sessions the gateway holds open at once, over all credentials.", false);
    public static final Variable TOOL_DAILY_TOKENS = new Variable("OMCP_TOOL_DAILY_TOKENS", List.of(), "0",
            "Daily token budget of every API key over query_logs, query_metrics and get_service_health answers (rolling 24 h);"
                    + " 0 means uncapped.", false);
    public static final Variable TOKEN_BUDGET_FILE = new Variable("OMCP_TOKEN_BUDGET_FILE", List.of(), "",
            "JSON file (mode 0600) that keeps the token budget's usage across restarts; unset keeps it in memory.", false);
    public static final Variable TOOL_RATE_PER_MIN = new Variable("OMCP_TOOL_RATE_PER_MIN", List.of(), "60",
            "Requests one API key may send to /mcp and /mcp/ws within any 60 s; off, none, unlimited, disabled or false: no limit.",
            false);
    public static final Variable TOOL_SOURCE_TIMEOUT = new Variable("OMCP_TOOL_SOURCE_TIMEOUT", List.of(), "10",
            "Seconds one source may take to answer a tool call before it is reported as failed (partial result).", false);
    public static final Variable TOOL_DEADLINE = new Variable("OMCP_TOOL_DEADLINE", List.of(), "20",
            "Seconds a tool call may wait for all its sources; later answers are dropped and reported as timed out.", false);
    public static final Variable SHUTDOWN_GRACE = new Variable("OMCP_SHUTDOWN_GRACE", List.of(), "10",
            "Seconds in-flight requests may run after SIGTERM before the process stops.", false);
    public static final Variable LOG_LEVEL = new Variable("OMCP_LOG_LEVEL", List.of(), "info",
            "Log level of the gateway's own loggers: trace, debug, info, warn or error.", false);
    public static final Variable LOG_FORMAT = new Variable("OMCP_LOG_FORMAT", List.of(), "text",
            "Log line format: text, or json for one JSON object per line.", false);


    // Audit (docs/audit.md)
    public static final Variable MGMT_AUDIT_FILE = new Variable("OMCP_MGMT_AUDIT_FILE", List.of(), "",
            "Append-only JSONL audit file (created mode 0600); unset keeps the newest 500 entries in memory.", false);
    public static final Variable AUDIT_FSYNC = new Variable("OMCP_AUDIT_FSYNC", List.of(), "always",
            "When the audit file is forced to disk: always (before the response), batch (every interval) or never.", false);
    public static final Variable AUDIT_FSYNC_INTERVAL_MS = new Variable("OMCP_AUDIT_FSYNC_INTERVAL_MS", List.of(), "1000",
            "Interval of OMCP_AUDIT_FSYNC=batch, in milliseconds (10-60000).", false);
    public static final Variable AUDIT_TORN_TAIL = new Variable("OMCP_AUDIT_TORN_TAIL", List.of(), "repair",
            "An incomplete last line at start: repair (move it aside, cut back, record an entry) or refuse to start.", false);
    public static final Variable AUDIT_WEBHOOK_URL = new Variable("OMCP_AUDIT_WEBHOOK_URL", List.of(), "",
            "http(s) URL that receives audit entries as JSON batches; unset disables the webhook sink.", true);
    public static final Variable AUDIT_WEBHOOK_TOKEN = new Variable("OMCP_AUDIT_WEBHOOK_TOKEN", List.of(), "",
            "Bearer token sent to the audit webhook.", true);
    public static final Variable AUDIT_WEBHOOK_DEADLETTER = new Variable("OMCP_AUDIT_WEBHOOK_DEADLETTER", List.of(), "",
            "JSONL file for entries the webhook could not take; default <audit file>.webhook-deadletter.jsonl.", false);
    public static final Variable AUDIT_S3_ENDPOINT = new Variable("OMCP_AUDIT_S3_ENDPOINT", List.of(), "",
            "http(s) endpoint of S3-compatible object storage for audit objects (path-style); unset disables the S3 sink.", false);
    public static final Variable AUDIT_S3_BUCKET = new Variable("OMCP_AUDIT_S3_BUCKET", List.of(), "",
            "Bucket of the audit objects.", false);
    public static final Variable AUDIT_S3_PREFIX = new Variable("OMCP_AUDIT_S3_PREFIX", List.of(), "omcp-audit/",
            "Key prefix of the audit objects.", false);
    public static final Variable AUDIT_S3_REGION = new Variable("OMCP_AUDIT_S3_REGION", List.of(), "us-east-1",
            "SigV4 signing region of the object storage.", false);
    public static final Variable AUDIT_S3_ACCESS_KEY_ID = new Variable("OMCP_AUDIT_S3_ACCESS_KEY_ID", List.of(), "",
            "Access key id for the object storage.", false);
    public static final Variable AUDIT_S3_SECRET_ACCESS_KEY = new Variable("OMCP_AUDIT_S3_SECRET_ACCESS_KEY", List.of(), "",
            "Secret access key for the object storage.", true);
    public static final Variable AUDIT_S3_BATCH_SIZE = new Variable("OMCP_AUDIT_S3_BATCH_SIZE", List.of(), "1000",
            "Entries per audit object at most (1-10000).", false);
    public static final Variable AUDIT_S3_FLUSH_INTERVAL = new Variable("OMCP_AUDIT_S3_FLUSH_INTERVAL", List.of(), "60",
            "Seconds the first entry of an audit object may wait before the object is written (1-3600).", false);
    public static final Variable AUDIT_S3_DEADLETTER = new Variable("OMCP_AUDIT_S3_DEADLETTER", List.of(), "",
            "JSONL file for entries the object storage could not take; default <audit file>.s3-deadletter.jsonl.", false);

    // --- sources and connectors (docs/configuration.md, "Sources and connectors"; docs/connectors.md)
    public static final Variable CONFIG_PATH = new Variable("CONFIG_PATH", List.of(), "",
            "Path of the sources file; unset means ./config/sources.yaml when it exists, else no file.", false);
    public static final Variable PROMETHEUS_URL = new Variable("PROMETHEUS_URL", List.of("METRICS_URL"), "",
            "Prometheus URL, or a comma-separated list (prometheus-1, prometheus-2...); used only when no sources file exists.", false);
    public static final Variable LOKI_URL = new Variable("LOKI_URL", List.of("LOGS_URL"), "",
            "Loki URL, or a comma-separated list (loki-1, loki-2...); used only when no sources file exists.", false);
    public static final Variable PROMETHEUS_SERVICE_LABELS = new Variable("PROMETHEUS_SERVICE_LABELS", List.of("METRICS_SERVICE_LABELS"),
            "job,service,app,service_name", "Labels that may name a service in Prometheus, in order; the first that has the service wins.", false);
    public static final Variable PROMETHEUS_SCRAPE_INTERVAL = new Variable("PROMETHEUS_SCRAPE_INTERVAL", List.of(), "15s",
            "How often Prometheus sources' targets are scraped (1s to 1h, such as 15s or 1m); a rate window spans at least four.",
            false);
    public static final Variable LOKI_SERVICE_LABELS = new Variable("LOKI_SERVICE_LABELS", List.of("LOGS_SERVICE_LABELS"),
            "service_name,service,job,app,container", "Labels that may name a service in Loki, in order; the first that has the service wins.", false);
    public static final Variable ALLOW_PRIVATE_BACKENDS = new Variable("OMCP_ALLOW_PRIVATE_BACKENDS", List.of(), "false",
            "true lets sources use private and loopback addresses; cloud-metadata addresses stay refused (spec 5.9).", false);
    public static final Variable NAT64_PREFIXES = new Variable("OMCP_NAT64_PREFIXES", List.of(), "",
            "Comma-separated NAT64 prefixes of the cluster's translators (RFC 6052: /32, /40, /48, /56, /64 or /96); an address "
                    + "under one is judged by the IPv4 address it leads to.", false);
    public static final Variable CONNECTOR_CONNECT_TIMEOUT = new Variable("OMCP_CONNECTOR_CONNECT_TIMEOUT", List.of(), "5",
            "Seconds a connector may take to open a connection to its backend.", false);
    public static final Variable CONNECTOR_REQUEST_TIMEOUT = new Variable("OMCP_CONNECTOR_REQUEST_TIMEOUT", List.of(), "30",
            "Seconds one backend request may take before it fails as a timeout.", false);
    public static final Variable CONNECTOR_START_TIMEOUT = new Variable("OMCP_CONNECTOR_START_TIMEOUT", List.of(), "30",
            "Seconds a connector may take to start (for example a first Kubernetes list) before its source counts as failed.", false);
    public static final Variable BACKEND_ANSWER_BUDGET_MIB = new Variable("OMCP_BACKEND_ANSWER_BUDGET_MIB", List.of(), "",
            "MiB of heap that backend answers being read may take together; unset: half the heap, at least 16.", false);
    public static final Variable SERVICE_LABEL_CACHE_TTL = new Variable("OMCP_SERVICE_LABEL_CACHE_TTL", List.of(), "300",
            "Seconds the answer to which label names a service is cached per source.", false);

    // Plugins and hooks (spec 5.8, 6.1)
    public static final Variable PLUGINS_DIR = new Variable("PLUGINS_DIR", List.of(), "/app/plugins",
            "Directory scanned at start for connector plugins; a missing directory means no filesystem plugins.", false);
    public static final Variable VERIFY_PLUGINS = new Variable("VERIFY_PLUGINS", List.of(), "on",
            "Gate filesystem plugins on integrity and signature; false, 0, no or off opt out (true, 1, yes, on keep it).", false);
    public static final Variable PLUGIN_TRUST_ROOT = new Variable("PLUGIN_TRUST_ROOT", List.of(), "",
            "Path to the PEM public key(s) plugin signatures are verified against.", false);
    public static final Variable PLUGIN_REVOKED_KEYS = new Variable("OMCP_PLUGIN_REVOKED_KEYS", List.of(), "",
            "Path to the key revocation list: one sha256:<hex> key fingerprint a line; plugins signed by those keys are refused.", false);
    public static final Variable PLUGIN_REQUIRE_SIGNATURE = new Variable("PLUGIN_REQUIRE_SIGNATURE", List.of(), "off",
            "Strict mode: an unverifiable plugin or a missing trust root stops the start (true, 1, yes, on).", false);
    public static final Variable ENABLE_UI_INSTALL = new Variable("ENABLE_UI_INSTALL", List.of(), "false",
            "Allow installing and uploading connectors through the management API (true to enable).", false);
    public static final Variable HUB_CATALOG_URL = new Variable("HUB_CATALOG_URL", List.of(), "builtin",
            "Connector hub catalog: builtin (the hub inside the jar), an http(s) URL, a file: URL or an absolute directory; off, none "
                    + "or disabled turn the hub off.", false);
    public static final Variable HOOK_MODE = new Variable("OMCP_HOOK_MODE", List.of(), "",
            "Failure mode of every plugin hook (enforce, permissive, disabled), overriding each hook's own mode.", false);


    // --- Analysis and enrichment of the tools (docs/analysis.md, "Operating the analysis") -----------
    public static final Variable SERVICE_CATALOG_FILE = new Variable("OMCP_SERVICE_CATALOG_FILE", List.of(), "",
            "JSON service catalog (owner, tier, onCall, slo, ...) attached to tool results as .catalog; a missing file means no enrichment.",
            false);
    public static final Variable REDACTION = new Variable("OMCP_REDACTION", List.of(), "on",
            "Redaction of PII and secrets in query_logs output: on (default) or off (also true/false, yes/no, 1/0).", false);
    public static final Variable ANOMALY_REMOTE_WRITE = new Variable("OMCP_ANOMALY_HISTORY_REMOTE_WRITE", List.of(), "",
            "http(s) URL of a Prometheus remote-write receiver that keeps anomaly scores beyond the in-memory hour.", true);
    public static final Variable ANOMALY_REMOTE_WRITE_BEARER_TOKEN = new Variable("OMCP_ANOMALY_HISTORY_REMOTE_WRITE_BEARER_TOKEN",
            List.of(), "", "Bearer token sent to the remote-write receiver.", true);
    public static final Variable ANOMALY_REMOTE_WRITE_USERNAME = new Variable("OMCP_ANOMALY_HISTORY_REMOTE_WRITE_USERNAME", List.of(), "",
            "User name of HTTP basic authentication at the remote-write receiver (with the password).", false);
    public static final Variable ANOMALY_REMOTE_WRITE_PASSWORD = new Variable("OMCP_ANOMALY_HISTORY_REMOTE_WRITE_PASSWORD", List.of(), "",
            "Password of HTTP basic authentication at the remote-write receiver.", true);
    public static final Variable ANOMALY_HISTORY_EXTERNAL_LABELS = new Variable("OMCP_ANOMALY_HISTORY_EXTERNAL_LABELS", List.of(),
            "", "Labels name=value,name=value added to every series written to the remote-write receiver, one set per gateway replica.",
            false);
    public static final Variable IP_ENRICH_FILE = new Variable("OMCP_IP_ENRICH_FILE", List.of(), "",
            "CSV dataset of IP networks (CIDR column plus attributes) for enrich_ips; every row must be valid.", false);
    public static final Variable IP_ENRICH_RDAP = new Variable("OMCP_IP_ENRICH_RDAP", List.of(), "",
            "Base URL of an RDAP service asked about public addresses the dataset does not cover, e.g. https://rdap.org.", false);
    public static final Variable POSTMORTEM_TEMPLATE = new Variable("OMCP_POSTMORTEM_TEMPLATE", List.of(), "",
            "Markdown file with {{token}} placeholders for generate_postmortem, read at each call; unreadable means the built-in layout.",
            false);

    /** The analysis variables, in the order the configuration page lists them. */
    public static final List<Variable> ANALYSIS = List.of(
            SERVICE_CATALOG_FILE, REDACTION, ANOMALY_REMOTE_WRITE, ANOMALY_REMOTE_WRITE_BEARER_TOKEN, ANOMALY_REMOTE_WRITE_USERNAME,
            ANOMALY_REMOTE_WRITE_PASSWORD, ANOMALY_HISTORY_EXTERNAL_LABELS, IP_ENRICH_FILE, IP_ENRICH_RDAP, POSTMORTEM_TEMPLATE);


    // --- Access control (docs/access-control.md) ---------------------------------------------------
    public static final Variable AUTH = new Variable("OMCP_AUTH", List.of(), "anonymous",
            "Management-plane authentication: anonymous (no login), basic (users file) or oidc (single sign-on).", false);
    public static final Variable USERS_FILE = new Variable("OMCP_USERS_FILE", List.of(), "",
            "Path of the users file of basic mode ({\"users\": [...]}, hashes from omcp hash-password).", false);
    public static final Variable SESSION_SECRET = new Variable("OMCP_SESSION_SECRET", List.of(), "",
            "Secret of at least 32 characters that signs session cookies; unset means a per-process secret, shorter refuses the start.", true);
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
    public static final Variable REVOCATIONS_PER_TENANT = new Variable("OMCP_AUTH_REVOCATIONS_PER_TENANT", List.of(), "10000",
            "Live session-blocklist entries one tenant may hold before its admins' revocations are refused (507), so one tenant"
                    + " cannot fill the list every tenant shares (1-80000).", false);
    public static final Variable REDIS_URL = new Variable("OMCP_REDIS_URL", List.of("OMCP_STORE_URL"), "",
            "redis:// or rediss:// URL of the store shared by replicas (lockout, revocations); unset keeps state per process.", true);
    public static final Variable REDIS_CA_FILE = new Variable("OMCP_REDIS_CA_FILE", List.of(), "",
            "PEM file of the CA certificates a rediss:// server's certificate must chain to (a private CA); unset trusts the JVM's"
                    + " trust store.", false);
    public static final Variable REDIS_CERT_FILE = new Variable("OMCP_REDIS_CERT_FILE", List.of(), "",
            "PEM file of the client certificate (then any intermediates) the gateway presents to a rediss:// server that asks for"
                    + " one (redis-server does by default); needs OMCP_REDIS_KEY_FILE.", false);
    public static final Variable REDIS_KEY_FILE = new Variable("OMCP_REDIS_KEY_FILE", List.of(), "",
            "PEM file of the private key of OMCP_REDIS_CERT_FILE (PKCS#8, PKCS#1 RSA or SEC1 EC, unencrypted); may be the same"
                    + " file.", false);
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
            "ID-token claim holding the tenant; unset means no tenant. When set (or set by the entra or google profile), a token "
                    + "without one usable tenant value is refused (401), since no tenant means every tenant.", false);
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
    public static final Variable OPA_TOKEN = new Variable("OMCP_OPA_TOKEN", List.of(), "",
            "Bearer token sent to OPA (for an OPA run with --authentication=token).", true);
    public static final Variable OPA_BREAKER_FAILURES = new Variable("OMCP_OPA_BREAKER_FAILURES", List.of(), "5",
            "OPA failures in a row after which requests are refused (503) at once, without asking OPA, for the cool-down (1-100).",
            false);
    public static final Variable OPA_BREAKER_COOLDOWN = new Variable("OMCP_OPA_BREAKER_COOLDOWN_MS", List.of(), "5000",
            "Milliseconds OPA is not asked after those failures; then one request probes it (100-300000).", false);
    public static final Variable CSRF_BYPASS_BEARER = new Variable("OMCP_CSRF_BYPASS_BEARER", List.of(), "true",
            "false makes requests with Authorization: Bearer also echo the CSRF token.", false);
    public static final Variable CSP_STRICT_REPORT = new Variable("OMCP_CSP_STRICT_REPORT", List.of(), "false",
            "true adds the strict content security policy in report-only mode, reporting to /api/csp-violations.", false);
    public static final Variable TRUST_PROXY = new Variable("OMCP_TRUST_PROXY", List.of(), "false",
            "Which proxies may set X-Forwarded-For/-Proto: true, loopback, a hop count, or a comma-separated IP list.", false);
    public static final Variable AUTH_FAILURES_PER_IP_PER_MIN = new Variable("OMCP_AUTH_FAILURES_PER_IP_PER_MIN", List.of(), "30",
            "Missing or wrong credentials one client address may send to /mcp, /mcp/ws and /scim/v2 within a minute before its"
                    + " requests there are refused (429) unchecked until the minute ends; 0 or off disables the limit.", false);
    public static final Variable API_RATE_PER_IP_PER_MIN = new Variable("OMCP_API_RATE_PER_IP_PER_MIN", List.of(), "600",
            "Requests one client address may send to /api within a minute; more are refused (429); 0 or off disables the limit.",
            false);
    public static final Variable PASSWORD_MIN_LENGTH = new Variable("OMCP_PASSWORD_MIN_LENGTH", List.of(), "12",
            "omcp hash-password: minimum password length.", false);
    public static final Variable PASSWORD_MIN_CLASSES = new Variable("OMCP_PASSWORD_MIN_CLASSES", List.of(), "3",
            "omcp hash-password: minimum character classes (lower, upper, digit, symbol), 1-4.", false);
    public static final Variable PASSWORD_DENYLIST_DISABLED = new Variable("OMCP_PASSWORD_DENYLIST_DISABLED", List.of(), "false",
            "omcp hash-password: true skips the builtin common-password list.", false);
    public static final Variable PASSWORD_POLICY_DISABLED = new Variable("OMCP_PASSWORD_POLICY_DISABLED", List.of(), "false",
            "omcp hash-password: true accepts passwords that break the policy (violations are still printed).", false);

    // --- management API (docs/management-api.md)
    public static final Variable PRODUCTS_FILE = new Variable("OMCP_PRODUCTS_FILE", List.of(), "",
            "YAML (.yaml, .yml) or JSON (.json) file of the Products, read at start and rewritten atomically (mode 0600) on every"
                    + " change; unset, Products live in memory only.", false);
    public static final Variable POSTMORTEMS_FILE = new Variable("OMCP_POSTMORTEMS_FILE", List.of(), "/tmp/postmortems.jsonl",
            "Append-only JSONL file of stored post-mortems (created mode 0600 on the first report; spec 8 default).", false);

    // --- Inspect (docs/inspect.md)
    public static final Variable INSPECT = new Variable("OMCP_INSPECT", List.of(), "observe",
            "Inspect mode at start: off, observe (records every tool call's signature), dryrun (also evaluates each call against"
                    + " the accepted rules and records would-block) or enforce (blocks calls outside them; needs the inspect-enforce"
                    + " entitlement, else the gateway starts in dryrun, and at least one accepted rule).", false);
    public static final Variable INSPECT_FILE = new Variable("OMCP_INSPECT_FILE", List.of(), "",
            "Append-only JSONL file of Inspect observations (created mode 0600); unset, the newest 10,000 are kept in memory.", false);
    public static final Variable INSPECT_WINDOW = new Variable("OMCP_INSPECT_WINDOW", List.of(), "24h",
            "How far back Inspect reads reach: a number and a unit s, m, h or d, 1m to 90d.", false);
    public static final Variable INSPECT_PROFILE_FILE = new Variable("OMCP_INSPECT_PROFILE_FILE", List.of(), "",
            "The Inspect profile (rules and their review state), YAML (.yaml, .yml) or JSON (.json), written atomically with mode"
                    + " 0600; unset, the profile is kept in memory and lost at restart.", false);

    // --- SCIM provisioning and entitlements (docs/scim.md)
    public static final Variable ENTITLEMENT_TOKEN = new Variable("OMCP_ENTITLEMENT_TOKEN", List.of(), "",
            "Entitlement token (payload.signature, base64url) granting licensed features such as scim; an invalid or expired one"
                    + " never stops the gateway, the feature stays off and the log says why.", true);
    public static final Variable ENTITLEMENT_PUBKEY = new Variable("OMCP_ENTITLEMENT_PUBKEY", List.of(), "",
            "Ed25519 public key (PEM, or @path of a PEM file) the entitlement token is verified against.", false);
    public static final Variable SCIM_TOKEN = new Variable("OMCP_SCIM_TOKEN", List.of(), "",
            "Bearer token the identity provider sends to /scim/v2; SCIM is mounted only when this is set and the scim"
                    + " entitlement is held.", true);
    public static final Variable SCIM_STORE = new Variable("OMCP_SCIM_STORE", List.of(), "/tmp/scim.json",
            "JSON file of the SCIM directory (created mode 0600, replaced atomically; spec 8 default).", false);
    public static final Variable SCIM_BACKEND = new Variable("OMCP_SCIM_BACKEND", List.of(), "file",
            "Where the SCIM directory is kept: file (OMCP_SCIM_STORE, one replica) or redis (alias store: OMCP_SCIM_REDIS_URL,"
                    + " shared by replicas).", false);
    public static final Variable SCIM_REDIS_URL = new Variable("OMCP_SCIM_REDIS_URL", List.of("OMCP_SCIM_STORE_URL"), "",
            "redis:// or rediss:// URL of the server that keeps the SCIM directory with OMCP_SCIM_BACKEND=redis; required with it,"
                    + " refused without it.", true);
    public static final Variable SCIM_GROUP_ROLE_MAP = new Variable("OMCP_SCIM_GROUP_ROLE_MAP", List.of(), "",
            "SCIM groups to roles as group:role,group:role: the roles of a user's groups are added to its logins (docs/scim.md).",
            false);

    /** The SCIM and entitlement variables, in the order the configuration page lists them. */
    public static final List<Variable> SCIM = List.of(ENTITLEMENT_TOKEN, ENTITLEMENT_PUBKEY, SCIM_TOKEN, SCIM_STORE, SCIM_BACKEND,
            SCIM_REDIS_URL, SCIM_GROUP_ROLE_MAP);

    /** The access-control variables, in the order the configuration page lists them. */
    public static final List<Variable> ACCESS_CONTROL = List.of(
            AUTH, USERS_FILE, SESSION_SECRET, SESSION_LIFETIME, AUTH_ALLOW_FALLBACK,
            LOCKOUT_MAX_FAILURES, LOCKOUT_WINDOW, LOCKOUT_BASE, LOCKOUT_MAX, LOCKOUT_DISABLED,
            REVOCATION_FILE, REVOCATIONS_PER_TENANT, REDIS_URL, REDIS_CA_FILE, REDIS_CERT_FILE, REDIS_KEY_FILE,
            OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_REDIRECT_URI, OIDC_SCOPES, OIDC_ROLES_CLAIM, OIDC_ROLE_MAP,
            OIDC_TENANT_CLAIM, OIDC_PROFILE, OIDC_DCR_ENABLED, OIDC_DCR_STORE,
            RBAC_POLICY_FILE, OPA_URL, OPA_DECISION, OPA_CACHE_TTL, OPA_TIMEOUT, OPA_TOKEN, OPA_BREAKER_FAILURES, OPA_BREAKER_COOLDOWN,
            CSRF_BYPASS_BEARER, CSP_STRICT_REPORT, TRUST_PROXY, AUTH_FAILURES_PER_IP_PER_MIN, API_RATE_PER_IP_PER_MIN,
            PASSWORD_MIN_LENGTH, PASSWORD_MIN_CLASSES, PASSWORD_DENYLIST_DISABLED, PASSWORD_POLICY_DISABLED);

    /** Every variable, in the order the configuration page lists them. */
    public static final List<Variable> ALL = concat(List.of(
            HOST, PORT, API_KEYS, KEY_TENANTS, KEY_TOOLS, KEY_SOURCES, KEY_PRODUCTS, KEY_ROLES, KEY_BYPASS_REDACTION, KEY_RATE_PER_MIN,
            MCP_MAX_SESSIONS_PER_CREDENTIAL, MCP_MAX_SESSIONS, TOOL_RATE_PER_MIN, TOOL_DAILY_TOKENS, TOKEN_BUDGET_FILE,
            ALLOWED_ORIGINS, ALLOWED_HOSTS, SHUTDOWN_GRACE, LOG_LEVEL, LOG_FORMAT, TOOL_SOURCE_TIMEOUT, TOOL_DEADLINE,
            MGMT_AUDIT_FILE, AUDIT_FSYNC, AUDIT_FSYNC_INTERVAL_MS, AUDIT_TORN_TAIL, AUDIT_WEBHOOK_URL, AUDIT_WEBHOOK_TOKEN,
            AUDIT_WEBHOOK_DEADLETTER, AUDIT_S3_ENDPOINT, AUDIT_S3_BUCKET, AUDIT_S3_PREFIX, AUDIT_S3_REGION,
            AUDIT_S3_ACCESS_KEY_ID, AUDIT_S3_SECRET_ACCESS_KEY, AUDIT_S3_BATCH_SIZE, AUDIT_S3_FLUSH_INTERVAL,
            AUDIT_S3_DEADLETTER,
            CONFIG_PATH, PROMETHEUS_URL, LOKI_URL, PROMETHEUS_SERVICE_LABELS, PROMETHEUS_SCRAPE_INTERVAL, LOKI_SERVICE_LABELS,
            ALLOW_PRIVATE_BACKENDS, NAT64_PREFIXES,
            CONNECTOR_CONNECT_TIMEOUT, CONNECTOR_REQUEST_TIMEOUT, CONNECTOR_START_TIMEOUT, SERVICE_LABEL_CACHE_TTL,
            BACKEND_ANSWER_BUDGET_MIB, PLUGINS_DIR, VERIFY_PLUGINS, PLUGIN_TRUST_ROOT, PLUGIN_REVOKED_KEYS, PLUGIN_REQUIRE_SIGNATURE, ENABLE_UI_INSTALL, HUB_CATALOG_URL, HOOK_MODE,
            POSTMORTEMS_FILE, PRODUCTS_FILE, INSPECT, INSPECT_FILE, INSPECT_WINDOW, INSPECT_PROFILE_FILE),
            ACCESS_CONTROL, ANALYSIS, SCIM);

    @SafeVarargs
    private static List<Variable> concat(List<Variable>... parts) {
        List<Variable> all = new java.util.ArrayList<>();
        for (List<Variable> part : parts) {
            all.addAll(part);
        }
        return List.copyOf(all);
    }

    private Variables() {}
}
