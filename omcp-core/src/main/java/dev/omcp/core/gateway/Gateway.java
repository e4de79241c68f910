package dev.omcp.core.gateway;

import dev.omcp.core.auth.ApiKey;
import dev.omcp.core.auth.ApiKeyAuthentication;
import dev.omcp.core.quota.TokenBudgetInterceptor;
import dev.omcp.core.quota.TokenLedger;
import dev.omcp.core.hooks.HookInterceptor;
import dev.omcp.core.hooks.HookMode;
import dev.omcp.core.hooks.HookPipeline;
import dev.omcp.core.hooks.HookRegistry;
import dev.omcp.core.info.GatewayDescriptionService;
import dev.omcp.core.inspect.InspectInterceptor;
import dev.omcp.core.inspect.Inspector;
import dev.omcp.core.mcp.InProcessToolCalls;
import dev.omcp.core.mcp.JsonRpc;
import dev.omcp.core.mcp.McpDispatcher;
import dev.omcp.core.mcp.McpInterceptor;
import dev.omcp.core.mcp.MethodHandler;
import dev.omcp.core.mcp.handlers.CompletionMethods;
import dev.omcp.core.mcp.handlers.LifecycleMethods;
import dev.omcp.core.mcp.handlers.PromptMethods;
import dev.omcp.core.mcp.handlers.ResourceMethods;
import dev.omcp.core.mcp.handlers.ToolMethods;
import dev.omcp.core.mcp.session.ClientRequests;
import dev.omcp.core.mcp.session.InMemoryMcpSessionStore;
import dev.omcp.core.mcp.session.McpSessions;
import dev.omcp.core.mcp.session.SessionStreams;
import dev.omcp.core.policy.RolePolicy;
import dev.omcp.core.quota.CredentialRateLimiter;
import dev.omcp.core.schema.JsonSchemaValidator;
import dev.omcp.core.products.InMemoryProductStore;
import dev.omcp.core.products.ProductCatalog;
import dev.omcp.core.products.ProductToolVisibility;
import dev.omcp.core.tools.ToolRegistry;
import dev.omcp.core.tools.ToolVisibility;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.budget.ReadTokenUsage;
import dev.omcp.ports.budget.TokenUsageSnapshot;
import dev.omcp.ports.budget.TokenUsageStore;
import dev.omcp.ports.products.ProductStore;
import dev.omcp.ports.identity.AgentAuthentication;
import dev.omcp.ports.info.GatewayDescription;
import dev.omcp.ports.info.Governance;
import dev.omcp.ports.info.VerifiedSuite;
import dev.omcp.ports.inspect.ManageInspect;
import dev.omcp.ports.mcp.McpEndpoint;
import dev.omcp.ports.mcp.McpSessionStore;
import dev.omcp.ports.prompts.Prompt;
import dev.omcp.ports.ratelimit.RateLimit;
import dev.omcp.ports.ratelimit.RequestRateLimit;
import dev.omcp.ports.resources.ResourceProvider;
import dev.omcp.ports.tools.InvokeTool;
import dev.omcp.ports.tools.Tool;
import jakarta.json.JsonObject;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The assembled gateway core: the MCP endpoint, agent authentication, discovery and the tool
 * registry. Built with {@link #builder()}, the one way to assemble it, used by the launcher and by
 * any Java service that embeds the gateway.
 *
 * <pre>{@code
 * Gateway gateway = Gateway.builder()
 *         .version("1.0.0")
 *         .tool(myTool)
 *         .build();
 * McpEndpoint mcp = gateway.mcp();   // hand it to a transport adapter
 * }</pre>
 */
public final class Gateway {
    private final McpDispatcher dispatcher;
    private final AgentAuthentication agentAuthentication;
    private final GatewayDescription description;
    private final ToolRegistry tools;
    private final AccessPolicy accessPolicy;
    private final InvokeTool invokeTool;
    private final ReadTokenUsage tokenUsage;
    private final RequestRateLimit requestRate;
    private final ProductCatalog products;
    private final Inspector inspector;

    private Gateway(McpDispatcher dispatcher, AgentAuthentication agentAuthentication, GatewayDescription description, ToolRegistry tools,
            AccessPolicy accessPolicy, InvokeTool invokeTool, ReadTokenUsage tokenUsage, RequestRateLimit requestRate,
            ProductCatalog products, Inspector inspector) {
        this.inspector = inspector;
        this.products = products;
        this.tokenUsage = tokenUsage;
        this.requestRate = requestRate;
        this.accessPolicy = accessPolicy;
        this.invokeTool = invokeTool;
        this.dispatcher = dispatcher;
        this.agentAuthentication = agentAuthentication;
        this.description = description;
        this.tools = tools;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The MCP server every transport hands messages to. */
    public McpEndpoint mcp() {
        return dispatcher;
    }

    /** Authentication of the agent transport. */
    public AgentAuthentication agentAuthentication() {
        return agentAuthentication;
    }

    /** What the public discovery endpoints report. */
    public GatewayDescription description() {
        return description;
    }

    /** Who may do what on the management plane (spec 5.5). */
    public AccessPolicy accessPolicy() {
        return accessPolicy;
    }

    /**
     * Runs a tool as a given principal through the same dispatcher and interceptor chain as an
     * agent's {@code tools/call} (the management playground, tool-backed management routes).
     */
    public InvokeTool invokeTool() {
        return invokeTool;
    }

    /**
     * Each credential's use of its daily token budget (spec 2.9), for {@code GET /api/usage}; with
     * the budget off, a snapshot without limit and without credentials.
     */
    public ReadTokenUsage tokenUsage() {
        return tokenUsage;
    }

    /**
     * The per-credential request rate limit of the agent transport (spec 7.2, 8), as {@link
     * Builder#requestRate} configured it for the {@link Builder#apiKeys API keys}. It limits only
     * where a transport asks it: hand it to {@code GatewayHttpServer.Builder.requestRate}, and to
     * {@code UsageRoutes} for {@code GET /api/usage}.
     */
    public RequestRateLimit requestRate() {
        return requestRate;
    }

    /** The live tool registry; registering a tool notifies connected clients. */
    public ToolRegistry tools() {
        return tools;
    }

    /**
     * The Products (spec 2.16): the management use cases ({@code ProductRoutes}) and the agent endpoint
     * {@code /mcp/v/<id>} ({@code GatewayHttpServer.Builder.products}) both take this one catalog.
     */
    public ProductCatalog products() {
        return products;
    }

    /** Inspect (spec 2.14, 3.1): the mode and the observed tool calls, for {@code InspectRoutes}. */
    public ManageInspect inspect() {
        return inspector;
    }

    /** Assembles a {@link Gateway}. Not thread-safe; build once. */
    public static final class Builder {
        private String name = "omcp";
        /** Null until set: the title then is the name, which the embedder chose, rather than a title that describes another server. */
        private String title;
        private String version = "0.0.0-dev";
        private String instructions = "";
        private Clock clock = Clock.systemUTC();
        private SecureRandom random = new SecureRandom();
        private McpSessionStore sessionStore = new InMemoryMcpSessionStore();
        private Duration sessionIdleTimeout = Duration.ofMinutes(30);
        private int maxSessionsPerCredential = McpSessions.DEFAULT_MAX_PER_CREDENTIAL;
        private int maxSessions = McpSessions.DEFAULT_MAX_TOTAL;
        private final List<ApiKey> apiKeys = new ArrayList<>();
        private RateLimit defaultRequestRate = RateLimit.standard();
        private Map<String, RateLimit> requestRateOverrides = Map.of();
        private final List<Tool> toolList = new ArrayList<>();
        private final List<ResourceProvider> resourceProviders = new ArrayList<>();
        private final List<Prompt> prompts = new ArrayList<>();
        private final List<McpInterceptor> interceptors = new ArrayList<>();
        private ToolVisibility toolVisibility = ToolVisibility.everything();
        private Supplier<Governance> governance =
                () -> new Governance("anonymous", false, false, false, false, false, null, false, 0);
        private List<String> transports = List.of("streamable-http", "websocket");
        private final List<VerifiedSuite> verifiedBy = new ArrayList<>();
        private int toolsPageSize = 100;
        private HookRegistry hookRegistry;
        private Optional<HookMode> hookModeOverride = Optional.empty();
        private Duration hookTimeout = HookPipeline.DEFAULT_TIMEOUT;
        private AccessPolicy accessPolicy = RolePolicy.builtin();
        private long dailyTokens;
        private TokenUsageStore tokenUsageStore = TokenUsageStore.memoryOnly();
        private ProductStore productStore = new InMemoryProductStore();
        private Inspector inspector;

        private Builder() {}

        /**
         * Inspect (spec 2.14, 3.1): whether and where every {@code tools/call} is observed. Default:
         * {@code observe} into a memory ring of {@value dev.omcp.core.inspect.MemoryObservations#DEFAULT_CAPACITY}
         * records, 24 h window, no entitlement, on the builder's clock. The observer runs after every
         * interceptor added with {@link #interceptor} and before the token budget and the hooks, so a
         * budget refusal or a hook's block is recorded as the error result the caller got, and a call
         * that {@code enforce} blocks reaches no backend and is charged nothing.
         */
        public Builder inspect(Inspector inspector) {
            this.inspector = Objects.requireNonNull(inspector, "inspector");
            return this;
        }

        /**
         * Where the Products live (spec 2.16); default memory only. Read once, when the gateway is built.
         */
        public Builder productStore(ProductStore store) {
            this.productStore = Objects.requireNonNull(store, "store");
            return this;
        }

        /** Server name in {@code initialize} and {@code /api/info}; default {@code omcp}. */
        public Builder name(String name) {
            this.name = notBlank(name, "name");
            return this;
        }

        /** Human-readable server title in {@code initialize}; default the {@link #name(String) name}. */
        public Builder title(String title) {
            this.title = Objects.requireNonNull(title, "title");
            return this;
        }

        /** Server version in {@code initialize} and {@code /api/info}. */
        public Builder version(String version) {
            this.version = notBlank(version, "version");
            return this;
        }

        /** A client shows the server's name and version to its user and may key its settings by them: neither may be blank. */
        private static String notBlank(String value, String what) {
            Objects.requireNonNull(value, what);
            if (value.isBlank()) {
                throw new IllegalArgumentException("the gateway's " + what + " must not be blank; leave the default or give a real "
                        + what);
            }
            return value;
        }

        /** The {@code instructions} of the {@code initialize} result: a short guide for the model. */
        public Builder instructions(String instructions) {
            this.instructions = Objects.requireNonNull(instructions, "instructions");
            return this;
        }

        /** The clock every time-based rule reads (session expiry, windows); default UTC system clock. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** The random source for session ids; default a fresh {@link SecureRandom}. */
        public Builder random(SecureRandom random) {
            this.random = Objects.requireNonNull(random, "random");
            return this;
        }

        /** Where MCP sessions live; default in memory (one process). */
        public Builder sessionStore(McpSessionStore store) {
            this.sessionStore = Objects.requireNonNull(store, "store");
            return this;
        }

        /** How long an unused MCP session lives; default 30 minutes. */
        public Builder sessionIdleTimeout(Duration timeout) {
            this.sessionIdleTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * How many MCP sessions one credential, and the whole gateway, may hold at once; defaults
         * 1,000 and 10,000. An {@code initialize} beyond either is refused (HTTP 429) rather than
         * letting sessions fill memory.
         */
        public Builder sessionLimits(int perCredential, int total) {
            if (perCredential < 1 || total < 1) {
                throw new IllegalArgumentException("MCP session limits must be at least 1 (per credential " + perCredential
                        + ", in all " + total + ")");
            }
            this.maxSessionsPerCredential = perCredential;
            this.maxSessions = total;
            return this;
        }

        /**
         * Bearer keys of the agent transport; none means anonymous access (spec 5.4). A key's tenant
         * and allow-lists ({@link ApiKey#of(String, String, String, dev.omcp.ports.identity.AllowLists)})
         * travel with the principal it authenticates as: the tool list hides tools from
         * {@code tools/list} and {@code tools/call}, the source list and the tenant limit the sources
         * of every tool that reads them through a {@code SourceRegistry}.
         */
        public Builder apiKeys(List<ApiKey> keys) {
            Objects.requireNonNull(keys, "keys").forEach(key -> this.apiKeys.add(Objects.requireNonNull(key, "an API key is null")));
            return this;
        }

        /**
         * The request rate limit of each {@link #apiKeys API key} on the agent transport (spec 8,
         * "MCP rate"): {@code defaultLimit} requests within any 60 s for a key without an override,
         * and {@code perKey} (key name to limit) for the others. {@link RateLimit#disabled()} admits
         * every request of a key (its requests are still counted for the usage snapshot). Default:
         * {@link RateLimit#standard() 60 a minute} for every key. Anonymous callers are never
         * limited. See {@link Gateway#requestRate()} for where it is enforced.
         *
         * <p>{@link #build()} refuses an override whose key name is not among the API keys: it would
         * never apply, and the key meant would get the default without a word.
         */
        public Builder requestRate(RateLimit defaultLimit, Map<String, RateLimit> perKey) {
            this.defaultRequestRate = Objects.requireNonNull(defaultLimit, "defaultLimit");
            Objects.requireNonNull(perKey, "perKey").forEach((name, limit) -> {
                Objects.requireNonNull(name, "a key name of perKey is null");
                Objects.requireNonNull(limit, () -> "the rate limit of key '" + name + "' is null");
            });
            this.requestRateOverrides = Map.copyOf(perKey);
            return this;
        }

        /** Adds a tool; {@link #build()} refuses two tools of one name. */
        public Builder tool(Tool tool) {
            this.toolList.add(Objects.requireNonNull(tool, "tool"));
            return this;
        }

        /** Adds tools. */
        public Builder tools(List<? extends Tool> tools) {
            Objects.requireNonNull(tools, "tools").forEach(this::tool);
            return this;
        }

        /** Adds a resource provider. */
        public Builder resources(ResourceProvider provider) {
            this.resourceProviders.add(Objects.requireNonNull(provider, "provider"));
            return this;
        }

        /** Adds a prompt; {@link #build()} refuses two prompts of one name. */
        public Builder prompt(Prompt prompt) {
            this.prompts.add(Objects.requireNonNull(prompt, "prompt"));
            return this;
        }

        /** Adds an interceptor; the first added runs outermost. */
        public Builder interceptor(McpInterceptor interceptor) {
            this.interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
            return this;
        }

        /**
         * Which tools each caller may see; default every tool for everyone. The caller's own tool list
         * (an {@link ApiKey}'s {@link dev.omcp.ports.identity.AllowLists}) applies on top of it, always:
         * this narrows what a key sees, never widens it.
         */
        public Builder toolVisibility(ToolVisibility visibility) {
            this.toolVisibility = Objects.requireNonNull(visibility, "visibility");
            return this;
        }

        /** The governance block of {@code /api/info}, read on every request so it stays true. */
        public Builder governance(Supplier<Governance> governance) {
            this.governance = Objects.requireNonNull(governance, "governance");
            return this;
        }

        /** The transport names {@code /api/conformance} reports. */
        public Builder transports(List<String> transports) {
            this.transports = List.copyOf(Objects.requireNonNull(transports, "transports"));
            return this;
        }

        /**
         * States that this build passed {@code suite}, for {@code /api/conformance}. Only the
         * assembler knows what its CI ran; the default claims nothing.
         */
        public Builder verifiedBy(VerifiedSuite suite) {
            this.verifiedBy.add(Objects.requireNonNull(suite, "suite"));
            return this;
        }

        /** How many tools one {@code tools/list} page holds; default 100. */
        public Builder toolsPageSize(int size) {
            this.toolsPageSize = size;
            return this;
        }

        /**
         * Runs the plugin hooks of {@code registry} around {@code tools/call}, {@code resources/read}
         * and {@code prompts/get} (spec 6.1). The hook interceptor runs innermost, after every
         * interceptor added with {@link #interceptor} and after the {@linkplain #tokenBudget token budget},
         * so refused or rate-limited calls never reach a hook. The registry may change while the gateway runs.
         */
        public Builder hooks(HookRegistry registry) {
            this.hookRegistry = Objects.requireNonNull(registry, "registry");
            return this;
        }

        /** {@code OMCP_HOOK_MODE}: the failure mode of every hook, overriding each entry's own. */
        public Builder hookModeOverride(Optional<HookMode> mode) {
            this.hookModeOverride = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /**
         * How long one hook may run before it counts as a throw; default 5 seconds.
         *
         * @throws IllegalArgumentException when not positive: every hook would count as timed out
         */
        public Builder hookTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("hookTimeout must be positive, got " + timeout
                        + "; every hook would count as timed out");
            }
            this.hookTimeout = timeout;
            return this;
        }

        /** The management-plane access policy; default the builtin roles (spec 5.5). */
        public Builder accessPolicy(AccessPolicy policy) {
            this.accessPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * The daily token budget of every named credential (spec 7.3, 8; {@code OMCP_TOOL_DAILY_TOKENS}):
         * the answers of {@code query_logs}, {@code query_metrics} and {@code get_service_health} to
         * API-key callers are charged over a rolling 24 h window, and an answer that does not fit is
         * replaced by the refusal of spec 7.3. Anonymous callers are never charged. Default 0: uncapped,
         * and then nothing is counted. The budget runs after every interceptor added with
         * {@link #interceptor} and before the hooks, so it charges the answer as the hooks left it.
         *
         * @throws IllegalArgumentException when negative
         */
        public Builder tokenBudget(long dailyTokens) {
            if (dailyTokens < 0) {
                throw new IllegalArgumentException("the daily token budget is a number of tokens, 0 for none, got " + dailyTokens);
            }
            this.dailyTokens = dailyTokens;
            return this;
        }

        /**
         * Where the token ledger is kept across restarts; default nowhere (memory only, every start
         * begins empty). {@link #build()} loads it and then marks it changed after every charge; it
         * is the caller's to close, after the transports stopped, so its last changes are written.
         * Unused while the budget is off.
         */
        public Builder tokenUsageStore(TokenUsageStore store) {
            this.tokenUsageStore = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * Assembles the gateway.
         *
         * @throws IllegalArgumentException when two tools or two prompts share a name (the later one
         *     would hide the earlier from every client), when two API keys share a name or a token, or
         *     when a {@link #requestRate rate limit override} names no API key
         */
        public Gateway build() {
            requireUniqueNames("tool", toolList.stream().map(t -> t.definition().name()).toList());
            requireUniqueNames("prompt", prompts.stream().map(p -> p.definition().name()).toList());
            McpSessions sessions = new McpSessions(sessionStore, clock, random, sessionIdleTimeout, maxSessionsPerCredential, maxSessions);
            SessionStreams streams = new SessionStreams();
            ClientRequests clientRequests = new ClientRequests();
            ToolRegistry registry = new ToolRegistry();
            registry.registerAll(toolList);
            ProductCatalog products = new ProductCatalog(productStore, tool -> registry.find(tool).isPresent());
            // a key's tool list and Products are part of its credential (and a Product endpoint's limit part of the
            // request): no visibility an embedder gives may drop them
            ToolVisibility visibility = ToolVisibility.callersAllowList().and(new ProductToolVisibility(products)).and(toolVisibility);

            LifecycleMethods lifecycle = new LifecycleMethods(name, title == null ? name : title, version, instructions, sessions);
            ToolMethods toolMethods = new ToolMethods(registry, visibility, new JsonSchemaValidator(), clientRequests, toolsPageSize);
            ResourceMethods resourceMethods = new ResourceMethods(resourceProviders, sessions::isLive);
            PromptMethods promptMethods = new PromptMethods(prompts);
            CompletionMethods completions = new CompletionMethods(promptMethods, resourceMethods);

            Map<String, MethodHandler> methods = new LinkedHashMap<>();
            methods.put("initialize", lifecycle::initialize);
            methods.put("ping", lifecycle::ping);
            methods.put("notifications/initialized", lifecycle::acknowledge);
            methods.put("notifications/roots/list_changed", lifecycle::acknowledge);
            methods.put("logging/setLevel", lifecycle::setLogLevel);
            methods.put("tools/list", toolMethods::list);
            methods.put("tools/call", toolMethods::call);
            methods.put("resources/list", resourceMethods::list);
            methods.put("resources/templates/list", resourceMethods::listTemplates);
            methods.put("resources/read", resourceMethods::read);
            methods.put("resources/subscribe", resourceMethods::subscribe);
            methods.put("resources/unsubscribe", resourceMethods::unsubscribe);
            methods.put("prompts/list", promptMethods::list);
            methods.put("prompts/get", promptMethods::get);
            methods.put("completion/complete", completions::complete);

            McpDispatcher[] self = new McpDispatcher[1];
            methods.put("notifications/cancelled", call -> self[0].cancel(call));
            List<McpInterceptor> chain = new ArrayList<>(interceptors);
            Inspector inspect = inspector != null ? inspector : Inspector.observing(clock);
            chain.add(new InspectInterceptor(inspect, tool -> registry.find(tool).map(t -> t.definition().inputSchema())));
            ReadTokenUsage tokenUsage = () -> new TokenUsageSnapshot(OptionalLong.empty(), TokenLedger.WINDOW_MS, List.of());
            if (dailyTokens > 0) {
                TokenLedger ledger = tokenLedger();
                tokenUsage = ledger;
                chain.add(new TokenBudgetInterceptor(ledger,
                        (principal, tool) -> registry.find(tool).isPresent() && visibility.isVisible(principal, tool)));
            }
            if (hookRegistry != null) {
                chain.add(new HookInterceptor(new HookPipeline(hookRegistry, hookModeOverride, hookTimeout, clock)));
            }
            McpDispatcher dispatcher = new McpDispatcher(
                    methods, chain, sessions, streams, clientRequests, List.of(resourceMethods::forget, clientRequests::forget));
            self[0] = dispatcher;

            registry.onChange(() -> streams.broadcast(
                    JsonRpc.notification("notifications/tools/list_changed", JsonObject.EMPTY_JSON_OBJECT)));

            GatewayDescription description = new GatewayDescriptionService(
                    name, version, governance, transports, dispatcher.methodNames(), accessPolicy, verifiedBy);
            InvokeTool inProcess = new InProcessToolCalls(dispatcher, registry, visibility);
            ApiKeyAuthentication authentication = new ApiKeyAuthentication(apiKeys);
            CredentialRateLimiter requestRate = new CredentialRateLimiter(
                    apiKeys.stream().map(key -> new CredentialRateLimiter.Credential(key.name(), key.tenant())).toList(),
                    defaultRequestRate, requestRateOverrides, clock);
            return new Gateway(dispatcher, authentication, description, registry, accessPolicy, inProcess, tokenUsage, requestRate,
                    products, inspect);
        }

        /** The ledger of the token budget, with what the store kept, tracked by the store from now on. */
        private TokenLedger tokenLedger() {
            TokenUsageStore store = tokenUsageStore;
            TokenLedger ledger = new TokenLedger(dailyTokens, clock, store.load(TokenLedger.keepFrom(clock.millis())), store::changed);
            store.track(ledger::saved);
            return ledger;
        }

        private static void requireUniqueNames(String kind, List<String> names) {
            Set<String> seen = new HashSet<>();
            for (String name : names) {
                if (!seen.add(name)) {
                    throw new IllegalArgumentException("two " + kind + "s are named '" + name + "'; " + kind
                            + " names must be unique (the later one would hide the earlier)");
                }
            }
        }
    }
}
