package dev.omcp.app.settings;

import dev.omcp.core.egress.EgressRules;
import dev.omcp.core.embeddedipv4.Nat64Prefixes;
import dev.omcp.ports.ratelimit.RateLimit;
import dev.omcp.ports.identity.AllowLists;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Everything the launcher read from the environment, validated, immutable.
 *
 * @param server where and how to listen
 * @param agent the agent transport's credentials
 * @param logging log level and format
 * @param audit the audit log and its sinks
 * @param connectors sources, connectors and the egress guard
 * @param plugins connector plugins, their verification, the hub and hooks
 * @param access management-plane access control
 * @param tools how the observability tools call their sources
 * @param analysis how the tools analyse and enrich results (catalog, redaction, anomaly remote write,
 *     IP enrichment, post-mortem template)
 * @param management the management API's own stores
 * @param scim SCIM provisioning and the entitlement it needs
 */
public record Settings(Server server, Agent agent, Logging logging, AuditSettings audit, Connectors connectors, Plugins plugins,
        AccessControlSettings access, Tools tools, AnalysisSettings analysis, Management management, Scim scim) {
    public Settings {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(logging, "logging");
        Objects.requireNonNull(audit, "audit");
        Objects.requireNonNull(connectors, "connectors");
        Objects.requireNonNull(plugins, "plugins");
        Objects.requireNonNull(access, "access");
        Objects.requireNonNull(tools, "tools");
        Objects.requireNonNull(analysis, "analysis");
        Objects.requireNonNull(management, "management");
        Objects.requireNonNull(scim, "scim");
    }

    /**
     * SCIM provisioning (spec 4.5, 5.6) and the entitlement token (DECISIONS.md "Entitlements").
     *
     * @param entitlementToken {@code OMCP_ENTITLEMENT_TOKEN}; never printed
     * @param entitlementKey {@code OMCP_ENTITLEMENT_PUBKEY} as given (PEM text or {@code @path})
     * @param token {@code OMCP_SCIM_TOKEN}; empty: SCIM is off; never printed
     * @param store {@code OMCP_SCIM_STORE}, where the directory is kept when {@code redisUrl} is empty
     * @param redisUrl {@code OMCP_SCIM_REDIS_URL} of {@code OMCP_SCIM_BACKEND=redis}: the directory is kept in that
     *     Redis, shared by replicas; empty for the file backend. May hold a password: never printed
     * @param groupRoles {@code OMCP_SCIM_GROUP_ROLE_MAP}: group display name to role
     */
    public record Scim(Optional<String> entitlementToken, Optional<String> entitlementKey, Optional<String> token, Path store,
            Optional<String> redisUrl, Map<String, String> groupRoles) {
        public Scim {
            Objects.requireNonNull(entitlementToken, "entitlementToken");
            Objects.requireNonNull(entitlementKey, "entitlementKey");
            Objects.requireNonNull(token, "token");
            Objects.requireNonNull(store, "store");
            Objects.requireNonNull(redisUrl, "redisUrl");
            groupRoles = Map.copyOf(groupRoles);
        }

        /** Never prints the tokens, nor the Redis URL (it may hold a password). */
        @Override
        public String toString() {
            return "Scim[entitlementToken=" + entitlementToken.isPresent() + ", token=" + token.isPresent() + ", backend="
                    + (redisUrl.isPresent() ? "redis" : "file, store=" + store) + ", groupRoles=" + groupRoles + "]";
        }
    }

    /**
     * The management API's own stores.
     *
     * @param postmortemsFile {@code OMCP_POSTMORTEMS_FILE}
     * @param productsFile {@code OMCP_PRODUCTS_FILE}; empty when Products live in memory only
     */
    public record Management(Path postmortemsFile, Optional<Path> productsFile, Inspect inspect) {
        public Management {
            Objects.requireNonNull(inspect, "inspect");
            Objects.requireNonNull(postmortemsFile, "postmortemsFile");
            Objects.requireNonNull(productsFile, "productsFile");
        }

        /** Stores of {@code postmortemsFile} and {@code productsFile}, and the default Inspect settings. */
        public Management(Path postmortemsFile, Optional<Path> productsFile) {
            this(postmortemsFile, productsFile, Inspect.defaults());
        }

        /** Stores of {@code postmortemsFile}, and Products in memory. */
        public Management(Path postmortemsFile) {
            this(postmortemsFile, Optional.empty());
        }
    }

    /**
     * How tools fan out to their sources.
     *
     * @param perSourceTimeout {@code OMCP_TOOL_SOURCE_TIMEOUT}
     * @param deadline {@code OMCP_TOOL_DEADLINE}
     */
    /**
     * Inspect (spec 3.1, 8; docs/inspect.md).
     *
     * @param mode {@code OMCP_INSPECT}: {@code off}, {@code observe}, {@code dryrun} or {@code enforce}
     * @param file {@code OMCP_INSPECT_FILE}; empty: a memory ring
     * @param window {@code OMCP_INSPECT_WINDOW}
     * @param profileFile {@code OMCP_INSPECT_PROFILE_FILE} ({@code .yaml}, {@code .yml} or {@code .json}); empty: in memory
     */
    public record Inspect(dev.omcp.ports.inspect.InspectMode mode, Optional<Path> file, Duration window, Optional<Path> profileFile) {
        public Inspect {
            Objects.requireNonNull(mode, "mode");
            Objects.requireNonNull(file, "file");
            Objects.requireNonNull(window, "window");
            Objects.requireNonNull(profileFile, "profileFile");
        }

        /** observe, in memory, 24 h, the profile in memory. */
        public static Inspect defaults() {
            return new Inspect(dev.omcp.ports.inspect.InspectMode.OBSERVE, Optional.empty(), Duration.ofHours(24), Optional.empty());
        }
    }

    public record Tools(Duration perSourceTimeout, Duration deadline) {
        public Tools {
            Objects.requireNonNull(perSourceTimeout, "perSourceTimeout");
            Objects.requireNonNull(deadline, "deadline");
        }
    }

    /**
     * Sources and connectors.
     *
     * @param configPath {@code CONFIG_PATH}, if set
     * @param environmentSources {@code PROMETHEUS_URL} / {@code LOKI_URL} (type, the variable that held them, URLs)
     * @param prometheusServiceLabels {@code PROMETHEUS_SERVICE_LABELS}
     * @param prometheusScrapeInterval {@code PROMETHEUS_SCRAPE_INTERVAL}: of Prometheus sources that set no {@code scrapeInterval}
     * @param lokiServiceLabels {@code LOKI_SERVICE_LABELS}
     * @param allowPrivateBackends {@code OMCP_ALLOW_PRIVATE_BACKENDS}
     * @param nat64Prefixes {@code OMCP_NAT64_PREFIXES}
     * @param connectTimeout {@code OMCP_CONNECTOR_CONNECT_TIMEOUT}
     * @param requestTimeout {@code OMCP_CONNECTOR_REQUEST_TIMEOUT}
     * @param startTimeout {@code OMCP_CONNECTOR_START_TIMEOUT}
     * @param serviceLabelCacheTtl {@code OMCP_SERVICE_LABEL_CACHE_TTL}
     * @param answerBudgetMib {@code OMCP_BACKEND_ANSWER_BUDGET_MIB}; empty means derived from the heap
     * @param environment the whole environment, for {@code ${VAR}} in the sources file (never logged)
     */
    public record Connectors(Optional<String> configPath, List<EnvironmentUrls> environmentSources, List<String> prometheusServiceLabels,
            Duration prometheusScrapeInterval, List<String> lokiServiceLabels, boolean allowPrivateBackends, Nat64Prefixes nat64Prefixes,
            Duration connectTimeout, Duration requestTimeout, Duration startTimeout, Duration serviceLabelCacheTtl,
            OptionalInt answerBudgetMib, Map<String, String> environment) {
        public Connectors {
            Objects.requireNonNull(nat64Prefixes, "nat64Prefixes");
            environmentSources = List.copyOf(environmentSources);
            prometheusServiceLabels = List.copyOf(prometheusServiceLabels);
            lokiServiceLabels = List.copyOf(lokiServiceLabels);
            environment = Map.copyOf(environment);
        }

        /**
         * The egress rules of spec 5.9 these settings decide; every outbound URL of the gateway (sources, audit sinks,
         * anomaly remote write, RDAP) is judged by equal rules.
         */
        public EgressRules egressRules() {
            return new EgressRules(allowPrivateBackends, nat64Prefixes);
        }

        /** Never prints the environment. */
        @Override
        public String toString() {
            return "Connectors[configPath=" + configPath.isPresent() + ", environmentSources=" + environmentSources.size()
                    + ", allowPrivateBackends=" + allowPrivateBackends + ", nat64Prefixes=" + nat64Prefixes + "]";
        }
    }

    /** URLs from one environment variable for one connector type. */
    public record EnvironmentUrls(String type, String variable, List<String> urls) {
        public EnvironmentUrls {
            urls = List.copyOf(urls);
        }

        /** Never prints the URLs. */
        @Override
        public String toString() {
            return "EnvironmentUrls[" + type + " from " + variable + ", " + urls.size() + " url(s)]";
        }
    }

    /**
     * Listening and request-guard settings.
     *
     * @param addressLimits the limits per client address
     */
    public record Server(String host, int port, List<String> allowedHosts, List<String> allowedOrigins, Duration shutdownGrace,
            AddressLimits addressLimits) {
        public Server {
            allowedHosts = List.copyOf(allowedHosts);
            allowedOrigins = List.copyOf(allowedOrigins);
            Objects.requireNonNull(addressLimits, "addressLimits");
        }
    }

    /**
     * The limits per client address (spec 8, "IP-level limit of other endpoints"; docs/access-control.md, "Per-address
     * limits"); each empty when disabled.
     *
     * @param apiRequestsPerMinute {@code OMCP_API_RATE_PER_IP_PER_MIN}: requests to {@code /api} per address per minute
     * @param authFailuresPerMinute {@code OMCP_AUTH_FAILURES_PER_IP_PER_MIN}: failed credentials at {@code /mcp},
     *     {@code /mcp/ws} and {@code /scim/v2} per address per minute
     */
    public record AddressLimits(OptionalInt apiRequestsPerMinute, OptionalInt authFailuresPerMinute) {
        public AddressLimits {
            Objects.requireNonNull(apiRequestsPerMinute, "apiRequestsPerMinute");
            Objects.requireNonNull(authFailuresPerMinute, "authFailuresPerMinute");
            if (apiRequestsPerMinute.orElse(1) < 1 || authFailuresPerMinute.orElse(1) < 1) {
                throw new IllegalArgumentException("a per-address limit is at least 1 a minute; leave it empty to disable it");
            }
        }
    }

    /**
     * Agent transport settings.
     *
     * @param apiKeys {@code OMCP_API_KEYS}, each with its {@code OMCP_KEY_TENANTS}, {@code OMCP_KEY_TOOLS} and
     *     {@code OMCP_KEY_SOURCES} entries
     * @param ratePerMinute {@code OMCP_KEY_RATE_PER_MIN}: per key name, the override of the MCP rate limit; a key
     *     without an entry (or whose entry was skipped) keeps the default
     * @param warnings what the launcher logs at WARN once logging is set up, one event per line: the
     *     {@code OMCP_KEY_RATE_PER_MIN} entries skipped (spec 8: an unknown credential or a count that is not one
     *     falls back to the default rather than refusing the start); never a token
     * @param maxSessionsPerCredential {@code OMCP_MCP_MAX_SESSIONS_PER_CREDENTIAL}
     * @param maxSessions {@code OMCP_MCP_MAX_SESSIONS}
     * @param toolRate {@code OMCP_TOOL_RATE_PER_MIN}
     * @param tokenBudget {@code OMCP_TOOL_DAILY_TOKENS} and {@code OMCP_TOKEN_BUDGET_FILE}
     */
    public record Agent(List<ApiKeyEntry> apiKeys, Map<String, KeyRate> ratePerMinute, List<String> warnings,
            int maxSessionsPerCredential, int maxSessions, ToolRate toolRate, TokenBudget tokenBudget) {
        public Agent {
            apiKeys = List.copyOf(apiKeys);
            ratePerMinute = Map.copyOf(ratePerMinute);
            warnings = List.copyOf(warnings);
            Objects.requireNonNull(toolRate, "toolRate");
            Objects.requireNonNull(tokenBudget, "tokenBudget");
        }
    }

    /**
     * The daily token budget of every API key (spec 7.3, 8).
     *
     * @param dailyTokens {@code OMCP_TOOL_DAILY_TOKENS}: the cap, 0 for none
     * @param file {@code OMCP_TOKEN_BUDGET_FILE}: where the usage is kept; empty keeps it in memory
     */
    public record TokenBudget(long dailyTokens, Optional<Path> file) {
        public TokenBudget {
            if (dailyTokens < 0) {
                throw new IllegalArgumentException("dailyTokens must not be negative");
            }
            Objects.requireNonNull(file, "file");
        }
    }

    /**
     * {@code OMCP_TOOL_RATE_PER_MIN} as read (spec 8, "MCP rate"): a value that cannot be used falls
     * back to the default rather than stopping the start, and the launcher warns about it.
     *
     * @param limit the default request rate of every API key
     * @param fallback why the value set was not used, naming it; empty when it was used or nothing was set
     */
    public record ToolRate(RateLimit limit, Optional<String> fallback) {
        public ToolRate {
            Objects.requireNonNull(limit, "limit");
            Objects.requireNonNull(fallback, "fallback");
        }
    }

    /**
     * One {@code name:token} entry of {@code OMCP_API_KEYS}, with what the per-key maps say of it.
     *
     * @param tenant {@code OMCP_KEY_TENANTS}: the tenant the key is bound to, the empty string when none
     * @param allowLists {@code OMCP_KEY_TOOLS} and {@code OMCP_KEY_SOURCES}: the tools and sources the key is limited to
     * @param roles {@code OMCP_KEY_ROLES}: the roles the key holds for the agent side's permission checks
     * @param bypassRedaction whether {@code OMCP_KEY_BYPASS_REDACTION} lists the key (one gate of spec 5.7's three)
     */
    public record ApiKeyEntry(String name, String token, String tenant, AllowLists allowLists, Set<String> roles,
            boolean bypassRedaction) {
        public ApiKeyEntry {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(token, "token");
            Objects.requireNonNull(tenant, "tenant");
            Objects.requireNonNull(allowLists, "allowLists");
            roles = Set.copyOf(roles);
        }

        /** A key bound to {@code tenant}, limited by {@code allowLists}, without roles or bypass. */
        public ApiKeyEntry(String name, String token, String tenant, AllowLists allowLists) {
            this(name, token, tenant, allowLists, Set.of(), false);
        }

        /** A key bound to no tenant and limited to nothing. */
        public ApiKeyEntry(String name, String token) {
            this(name, token, "", AllowLists.none());
        }

        @Override
        public String toString() {
            return "ApiKeyEntry[" + name + ", token hidden, tenant=" + tenant + ", " + allowLists + ", roles=" + roles
                    + ", bypassRedaction=" + bypassRedaction + "]";
        }
    }

    /**
     * A key's override of the MCP rate limit ({@code OMCP_KEY_RATE_PER_MIN}, spec 8): a number of requests per minute,
     * or no limit.
     */
    public sealed interface KeyRate {
        /** At most {@code count} requests per minute, a positive number. */
        record PerMinute(int count) implements KeyRate {
            public PerMinute {
                if (count < 1) {
                    throw new IllegalArgumentException("a rate is at least 1 request per minute, got " + count);
                }
            }
        }

        /** No limit: one of the disable words ({@code off}, {@code none}, {@code unlimited}, {@code disabled}, {@code false}). */
        record Disabled() implements KeyRate {}
    }

    /** Logging settings. */
    public record Logging(String level, String format) {}

    /** Where the connector hub's catalog is read from ({@code HUB_CATALOG_URL}, spec 5.8). */
    public sealed interface HubSource {
        /** Unset, or {@code builtin}: the hub the launcher jar carries, read with no network. */
        record BuiltIn() implements HubSource {}

        /**
         * {@code off}, {@code none} or {@code disabled} (any case): no hub at all.
         *
         * @param written the value as the operator wrote it, for messages
         */
        record Off(String written) implements HubSource {
            public Off {
                Objects.requireNonNull(written, "written");
            }
        }

        /**
         * A hub of the operator's: an http(s) URL, a {@code file:} URL or an absolute directory.
         *
         * @param location the value as written
         */
        record At(String location) implements HubSource {
            public At {
                Objects.requireNonNull(location, "location");
            }
        }
    }

    /**
     * Plugin settings (spec 5.8, 6.1).
     *
     * @param directory {@code PLUGINS_DIR}
     * @param directoryNamed whether {@code PLUGINS_DIR} was set, rather than its default taken: only a
     *     directory the operator named is worth a word when it does not exist
     * @param verify {@code VERIFY_PLUGINS}
     * @param trustRoot {@code PLUGIN_TRUST_ROOT}, empty when unset
     * @param revokedKeys {@code OMCP_PLUGIN_REVOKED_KEYS}: the key revocation list, empty when unset
     * @param requireSignature {@code PLUGIN_REQUIRE_SIGNATURE} (strict mode)
     * @param uiInstall {@code ENABLE_UI_INSTALL}
     * @param hub {@code HUB_CATALOG_URL}: where the hub catalog is read from, the built-in hub when unset
     * @param hookMode {@code OMCP_HOOK_MODE} ({@code enforce}, {@code permissive} or {@code disabled}),
     *     empty when each hook keeps its own mode
     * @param sourcesFile {@code CONFIG_PATH}, whose {@code plugins:} block pins plugin versions
     */
    public record Plugins(
            Path directory,
            boolean directoryNamed,
            boolean verify,
            Optional<Path> trustRoot,
            Optional<Path> revokedKeys,
            boolean requireSignature,
            boolean uiInstall,
            HubSource hub,
            Optional<String> hookMode) {
        public Plugins {
            Objects.requireNonNull(directory, "directory");
            Objects.requireNonNull(trustRoot, "trustRoot");
            Objects.requireNonNull(revokedKeys, "revokedKeys");
            Objects.requireNonNull(hub, "hub");
            Objects.requireNonNull(hookMode, "hookMode");
        }

        /** Whether filesystem plugins load only signed (spec 3.5): then no manifest is parsed before its signature verified. */
        public boolean signaturesDemanded() {
            return verify || requireSignature;
        }
    }
}
