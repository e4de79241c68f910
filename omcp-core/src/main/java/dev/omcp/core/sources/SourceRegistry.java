package dev.omcp.core.sources;

import dev.omcp.ports.connectors.ConnectorCatalog;
import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.egress.EgressPolicy;
import dev.omcp.ports.egress.HostResolver;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.sources.ConnectorContexts;
import dev.omcp.ports.sources.ManageSources;
import dev.omcp.ports.plugins.ConnectorUsers;
import dev.omcp.ports.plugins.PluginPin;
import dev.omcp.ports.plugins.SourceReconnection;
import dev.omcp.ports.sources.SourceCheck;
import dev.omcp.ports.sources.SourceDefinition;
import dev.omcp.ports.sources.SourceDraft;
import dev.omcp.ports.sources.SourceOutcome;
import dev.omcp.ports.sources.SourcePrecondition;
import dev.omcp.ports.sources.SourceStore;
import dev.omcp.ports.sources.SourceStoreException;
import dev.omcp.ports.sources.SourceView;
import dev.omcp.ports.sources.SourcesDocument;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.connector.DeclaredCapabilities;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.LogAggregatesCapability;
import dev.omcp.sdk.connector.LogsCapability;
import dev.omcp.sdk.connector.MetricDiscoveryCapability;
import dev.omcp.sdk.connector.MetricsCapability;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.connector.TopologyCapability;
import dev.omcp.sdk.connector.TracesCapability;
import dev.omcp.sdk.manifest.Capabilities;
import dev.omcp.sdk.text.BackendText;
import dev.omcp.sdk.text.LogField;
import jakarta.json.JsonObject;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live sources: one connector per enabled source, created through the {@link ConnectorCatalog},
 * admitted by the egress guard, closed when the source is removed or replaced.
 *
 * <p>Reads ({@link #with}, {@link #list}) see an immutable snapshot and never block. Changes are
 * serialized; each creates the new connector first, then persists, then swaps the snapshot and
 * retires the old connector, so a failure at any step leaves the previous state intact. A retired
 * connector is closed once the calls running on it end ({@link ConnectorUse}).
 *
 * <p>An API change connects without holding the lock: judging its URL resolves the host name, and building its
 * context and connector may take as long as the factory timeout, which would otherwise hold every other change (and
 * {@link #close()}) that long. It is checked under the lock against the source as it stood ({@link Plan}), connected
 * outside it, and made under the lock only when that source is still the same object and its connector type the one
 * loaded; else what it connected is closed and it is checked again against the source as it now stands, so two changes
 * of one source end as if made one after the other. After {@link #UNLOCKED_ATTEMPTS} lost races a change connects
 * holding the lock, so no other change can overtake it; a plugin reload still can (the catalog changes without this lock),
 * so it is planned again, at most {@link #LOCKED_ATTEMPTS} times, then refused saying so. What a change connected and did
 * not keep is closed, whatever ended it.
 *
 * <p>Life cycle: {@link #start()} once, then reads and changes, then {@link #close()}. Before
 * {@code start()} the registry serves no source and refuses changes, which would otherwise
 * overwrite the sources of a store it has not read yet; after {@code close()} it refuses changes
 * and a second start, which would connect sources nothing closes any more.
 *
 * <p>Tenant binding: a source bound to a tenant serves only principals of that tenant; an unbound
 * source serves everyone. For tools, a principal without a tenant sees only unbound sources (fail
 * closed); for the management API, a caller without a tenant (an operator of the whole gateway)
 * sees and changes every source, and a caller with a tenant sees its tenant's and the unbound ones
 * but changes and removes only its tenant's: an unbound source serves every tenant, so its change
 * is refused ({@link SourceOutcome#GATEWAY_WIDE}), as a tenant's admin may not change the health
 * thresholds or the connector plugins every tenant shares.
 *
 * <p>Source allow-list: a caller whose {@link Principal#allowLists()} limits its sources (an API key's
 * {@code OMCP_KEY_SOURCES}) sees, on top of its tenant's sources, only those named: every lookup ({@link #with},
 * {@link #named}, {@link #listForAgents}, and the management ones) treats another as a source that does not exist,
 * so every tool honours the list and a tool's {@code source} argument naming another answers as an unknown name does.
 */
public final class SourceRegistry implements ManageSources, ConnectorUsers, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SourceRegistry.class);
    private static final Map<Class<?>, String> CAPABILITY_NAMES = namesOfCapabilities();
    /** What {@link #listForAgents} says of a source whose backend address the egress rules refuse. */
    public static final String EGRESS_REFUSED_FOR_AGENTS = "the gateway's egress policy refuses the address of this source's "
            + "backend; ask the gateway's operator, whose log says why (event=source-url-rejected)";
    /**
     * What {@link #listForAgents} says of a source named by host that the gateway cannot check against its egress rules:
     * the JVM lacks the gateway's egress resolver (an embedding service left its registration out), so no address was
     * judged, and only the operator can install it.
     */
    public static final String NAME_UNCHECKED_FOR_AGENTS = "the gateway cannot check this source's backend host name against "
            + "its egress policy because its egress resolver is not installed, so it does not connect to the source; retrying "
            + "will not help: ask the gateway's operator to install it, whose log says how (event=source-url-rejected)";
    /**
     * What {@link #listForAgents} says of a source named by host whose check against the egress rules failed: the gateway's
     * egress resolver threw (a bug of an embedding service's resolver, a security manager's refusal), so no address was
     * judged and the source is not connected. The exception is the operator's, in the log.
     */
    public static final String RESOLVER_FAILED_FOR_AGENTS = "the gateway could not check this source's backend host name against "
            + "its egress policy because its egress resolver failed, so it does not connect to the source; ask the gateway's "
            + "operator, whose log says why (event=egress-resolver-failed)";

    private final ConnectorCatalog catalog;
    private final ConnectorContexts contexts;
    private final SourceStore store;
    private final EgressAdmission admission;
    private final Duration factoryTimeout;
    private final ConnectorClosing closing;
    private final Clock clock;
    private final SourceVersions versions;
    private final ReentrantLock changes = new ReentrantLock();
    private volatile Map<String, LiveSource> live = Map.of();
    private volatile List<PluginPin> pins = List.of();
    private volatile boolean writable = true;
    private volatile Optional<String> storeProblem = Optional.empty();
    /** {@link #state} left NEW; read without the lock on every tool call, as {@link #live} is. */
    private volatile boolean started;
    private final AtomicBoolean warnedNotStarted = new AtomicBoolean();
    /** Guarded by {@link #changes}. */
    private State state = State.NEW;

    private enum State { NEW, STARTED, CLOSED }

    /**
     * One source and what became of it.
     *
     * @param problemForAgents what agents read instead of {@code problem} ({@link #listForAgents}): for a source the egress
     *     guard refuses, whose {@code problem} names the rule and the address; empty when they read {@code problem}
     */
    private record LiveSource(SourceDefinition definition, Optional<ConnectorType> type, Optional<Connector> connector,
            String status, String problem, boolean badSettings, SourceActivity activity, ConnectorUse use,
            Optional<String> problemForAgents) {
        LiveSource(SourceDefinition definition, Optional<ConnectorType> type, Optional<Connector> connector, String status,
                String problem, boolean badSettings, SourceActivity activity, ConnectorUse use) {
            this(definition, type, connector, status, problem, badSettings, activity, use, Optional.empty());
        }

        LiveSource(SourceDefinition definition, Optional<ConnectorType> type, Optional<Connector> connector, String status,
                String problem, boolean badSettings) {
            // a source that is not connected is never called; its activity stays empty and it has nothing to close
            this(definition, type, connector, status, problem, badSettings, SourceActivity.discarding(), ConnectorUse.unowned());
        }

        /** A source not connected because the egress rules refuse its backend's address. */
        static LiveSource egressRefused(SourceDefinition definition, Optional<ConnectorType> type, String reason) {
            return egressFailed(definition, type, reason, EGRESS_REFUSED_FOR_AGENTS);
        }

        /** A source not connected because the egress resolver threw when asked for its backend's host name. */
        static LiveSource resolverFailed(SourceDefinition definition, Optional<ConnectorType> type, String reason) {
            return egressFailed(definition, type, reason, RESOLVER_FAILED_FOR_AGENTS);
        }

        /** A source not connected because the gateway cannot check its backend's host name against the egress rules. */
        static LiveSource nameUnchecked(SourceDefinition definition, Optional<ConnectorType> type, String reason) {
            return egressFailed(definition, type, reason, NAME_UNCHECKED_FOR_AGENTS);
        }

        private static LiveSource egressFailed(SourceDefinition definition, Optional<ConnectorType> type, String reason,
                String forAgents) {
            return new LiveSource(definition, type, Optional.empty(), "failed", reason, false, SourceActivity.discarding(),
                    ConnectorUse.unowned(), Optional.of(forAgents));
        }

        LiveSource(SourceDefinition definition, Optional<ConnectorType> type, Optional<Connector> connector, String status,
                String problem) {
            this(definition, type, connector, status, problem, false);
        }

        /**
         * Whether {@code caller} may see and use this source: the one check of tenant binding and of the caller's
         * source allow-list ({@link dev.omcp.ports.identity.AllowLists#sources()}), which every lookup goes through.
         * A source outside the list is to the caller one that does not exist.
         */
        boolean visibleTo(Principal caller, boolean management) {
            if (!caller.allowLists().permitsSource(definition.name())) {
                return false;
            }
            String bound = definition.config().tenant();
            if (bound.isEmpty()) {
                return true;
            }
            return management && caller.tenant().isEmpty() || bound.equals(caller.tenant());
        }
    }

    /**
     * @param catalog the connector types (builtins, plugins)
     * @param contexts builds each source's guarded HTTP client
     * @param store the sources file (or the environment)
     * @param egress the egress rules
     * @param resolver resolves host names when a source is added, so the rules can judge them
     * @param factoryTimeout how long a factory may take, its {@code create} returning and the connector it promises
     *     together, before the source counts as failed; also how long {@link #test} waits for a connector's health check
     * @param clock times each source's last answer and failure ({@link SourceActivity}), which
     *     {@code list_sources} shows
     */
    public SourceRegistry(ConnectorCatalog catalog, ConnectorContexts contexts, SourceStore store, EgressPolicy egress,
            HostResolver resolver, Duration factoryTimeout, Clock clock) {
        this(catalog, contexts, store, egress, resolver, factoryTimeout, clock, new SecureRandom());
    }

    /**
     * Like the other constructor, with the random source of the key that {@link SourceView#version()
     * versions} are drawn under (one key per registry, never shown).
     */
    public SourceRegistry(ConnectorCatalog catalog, ConnectorContexts contexts, SourceStore store, EgressPolicy egress,
            HostResolver resolver, Duration factoryTimeout, Clock clock, SecureRandom random) {
        this(catalog, contexts, store, egress, resolver, factoryTimeout, clock, random, ConnectorClosing.DEFAULT_WAIT);
    }

    /** Like the other constructors, with how long a change or {@link #close()} waits for the connectors it retired to close. */
    SourceRegistry(ConnectorCatalog catalog, ConnectorContexts contexts, SourceStore store, EgressPolicy egress,
            HostResolver resolver, Duration factoryTimeout, Clock clock, SecureRandom random, Duration closeWait) {
        this.closing = new ConnectorClosing(closeWait);
        this.versions = SourceVersions.drawnFrom(Objects.requireNonNull(random, "random"));
        this.clock = Objects.requireNonNull(clock, "clock");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.contexts = Objects.requireNonNull(contexts, "contexts");
        this.store = Objects.requireNonNull(store, "store");
        this.admission = new EgressAdmission(egress, resolver);
        this.factoryTimeout = Objects.requireNonNull(factoryTimeout, "factoryTimeout");
    }

    /**
     * Loads the store and connects every enabled source, in parallel. A source that cannot be served
     * is kept with status {@code failed} and its reason; the gateway starts anyway (spec 1.4).
     *
     * @throws IllegalStateException when the registry was started or closed already
     */
    public void start() {
        changes.lock();
        try {
            switch (state) {
                case STARTED -> throw new IllegalStateException("the source registry was started already; start() connects the sources once");
                case CLOSED -> throw new IllegalStateException("the source registry is closed; build a new one to serve sources again");
                case NEW -> state = State.STARTED;
            }
            started = true;
            SourcesDocument document = store.load();
            writable = document.writable();
            // a store that may not be written and says why could not read its file (a read-only store says nothing); it logged
            // that itself, with the effect and what to do, so its reason is not said again as a skipped source
            storeProblem = writable || document.problems().isEmpty() ? Optional.empty() : Optional.of(String.join("; ", document.problems()));
            if (writable) {
                document.problems().forEach(p -> LOG.warn("event=source-skipped store=\"{}\" reason=\"{}\"", LogField.of(store.describe()), LogField.of(p)));
            }
            pins = document.plugins();
            List<SourceDefinition> definitions = document.sources();
            List<LiveSource> connected = connectAll(definitions);
            Map<String, LiveSource> next = new TreeMap<>();
            connected.forEach(s -> next.put(s.definition().name(), s));
            live = Collections.unmodifiableMap(next);
            LOG.info("event=sources-loaded store=\"{}\" sources={} connected={}", LogField.of(store.describe()), next.size(),
                    next.values().stream().filter(s -> s.connector().isPresent()).count());
        } finally {
            changes.unlock();
        }
    }

    private List<LiveSource> connectAll(List<SourceDefinition> definitions) {
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        try {
            List<Future<LiveSource>> futures = new ArrayList<>();
            for (SourceDefinition d : definitions) {
                futures.add(executor.submit(() -> connect(d)));
            }
            List<LiveSource> out = new ArrayList<>();
            for (int i = 0; i < futures.size(); i++) {
                out.add(join(futures.get(i), definitions.get(i)));
            }
            return out;
        } finally {
            executor.shutdown();
        }
    }

    private static LiveSource join(Future<LiveSource> future, SourceDefinition definition) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new LiveSource(definition, Optional.empty(), Optional.empty(), "failed", "start was interrupted");
        } catch (ExecutionException e) {
            // the registry's own code threw past every catch in connect: an error, where a plugin's bug is a warning
            LOG.error("event=source-connect-bug source={} type=\"{}\" stage=registry error={}", definition.name(),
                    LogField.of(definition.config().type()), e.getCause().getClass().getName());
            return new LiveSource(definition, Optional.empty(), Optional.empty(), "failed",
                    "the connector failed unexpectedly (" + e.getCause().getClass().getSimpleName() + ")");
        }
    }

    /**
     * An embedder that never calls {@link #start()} gets tools that find no source and no error; the
     * first read says so, once, where the embedder's operator looks.
     */
    private void warnIfNotStarted() {
        if (!started && warnedNotStarted.compareAndSet(false, true)) {
            LOG.warn("event=sources-read-before-start store=\"{}\" effect=\"no source is served\" "
                    + "action=\"call SourceRegistry.start() before serving tools\"", LogField.of(store.describe()));
        }
    }

    /** Whether {@link #start()} has run (also once closed since): before it the registry serves no source. */
    public boolean isStarted() {
        return started;
    }

    /** The {@code plugins:} pins of the sources file, for the plugin loader. */
    public List<PluginPin> pluginPins() {
        return pins;
    }

    /**
     * The connectors that serve {@code capability} for {@code principal}: the manifest declares it,
     * the connector implements it, the source is enabled and connected and visible to the
     * principal (its tenant, its source allow-list). Sorted by source name. Never blocks.
     */
    public <C> List<Bound<C>> with(Class<C> capability, Principal principal) {
        return with(capability, principal, Optional.empty());
    }

    /**
     * Like {@link #with(Class, Principal)}, limited to the sources named in {@code onlySources} (for
     * example a credential's source allow-list).
     */
    public <C> List<Bound<C>> with(Class<C> capability, Principal principal, Optional<Set<String>> onlySources) {
        Objects.requireNonNull(capability, "capability");
        warnIfNotStarted();
        List<Bound<C>> out = new ArrayList<>();
        for (LiveSource s : live.values()) {
            if (s.connector().isEmpty() || s.type().isEmpty() || !s.visibleTo(principal, false)) {
                continue;
            }
            if (onlySources.isPresent() && !onlySources.get().contains(s.definition().name())) {
                continue;
            }
            Connector connector = s.connector().get();
            if (DeclaredCapabilities.serves(s.type().get().manifest().capabilities(), connector, capability)) {
                SourceConfig config = s.definition().config();
                out.add(new Bound<>(config.name(), config.type(), config.tenant(), capability.cast(connector), connector, s.activity(),
                        s.use(), s.type().get().origin() == ConnectorType.Origin.BUILTIN));
            }
        }
        return out;
    }

    /** What a source named by a caller (a tool's {@code source} argument) is to that caller. */
    public enum Named {
        /** No source of that name is visible to the caller (its tenant, its source allow-list). */
        UNKNOWN,
        /** It exists, but its type cannot answer this kind of question (a logs source asked for metrics). */
        WRONG_CAPABILITY,
        /** It can answer this kind of question but is disabled or not connected now. */
        UNAVAILABLE,
        /** It answers. */
        SERVES
    }

    /**
     * What the source called {@code name} is for a question needing {@code capability}, as {@code principal} sees it: a
     * source of another tenant, or outside the principal's source allow-list, is {@link Named#UNKNOWN}, as one that does
     * not exist, so its existence cannot be probed.
     */
    public Named named(String name, Class<?> capability, Principal principal) {
        LiveSource s = live.get(name);
        if (s == null || !s.visibleTo(principal, false)) {
            return Named.UNKNOWN;
        }
        if (s.type().isPresent() && !DeclaredCapabilities.declares(s.type().get().manifest().capabilities(), capability)) {
            return Named.WRONG_CAPABILITY;
        }
        if (s.connector().isEmpty() || s.type().isEmpty()
                || !DeclaredCapabilities.serves(s.type().get().manifest().capabilities(), s.connector().get(), capability)) {
            return Named.UNAVAILABLE;
        }
        return Named.SERVES;
    }

    /** How many connected sources serve {@code capability} for anyone (for {@code /api/info}). */
    public int countServing(Class<?> capability) {
        int count = 0;
        for (LiveSource s : live.values()) {
            if (s.connector().isPresent() && s.type().isPresent()
                    && DeclaredCapabilities.serves(s.type().get().manifest().capabilities(), s.connector().get(), capability)) {
                count++;
            }
        }
        return count;
    }

    @Override
    public List<SourceView> list(Principal caller) {
        return list(caller, false);
    }

    /**
     * As {@link #list(Principal)} shows an agent ({@code list_sources}): a source the egress rules refuse has
     * {@link #EGRESS_REFUSED_FOR_AGENTS} as its problem, one whose host name cannot be checked
     * {@link #NAME_UNCHECKED_FOR_AGENTS}. The rule's own words name internal addresses (the IPv4 address an
     * IPv6 one carries, a NAT64 prefix) and address classes: the operator's network layout, nothing an agent can change;
     * the management API and the log keep them. It lists the sources the caller's tools use, as {@link #with} sees them:
     * a caller without a tenant is not an operator of every tenant here, so another tenant's source, which no tool of
     * its would ask, is not named to it either.
     */
    public List<SourceView> listForAgents(Principal caller) {
        return list(caller, true);
    }

    private List<SourceView> list(Principal caller, boolean forAgents) {
        warnIfNotStarted();
        List<SourceView> out = new ArrayList<>();
        for (LiveSource s : live.values()) {
            if (s.visibleTo(caller, !forAgents)) {
                out.add(view(s, forAgents ? s.problemForAgents().orElse(s.problem()) : s.problem()));
            }
        }
        return out;
    }

    @Override
    public Optional<SourceView> find(String name, Principal caller) {
        LiveSource s = live.get(name);
        return s == null || !s.visibleTo(caller, true) ? Optional.empty() : Optional.of(view(s));
    }

    @Override
    public Optional<String> storeProblem() {
        return storeProblem;
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException before {@link #start()} or after {@link #close()}
     */
    @Override
    public SourceOutcome add(SourceDraft draft, Principal caller) {
        return change(() -> planAdd(draft, caller));
    }

    /** Checks an add against the registry as it stands: a {@link Plan}, or the refusal. Under the lock. */
    private Object planAdd(SourceDraft draft, Principal caller) {
        requireStarted();
        LiveSource taken = live.get(draft.name());
        if (taken != null) {
            return refused(SourceOutcome.EXISTS, taken(draft.name(), taken.visibleTo(caller, true)));
        }
        Map<String, String> paths = SecretSettings.filePaths(draft.settings());
        if (!paths.isEmpty()) {
            return refused(SourceOutcome.INVALID, "settings " + quotedPaths(List.copyOf(paths.keySet())) + " name files on the "
                    + "gateway host; those are accepted only in the sources file. Send the PEM or token inline");
        }
        // only a value that is the mask itself: a password that merely contains it is a password (as in update)
        List<String> masks = SecretSettings.masks(draft.settings());
        if (!masks.isEmpty()) {
            return refused(SourceOutcome.INVALID, "settings " + quotedPaths(masks) + " are masked, but a new source has no "
                    + "stored secret to keep; send the secrets themselves");
        }
        Optional<SourceOutcome.Refused> blank = blankUrl(draft, false);
        if (blank.isPresent()) {
            return blank.get();
        }
        Object built = definition(draft, draft.url().map(String::strip).orElse(""), draft.settings(), caller,
                SourceDefinition.Origin.API);
        if (built instanceof SourceOutcome.Refused r) {
            return r;
        }
        return new Plan((SourceDefinition) built, Optional.empty());
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException before {@link #start()} or after {@link #close()}
     */
    @Override
    public SourceOutcome update(String name, SourceDraft draft, Principal caller, SourcePrecondition precondition) {
        return change(() -> planUpdate(name, draft, caller, precondition));
    }

    /** Checks a change against the source as it is stored now: a {@link Plan}, or the refusal. Under the lock. */
    private Object planUpdate(String name, SourceDraft draft, Principal caller, SourcePrecondition precondition) {
        requireStarted();
        LiveSource current = live.get(name);
        if (current == null || !current.visibleTo(caller, true)) {
            return refused(SourceOutcome.NOT_FOUND, "no source named '" + name + "'");
        }
        Optional<SourceOutcome.Refused> shared = sharedWithEveryTenant(current, caller, "change");
        if (shared.isPresent()) {
            return shared.get();
        }
        if (!draft.name().equals(name)) {
            return refused(SourceOutcome.INVALID, "the body names source '" + draft.name() + "' but the path names '"
                    + name + "'; sources cannot be renamed, add a new one and remove the old");
        }
        // under the lock, before anything is checked against the stored source: of two changes made on
        // the same version only the first is made, and the second is told so rather than judged on a
        // source its sender never read
        SourceView seen = view(current);
        if (!precondition.acceptsVersionOf(seen)) {
            return stale("update", name, seen, caller);
        }
        List<String> problems = precondition.problems().apply(seen);
        if (!problems.isEmpty()) {
            return refused(SourceOutcome.INVALID, String.join("; ", problems));
        }
        Optional<SourceOutcome.Refused> blank = blankUrl(draft, true);
        if (blank.isPresent()) {
            return blank.get();
        }
        SourceConfig old = current.definition().config();
        SecretSettings.Unmasked unmasked = SecretSettings.unmask(draft.settings(), old.settings());
        JsonObject settings = unmasked.settings();
        List<String> unresolved = unmasked.unresolved();
        if (!unresolved.isEmpty()) {
            return refused(SourceOutcome.INVALID, "settings " + quotedPaths(unresolved) + " are masked but the source has no "
                    + "stored value there; send the secret itself");
        }
        Map<String, String> oldPaths = SecretSettings.filePaths(old.settings());
        for (Map.Entry<String, String> p : SecretSettings.filePaths(settings).entrySet()) {
            if (!p.getValue().equals(oldPaths.get(p.getKey()))) {
                return refused(SourceOutcome.INVALID, "setting " + BackendText.quoted(p.getKey(), 64)
                        + " names a file on the gateway host; file paths can be changed only in the sources file");
            }
        }
        String url = draft.url().map(String::strip).orElse(old.url());
        if (!unmasked.kept().isEmpty() && !BackendOrigin.same(old.url(), url)) {
            // a mask stands for a secret its sender may never have read (sources:write does not show it): kept, it would
            // be sent to whatever backend the new URL names, so only a path on the same backend keeps it
            return refused(SourceOutcome.INVALID, "settings " + quotedPaths(unmasked.kept()) + " are masked, but the URL's "
                    + "host changed (its scheme, host or port), so the stored secrets are not sent to the new one: send the "
                    + "secrets again in full; nothing was saved");
        }
        List<String> moved = unmasked.kept().isEmpty() ? List.of() : BackendOrigin.movedIn(old.settings(), settings);
        if (!moved.isEmpty()) {
            // the same leak through a backend a plugin takes from its settings (upstreams[0].url beside upstreams[0].password)
            return refused(SourceOutcome.INVALID, "settings " + quotedPaths(unmasked.kept()) + " are masked, but settings "
                    + quotedPaths(moved) + " name another backend than the stored ones at their place (its scheme, host or "
                    + "port), so the stored secrets are not sent to it: send the secrets again in full; nothing was saved");
        }
        // a tenant user's change leaves the binding as it is unless the body names their tenant: a
        // shared source they read (tenant "") and send back stays shared, not taken from every other tenant
        // likewise an omitted 'enabled' keeps the source as it was: a PUT that changes one setting must not
        // switch on a source an operator switched off
        Object built = definition(draft, url, settings, caller, current.definition().origin(), old.tenant(),
                current.definition().enabled());
        if (built instanceof SourceOutcome.Refused r) {
            return r;
        }
        return new Plan((SourceDefinition) built, Optional.of(current));
    }

    /**
     * A change checked under the lock: the definition to make, and the source it replaces as it was then (empty for an
     * add), which must still be the one in {@link #live} when the change is made.
     */
    private record Plan(SourceDefinition definition, Optional<LiveSource> previous) {}

    /** How many times a change connects without the lock before it connects holding it (see the class comment). */
    private static final int UNLOCKED_ATTEMPTS = 2;

    /**
     * How many times a change connects holding the lock before it is refused: more than once, since a plugin reloaded while
     * it connected replaces its connector type, which the lock does not hold off, and the next attempt takes the new one;
     * no more, since each attempt holds every other change for up to the factory timeout.
     */
    private static final int LOCKED_ATTEMPTS = 2;

    /**
     * Plans under the lock, connects outside it, makes the change under the lock if nothing overtook it, else plans again.
     *
     * @param planner a {@link Plan}, or the {@link SourceOutcome} that ends the change (a refusal, a stale version)
     */
    private SourceOutcome change(Supplier<Object> planner) {
        for (int attempt = 1; attempt <= UNLOCKED_ATTEMPTS; attempt++) {
            Object planned = locked(planner);
            if (planned instanceof SourceOutcome outcome) {
                return outcome;
            }
            Plan plan = (Plan) planned;
            Object connected = connectFor(plan.definition());
            if (connected instanceof SourceOutcome outcome) {
                return outcome;
            }
            Optional<SourceOutcome> made = locked(() -> commitIfUnchanged(plan, (LiveSource) connected));
            if (made.isPresent()) {
                return made.get();
            }
        }
        return locked(() -> {
            Plan plan = null;
            for (int attempt = 1; attempt <= LOCKED_ATTEMPTS; attempt++) {
                Object planned = planner.get();
                if (planned instanceof SourceOutcome outcome) {
                    return outcome;
                }
                plan = (Plan) planned;
                Object connected = connectFor(plan.definition());
                if (connected instanceof SourceOutcome outcome) {
                    return outcome;
                }
                // holding the lock since it planned, no other change can have overtaken it; a plugin reload still can, since
                // it replaces the connector type in the catalog without this lock, and then it is planned again
                Optional<SourceOutcome> made = commitIfUnchanged(plan, (LiveSource) connected);
                if (made.isPresent()) {
                    return made.get();
                }
            }
            return typeKeptChanging(plan.definition());
        });
    }

    /**
     * A change whose connector type was replaced while each of its attempts connected: its plugin is being reloaded again
     * and again. Refused rather than tried on, since each attempt holds every other change; 503 (as for a sources file held
     * by another process) because nothing was saved and the same change sent later is made, which a client retries on.
     */
    private static SourceOutcome typeKeptChanging(SourceDefinition definition) {
        String type = BackendText.quoted(definition.config().type(), 64);
        LOG.warn("event=source-change-given-up source={} type=\"{}\" attempts={} reason=\"the connector type was replaced "
                + "while each attempt connected\" action=\"let the plugin's reloads finish, then send the change again\"",
                definition.name(), LogField.of(definition.config().type()), UNLOCKED_ATTEMPTS + LOCKED_ATTEMPTS);
        return refused(SourceOutcome.NOT_PERSISTED, "the connector type '" + type + "' was replaced (its plugin reloaded) "
                + "while each of " + (UNLOCKED_ATTEMPTS + LOCKED_ATTEMPTS) + " attempts connected the source, so nothing was "
                + "saved; send the change again once the plugin is no longer being reloaded");
    }

    private <T> T locked(Supplier<T> work) {
        changes.lock();
        try {
            return work.get();
        } finally {
            changes.unlock();
        }
    }

    /**
     * Judges the URL (resolving its host name) and connects the source: the slow part of a change, run without the lock.
     *
     * @return the new {@link LiveSource}, or the refusal: a URL the egress rules refuse, settings the connector refuses,
     *     a store that is never written
     */
    private Object connectFor(SourceDefinition definition) {
        EgressAdmission.Judged judged = admission.judge(definition.config().url());
        if (judged instanceof EgressAdmission.Judged.Refused r) {
            return refused(SourceOutcome.URL_REJECTED, r.reason());
        }
        if (!writable) {
            return refused(SourceOutcome.NOT_PERSISTED, "the sources file could not be read at start, so it is never overwritten; "
                    + "fix it and restart the gateway");
        }
        LiveSource next = connect(definition, () -> judged);
        if (next.badSettings()) {
            return refused(SourceOutcome.INVALID, next.problem());
        }
        return next;
    }

    /**
     * Makes a planned change with what {@link #connectFor} made, unless the source changed since it was planned (another
     * change or removal of it, a reconnection) or its connector type was replaced: then what was made is closed and
     * nothing is answered, so the change is planned again. Under the lock.
     *
     * @throws IllegalStateException when the registry was closed meanwhile; what was made is closed first, as it is when
     *     the catalog throws
     */
    private Optional<SourceOutcome> commitIfUnchanged(Plan plan, LiveSource next) {
        SourceDefinition definition = plan.definition();
        if (state != State.STARTED) {
            close(next);
            requireStarted();
        }
        boolean overtaken;
        try {
            overtaken = live.get(definition.name()) != plan.previous().orElse(null)
                    || !next.type().equals(catalog.find(definition.config().type()));
        } catch (RuntimeException | Error e) {
            // an embedder's catalog that broke: what was made for this change must not stay open with no source holding it
            close(next);
            throw e;
        }
        if (overtaken) {
            close(next);
            LOG.info("event=source-change-overtaken source={} effect=\"the change is checked again against the source as it "
                    + "stands now\"", definition.name());
            return Optional.empty();
        }
        return Optional.of(commit(definition, next, plan.previous()));
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException before {@link #start()} or after {@link #close()}
     */
    @Override
    public SourceOutcome remove(String name, Principal caller, Optional<Set<String>> ifVersionIn) {
        changes.lock();
        try {
            requireStarted();
            LiveSource current = live.get(name);
            if (current == null || !current.visibleTo(caller, true)) {
                return refused(SourceOutcome.NOT_FOUND, "no source named '" + name + "'");
            }
            Optional<SourceOutcome.Refused> shared = sharedWithEveryTenant(current, caller, "remove");
            if (shared.isPresent()) {
                return shared.get();
            }
            SourceView seen = view(current);
            if (!SourcePrecondition.onVersions(ifVersionIn).acceptsVersionOf(seen)) {
                return stale("remove", name, seen, caller);
            }
            Map<String, LiveSource> next = new TreeMap<>(live);
            next.remove(name);
            Optional<SourceOutcome> saved = persist(next);
            if (saved.isPresent()) {
                return saved.get();
            }
            live = Collections.unmodifiableMap(next);
            versions.forget(name);
            close(current);
            LOG.info("event=source-removed source={} actor=\"{}\"", name, LogField.of(caller.id()));
            return new SourceOutcome.Removed(name);
        } finally {
            changes.unlock();
        }
    }

    @Override
    public SourceCheck test(SourceDraft draft, Principal caller) {
        Optional<SourceOutcome.Refused> blank = blankUrl(draft, false);
        if (blank.isPresent()) {
            return new SourceCheck(false, "validation", blank.get().reason(), -1, List.of());
        }
        Object built = definition(draft, draft.url().map(String::strip).orElse(""), draft.settings(), caller,
                SourceDefinition.Origin.API);
        if (built instanceof SourceOutcome.Refused r) {
            return new SourceCheck(false, "validation", r.reason(), -1, List.of());
        }
        SourceDefinition definition = (SourceDefinition) built;
        EgressAdmission.Judged judged = admission.judge(definition.config().url());
        if (judged instanceof EgressAdmission.Judged.Refused r) {
            return new SourceCheck(false, "egress", r.reason(), -1, List.of());
        }
        LiveSource probe = connect(new SourceDefinition(definition.config(), true, definition.origin()), () -> judged);
        if (probe.connector().isEmpty()) {
            return new SourceCheck(false, "connect", probe.problem(), -1, List.of());
        }
        try {
            return checkHealth(probe, draft.type());
        } finally {
            close(probe);
        }
    }

    /** The probe's health check, on a thread of its own: a plugin's health() that never returns must not hang the API call. */
    private SourceCheck checkHealth(LiveSource probe, String type) {
        Connector connector = probe.connector().orElseThrow();
        PluginThread<Health> call = PluginThread.start("omcp-connector-health-" + probe.definition().name(), connector::health);
        try {
            Health health = call.awaitUntil(System.nanoTime() + factoryTimeout.toNanos());
            return new SourceCheck(health.up(), health.up() ? "done" : "health", SecretSettings.withoutUrls(health.message()),
                    health.latency().toMillis(), capabilities(probe));
        } catch (TimeoutException e) {
            LOG.warn("event=source-test-health-hung type={} source={}", LogField.of(type), probe.definition().name());
            return new SourceCheck(false, "health", "the connector's health check did not answer within "
                    + PluginThread.spoken(factoryTimeout) + " (OMCP_CONNECTOR_START_TIMEOUT); the backend or the plugin hangs",
                    -1, List.of());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new SourceCheck(false, "health", "the check was interrupted: the gateway is stopping", -1, List.of());
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            LOG.warn("event=source-test-bug type={} error={}", LogField.of(type), cause.getClass().getName());
            return new SourceCheck(false, "health", "the connector failed unexpectedly (" + cause.getClass().getSimpleName() + ")", -1,
                    List.of());
        }
    }

    /** Settings paths as a refusal names them: the caller's keys, any size, so each quoted bounded and printable, the first ten. */
    private static String quotedPaths(List<String> paths) {
        return String.join(", ", paths.stream().limit(10).map(path -> BackendText.quoted(path, 64)).toList())
                + (paths.size() > 10 ? " and " + (paths.size() - 10) + " more" : "");
    }

    /**
     * The refusal of a caller bound to a tenant who asked to change or remove a source bound to no tenant: such a source
     * serves every tenant, so its URL, settings or binding changed by one tenant's admin would change (or take away) what
     * every other tenant's tool calls read. Judged before the body and the version, so whatever was sent, the answer is the
     * same; the caller may read the source, so naming it tells nothing new.
     */
    private static Optional<SourceOutcome.Refused> sharedWithEveryTenant(LiveSource source, Principal caller, String action) {
        if (caller.tenant().isEmpty() || !source.definition().config().tenant().isEmpty()) {
            return Optional.empty();
        }
        String name = source.definition().name();
        LOG.info("event=source-change-refused action={} source={} actor=\"{}\" tenant=\"{}\" reason=gateway-wide", action, name,
                LogField.of(caller.id()), LogField.of(caller.tenant()));
        return Optional.of(refused(SourceOutcome.GATEWAY_WIDE, "source '" + name + "' is bound to no tenant, so it serves every "
                + "tenant, and a caller bound to tenant '" + BackendText.quoted(caller.tenant(), 256) + "' may read it but not "
                + action + " it; nothing changed. Ask an operator without a tenant to make the change, or add a source of "
                + "your own tenant with POST /api/sources"));
    }

    private static SourceOutcome.Stale stale(String action, String name, SourceView seen, Principal caller) {
        LOG.info("event=source-change-stale action={} source={} actor=\"{}\"", action, name, LogField.of(caller.id()));
        return new SourceOutcome.Stale(seen.version());
    }

    /**
     * Why a name is taken. Names are unique across the gateway, so a tenant user may ask for the name
     * of another tenant's source; the answer then says only that the name is taken (which the 409
     * says anyway), never that a source they cannot see exists, nor what it is, and does not send
     * them to a {@code PUT} that would answer 404.
     */
    private static String taken(String name, boolean visible) {
        return visible
                ? "a source named '" + name + "' exists; change it with PUT /api/sources/" + name + ", or choose another name"
                : "the name '" + name + "' is not available (source names are unique across the gateway); choose another name";
    }

    /**
     * A url given but blank ({@code ""}, spaces, a line break) is refused, never read as left out:
     * on a change it would silently keep the stored URL the sender meant to clear or replace, and a
     * new source would be read as having no URL, which a plugin's factory may accept only to fail at
     * its first query.
     */
    private static Optional<SourceOutcome.Refused> blankUrl(SourceDraft draft, boolean change) {
        if (draft.url().isEmpty() || !draft.url().get().isBlank()) {
            return Optional.empty();
        }
        String source = "source '" + BackendText.quoted(draft.name(), 64) + "': 'url' is blank; ";
        return Optional.of(refused(SourceOutcome.INVALID, change
                ? source + "leave 'url' out to keep the stored URL, or write the new http:// or https:// URL of the backend "
                        + "(for example http://prometheus:9090); nothing was changed"
                : source + "write the http:// or https:// URL of the backend (for example http://prometheus:9090), or leave "
                        + "'url' out for a connector that needs none (kubernetes inside its cluster)"));
    }

    /** A change is saved over the store's sources, so they must have been read, and its connector must be closed some day. */
    private void requireStarted() {
        switch (state) {
            case NEW -> throw new IllegalStateException("the source registry is not started: call start() before adding, changing "
                    + "or removing sources, or the change would overwrite the sources of a store that was not read yet");
            case CLOSED -> throw new IllegalStateException("the source registry is closed; it takes no more changes");
            case STARTED -> { }
        }
    }

    /** Validates a draft into a definition, or a refusal. */
    private Object definition(SourceDraft draft, String url, JsonObject settings, Principal caller, SourceDefinition.Origin origin) {
        return definition(draft, url, settings, caller, origin, caller.tenant(), true);
    }

    /**
     * @param unnamedTenant the binding a draft that does not name one gets (and a tenant user's draft
     *     that names none, "" included): the caller's tenant for a new source, the stored one for a
     *     changed one
     * @param unsaidEnabled whether a draft that does not say is enabled: a new source is, a changed
     *     one stays as it was
     */
    private Object definition(SourceDraft draft, String url, JsonObject settings, Principal caller, SourceDefinition.Origin origin,
            String unnamedTenant, boolean unsaidEnabled) {
        String tenant = draft.tenant().orElse(unnamedTenant);
        if (!caller.tenant().isEmpty()) {
            if (!tenant.isEmpty() && !tenant.equals(caller.tenant())) {
                return refused(SourceOutcome.INVALID, "you may bind sources only to your own tenant '" + caller.tenant() + "'");
            }
            if (tenant.isEmpty()) {
                tenant = unnamedTenant;
            }
        }
        // the sources file keeps these beside the settings in one entry (SourceDefinition.OWN_FIELDS says why)
        List<String> shadowing = SourceDefinition.OWN_FIELDS.stream().filter(settings::containsKey).map(field -> "settings." + field)
                .toList();
        if (!shadowing.isEmpty()) {
            return refused(SourceOutcome.INVALID, String.join(", ", shadowing) + ": a source's own fields (" + String.join(", ",
                    SourceDefinition.OWN_FIELDS) + ") go at the top level of the body, never inside 'settings'; nothing was saved");
        }
        SourceConfig config;
        try {
            config = new SourceConfig(draft.name(), draft.type(), url, tenant, settings);
        } catch (IllegalArgumentException e) {
            return refused(SourceOutcome.INVALID, e.getMessage());
        }
        if (catalog.find(draft.type()).isEmpty()) {
            // the type is the caller's text, any size: quoted bounded and printable, like a refused name
            return refused(SourceOutcome.TYPE_UNKNOWN, "no connector type '" + BackendText.quoted(draft.type(), 64)
                    + "' is loaded; known types: " + String.join(", ", catalog.all().stream().map(ConnectorType::name).toList()));
        }
        // the URL is judged by connectFor, outside the lock: resolving its host name may take as long as the DNS server does
        return new SourceDefinition(config, draft.enabled().orElse(unsaidEnabled), origin);
    }

    /**
     * Persists and shows {@code next}, retiring {@code previous}; on a failed save (whatever the store threw) closes
     * {@code next} and changes nothing.
     */
    private SourceOutcome commit(SourceDefinition definition, LiveSource next, Optional<LiveSource> previous) {
        Map<String, LiveSource> snapshot = new TreeMap<>(live);
        snapshot.put(definition.name(), next);
        Optional<SourceOutcome> saved;
        try {
            saved = persist(snapshot);
        } catch (Error e) {
            // nothing holds next now: closed, or its threads and sockets would outlive the change that made it
            close(next);
            throw e;
        }
        if (saved.isPresent()) {
            close(next);
            return saved.get();
        }
        live = Collections.unmodifiableMap(snapshot);
        previous.ifPresent(this::close);
        LOG.info("event=source-saved source={} type={} status={}", definition.name(), definition.config().type(), next.status());
        return new SourceOutcome.Saved(view(next));
    }

    private Optional<SourceOutcome> persist(Map<String, LiveSource> snapshot) {
        if (!writable) {
            return Optional.of(refused(SourceOutcome.NOT_PERSISTED, "the sources file could not be read at start, so it is never "
                    + "overwritten; fix it and restart the gateway"));
        }
        try {
            store.save(snapshot.values().stream().map(LiveSource::definition).toList());
            return Optional.empty();
        } catch (SourceStoreException e) {
            if (e.isConflict()) {
                // the file is as it should be and will stay so; what it holds must change first, which only the operator can do
                LOG.warn("event=sources-change-conflict store=\"{}\" reason=\"{}\"", LogField.of(store.describe()),
                        LogField.of(SecretSettings.withoutUrls(e.getMessage())));
                return Optional.of(refused(SourceOutcome.CONFLICT, "nothing changed: " + SecretSettings.withoutUrls(e.getMessage())));
            }
            LOG.error("event=sources-not-persisted store=\"{}\" reason=\"{}\"", LogField.of(store.describe()),
                    LogField.of(SecretSettings.withoutUrls(e.getMessage())));
            return Optional.of(refused(SourceOutcome.NOT_PERSISTED, "the sources could not be saved, nothing changed: "
                    + SecretSettings.withoutUrls(e.getMessage())));
        } catch (RuntimeException e) {
            // the store's contract throws SourceStoreException only: anything else is a bug of the store (an embedder's). It
            // ends as a failed save, so the caller reads that the change was not made instead of a bare 500, and the caller
            // of persist closes what it made. Logged with its class and where it was thrown, never its message, which may
            // quote the definitions the store was handed, secrets included
            StackTraceElement[] where = e.getStackTrace();
            LOG.error("event=sources-not-persisted store=\"{}\" error={} at=\"{}\" reason=\"the sources store failed "
                    + "unexpectedly\" action=\"report it to the store's author\"", LogField.of(store.describe()),
                    e.getClass().getName(), where.length == 0 ? "" : LogField.of(where[0].toString()));
            return Optional.of(refused(SourceOutcome.NOT_PERSISTED, "the sources store failed unexpectedly ("
                    + e.getClass().getSimpleName() + ") while saving, so the change was not made and the sources are served "
                    + "as before; it is a bug of the store: ask the gateway's operator, whose log says where "
                    + "(event=sources-not-persisted)"));
        }
    }

    /** Creates the connector of one source, waiting for an asynchronous factory up to the timeout. */
    private LiveSource connect(SourceDefinition definition) {
        return connect(definition, () -> admission.judge(definition.config().url()));
    }

    /**
     * Like {@link #connect(SourceDefinition)}, with the egress rules' judgement of its URL, asked only of a source that is
     * enabled and of a loaded type (an API change has it already).
     */
    private LiveSource connect(SourceDefinition definition, Supplier<EgressAdmission.Judged> judgement) {
        SourceConfig config = definition.config();
        Optional<ConnectorType> type = catalog.find(config.type());
        if (type.isEmpty()) {
            // every other way a source fails to connect is logged; a plugin skipped at start (its signature, its compat
            // range) or removed leaves its sources unserved too, and the count of connected sources alone does not say which
            LOG.warn("event=source-type-unknown source={} type=\"{}\" effect=\"the source is not served\" action=\"GET"
                    + " /api/connectors says whether a plugin of that type was skipped and why; fix or install it, or correct the"
                    + " source's type\"", config.name(), LogField.of(config.type()));
            return new LiveSource(definition, type, Optional.empty(), "unknown-type",
                    "no connector type '" + BackendText.quoted(config.type(), 64) + "' is loaded");
        }
        if (!definition.enabled()) {
            return new LiveSource(definition, type, Optional.empty(), "disabled", "");
        }
        switch (judgement.get()) {
            case EgressAdmission.Judged.Refused r -> {
                LOG.warn("event=source-url-rejected source={} reason=\"{}\"", config.name(), LogField.of(r.reason()));
                return LiveSource.egressRefused(definition, type, r.reason());
            }
            case EgressAdmission.Judged.ResolverFailed f -> {
                // with the exception: it is a bug of the resolver (or a refusal of the JVM's), and its stack names where; the
                // resolver is handed the host name only, so it has no secret of the source to put in its message
                LOG.warn("event=egress-resolver-failed source={} host=\"{}\" error={} effect=\"the source is not connected\" "
                        + "action=\"fix the egress resolver, then save the source again or restart the gateway\"", config.name(),
                        LogField.of(f.host()), f.error().getClass().getName(), f.error());
                return LiveSource.resolverFailed(definition, type, f.reason());
            }
            case EgressAdmission.Judged.Admitted a -> { }
        }
        String schemaProblems = ConfigSchemaCheck.problems(type.get().manifest().configSchema(), config);
        if (!schemaProblems.isEmpty()) {
            LOG.warn("event=source-settings-invalid source={} reason=\"{}\"", config.name(), LogField.of(schemaProblems));
            return new LiveSource(definition, type, Optional.empty(), "failed", schemaProblems, true);
        }
        ConnectorContext context;
        try {
            context = contexts.contextFor(config);
        } catch (ConnectorException e) {
            String reason = SecretSettings.withoutUrls(e.getMessage());
            if (e.kind() == ConnectorException.Kind.ADDRESS_REFUSED) {
                // the gateway cannot guard this backend (an embedding service left its egress resolver out): every request
                // would be refused, so the source fails now, with the reason in the operator's view and log only; agents
                // read that no address was judged, not that one was refused
                LOG.warn("event=source-url-rejected source={} reason=\"{}\"", config.name(), LogField.of(reason));
                return LiveSource.nameUnchecked(definition, type, reason);
            }
            LOG.warn("event=source-settings-invalid source={} reason=\"{}\"", config.name(), LogField.of(reason));
            return new LiveSource(definition, type, Optional.empty(), "failed", reason, true);
        } catch (RuntimeException | Error e) {
            // a bug in building the client (a setting of a JSON type it did not expect): the source fails with the reason, as
            // for a factory's bug, and an add, change or test answers that instead of an unmapped error
            return unexpected(definition, type, "context", "building the source's HTTP client", e);
        }
        // one deadline for both halves: create() returning, then the connector it promised
        long deadline = System.nanoTime() + factoryTimeout.toNanos();
        ConnectorFactory factory = type.get().factory();
        // create() is the plugin's code and may block (connecting to its backend before it returns), deaf to interrupts: on
        // the caller's thread that hung the start, or an API change holding the lock every later change waits for
        PluginThread<CompletableFuture<Connector>> returning = PluginThread.start("omcp-connector-create-" + config.name(),
                () -> factory.create(config, context).toCompletableFuture());
        CompletableFuture<Connector> creation;
        try {
            creation = returning.awaitUntil(deadline);
        } catch (TimeoutException e) {
            // a connector it returns late must not leak
            returning.result().thenAccept(late -> late.thenAccept(c -> closing.close(config.name(), c)));
            LOG.warn("event=connector-factory-hung source={} type={} effect=\"the source is not served; the factory is left running "
                    + "on thread omcp-connector-create-{}\" action=\"report it to the plugin's author: create() must return at once "
                    + "and connect in the background\"", config.name(), LogField.of(config.type()), config.name());
            return failed(definition, type, "the connector factory did not return within " + PluginThread.spoken(factoryTimeout)
                    + " (OMCP_CONNECTOR_START_TIMEOUT); its create() blocks, which is the plugin's bug");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            returning.result().thenAccept(late -> late.thenAccept(c -> closing.close(config.name(), c)));
            return failed(definition, type, "start was interrupted");
        } catch (ExecutionException e) {
            // a plugin's bug (an AssertionError, a StackOverflowError) fails its source as it would at start, never the API call
            return unexpected(definition, type, "factory", "the connector factory", e.getCause());
        }
        try {
            Connector connector = creation.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            return new LiveSource(definition, type, Optional.of(connector), "connected", "", false, new SourceActivity(clock),
                    new ConnectorUse(() -> closing.close(config.name(), connector)));
        } catch (TimeoutException e) {
            closeWhenLate(config.name(), creation); // a late connector must not leak
            return failed(definition, type, "the connector did not start within " + factoryTimeout.toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeWhenLate(config.name(), creation);
            return failed(definition, type, "start was interrupted");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof ConnectorException ce && ce.kind() == ConnectorException.Kind.BAD_QUERY) {
                // the factory refused the source's own settings (a missing url, a malformed option): no
                // backend was asked, and waiting will not fix it, so the API refuses such a source (400)
                // where a sources file entry is kept as failed
                String reason = SecretSettings.withoutUrls(ce.getMessage());
                LOG.warn("event=source-settings-invalid source={} reason=\"{}\"", config.name(), LogField.of(reason));
                return new LiveSource(definition, type, Optional.empty(), "failed", reason, true);
            }
            String reason = cause instanceof ConnectorException ce
                    ? SecretSettings.withoutUrls(ce.getMessage())
                    : "the connector factory failed unexpectedly (" + cause.getClass().getSimpleName() + ")";
            if (cause instanceof ConnectorException ce && ce.kind() == ConnectorException.Kind.ADDRESS_REFUSED) {
                // a factory that reached out at once (a plugin's) met the egress rules: the reason is the operator's
                LOG.warn("event=source-url-rejected source={} reason=\"{}\"", config.name(), LogField.of(reason));
                return LiveSource.egressRefused(definition, type, reason);
            }
            return failed(definition, type, reason);
        }
    }

    /** A source whose connecting threw what it must not: logged as a bug (its class only, never its message), and failed. */
    private static LiveSource unexpected(SourceDefinition definition, Optional<ConnectorType> type, String stage, String what,
            Throwable e) {
        LOG.warn("event=source-connect-bug source={} type=\"{}\" stage={} error={}", definition.name(),
                LogField.of(definition.config().type()), stage, e.getClass().getName());
        return failed(definition, type, what + " failed unexpectedly (" + e.getClass().getSimpleName() + ")");
    }

    /**
     * A connector that arrives after its source was failed is closed, on the plugin's own completing thread (nothing of the
     * gateway waits for it), and what its close throws is logged as any close's.
     */
    private static void closeWhenLate(String source, CompletableFuture<Connector> creation) {
        creation.thenAccept(connector -> {
            try {
                connector.close();
            } catch (RuntimeException | Error e) {
                LOG.warn("event=connector-close-failed source={} error={}", source, e.getClass().getName());
            }
        });
    }

    private static LiveSource failed(SourceDefinition definition, Optional<ConnectorType> type, String reason) {
        // the reason may quote the backend's answer, through the connector's message
        LOG.warn("event=source-failed source={} type={} reason=\"{}\"", definition.name(), definition.config().type(), LogField.of(reason));
        return new LiveSource(definition, type, Optional.empty(), "failed", reason);
    }

    /**
     * A source replaced, removed or never shown: its connector is closed now when no call runs on it,
     * else when the last one ends (see {@link ConnectorUse}), so a change never waits for a slow call.
     */
    private void close(LiveSource source) {
        closeAll(List.of(source));
    }

    /**
     * Retires every source, then waits for the closes started, all together and only so long
     * ({@link ConnectorClosing}): a plugin's close() that never returns holds neither the change nor the shutdown.
     */
    private void closeAll(Collection<LiveSource> sources) {
        sources.forEach(s -> s.use().retire());
        closing.awaitStarted();
    }

    private SourceView view(LiveSource s) {
        return view(s, s.problem());
    }

    private SourceView view(LiveSource s, String problem) {
        SourceConfig c = s.definition().config();
        return new SourceView(c.name(), c.type(), endpoint(c.url()), c.tenant(), s.definition().enabled(), s.definition().origin(),
                s.status(), problem, capabilities(s), SecretSettings.mask(c.settings()), s.activity().contact(),
                versions.of(s.definition()));
    }

    private static List<String> capabilities(LiveSource s) {
        if (s.connector().isEmpty() || s.type().isEmpty()) {
            return List.of();
        }
        Capabilities declared = s.type().get().manifest().capabilities();
        List<String> out = new ArrayList<>();
        CAPABILITY_NAMES.forEach((type, name) -> {
            if (DeclaredCapabilities.serves(declared, s.connector().get(), type)) {
                out.add(name);
            }
        });
        return out;
    }

    /** {@code scheme://host[:port]} of a URL: never the path, query or credentials. */
    static String endpoint(String url) {
        return SourceView.endpointOf(url);
    }

    private static SourceOutcome.Refused refused(String code, String reason) {
        return new SourceOutcome.Refused(code, reason);
    }

    /**
     * Every capability name a {@link SourceView} may list, in the order it lists them, so that
     * what describes the list (the {@code list_sources} tool) cannot fall behind it.
     */
    public static List<String> capabilityNames() {
        return List.copyOf(CAPABILITY_NAMES.values());
    }

    private static Map<Class<?>, String> namesOfCapabilities() {
        Map<Class<?>, String> names = new LinkedHashMap<>();
        names.put(MetricsCapability.class, "queryMetrics");
        names.put(MetricDiscoveryCapability.class, "discoverMetrics");
        names.put(LogsCapability.class, "queryLogs");
        names.put(LogAggregatesCapability.class, "aggregateLogs");
        names.put(ServiceListingCapability.class, "listServices");
        names.put(TracesCapability.class, "queryTraces");
        names.put(TopologyCapability.class, "topology");
        return Collections.unmodifiableMap(names);
    }

    @Override
    public List<String> sourcesOfType(String connectorType) {
        // every tenant's: a plugin serves the whole gateway, and live is sorted by name
        return live.values().stream().filter(s -> s.definition().config().type().equals(connectorType))
                .map(s -> s.definition().name()).toList();
    }

    /**
     * {@inheritDoc} The sources file is not written: the definitions do not change. Before
     * {@link #start()} and after {@link #close()} there is nothing to reconnect.
     */
    @Override
    public List<SourceReconnection> reconnect(String connectorType) {
        return connectAgain(connectorType, source -> true, "event=sources-reconnected");
    }

    /**
     * {@inheritDoc} The sources file is not written. Before {@link #start()} and after
     * {@link #close()} there is nothing to connect.
     */
    @Override
    public List<SourceReconnection> connectUnconnected(String connectorType) {
        return connectAgain(connectorType, source -> source.connector().isEmpty() && source.definition().enabled(),
                "event=sources-connected");
    }

    /** Connects the sources of {@code connectorType} that {@code which} selects anew, closing what they had. */
    private List<SourceReconnection> connectAgain(String connectorType, Predicate<LiveSource> which, String event) {
        changes.lock();
        try {
            if (state != State.STARTED) {
                return List.of();
            }
            List<LiveSource> before = live.values().stream().filter(s -> s.definition().config().type().equals(connectorType))
                    .filter(which).toList();
            if (before.isEmpty()) {
                return List.of();
            }
            List<LiveSource> after = connectAll(before.stream().map(LiveSource::definition).toList());
            Map<String, LiveSource> next = new TreeMap<>(live);
            after.forEach(s -> next.put(s.definition().name(), s));
            live = Collections.unmodifiableMap(next);
            // closed after the swap, as a replaced source is: a call in flight finishes on the old connector
            closeAll(before);
            LOG.info("{} type={} sources={} connected={}", event, connectorType, before.size(),
                    after.stream().filter(s -> s.connector().isPresent()).count());
            return after.stream().map(s -> new SourceReconnection(s.definition().name(), s.status(), s.problem())).toList();
        } finally {
            changes.unlock();
        }
    }

    /** Closes every connector; the registry then serves no source and takes no change. Closing again does nothing. */
    @Override
    public void close() {
        changes.lock();
        try {
            state = State.CLOSED;
            closeAll(live.values());
            live = Map.of();
            versions.forgetAll();
        } finally {
            changes.unlock();
        }
    }
}
