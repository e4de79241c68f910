package dev.omcp.core.sources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.omcp.core.egress.EgressRules;
import dev.omcp.core.testing.CapturedLog;
import dev.omcp.ports.connectors.ConnectorCatalog;
import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.identity.AllowLists;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.sources.ConnectorContexts;
import dev.omcp.ports.sources.ManageSources;
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
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.LogsCapability;
import dev.omcp.sdk.connector.MetricsCapability;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.connector.TopologyCapability;
import dev.omcp.sdk.manifest.Capabilities;
import dev.omcp.sdk.manifest.ConnectorManifest;
import dev.omcp.sdk.query.LogQuery;
import dev.omcp.sdk.query.LogResult;
import dev.omcp.sdk.query.MetricQuery;
import dev.omcp.sdk.query.MetricResult;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class SourceRegistryTest {
    private static final byte[] PUBLIC_ADDRESS = {93, (byte) 184, (byte) 216, 34};
    private static final byte[] METADATA = {(byte) 169, (byte) 254, (byte) 169, (byte) 254};

    private static final String RESOLVER_MISSING = "the egress resolver is not installed, so backend names cannot be checked; "
            + "register dev.omcp.connectors.builtin.egress.GuardedResolverProvider in "
            + "META-INF/services/java.net.spi.InetAddressResolverProvider";

    private final List<FakeConnector> created = new CopyOnWriteArrayList<>();
    private final MemoryStore store = new MemoryStore();

    @RegisterExtension
    final CapturedLog log = new CapturedLog(SourceRegistry.class);
    private final Map<String, List<byte[]>> dns = new HashMap<>();
    private final Map<String, ConnectorType> types = new HashMap<>();
    private volatile boolean catalogBroken;

    SourceRegistryTest() {
        dns.put("prom.example.com", List.of(PUBLIC_ADDRESS));
        dns.put("loki.example.com", List.of(PUBLIC_ADDRESS));
        dns.put("rebound.example.com", List.of(PUBLIC_ADDRESS, METADATA));
        dns.put("slow.example.com", List.of(PUBLIC_ADDRESS));
        dns.put("slow-too.example.com", List.of(PUBLIC_ADDRESS));
        register("prometheus", new Capabilities(true, false, true, false, false), MetricsOnly::new);
        register("loki", new Capabilities(false, true, true, false, false), LogsOnly::new);
        // declares topology but does not implement it, implements logs but does not declare it
        register("liar", new Capabilities(false, false, false, false, true), LogsOnly::new);
    }

    private interface Maker {
        FakeConnector make(SourceConfig config);
    }

    private void register(String name, Capabilities caps, Maker maker) {
        ConnectorFactory factory = new ConnectorFactory() {
            @Override
            public ConnectorManifest manifest() {
                return manifestOf(name, caps);
            }

            @Override
            public CompletionStage<Connector> create(SourceConfig source, ConnectorContext context) {
                if (source.settings().containsKey("badOption")) {
                    // how a factory says the source's own settings are wrong (the builtins do so too)
                    return CompletableFuture.failedFuture(new ConnectorException(ConnectorException.Kind.BAD_QUERY,
                            "badOption must be a list of label names"));
                }
                if (source.settings().containsKey("failWith")) {
                    return CompletableFuture.failedFuture(new ConnectorException(ConnectorException.Kind.UNAVAILABLE,
                            source.settings().getString("failWith")));
                }
                if (source.settings().containsKey("assertionError")) {
                    // a plugin's bug: the SDK asks for a ConnectorException, but nothing stops an Error
                    throw new AssertionError("the plugin's invariant broke");
                }
                if (source.settings().containsKey("stackOverflow")) {
                    throw new StackOverflowError();
                }
                if (source.settings().containsKey("createBlocks")) {
                    // a plugin that connects inside create() to a backend that never answers, deaf to interrupts
                    holdUntil(released);
                }
                if (source.settings().containsKey("never")) {
                    CompletableFuture<Connector> late = new CompletableFuture<>();
                    lateCompletions.add(() -> late.complete(track(maker.make(source))));
                    return late;
                }
                return CompletableFuture.completedFuture(track(maker.make(source)));
            }
        };
        types.put(name, new ConnectorType(factory, factory.manifest(), ConnectorType.Origin.BUILTIN));
    }

    private final List<Runnable> lateCompletions = new ArrayList<>();
    /** Lets every plugin call that {@link #holdUntil holds} go at the end of each test. */
    private final CountDownLatch released = new CountDownLatch(1);
    /** Opens when the resolver is asked for slow.example.com, which it answers only once {@link #released} opens. */
    private final CountDownLatch resolving = new CountDownLatch(1);
    /** Like {@link #resolving} and {@link #released}, for slow-too.example.com. */
    private final CountDownLatch resolvingToo = new CountDownLatch(1);
    private final CountDownLatch releasedToo = new CountDownLatch(1);
    /** Opens when a context builder is asked for a source with the setting contextBlocks, which waits for {@link #released}. */
    private final CountDownLatch building = new CountDownLatch(1);

    @AfterEach
    void releaseHeldPluginCalls() {
        released.countDown();
        releasedToo.countDown();
        created.forEach(c -> c.released.countDown());
    }

    /** Opens every gate when closed, before the executor closed after it waits for the calls held at them: a failure never hangs. */
    private final class Gates implements AutoCloseable {
        @Override
        public void close() {
            released.countDown();
            releasedToo.countDown();
        }
    }

    /** Blocks like a plugin stuck in a call that ignores interrupts, until {@code latch} opens. */
    private static void holdUntil(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Runs {@code call} on a thread of its own, failing when it has not returned within {@code limit}: a hang fails the test. */
    private static <T> T within(Duration limit, Callable<T> call) throws Exception {
        FutureTask<T> task = new FutureTask<>(call);
        Thread.ofPlatform().daemon().name("test-bounded-call").start(task);
        try {
            return task.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("the call did not return within " + limit + ": a hung plugin call blocks it");
        }
    }

    private FakeConnector track(FakeConnector c) {
        created.add(c);
        return c;
    }

    private static ConnectorManifest manifestOf(String name, Capabilities caps) {
        return new ConnectorManifest(1, name, name, "1.0.0", "test", List.of(), caps, JsonObject.EMPTY_JSON_OBJECT,
                Optional.empty(), Optional.empty(), List.of(), Optional.empty(), Optional.empty());
    }

    private SourceRegistry registry(boolean allowPrivate) {
        SourceRegistry registry = unstarted(allowPrivate);
        registry.start();
        return registry;
    }

    private SourceRegistry unstarted(boolean allowPrivate) {
        ConnectorCatalog catalog = new ConnectorCatalog() {
            @Override
            public Optional<ConnectorType> find(String name) {
                if (name.equals("catalog-bug") || catalogBroken) {
                    throw new IllegalStateException("the catalog broke");
                }
                return Optional.ofNullable(types.get(name));
            }

            @Override
            public List<ConnectorType> all() {
                return types.values().stream().sorted((a, b) -> a.name().compareTo(b.name())).toList();
            }
        };
        ConnectorContexts contexts = source -> {
            if (source.settings().containsKey("catalogBreaksAfterConnect")) {
                // an embedder's catalog that breaks between the connect and the commit of the same change
                catalogBroken = true;
            }
            if (source.settings().containsKey("contextBlocks")) {
                // a context builder stuck on something slow (reading a CA from a slow disk, a slow DNS lookup of its own)
                building.countDown();
                holdUntil(released);
            }
            if (source.settings().containsKey("tls") && source.settings().getJsonObject("tls").containsKey("ca")
                    && source.settings().getJsonObject("tls").getString("ca").equals("not a pem")) {
                throw new ConnectorException(ConnectorException.Kind.BAD_QUERY, "tls.ca is not a PEM certificate");
            }
            if (source.settings().containsKey("unguardedName")) {
                // how the builtin contexts say a backend name cannot be checked: the JVM's egress resolver is not registered
                throw new ConnectorException(ConnectorException.Kind.ADDRESS_REFUSED, RESOLVER_MISSING);
            }
            if (source.settings().containsKey("contextBug")) {
                // a bug in the builder, such as a setting of a JSON type it did not expect; its message may quote a setting
                throw new ClassCastException("tls is not an object: secret-in-message");
            }
            return new StaticContext();
        };
        return new SourceRegistry(catalog, contexts, store, new EgressRules(allowPrivate),
                host -> {
                    switch (host) {
                        case "resolver-bug.example.com" -> throw new IllegalStateException("the resolver broke");
                        case "denied.example.com" -> throw new SecurityException("resolving denied.example.com is not permitted");
                        case "resolver-error.example.com" -> throw new AssertionError("the resolver's invariant broke");
                        case "slow.example.com" -> {
                            // a DNS server that takes its time
                            resolving.countDown();
                            holdUntil(released);
                        }
                        case "slow-too.example.com" -> {
                            resolvingToo.countDown();
                            holdUntil(releasedToo);
                        }
                        default -> { }
                    }
                    return dns.getOrDefault(host, List.of());
                }, Duration.ofMillis(200), java.time.Clock.systemUTC(),
                new java.security.SecureRandom(), Duration.ofMillis(200));
    }

    private static SourceDefinition def(String name, String type, String url, String tenant, JsonObject settings) {
        return new SourceDefinition(new SourceConfig(name, type, url, tenant, settings), true, SourceDefinition.Origin.FILE);
    }

    private static SourceDraft draft(String name, String type, String url) {
        return new SourceDraft(name, type, Optional.of(url), "", true, JsonObject.EMPTY_JSON_OBJECT);
    }

    private static Principal tenantUser(String tenant) {
        return Principal.apiKey("k-" + tenant, tenant);
    }

    @Test
    void sourcesOfAConnectorTypeWhosePluginWasRemoved_areReconnected_toNothing_andTheirOldConnectorsClosed() {
        store.sources.add(def("logs", "loki", "https://loki.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        store.sources.add(def("prom-a", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        store.sources.add(def("prom-b", "prometheus", "https://prom.example.com", "acme", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        assertThat(registry.sourcesOfType("prometheus")).as("every tenant's").containsExactly("prom-a", "prom-b");
        List<FakeConnector> before = List.copyOf(created);
        types.remove("prometheus");

        List<SourceReconnection> reconnected = registry.reconnect("prometheus");

        assertThat(reconnected).as("each source, with what became of it").containsExactly(
                new SourceReconnection("prom-a", "unknown-type", "no connector type 'prometheus' is loaded"),
                new SourceReconnection("prom-b", "unknown-type", "no connector type 'prometheus' is loaded"));
        assertThat(registry.list(Principal.anonymous())).filteredOn(v -> v.type().equals("prometheus"))
                .extracting(SourceView::name, SourceView::status, SourceView::problem)
                .containsExactly(tuple("prom-a", "unknown-type", "no connector type 'prometheus' is loaded"),
                        tuple("prom-b", "unknown-type", "no connector type 'prometheus' is loaded"));
        assertThat(before).filteredOn(c -> c instanceof MetricsOnly).hasSize(2).allSatisfy(c -> assertThat(c.closed).isTrue());
        assertThat(before).filteredOn(c -> c instanceof LogsOnly).singleElement().satisfies(c -> assertThat(c.closed).isFalse());
        assertThat(registry.with(LogsCapability.class, Principal.anonymous())).extracting(Bound::source).containsExactly("logs");
        assertThat(registry.sourcesOfType("prometheus")).as("still defined").containsExactly("prom-a", "prom-b");
        assertThat(store.saves).as("the sources file is not written").isZero();
    }

    @Test
    void aSourceOfATypeNoConnectorServes_isNamedInAWarning_atStartAndWhenItsPluginGoes() {
        store.sources.add(def("traces", "jaeger", "https://jaeger.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);

        // a plugin skipped at start (a bad signature, a compat range) leaves its sources unserved: the operator reads which
        assertThat(log.messages(Level.WARN)).filteredOn(line -> line.startsWith("event=source-type-unknown ")).singleElement()
                .asString().contains("source=traces", "type=\"jaeger\"", "GET /api/connectors");

        types.remove("prometheus");
        registry.reconnect("prometheus");
        assertThat(log.messages(Level.WARN)).filteredOn(line -> line.startsWith("event=source-type-unknown "))
                .anySatisfy(line -> assertThat(line).contains("source=prom", "type=\"prometheus\""));
    }

    @Test
    void reconnectingATypeTheCatalogStillServes_givesTheSourcesNewConnectors() {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        FakeConnector first = created.get(0);

        List<SourceReconnection> reconnected = registry.reconnect("prometheus");

        assertThat(reconnected).containsExactly(new SourceReconnection("prom", "connected", ""));
        assertThat(first.closed).isTrue();
        assertThat(created).hasSize(2);
        assertThat(registry.with(MetricsCapability.class, Principal.anonymous())).singleElement()
                .satisfies(b -> assertThat(b.connector()).isSameAs(created.get(1)));
    }

    @Test
    void withNoSourcesTheRegistryStartsEmpty() {
        // spec 1.4: the gateway starts with zero sources
        SourceRegistry registry = registry(false);
        assertThat(registry.list(Principal.anonymous())).isEmpty();
        assertThat(registry.with(MetricsCapability.class, Principal.anonymous())).isEmpty();
    }

    @Test
    void toolsFindConnectorsByDeclaredAndImplementedCapability() {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        store.sources.add(def("logs", "loki", "https://loki.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        store.sources.add(def("liar", "liar", "https://loki.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);

        assertThat(registry.with(MetricsCapability.class, Principal.anonymous())).extracting(Bound::source).containsExactly("prom");
        assertThat(registry.with(LogsCapability.class, Principal.anonymous())).extracting(Bound::source).containsExactly("logs");
        assertThat(registry.with(TopologyCapability.class, Principal.anonymous())).isEmpty();
        assertThat(registry.with(MetricsCapability.class, Principal.anonymous(), Optional.of(Set.of("logs")))).isEmpty();
        assertThat(registry.list(Principal.anonymous())).filteredOn(v -> v.name().equals("logs"))
                .singleElement().satisfies(v -> assertThat(v.capabilities()).containsExactly("queryLogs"));
    }

    @Test
    void tenantBoundSourcesServeOnlyTheirTenant() {
        store.sources.add(def("shared", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        store.sources.add(def("acme-prom", "prometheus", "https://prom.example.com", "acme", JsonObject.EMPTY_JSON_OBJECT));
        store.sources.add(def("globex-prom", "prometheus", "https://prom.example.com", "globex", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);

        assertThat(registry.with(MetricsCapability.class, tenantUser("acme"))).extracting(Bound::source)
                .containsExactly("acme-prom", "shared");
        // fail closed: a principal without a tenant gets only unbound sources from tools
        assertThat(registry.with(MetricsCapability.class, Principal.anonymous())).extracting(Bound::source).containsExactly("shared");
        // an operator without a tenant manages every source; a tenant user only theirs and the shared ones
        assertThat(registry.list(Principal.anonymous())).hasSize(3);
        assertThat(registry.list(tenantUser("globex"))).extracting(SourceView::name).containsExactly("globex-prom", "shared");
        assertThat(registry.remove("acme-prom", tenantUser("globex"))).isInstanceOf(SourceOutcome.Refused.class);
        assertThat(store.saves).isZero();
    }

    @Test
    void aSourceAllowList_narrowsEveryLookup_onTopOfTheTenant_andAnOtherSourceIsUnknown() {
        store.sources.add(def("shared", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        store.sources.add(def("other", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        store.sources.add(def("acme-prom", "prometheus", "https://prom.example.com", "acme", JsonObject.EMPTY_JSON_OBJECT));
        store.sources.add(def("globex-prom", "prometheus", "https://prom.example.com", "globex", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        // globex-prom listed too: the list narrows the tenant's sources, it never adds another tenant's
        Principal key = Principal.apiKey("ci", "acme", AllowLists.none().withSources(List.of("acme-prom", "shared", "globex-prom")));

        assertThat(registry.with(MetricsCapability.class, key)).extracting(Bound::source).containsExactly("acme-prom", "shared");
        assertThat(registry.with(MetricsCapability.class, key, Optional.of(Set.of("other", "shared")))).extracting(Bound::source)
                .containsExactly("shared");
        assertThat(registry.listForAgents(key)).extracting(SourceView::name).containsExactly("acme-prom", "shared");
        assertThat(registry.list(key)).extracting(SourceView::name).containsExactly("acme-prom", "shared");
        assertThat(registry.find("other", key)).isEmpty();
        assertThat(registry.named("other", MetricsCapability.class, key)).as("as a name no source has")
                .isEqualTo(registry.named("nope", MetricsCapability.class, key)).isEqualTo(SourceRegistry.Named.UNKNOWN);
        assertThat(registry.named("globex-prom", MetricsCapability.class, key)).isEqualTo(SourceRegistry.Named.UNKNOWN);
        assertThat(registry.named("shared", MetricsCapability.class, key)).isEqualTo(SourceRegistry.Named.SERVES);
        // the same key without a list sees every source of its tenant
        assertThat(registry.with(MetricsCapability.class, Principal.apiKey("ci", "acme"))).extracting(Bound::source)
                .containsExactly("acme-prom", "other", "shared");
    }

    @Test
    void aTenantUserCanOnlyBindSourcesToTheirOwnTenant() {
        SourceRegistry registry = registry(false);
        SourceOutcome own = registry.add(draft("acme-logs", "loki", "https://loki.example.com"), tenantUser("acme"));
        assertThat(own).isInstanceOfSatisfying(SourceOutcome.Saved.class, s -> assertThat(s.source().tenant()).isEqualTo("acme"));
        SourceOutcome other = registry.add(new SourceDraft("x", "loki", Optional.of("https://loki.example.com"), "globex", true,
                JsonObject.EMPTY_JSON_OBJECT), tenantUser("acme"));
        assertThat(other).isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> assertThat(r.reason()).contains("own tenant"));
        assertThat(registry.with(LogsCapability.class, tenantUser("globex"))).isEmpty();
        assertThat(registry.with(LogsCapability.class, tenantUser("acme"))).extracting(Bound::source).containsExactly("acme-logs");
    }

    @Test
    void addConnectsPersistsAndShowsNoUrlOrSecret() {
        SourceRegistry registry = registry(false);
        JsonObject settings = Json.createObjectBuilder()
                .add("auth", Json.createObjectBuilder().add("type", "bearer").add("token", "s3cr3t-token")).build();
        SourceOutcome outcome = registry.add(new SourceDraft("prom", "prometheus",
                Optional.of("https://prom.example.com:9443/prefix?x=1"), "", true, settings), Principal.anonymous());

        assertThat(outcome).isInstanceOf(SourceOutcome.Saved.class);
        SourceView view = ((SourceOutcome.Saved) outcome).source();
        assertThat(view.endpoint()).isEqualTo("https://prom.example.com:9443");
        assertThat(view.status()).isEqualTo("connected");
        assertThat(view.settings().toString()).doesNotContain("s3cr3t-token").contains(ManageSources.MASK);
        assertThat(store.sources).extracting(SourceDefinition::name).containsExactly("prom");
        assertThat(store.sources.get(0).origin()).isEqualTo(SourceDefinition.Origin.API);
        assertThat(registry.with(MetricsCapability.class, Principal.anonymous())).hasSize(1);
    }

    @Test
    void duplicatesUnknownTypesAndBadNamesAreRefusedAndNothingIsSaved() {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);

        assertThat(registry.add(draft("prom", "prometheus", "https://prom.example.com"), Principal.anonymous()))
                .isEqualTo(new SourceOutcome.Refused(SourceOutcome.EXISTS,
                        "a source named 'prom' exists; change it with PUT /api/sources/prom, or choose another name"));
        assertThat(((SourceOutcome.Refused) registry.add(draft("x", "graphite", "https://prom.example.com"), Principal.anonymous())).code())
                .isEqualTo(SourceOutcome.TYPE_UNKNOWN);
        assertThat(((SourceOutcome.Refused) registry.add(draft("Bad Name", "prometheus", "https://prom.example.com"),
                Principal.anonymous())).reason()).contains("lower-case");
        assertThat(store.saves).isZero();
        assertThat(created).hasSize(1);
    }

    @Test
    void privateAndMetadataUrlsAreRejectedWithTheReason() {
        // spec 5.9 + DECISIONS.md: 400 {code: OMCP_SOURCE_URL_REJECTED, reason}
        SourceRegistry registry = registry(false);
        SourceOutcome loopback = registry.add(draft("a", "prometheus", "http://127.0.0.1:9090"), Principal.anonymous());
        assertThat(loopback).isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> {
            assertThat(r.code()).isEqualTo(SourceOutcome.URL_REJECTED);
            assertThat(r.reason()).contains("loopback").doesNotContain("127.0.0.1");
        });
        SourceOutcome rebound = registry.add(draft("b", "prometheus", "http://rebound.example.com"), Principal.anonymous());
        assertThat(rebound).isInstanceOfSatisfying(SourceOutcome.Refused.class,
                r -> assertThat(r.reason()).contains("resolves").contains("cloud-metadata"));
        assertThat(registry.add(draft("c", "prometheus", "file:///etc/passwd"), Principal.anonymous()))
                .isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> assertThat(r.code()).isEqualTo(SourceOutcome.URL_REJECTED));
        assertThat(store.saves).isZero();
        assertThat(created).isEmpty();

        SourceRegistry optedIn = registry(true);
        assertThat(optedIn.add(draft("a", "prometheus", "http://127.0.0.1:9090"), Principal.anonymous()))
                .isInstanceOf(SourceOutcome.Saved.class);
        assertThat(optedIn.add(draft("m", "prometheus", "http://169.254.169.254"), Principal.anonymous()))
                .isInstanceOf(SourceOutcome.Refused.class);
    }

    @Test
    void sourcesFromTheFileWithARefusedUrlAreKeptButNotConnected() {
        store.sources.add(def("internal", "prometheus", "http://10.0.0.8:9090", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        assertThat(registry.list(Principal.anonymous())).singleElement().satisfies(v -> {
            assertThat(v.status()).isEqualTo("failed");
            assertThat(v.problem()).contains("OMCP_ALLOW_PRIVATE_BACKENDS");
        });
        assertThat(created).isEmpty();
    }

    @Test
    void aFailedSaveChangesNothingAndClosesTheNewConnector() {
        SourceRegistry registry = registry(false);
        store.failNext = true;
        SourceOutcome outcome = registry.add(draft("prom", "prometheus", "https://prom.example.com"), Principal.anonymous());
        assertThat(outcome).isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> {
            assertThat(r.code()).isEqualTo(SourceOutcome.NOT_PERSISTED);
            assertThat(r.reason()).contains("disk full");
        });
        assertThat(registry.list(Principal.anonymous())).isEmpty();
        assertThat(created).singleElement().satisfies(c -> assertThat(c.closed).isTrue());
    }

    @Test
    void aStoreThatThrowsAnUncheckedException_refusesTheAddOrChange_closesTheNewConnector_andTheOldSourceServesOn() {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        FakeConnector old = created.getFirst();
        String version = registry.find("prom", Principal.anonymous()).orElseThrow().version();

        store.breakNext = true;
        SourceOutcome changed = registry.update("prom", new SourceDraft("prom", "prometheus", Optional.empty(), "", true,
                Json.createObjectBuilder().add("step", "next").build()), Principal.anonymous());
        store.breakNext = true;
        SourceOutcome added = registry.add(draft("other", "prometheus", "https://prom.example.com"), Principal.anonymous());

        assertThat(List.of(changed, added)).allSatisfy(outcome -> assertThat(outcome).isInstanceOfSatisfying(
                SourceOutcome.Refused.class, r -> {
                    assertThat(r.code()).isEqualTo(SourceOutcome.NOT_PERSISTED);
                    assertThat(r.reason()).contains("failed unexpectedly (IllegalStateException)", "event=sources-not-persisted")
                            .doesNotContain("secret-in-message");
                }));
        assertThat(created).hasSize(3).filteredOn(c -> c != old).allSatisfy(c -> assertThat(c.closed).isTrue());
        assertThat(old.closed).isFalse();
        assertThat(registry.list(Principal.anonymous())).singleElement().satisfies(v -> {
            assertThat(v.name()).isEqualTo("prom");
            assertThat(v.version()).isEqualTo(version);
        });
        assertThat(registry.with(MetricsCapability.class, Principal.anonymous())).singleElement()
                .satisfies(b -> assertThat(b.connector()).isSameAs(old));
        assertThat(store.saves).isZero();
        assertThat(log.messages(Level.ERROR)).filteredOn(line -> line.startsWith("event=sources-not-persisted ")).hasSize(2)
                .allSatisfy(line -> assertThat(line).contains("error=java.lang.IllegalStateException")
                        .doesNotContain("secret-in-message"));
    }

    @Test
    void aStoreThatThrowsAnUncheckedExceptionOnARemoval_refusesIt_andTheSourceServesOn() {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        store.breakNext = true;

        SourceOutcome removed = registry.remove("prom", Principal.anonymous());

        assertThat(removed).isInstanceOfSatisfying(SourceOutcome.Refused.class,
                r -> assertThat(r.code()).isEqualTo(SourceOutcome.NOT_PERSISTED));
        assertThat(created.getFirst().closed).isFalse();
        assertThat(registry.with(MetricsCapability.class, Principal.anonymous())).extracting(Bound::source).containsExactly("prom");
    }

    @Test
    void aCatalogThatThrowsWhenTheChangeIsCommitted_closesTheNewConnector_andTheFailureReachesTheCaller() {
        SourceRegistry registry = registry(false);
        JsonObject settings = Json.createObjectBuilder().add("catalogBreaksAfterConnect", true).build();

        assertThatThrownBy(() -> registry.add(
                new SourceDraft("prom", "prometheus", Optional.of("https://prom.example.com"), "", true, settings), Principal.anonymous()))
                .isInstanceOf(IllegalStateException.class).hasMessage("the catalog broke");

        assertThat(created).singleElement().satisfies(c -> assertThat(c.closed).as("not left open by the failed commit").isTrue());
        catalogBroken = false;
        assertThat(registry.list(Principal.anonymous())).isEmpty();
    }

    @Test
    void aStoreThatThrowsAnError_closesTheNewConnector_andTheErrorReachesTheCaller() {
        SourceRegistry registry = registry(false);
        store.errorNext = true;

        assertThatThrownBy(() -> registry.add(draft("prom", "prometheus", "https://prom.example.com"), Principal.anonymous()))
                .isInstanceOf(AssertionError.class);

        assertThat(created).singleElement().satisfies(c -> assertThat(c.closed).isTrue());
        assertThat(registry.list(Principal.anonymous())).isEmpty();
    }

    @Test
    void aConnectorTypeReplacedWhileEveryAttemptConnects_endsTheChangeInARefusalSayingWhatToDo_andClosesEveryConnectorMade() {
        types.put("shifting", shiftingType("shifting", Integer.MAX_VALUE));
        SourceRegistry registry = registry(false);

        SourceOutcome outcome = registry.add(draft("moving", "shifting", "https://prom.example.com"), Principal.anonymous());

        assertThat(outcome).isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> {
            assertThat(r.code()).isEqualTo(SourceOutcome.NOT_PERSISTED);
            assertThat(r.reason()).contains("'shifting'", "reloaded", "nothing was saved", "send the change again");
        });
        assertThat(created).as("two attempts without the lock, two holding it").hasSize(4)
                .allSatisfy(c -> assertThat(c.closed).isTrue());
        assertThat(store.saves).isZero();
        assertThat(registry.list(Principal.anonymous())).isEmpty();
        assertThat(log.messages(Level.WARN)).anySatisfy(line -> assertThat(line).startsWith("event=source-change-given-up ")
                .contains("source=moving"));
    }

    @Test
    void aConnectorTypeReplacedWhileTheFirstLockedAttemptConnects_isPlannedAgainUnderTheLock_andTheChangeIsMade() {
        // replaced during the two attempts without the lock and the first holding it; the type loaded then stays
        types.put("shifting", shiftingType("shifting", 3));
        SourceRegistry registry = registry(false);

        SourceOutcome outcome = registry.add(draft("moving", "shifting", "https://prom.example.com"), Principal.anonymous());

        assertThat(outcome).isInstanceOfSatisfying(SourceOutcome.Saved.class,
                s -> assertThat(s.source().status()).isEqualTo("connected"));
        assertThat(created).hasSize(4);
        assertThat(created.subList(0, 3)).allSatisfy(c -> assertThat(c.closed).isTrue());
        assertThat(registry.with(MetricsCapability.class, Principal.anonymous())).singleElement()
                .satisfies(b -> assertThat(b.connector()).isSameAs(created.getLast()));
        assertThat(store.sources).extracting(SourceDefinition::name).containsExactly("moving");
    }

    /**
     * A connector type whose plugin is reloaded while its factory creates a connector, as a reload does without the
     * registry's lock: each of the first {@code replacements} creates puts a new type of the same name (a new factory, as a
     * reloaded plugin's is) into the catalog.
     */
    private ConnectorType shiftingType(String name, int replacements) {
        Capabilities caps = new Capabilities(true, false, true, false, false);
        ConnectorFactory factory = new ConnectorFactory() {
            @Override
            public ConnectorManifest manifest() {
                return manifestOf(name, caps);
            }

            @Override
            public CompletionStage<Connector> create(SourceConfig source, ConnectorContext context) {
                if (replacements > 0) {
                    types.put(name, shiftingType(name, replacements - 1));
                }
                return CompletableFuture.completedFuture(track(new MetricsOnly(source)));
            }
        };
        return new ConnectorType(factory, factory.manifest(), ConnectorType.Origin.FILESYSTEM);
    }

    @Test
    void headerValuesAreMaskedUnlessTheHeaderOnlyRoutes_andCredentialValuesAreMaskedWhateverTheirName() {
        // a viewer holds sources:read: a backend's API key in a header of any name must not reach it
        JsonObject settings = Json.createObjectBuilder()
                .add("headers", Json.createObjectBuilder().add("X-Scope-OrgID", "team-a").add("X-Honeycomb-Team", "hc-key-1")
                        .add("X-Auth", "Zm9vOmJhcg==").add("Signature", "sig-2"))
                .add("upstream", "Bearer opaque-3").add("logFormat", "json").build();
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", settings));
        SourceRegistry registry = registry(false);

        JsonObject shown = registry.list(Principal.anonymous()).get(0).settings();
        assertThat(shown.toString()).doesNotContain("hc-key-1").doesNotContain("Zm9vOmJhcg==").doesNotContain("sig-2")
                .doesNotContain("opaque-3");
        assertThat(shown.getJsonObject("headers").getString("X-Scope-OrgID")).isEqualTo("team-a");
        assertThat(shown.getJsonObject("headers").getString("X-Auth")).isEqualTo(ManageSources.MASK);
        assertThat(shown.getString("upstream")).isEqualTo(ManageSources.MASK);
        assertThat(shown.getString("logFormat")).isEqualTo("json");

        // what was shown, sent back, keeps every stored value
        assertThat(registry.update("prom", new SourceDraft("prom", "prometheus", Optional.empty(), "", true, shown), Principal.anonymous()))
                .isInstanceOf(SourceOutcome.Saved.class);
        assertThat(store.sources.get(0).config().settings()).isEqualTo(settings);
    }

    @Test
    void maskedSecretsInsideAListAreKeptWhenSentBack_neverSavedAsTheMaskItself() {
        // a list of objects or credential values is masked element by element when shown
        JsonObject settings = Json.createObjectBuilder()
                .add("upstreams", Json.createArrayBuilder()
                        .add(Json.createObjectBuilder().add("url", "https://a.example.com").add("password", "pw-one"))
                        .add(Json.createObjectBuilder().add("url", "https://b.example.com").add("password", "pw-two")))
                .add("extraAuth", Json.createArrayBuilder().add("Bearer opaque-9").add("plain")).build();
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", settings));
        SourceRegistry registry = registry(false);
        JsonObject shown = registry.list(Principal.anonymous()).get(0).settings();
        assertThat(shown.toString()).doesNotContain("pw-one").doesNotContain("pw-two").doesNotContain("opaque-9");

        SourceOutcome outcome = registry.update("prom", new SourceDraft("prom", "prometheus", Optional.empty(), "", true, shown),
                Principal.anonymous());

        assertThat(outcome).isInstanceOf(SourceOutcome.Saved.class);
        assertThat(store.sources.get(0).config().settings()).isEqualTo(settings);
    }

    @Test
    void aMaskInsideAListWithNothingStoredAtItsPlace_isRefused_andNothingIsSaved() {
        JsonObject settings = Json.createObjectBuilder()
                .add("upstreams", Json.createArrayBuilder().add(Json.createObjectBuilder().add("password", "pw-one"))).build();
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", settings));
        SourceRegistry registry = registry(false);
        JsonObject twoMasks = Json.createObjectBuilder().add("upstreams", Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("password", ManageSources.MASK))
                .add(Json.createObjectBuilder().add("password", ManageSources.MASK))).build();

        SourceOutcome outcome = registry.update("prom", new SourceDraft("prom", "prometheus", Optional.empty(), "", true, twoMasks),
                Principal.anonymous());

        assertThat(outcome).isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> {
            assertThat(r.code()).isEqualTo(SourceOutcome.INVALID);
            assertThat(r.reason()).contains("upstreams[1].password").doesNotContain("upstreams[0]");
        });
        // a key is the caller's text: quoted bounded and printable, and only the first ten of many
        JsonObject hugeKeys = Json.createObjectBuilder().add("k\n" + "x".repeat(100_000), ManageSources.MASK)
                .add("a1", ManageSources.MASK).add("a2", ManageSources.MASK).add("a3", ManageSources.MASK).add("a4", ManageSources.MASK)
                .add("a5", ManageSources.MASK).add("a6", ManageSources.MASK).add("a7", ManageSources.MASK).add("a8", ManageSources.MASK)
                .add("a9", ManageSources.MASK).add("b1", ManageSources.MASK).build();
        assertThat(registry.update("prom", new SourceDraft("prom", "prometheus", Optional.empty(), "", true, hugeKeys),
                Principal.anonymous())).isInstanceOfSatisfying(SourceOutcome.Refused.class, r ->
                        assertThat(r.reason()).hasSizeLessThan(400).doesNotContain("\n").contains("and 1 more"));
        assertThat(store.saves).isZero();
        assertThat(store.sources.get(0).config().settings()).isEqualTo(settings);
    }

    @Test
    void aNullInsideTheSettings_isNotMistakenForAMask() {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        JsonObject withNull = Json.createObjectBuilder().add("labels", Json.createArrayBuilder().add("a").addNull()).build();

        SourceOutcome outcome = registry.update("prom", new SourceDraft("prom", "prometheus", Optional.empty(), "", true, withNull),
                Principal.anonymous());

        assertThat(outcome).isInstanceOf(SourceOutcome.Saved.class);
        assertThat(store.sources.get(0).config().settings()).isEqualTo(withNull);
    }

    @Test
    void anUnknownTypeIsQuotedBoundedAndPrintable_neverEchoedWhole() {
        SourceRegistry registry = registry(false);
        String type = "x\u202e\n" + "y".repeat(100_000);

        SourceOutcome outcome = registry.add(draft("x", type, "https://prom.example.com"), Principal.anonymous());
        SourceCheck check = registry.test(draft("x", type, "https://prom.example.com"), Principal.anonymous());

        assertThat(outcome).isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> {
            assertThat(r.code()).isEqualTo(SourceOutcome.TYPE_UNKNOWN);
            assertThat(r.reason()).hasSizeLessThan(400).doesNotContain("\u202e").doesNotContain("\n").contains("known types: liar, loki");
        });
        assertThat(check.message()).hasSizeLessThan(400).doesNotContain("\u202e").doesNotContain("\n");
        assertThat(store.saves).isZero();
    }

    @Test
    void aTenantUser_neitherChangesNorBindsNorRemovesASharedSource_whichServesEveryTenant_butManagesTheirOwn() {
        store.sources.add(def("shared", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        store.sources.add(def("acme-prom", "prometheus", "https://prom.example.com", "acme", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        SourceView read = registry.list(tenantUser("acme")).stream().filter(v -> v.name().equals("shared")).findFirst().orElseThrow();
        assertThat(read.tenant()).as("a tenant user still reads the shared source").isEmpty();

        // what acme read, sent back with one change; then taking it for acme alone; then removing it
        SourceOutcome changed = registry.update("shared", new SourceDraft("shared", "prometheus", Optional.of("https://other.example.com"),
                read.tenant(), true, Json.createObjectBuilder().add("step", "30s").build()), tenantUser("acme"));
        SourceOutcome bound = registry.update("shared", new SourceDraft("shared", "prometheus", Optional.empty(), "acme", true,
                JsonObject.EMPTY_JSON_OBJECT), tenantUser("acme"));
        SourceOutcome removed = registry.remove("shared", tenantUser("acme"), Optional.of(Set.of(read.version())));

        for (SourceOutcome refusal : List.of(changed, bound, removed)) {
            assertThat(refusal).isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> {
                assertThat(r.code()).isEqualTo("OMCP_SOURCE_GATEWAY_WIDE");
                assertThat(r.reason()).contains("'shared'", "every tenant", "tenant 'acme'", "nothing changed",
                        "operator without a tenant");
            });
        }
        assertThat(store.saves).as("nothing written").isZero();
        assertThat(registry.find("shared", Principal.anonymous())).get().satisfies(v -> {
            assertThat(v.tenant()).isEmpty();
            assertThat(v.endpoint()).isEqualTo("https://prom.example.com");
            assertThat(v.version()).isEqualTo(read.version());
        });
        assertThat(registry.with(MetricsCapability.class, tenantUser("globex"))).extracting(Bound::source).containsExactly("shared");

        // their own tenant's source stays theirs to change and remove, and an operator without a tenant changes the shared one
        assertThat(registry.update("acme-prom", new SourceDraft("acme-prom", "prometheus", Optional.empty(), Optional.empty(), true,
                Json.createObjectBuilder().add("step", "30s").build()), tenantUser("acme"))).isInstanceOf(SourceOutcome.Saved.class);
        assertThat(registry.remove("acme-prom", tenantUser("acme"))).isInstanceOf(SourceOutcome.Removed.class);
        assertThat(registry.update("shared", new SourceDraft("shared", "prometheus", Optional.empty(), Optional.empty(), true,
                Json.createObjectBuilder().add("step", "30s").build()), Principal.anonymous())).isInstanceOf(SourceOutcome.Saved.class);
    }

    @Test
    void anOperatorsChangeThatLeavesTheTenantOut_keepsTheSourceBound_andOnlyAnExplicitEmptyTenantSharesIt() {
        store.sources.add(def("acme-prom", "prometheus", "https://prom.example.com", "acme", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);

        // an operator of the whole gateway changes one setting with a body that does not mention the tenant
        SourceOutcome changed = registry.update("acme-prom", new SourceDraft("acme-prom", "prometheus", Optional.empty(),
                Optional.empty(), true, Json.createObjectBuilder().add("step", "30s").build()), Principal.anonymous());

        assertThat(changed).isInstanceOfSatisfying(SourceOutcome.Saved.class, s -> assertThat(s.source().tenant()).isEqualTo("acme"));
        assertThat(store.sources.get(0).config().tenant()).isEqualTo("acme");
        assertThat(registry.with(MetricsCapability.class, tenantUser("globex"))).isEmpty();

        SourceOutcome shared = registry.update("acme-prom", new SourceDraft("acme-prom", "prometheus", Optional.empty(), "", true,
                JsonObject.EMPTY_JSON_OBJECT), Principal.anonymous());
        assertThat(shared).isInstanceOfSatisfying(SourceOutcome.Saved.class, s -> assertThat(s.source().tenant()).isEmpty());
        assertThat(registry.with(MetricsCapability.class, tenantUser("globex"))).extracting(Bound::source).containsExactly("acme-prom");
    }

    @Test
    void aSettingNamedLikeOneOfTheSourcesOwnFields_isRefused_soTheFileCannotRebindOrRedirectTheSourceAtTheNextStart() {
        // the sources file keeps settings beside name, type, url, tenant and enabled in one entry: written there, a setting
        // of the same name replaced the field, and the next start read another tenant, URL, name or state than the API saved
        store.sources.add(def("acme-prom", "prometheus", "https://prom.example.com", "acme", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        for (String field : List.of("name", "type", "url", "tenant", "enabled")) {
            JsonObject settings = Json.createObjectBuilder().add(field, "").add("step", "30s").build();
            SourceOutcome added = registry.add(new SourceDraft("p", "prometheus", Optional.of("https://prom.example.com"),
                    Optional.empty(), Optional.empty(), settings), tenantUser("acme"));
            SourceOutcome changed = registry.update("acme-prom", new SourceDraft("acme-prom", "prometheus", Optional.empty(),
                    Optional.empty(), Optional.empty(), settings), tenantUser("acme"));
            SourceCheck tested = registry.test(new SourceDraft("p", "prometheus", Optional.of("https://prom.example.com"),
                    Optional.empty(), Optional.empty(), settings), tenantUser("acme"));
            for (SourceOutcome outcome : List.of(added, changed)) {
                assertThat(outcome).as(field).isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> {
                    assertThat(r.code()).isEqualTo(SourceOutcome.INVALID);
                    assertThat(r.reason()).contains("settings." + field).contains("top level");
                });
            }
            assertThat(tested.stage()).as(field).isEqualTo("validation");
            assertThat(tested.message()).contains("settings." + field);
        }
        assertThat(store.saves).isZero();
        assertThat(store.sources).singleElement().satisfies(d -> {
            assertThat(d.config().tenant()).isEqualTo("acme");
            assertThat(d.config().settings()).isEmpty();
        });
    }

    @Test
    void aTenantNoLoginCouldCarry_isRefusedBoundedAndNothingIsSaved() {
        SourceRegistry registry = registry(false);
        for (String tenant : List.of("ac\u001b[31mme", "acme\n2026-11-30 INFO forged", "acme\u202e", "t".repeat(257))) {
            SourceOutcome outcome = registry.add(new SourceDraft("p", "prometheus", Optional.of("https://prom.example.com"), tenant, true,
                    JsonObject.EMPTY_JSON_OBJECT), Principal.anonymous());
            assertThat(outcome).isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> {
                assertThat(r.code()).isEqualTo(SourceOutcome.INVALID);
                assertThat(r.reason()).contains("tenant").contains("at most 256 characters").hasSizeLessThan(300)
                        .doesNotContain("\u001b").doesNotContain("\n").doesNotContain("\u202e");
            });
        }
        // names that need the zero-width joiners, and any script, are tenants
        assertThat(registry.add(new SourceDraft("p", "prometheus", Optional.of("https://prom.example.com"), "\u0645\u06cc\u200c\u0631",
                true, JsonObject.EMPTY_JSON_OBJECT), Principal.anonymous())).isInstanceOf(SourceOutcome.Saved.class);
        assertThat(store.saves).isEqualTo(1);
    }

    @Test
    void updateReplacesTheConnectorKeepsMaskedSecretsAndRefusesNewFilePaths() {
        JsonObject settings = Json.createObjectBuilder()
                .add("auth", Json.createObjectBuilder().add("type", "bearer").add("token", "from-env"))
                .add("tls", Json.createObjectBuilder().add("caFile", "/etc/omcp/ca.pem")).build();
        store.sources.add(def("prom", "prometheus", "https://prom.example.com/base", "", settings));
        SourceRegistry registry = registry(false);
        JsonObject shown = registry.list(Principal.anonymous()).get(0).settings();
        FakeConnector first = created.get(0);

        JsonObject edited = Json.createObjectBuilder(shown).add("step", "30s").build();
        SourceOutcome outcome = registry.update("prom", new SourceDraft("prom", "prometheus", Optional.empty(), "", true, edited),
                Principal.anonymous());

        assertThat(outcome).isInstanceOf(SourceOutcome.Saved.class);
        assertThat(first.closed).isTrue();
        SourceConfig saved = store.sources.get(0).config();
        assertThat(saved.url()).isEqualTo("https://prom.example.com/base");
        assertThat(saved.settings().getJsonObject("auth").getString("token")).isEqualTo("from-env");
        assertThat(saved.settings().getString("step")).isEqualTo("30s");

        JsonObject otherFile = Json.createObjectBuilder(edited)
                .add("tls", Json.createObjectBuilder().add("caFile", "/etc/shadow")).build();
        SourceOutcome refused = registry.update("prom", new SourceDraft("prom", "prometheus", Optional.empty(), "", true, otherFile),
                Principal.anonymous());
        assertThat(refused).isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> assertThat(r.reason()).contains("tls.caFile"));
        assertThat(store.sources.get(0).config().settings().getJsonObject("tls").getString("caFile")).isEqualTo("/etc/omcp/ca.pem");
    }

    @Test
    void aMaskSentWithAUrlOfAnotherHost_isRefusedNamingIt_soTheStoredSecretNeverReachesThatHost() {
        JsonObject settings = Json.createObjectBuilder()
                .add("auth", Json.createObjectBuilder().add("type", "bearer").add("token", "stored-token")).build();
        store.sources.add(def("prom", "prometheus", "https://prom.example.com/base", "", settings));
        SourceRegistry registry = registry(false);
        JsonObject shown = registry.list(Principal.anonymous()).get(0).settings();
        assertThat(shown.getJsonObject("auth").getString("token")).isEqualTo(ManageSources.MASK);

        // another host, another port, another scheme: each is another backend, which the stored token must not follow
        for (String elsewhere : List.of("https://loki.example.com", "https://prom.example.com:8443/base",
                "http://prom.example.com/base")) {
            SourceOutcome outcome = registry.update("prom", new SourceDraft("prom", "prometheus", Optional.of(elsewhere), "", true,
                    shown), Principal.anonymous());
            assertThat(outcome).as(elsewhere).isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> {
                assertThat(r.code()).isEqualTo(SourceOutcome.INVALID);
                assertThat(r.reason()).contains("settings auth.token are masked").contains("host changed").contains("in full")
                        .contains("nothing was saved").doesNotContain("stored-token");
            });
        }
        assertThat(store.saves).isZero();
        assertThat(store.sources.get(0).config().url()).isEqualTo("https://prom.example.com/base");
        assertThat(created).hasSize(1);

        // the secret sent in full goes with the new host
        JsonObject full = Json.createObjectBuilder()
                .add("auth", Json.createObjectBuilder().add("type", "bearer").add("token", "loki-token")).build();
        assertThat(registry.update("prom", new SourceDraft("prom", "prometheus", Optional.of("https://loki.example.com"), "", true,
                full), Principal.anonymous())).isInstanceOf(SourceOutcome.Saved.class);
        assertThat(store.sources.get(0).config().settings()).isEqualTo(full);
    }

    @Test
    void aMaskSentWithAUrlInsideTheSettingsThatNamesAnotherBackend_isRefusedNamingBoth_andNothingIsSaved() {
        JsonObject settings = Json.createObjectBuilder()
                .add("auth", Json.createObjectBuilder().add("type", "bearer").add("token", "stored-token"))
                .add("upstreams", Json.createArrayBuilder()
                        .add(Json.createObjectBuilder().add("url", "https://a.example.com/x").add("password", "pw-one"))
                        .add(Json.createObjectBuilder().add("url", "https://b.example.com").add("password", "pw-two"))).build();
        store.sources.add(def("prom", "prometheus", "https://prom.example.com/base", "", settings));
        SourceRegistry registry = registry(false);
        FakeConnector serving = created.getFirst();
        JsonObject shown = registry.list(Principal.anonymous()).get(0).settings();
        JsonObject movedFirst = Json.createObjectBuilder(shown).add("upstreams", Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("url", "https://other.example.com/x").add("password", ManageSources.MASK))
                .add(Json.createObjectBuilder().add("url", "https://b.example.com").add("password", ManageSources.MASK))).build();
        // each backend stays named, but each stored password would go to the other's host
        JsonObject swapped = Json.createObjectBuilder(shown).add("upstreams", Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("url", "https://b.example.com").add("password", ManageSources.MASK))
                .add(Json.createObjectBuilder().add("url", "https://a.example.com/x").add("password", ManageSources.MASK))).build();
        // a URL where the stored settings had none, beside a mask elsewhere
        JsonObject added = Json.createObjectBuilder(shown).add("fallback", "http://evil.example.com:8080").build();

        Map<JsonObject, List<String>> cases = Map.of(
                movedFirst, List.of("upstreams[0].url"),
                swapped, List.of("upstreams[0].url", "upstreams[1].url"),
                added, List.of("fallback"));
        cases.forEach((sent, moved) -> {
            SourceOutcome outcome = registry.update("prom", new SourceDraft("prom", "prometheus", Optional.empty(), "", true, sent),
                    Principal.anonymous());
            assertThat(outcome).as("%s", moved).isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> {
                assertThat(r.code()).isEqualTo(SourceOutcome.INVALID);
                assertThat(r.reason()).contains("auth.token", "upstreams[0].password", "upstreams[1].password", "are masked")
                        .contains(moved).contains("in full", "nothing was saved")
                        .doesNotContain("stored-token", "pw-one", "pw-two", "evil.example.com");
            });
        });

        assertThat(store.saves).isZero();
        assertThat(store.sources.getFirst().config().settings()).isEqualTo(settings);
        assertThat(created).containsExactly(serving);
        assertThat(serving.closed).isFalse();
    }

    @Test
    void aMaskSentWithSettingsUrlsOfTheSameBackends_keepsTheStoredSecrets_andSecretsSentInFullGoWithANewOne() {
        JsonObject settings = Json.createObjectBuilder()
                .add("upstreams", Json.createArrayBuilder()
                        .add(Json.createObjectBuilder().add("url", "https://a.example.com/x").add("password", "pw-one"))).build();
        store.sources.add(def("prom", "prometheus", "https://prom.example.com/base", "", settings));
        SourceRegistry registry = registry(false);

        // another path, the default port written out, the host in capitals: the same backend
        JsonObject samePlace = Json.createObjectBuilder().add("upstreams", Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("url", "HTTPS://A.example.com:443/y").add("password", ManageSources.MASK)))
                .add("note", "not a URL").build();
        assertThat(registry.update("prom", new SourceDraft("prom", "prometheus", Optional.empty(), "", true, samePlace),
                Principal.anonymous())).isInstanceOf(SourceOutcome.Saved.class);
        assertThat(store.sources.getFirst().config().settings().getJsonArray("upstreams").getJsonObject(0).getString("password"))
                .isEqualTo("pw-one");

        JsonObject full = Json.createObjectBuilder().add("upstreams", Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("url", "https://c.example.com").add("password", "pw-c"))).build();
        assertThat(registry.update("prom", new SourceDraft("prom", "prometheus", Optional.empty(), "", true, full),
                Principal.anonymous())).isInstanceOf(SourceOutcome.Saved.class);
        assertThat(store.sources.getFirst().config().settings()).isEqualTo(full);
    }

    @Test
    void aFactoryThatThrowsAnError_failsTheAddedSourceWithTheReason_insteadOfEscapingTheApi() {
        SourceRegistry registry = registry(false);

        for (String error : List.of("assertionError", "stackOverflow")) {
            String name = "buggy-" + error.toLowerCase(java.util.Locale.ROOT);
            SourceOutcome outcome = registry.add(new SourceDraft(name, "prometheus", Optional.of("https://prom.example.com"), "", true,
                    Json.createObjectBuilder().add(error, true).build()), Principal.anonymous());

            String simpleName = error.equals("assertionError") ? "AssertionError" : "StackOverflowError";
            assertThat(outcome).as(error).isInstanceOfSatisfying(SourceOutcome.Saved.class, saved -> {
                assertThat(saved.source().status()).isEqualTo("failed");
                assertThat(saved.source().problem()).isEqualTo("the connector factory failed unexpectedly (" + simpleName + ")");
            });
        }
        // the registry and the file say the same
        assertThat(store.sources).extracting(SourceDefinition::name).containsExactly("buggy-assertionerror", "buggy-stackoverflow");
        assertThat(registry.list(Principal.anonymous())).extracting(SourceView::status).containsExactly("failed", "failed");
        assertThat(registry.with(MetricsCapability.class, Principal.anonymous())).isEmpty();
        assertThat(log.messages(Level.WARN)).filteredOn(line -> line.startsWith("event=source-connect-bug ")).hasSize(2)
                .allSatisfy(line -> assertThat(line).contains(" stage=factory ").doesNotContain("invariant"));
    }

    @Test
    void aContextBuilderThatThrows_failsTheAddedSourceWithTheReason_insteadOfEscapingTheApi() {
        SourceRegistry registry = registry(false);
        JsonObject buggy = Json.createObjectBuilder().add("contextBug", true).build();

        SourceOutcome outcome = registry.add(new SourceDraft("buggy", "prometheus", Optional.of("https://prom.example.com"), "", true,
                buggy), Principal.anonymous());

        assertThat(outcome).isInstanceOfSatisfying(SourceOutcome.Saved.class, saved -> {
            assertThat(saved.source().status()).isEqualTo("failed");
            assertThat(saved.source().problem()).isEqualTo("building the source's HTTP client failed unexpectedly (ClassCastException)");
        });
        // the registry and the file say the same, and no connector was made
        assertThat(store.sources).singleElement().satisfies(d -> assertThat(d.config().settings()).isEqualTo(buggy));
        assertThat(registry.list(Principal.anonymous())).singleElement().satisfies(v -> assertThat(v.status()).isEqualTo("failed"));
        assertThat(created).isEmpty();
        assertThat(log.messages(Level.WARN)).filteredOn(line -> line.startsWith("event=source-connect-bug ")).singleElement()
                .isEqualTo("event=source-connect-bug source=buggy type=\"prometheus\" stage=context error=java.lang.ClassCastException");
        assertThat(log.messages(Level.WARN)).noneSatisfy(line -> assertThat(line).contains("secret-in-message"));
    }

    @Test
    void aContextBuilderThatThrowsOnAChangeOrATest_answersTheReason_andTheFileAndTheRegistryAgree() {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        FakeConnector old = created.getFirst();
        JsonObject buggy = Json.createObjectBuilder().add("contextBug", true).build();

        SourceOutcome changed = registry.update("prom", new SourceDraft("prom", "prometheus", Optional.empty(), "", true, buggy),
                Principal.anonymous());
        SourceCheck check = registry.test(new SourceDraft("probe", "prometheus", Optional.of("https://prom.example.com"), "", true,
                buggy), Principal.anonymous());

        assertThat(changed).isInstanceOfSatisfying(SourceOutcome.Saved.class,
                saved -> assertThat(saved.source().problem()).contains("failed unexpectedly (ClassCastException)"));
        assertThat(store.sources).singleElement().satisfies(d -> assertThat(d.config().settings()).isEqualTo(buggy));
        assertThat(registry.list(Principal.anonymous())).singleElement().satisfies(v -> assertThat(v.status()).isEqualTo("failed"));
        assertThat(old.closed).isTrue();
        assertThat(check.ok()).isFalse();
        assertThat(check.stage()).isEqualTo("connect");
        assertThat(check.message()).isEqualTo("building the source's HTTP client failed unexpectedly (ClassCastException)");
        assertThat(created).containsExactly(old);
    }

    @Test
    void aContextBuilderThatThrowsAtStart_failsThatSourceWithTheSameReason_andTheOthersConnect() {
        store.sources.add(def("buggy", "prometheus", "https://prom.example.com", "",
                Json.createObjectBuilder().add("contextBug", true).build()));
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));

        SourceRegistry registry = registry(false);

        assertThat(registry.list(Principal.anonymous())).extracting(SourceView::status, SourceView::problem).containsExactly(
                tuple("failed", "building the source's HTTP client failed unexpectedly (ClassCastException)"),
                tuple("connected", ""));
        assertThat(log.messages(Level.ERROR)).isEmpty();
    }

    @Test
    void aBugInTheRegistryAtStart_isLoggedUnderTheSameEventAsAPluginsBug_andFailsOnlyThatSource() {
        store.sources.add(def("odd", "catalog-bug", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));

        SourceRegistry registry = registry(false);

        assertThat(registry.list(Principal.anonymous())).extracting(SourceView::status).containsExactly("failed", "connected");
        assertThat(log.messages(Level.ERROR)).singleElement()
                .isEqualTo("event=source-connect-bug source=odd type=\"catalog-bug\" stage=registry error=java.lang.IllegalStateException");
    }

    @Test
    void aResolverThatThrows_failsTheSourceItJudges_onAnAddAChangeAndATest_sayingWhatToDo_andEveryOtherSourceStays() {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        store.sources.add(def("logs", "loki", "https://loki.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        List<FakeConnector> before = List.copyOf(created);

        // before: each escaped the registry, and the management API answered 500 without a word of what broke
        Map<String, String> errors = Map.of("resolver-bug", "IllegalStateException", "resolver-error", "AssertionError");
        errors.forEach((host, error) -> assertThat(registry.add(draft(host, "prometheus", "https://" + host + ".example.com"),
                Principal.anonymous())).as(host).isInstanceOfSatisfying(SourceOutcome.Saved.class, saved -> {
                    assertThat(saved.source().status()).isEqualTo("failed");
                    assertThat(saved.source().problem()).startsWith("the gateway's egress resolver failed (" + error + ")")
                            .contains("not connected", "event=egress-resolver-failed", "save the source again");
                }));
        SourceOutcome changed = registry.update("prom", new SourceDraft("prom", "prometheus", Optional.of("https://denied.example.com"),
                "", true, JsonObject.EMPTY_JSON_OBJECT), Principal.anonymous());
        SourceCheck check = registry.test(draft("probe", "prometheus", "https://denied.example.com"), Principal.anonymous());

        assertThat(changed).isInstanceOfSatisfying(SourceOutcome.Saved.class, saved -> assertThat(saved.source().problem())
                .startsWith("the gateway's egress resolver failed (SecurityException)"));
        assertThat(check.ok()).isFalse();
        assertThat(check.stage()).isEqualTo("connect");
        assertThat(check.message()).startsWith("the gateway's egress resolver failed (SecurityException)");
        // fail closed: no connector was made for a host nobody judged, and the file and the registry agree
        assertThat(created).containsExactlyElementsOf(before);
        assertThat(registry.with(MetricsCapability.class, Principal.anonymous())).isEmpty();
        assertThat(registry.with(LogsCapability.class, Principal.anonymous())).extracting(Bound::source).containsExactly("logs");
        assertThat(store.sources).extracting(SourceDefinition::name).containsExactlyInAnyOrder("logs", "prom", "resolver-bug",
                "resolver-error");
        assertThat(registry.list(Principal.anonymous())).extracting(SourceView::name, SourceView::status).containsExactly(
                tuple("logs", "connected"), tuple("prom", "failed"), tuple("resolver-bug", "failed"), tuple("resolver-error", "failed"));
        // agents read that the check failed and whom to ask, never the resolver's exception
        assertThat(registry.listForAgents(Principal.anonymous())).filteredOn(v -> v.status().equals("failed"))
                .extracting(SourceView::problem).containsOnly(SourceRegistry.RESOLVER_FAILED_FOR_AGENTS);
        assertThat(SourceRegistry.RESOLVER_FAILED_FOR_AGENTS).contains("egress resolver failed", "ask the gateway's operator")
                .doesNotContain("Exception");
        // the operator's log has the exception itself, to find the bug with
        assertThat(log.events()).filteredOn(e -> e.getFormattedMessage().startsWith("event=egress-resolver-failed ")).hasSize(4)
                .allSatisfy(e -> {
                    assertThat(e.getLevel()).isEqualTo(Level.WARN);
                    assertThat(e.getThrowableProxy()).isNotNull();
                })
                .anySatisfy(e -> assertThat(e.getFormattedMessage()).contains("source=resolver-bug", "host=\"resolver-bug.example.com\"",
                        "error=java.lang.IllegalStateException"));
        assertThat(log.messages(Level.ERROR)).isEmpty();
    }

    @Test
    void aResolverThatThrowsAtStart_failsThatSourceAsAResolverFailure_andTheOthersConnect() {
        store.sources.add(def("odd", "prometheus", "https://resolver-bug.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));

        SourceRegistry registry = registry(false);

        assertThat(registry.list(Principal.anonymous())).extracting(SourceView::status).containsExactly("failed", "connected");
        assertThat(registry.find("odd", Principal.anonymous())).get().extracting(SourceView::problem).asString()
                .startsWith("the gateway's egress resolver failed (IllegalStateException)");
        assertThat(created).hasSize(1);
        assertThat(log.messages(Level.WARN)).anySatisfy(line -> assertThat(line).startsWith("event=egress-resolver-failed source=odd "));
        assertThat(log.messages(Level.ERROR)).as("the registry itself has no bug here").isEmpty();
    }

    @Test
    void aSlowDnsLookupOrContextBuilder_holdsNoOtherChange_andTheSlowAddIsMadeWhenItAnswers() throws Exception {
        SourceRegistry registry = registry(false);
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor(); Gates gates = new Gates()) {
            Future<SourceOutcome> slowName = executor.submit(() -> registry.add(draft("slow", "prometheus", "https://slow.example.com"),
                    Principal.anonymous()));
            Future<SourceOutcome> slowContext = executor.submit(() -> registry.add(new SourceDraft("slow-context", "prometheus",
                    Optional.of("https://prom.example.com"), "", true, Json.createObjectBuilder().add("contextBlocks", true).build()),
                    Principal.anonymous()));
            assertThat(resolving.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(building.await(5, TimeUnit.SECONDS)).isTrue();

            // before: each waited for the lock the slow adds held, for as long as the DNS server or the builder took
            assertThat(within(Duration.ofSeconds(5), () -> registry.add(draft("logs", "loki", "https://loki.example.com"),
                    Principal.anonymous()))).isInstanceOf(SourceOutcome.Saved.class);
            assertThat(within(Duration.ofSeconds(5), () -> registry.update("logs", new SourceDraft("logs", "loki", Optional.empty(), "",
                    true, Json.createObjectBuilder().add("step", 2).build()), Principal.anonymous(), SourcePrecondition.NONE)))
                    .isInstanceOf(SourceOutcome.Saved.class);
            assertThat(within(Duration.ofSeconds(5), () -> registry.reconnect("loki"))).hasSize(1);
            assertThat(within(Duration.ofSeconds(5), () -> registry.remove("logs", Principal.anonymous())))
                    .isInstanceOf(SourceOutcome.Removed.class);
            assertThat(registry.find("slow", Principal.anonymous())).as("not shown before it is made").isEmpty();

            released.countDown();
            assertThat(slowName.get(5, TimeUnit.SECONDS)).isInstanceOfSatisfying(SourceOutcome.Saved.class,
                    saved -> assertThat(saved.source().status()).isEqualTo("connected"));
            assertThat(slowContext.get(5, TimeUnit.SECONDS)).isInstanceOfSatisfying(SourceOutcome.Saved.class,
                    saved -> assertThat(saved.source().status()).isEqualTo("connected"));
        }
        assertThat(store.sources).extracting(SourceDefinition::name).containsExactlyInAnyOrder("slow", "slow-context");
        assertThat(registry.with(MetricsCapability.class, Principal.anonymous())).extracting(Bound::source)
                .containsExactly("slow", "slow-context");
    }

    @Test
    void twoAddsOfOneName_thatOverlapWhileConnecting_leaveOneSource_andTheLosersConnectorClosed() throws Exception {
        SourceRegistry registry = registry(false);
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor(); Gates gates = new Gates()) {
            Future<SourceOutcome> first = executor.submit(() -> registry.add(draft("dup", "prometheus", "https://slow.example.com"),
                    Principal.anonymous()));
            assertThat(resolving.await(5, TimeUnit.SECONDS)).isTrue();

            SourceOutcome second = within(Duration.ofSeconds(5), () -> registry.add(draft("dup", "prometheus",
                    "https://prom.example.com"), Principal.anonymous()));
            released.countDown();

            assertThat(second).isInstanceOf(SourceOutcome.Saved.class);
            assertThat(first.get(5, TimeUnit.SECONDS)).isInstanceOfSatisfying(SourceOutcome.Refused.class,
                    r -> assertThat(r.code()).isEqualTo(SourceOutcome.EXISTS));
        }
        assertThat(store.sources).singleElement().satisfies(d -> assertThat(d.config().url()).isEqualTo("https://prom.example.com"));
        assertThat(registry.find("dup", Principal.anonymous())).get().extracting(SourceView::endpoint)
                .isEqualTo("https://prom.example.com");
        Bound<MetricsCapability> served = registry.with(MetricsCapability.class, Principal.anonymous()).getFirst();
        assertThat(created).filteredOn(c -> !c.closed).singleElement().isSameAs(served.connector());
    }

    @Test
    void aChangeOrRemovalMadeWhileAnotherChangeOfTheSameSourceConnects_isNeitherLostNorOverwrittenOnAStaleBasis() throws Exception {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        String read = registry.find("prom", Principal.anonymous()).orElseThrow().version();
        SourceDraft toSlow = new SourceDraft("prom", "prometheus", Optional.of("https://slow.example.com"), "", true,
                JsonObject.EMPTY_JSON_OBJECT);
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor(); Gates gates = new Gates()) {
            Future<SourceOutcome> onRead = executor.submit(() -> registry.update("prom", toSlow, Principal.anonymous(),
                    SourcePrecondition.onVersions(Optional.of(Set.of(read)))));
            assertThat(resolving.await(5, TimeUnit.SECONDS)).isTrue();

            SourceOutcome other = within(Duration.ofSeconds(5), () -> registry.update("prom", new SourceDraft("prom", "prometheus",
                    Optional.empty(), "", true, Json.createObjectBuilder().add("step", "other").build()), Principal.anonymous(),
                    SourcePrecondition.NONE));
            released.countDown();

            assertThat(other).isInstanceOf(SourceOutcome.Saved.class);
            assertThat(onRead.get(5, TimeUnit.SECONDS)).as("made on a version no longer stored").isInstanceOf(SourceOutcome.Stale.class);
            assertThat(store.sources).singleElement().satisfies(d -> {
                assertThat(d.config().url()).isEqualTo("https://prom.example.com");
                assertThat(d.config().settings().getString("step")).isEqualTo("other");
            });

            // a change that asked for no version, overtaken by a removal, finds no source any more
            Future<SourceOutcome> anyVersion = executor.submit(() -> registry.update("prom", new SourceDraft("prom", "prometheus",
                    Optional.of("https://slow-too.example.com"), "", true, JsonObject.EMPTY_JSON_OBJECT), Principal.anonymous(),
                    SourcePrecondition.NONE));
            assertThat(resolvingToo.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(within(Duration.ofSeconds(5), () -> registry.remove("prom", Principal.anonymous())))
                    .isInstanceOf(SourceOutcome.Removed.class);
            releasedToo.countDown();
            assertThat(anyVersion.get(5, TimeUnit.SECONDS)).isInstanceOfSatisfying(SourceOutcome.Refused.class,
                    r -> assertThat(r.code()).isEqualTo(SourceOutcome.NOT_FOUND));
        }
        assertThat(store.sources).isEmpty();
        assertThat(registry.list(Principal.anonymous())).isEmpty();
        assertThat(created).allSatisfy(c -> assertThat(c.closed).isTrue());
    }

    @Test
    void aRegistryClosedWhileAnAddConnects_closesWhatTheAddMade_andRefusesIt() throws Exception {
        SourceRegistry registry = registry(false);
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor(); Gates gates = new Gates()) {
            Future<SourceOutcome> add = executor.submit(() -> registry.add(draft("slow", "prometheus", "https://slow.example.com"),
                    Principal.anonymous()));
            assertThat(resolving.await(5, TimeUnit.SECONDS)).isTrue();

            within(Duration.ofSeconds(5), () -> {
                registry.close();
                return null;
            });
            released.countDown();

            assertThatThrownBy(() -> add.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed");
        }
        assertThat(store.sources).isEmpty();
        assertThat(created).allSatisfy(c -> assertThat(c.closed).isTrue());
    }

    @Test
    void aFactoryThatThrowsAnErrorOnAChange_leavesTheFileAndTheRegistryAgreeing_andTheOldConnectorClosedOnce() {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        FakeConnector old = created.getFirst();
        JsonObject buggy = Json.createObjectBuilder().add("assertionError", true).build();

        SourceOutcome outcome = registry.update("prom", new SourceDraft("prom", "prometheus", Optional.empty(), "", true, buggy),
                Principal.anonymous());

        assertThat(outcome).isInstanceOfSatisfying(SourceOutcome.Saved.class, saved -> {
            assertThat(saved.source().status()).isEqualTo("failed");
            assertThat(saved.source().problem()).contains("failed unexpectedly (AssertionError)");
        });
        assertThat(store.saves).isEqualTo(1);
        assertThat(store.sources).singleElement().satisfies(d -> assertThat(d.config().settings()).isEqualTo(buggy));
        assertThat(registry.list(Principal.anonymous())).singleElement().satisfies(v -> assertThat(v.status()).isEqualTo("failed"));
        assertThat(old.closed).isTrue();
        assertThat(created).containsExactly(old);

        // settings the plugin can take put the source back
        assertThat(registry.update("prom", new SourceDraft("prom", "prometheus", Optional.empty(), "", true,
                JsonObject.EMPTY_JSON_OBJECT), Principal.anonymous())).isInstanceOfSatisfying(SourceOutcome.Saved.class,
                        saved -> assertThat(saved.source().status()).isEqualTo("connected"));
    }

    @Test
    void aReplacedConnectorWhoseCloseThrowsAnError_doesNotUndoOrFailTheChangeThatWasSaved() {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "",
                Json.createObjectBuilder().add("closeError", true).build()));
        SourceRegistry registry = registry(false);
        FakeConnector old = created.getFirst();

        SourceOutcome changed = registry.update("prom", new SourceDraft("prom", "prometheus", Optional.empty(), "", true,
                JsonObject.EMPTY_JSON_OBJECT), Principal.anonymous());

        assertThat(changed).isInstanceOfSatisfying(SourceOutcome.Saved.class, s -> assertThat(s.source().status()).isEqualTo("connected"));
        assertThat(old.closed).isTrue();
        assertThat(store.sources.getFirst().config().settings()).isEqualTo(JsonObject.EMPTY_JSON_OBJECT);
        assertThat(registry.with(MetricsCapability.class, Principal.anonymous())).singleElement()
                .satisfies(b -> assertThat(b.connector()).isSameAs(created.get(1)));
        assertThat(log.messages(Level.WARN)).anySatisfy(line -> assertThat(line).startsWith("event=connector-close-failed source=prom "));
    }

    @Test
    void aTestWhosePluginThrowsAnError_answersWhichStageFailed_andClosesWhatItMade() {
        SourceRegistry registry = registry(false);

        SourceCheck factory = registry.test(new SourceDraft("probe", "prometheus", Optional.of("https://prom.example.com"), "", true,
                Json.createObjectBuilder().add("stackOverflow", true).build()), Principal.anonymous());
        SourceCheck health = registry.test(new SourceDraft("probe", "prometheus", Optional.of("https://prom.example.com"), "", true,
                Json.createObjectBuilder().add("healthError", true).add("closeError", true).build()), Principal.anonymous());

        assertThat(factory.ok()).isFalse();
        assertThat(factory.stage()).isEqualTo("connect");
        assertThat(factory.message()).isEqualTo("the connector factory failed unexpectedly (StackOverflowError)");
        assertThat(health.ok()).isFalse();
        assertThat(health.stage()).isEqualTo("health");
        assertThat(health.message()).isEqualTo("the connector failed unexpectedly (AssertionError)");
        assertThat(created).singleElement().satisfies(c -> assertThat(c.closed).isTrue());
        assertThat(store.saves).isZero();
        assertThat(registry.list(Principal.anonymous())).isEmpty();
    }

    @Test
    void aMaskSentWithAUrlOfTheSameOrigin_keepsTheStoredSecret_whateverThePathCaseOrDefaultPort() {
        JsonObject settings = Json.createObjectBuilder()
                .add("auth", Json.createObjectBuilder().add("type", "bearer").add("token", "stored-token")).build();
        store.sources.add(def("prom", "prometheus", "https://prom.example.com/base", "", settings));
        SourceRegistry registry = registry(false);
        JsonObject shown = registry.list(Principal.anonymous()).get(0).settings();

        for (String same : List.of("https://prom.example.com/other?x=1", "HTTPS://PROM.example.com:443/base")) {
            assertThat(registry.update("prom", new SourceDraft("prom", "prometheus", Optional.of(same), "", true, shown),
                    Principal.anonymous())).as(same).isInstanceOf(SourceOutcome.Saved.class);
            assertThat(store.sources.get(0).config().settings()).isEqualTo(settings);
        }
        assertThat(store.sources.get(0).config().url()).isEqualTo("HTTPS://PROM.example.com:443/base");
    }

    @Test
    void aNewSourcesSecretThatMerelyContainsTheMask_isSaved_whileAValueThatIsTheMask_isRefusedNamingIt() {
        SourceRegistry registry = registry(false);
        JsonObject containing = Json.createObjectBuilder()
                .add("auth", Json.createObjectBuilder().add("type", "basic").add("username", "u").add("password", "a********b"))
                .build();
        assertThat(registry.add(new SourceDraft("prom", "prometheus", Optional.of("https://prom.example.com"), "", true, containing),
                Principal.anonymous())).isInstanceOf(SourceOutcome.Saved.class);
        assertThat(store.sources.get(0).config().settings()).isEqualTo(containing);

        JsonObject masked = Json.createObjectBuilder()
                .add("auth", Json.createObjectBuilder().add("type", "basic").add("username", "u").add("password", ManageSources.MASK))
                .build();
        assertThat(registry.add(new SourceDraft("logs", "loki", Optional.of("https://loki.example.com"), "", true, masked),
                Principal.anonymous())).isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> {
                    assertThat(r.code()).isEqualTo(SourceOutcome.INVALID);
                    assertThat(r.reason()).contains("settings auth.password are masked").contains("send the secrets themselves");
                });
        assertThat(store.sources).extracting(SourceDefinition::name).containsExactly("prom");
    }

    @Test
    void aBlankUrlInAChange_isRefusedNamingTheSourceAndTheField_andTheStoredSourceKeepsServing() {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com/base", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        FakeConnector serving = created.getFirst();

        for (String blank : List.of("", "   ", "\n\t")) {
            SourceOutcome outcome = registry.update("prom", new SourceDraft("prom", "prometheus", Optional.of(blank), "", true,
                    JsonObject.EMPTY_JSON_OBJECT), Principal.anonymous());

            assertThat(outcome).as("url %s", blank.length()).isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> {
                assertThat(r.code()).isEqualTo(SourceOutcome.INVALID);
                assertThat(r.reason()).contains("source 'prom'", "'url' is blank", "leave 'url' out to keep the stored URL",
                        "http://", "nothing was changed");
            });
        }
        assertThat(store.saves).isZero();
        assertThat(store.sources.getFirst().config().url()).isEqualTo("https://prom.example.com/base");
        assertThat(created).containsExactly(serving);
        assertThat(serving.closed).isFalse();
        assertThat(registry.with(MetricsCapability.class, Principal.anonymous())).singleElement()
                .satisfies(bound -> assertThat(bound.connector()).isSameAs(serving));
    }

    @Test
    void aBlankUrlInANewSourceOrATest_isRefusedNamingTheSourceAndTheField_beforeAnyConnectorIsMade() {
        SourceRegistry registry = registry(false);

        SourceOutcome added = registry.add(draft("edge", "prometheus", "  "), Principal.anonymous());
        SourceCheck tested = registry.test(draft("edge", "prometheus", ""), Principal.anonymous());

        assertThat(added).isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> {
            assertThat(r.code()).isEqualTo(SourceOutcome.INVALID);
            assertThat(r.reason()).contains("source 'edge'", "'url' is blank", "http:// or https://", "leave 'url' out");
        });
        assertThat(tested.ok()).isFalse();
        assertThat(tested.stage()).isEqualTo("validation");
        assertThat(tested.message()).contains("source 'edge'", "'url' is blank");
        assertThat(store.saves).isZero();
        assertThat(created).isEmpty();
    }

    @Test
    void aUrlWithSpacesOrALineBreakAroundIt_isStoredWithout() {
        SourceRegistry registry = registry(false);

        SourceOutcome added = registry.add(draft("prom", "prometheus", "  https://prom.example.com\n"), Principal.anonymous());
        SourceOutcome changed = registry.update("prom", new SourceDraft("prom", "prometheus", Optional.of("\thttps://prom.example.com/v2 "),
                "", true, JsonObject.EMPTY_JSON_OBJECT), Principal.anonymous());

        assertThat(added).isInstanceOf(SourceOutcome.Saved.class);
        assertThat(changed).isInstanceOf(SourceOutcome.Saved.class);
        assertThat(store.sources.getFirst().config().url()).isEqualTo("https://prom.example.com/v2");
        assertThat(created).extracting(c -> c.source().url()).containsExactly("https://prom.example.com", "https://prom.example.com/v2");
    }

    @Test
    void aSourcesVersionIsTheSameAtEveryRead_andChangesWhenAnotherOperatorChangesASecretBehindTheMask() {
        JsonObject settings = Json.createObjectBuilder().add("auth", Json.createObjectBuilder().add("type", "bearer").add("token", "t0ken"))
                .build();
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", settings));
        SourceRegistry registry = registry(false);
        SourceView first = registry.find("prom", Principal.anonymous()).orElseThrow();
        assertThat(first.version()).matches("[0-9a-f]{32}").doesNotContain("t0ken");
        assertThat(registry.find("prom", Principal.anonymous()).orElseThrow().version()).isEqualTo(first.version());
        assertThat(registry.list(Principal.anonymous()).get(0).version()).isEqualTo(first.version());

        // the masked settings sent back as shown: the definition is what it was, so is its version
        SourceOutcome unchanged = registry.update("prom", new SourceDraft("prom", "prometheus", Optional.empty(), "", true,
                first.settings()), Principal.anonymous());
        assertThat(unchanged).isInstanceOfSatisfying(SourceOutcome.Saved.class,
                saved -> assertThat(saved.source().version()).isEqualTo(first.version()));

        JsonObject newSecret = Json.createObjectBuilder().add("auth", Json.createObjectBuilder().add("type", "bearer").add("token", "n3w"))
                .build();
        registry.update("prom", new SourceDraft("prom", "prometheus", Optional.empty(), "", true, newSecret), Principal.anonymous());
        SourceView after = registry.find("prom", Principal.anonymous()).orElseThrow();
        assertThat(after.settings()).as("what readers see did not change").isEqualTo(first.settings());
        assertThat(after.version()).isNotEqualTo(first.version());
    }

    @Test
    void readingAnUnchangedSourceAgain_reusesItsVersion_andAnUpdateMakesANewOneThatIsReusedInTurn() {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        String first = registry.find("prom", Principal.anonymous()).orElseThrow().version();
        assertThat(registry.find("prom", Principal.anonymous()).orElseThrow().version()).as("not computed again").isSameAs(first);

        registry.update("prom", new SourceDraft("prom", "prometheus", Optional.of("https://prom2.example.com"), "", true,
                JsonObject.EMPTY_JSON_OBJECT), Principal.anonymous());
        String updated = registry.find("prom", Principal.anonymous()).orElseThrow().version();
        assertThat(updated).matches("[0-9a-f]{32}").isNotEqualTo(first);
        assertThat(registry.find("prom", Principal.anonymous()).orElseThrow().version()).isSameAs(updated);
        assertThat(registry.list(Principal.anonymous()).get(0).version()).isSameAs(updated);
    }

    @Test
    void aChangeMadeOnAVersionNoLongerStored_isStale_andChangesNothing() {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        String read = registry.find("prom", Principal.anonymous()).orElseThrow().version();
        SourcePrecondition onRead = SourcePrecondition.onVersions(Optional.of(Set.of(read)));

        SourceOutcome first = registry.update("prom", new SourceDraft("prom", "prometheus", Optional.empty(), "", false,
                JsonObject.EMPTY_JSON_OBJECT), Principal.anonymous(), onRead);
        assertThat(first).isInstanceOf(SourceOutcome.Saved.class);
        String stored = registry.find("prom", Principal.anonymous()).orElseThrow().version();
        int saves = store.saves;

        SourceOutcome second = registry.update("prom", new SourceDraft("prom", "prometheus", Optional.of("https://loki.example.com"),
                "", true, JsonObject.EMPTY_JSON_OBJECT), Principal.anonymous(), onRead);
        assertThat(second).isEqualTo(new SourceOutcome.Stale(stored));
        assertThat(registry.remove("prom", Principal.anonymous(), Optional.of(Set.of(read)))).isEqualTo(new SourceOutcome.Stale(stored));
        assertThat(store.saves).isEqualTo(saves);
        assertThat(store.sources.get(0).config().url()).isEqualTo("https://prom.example.com");
        assertThat(store.sources.get(0).enabled()).isFalse();
        assertThat(log.messages(Level.INFO)).anyMatch(line -> line.startsWith("event=source-change-stale action=update source=prom"));

        assertThat(registry.remove("prom", Principal.anonymous(), Optional.of(Set.of(stored))))
                .isEqualTo(new SourceOutcome.Removed("prom"));
        // a source that is gone is not found, whatever version the caller holds
        assertThat(registry.update("prom", draft("prom", "prometheus", "https://prom.example.com"), Principal.anonymous(),
                SourcePrecondition.onVersions(Optional.of(Set.of(stored))))).isInstanceOfSatisfying(SourceOutcome.Refused.class,
                r -> assertThat(r.code()).isEqualTo(SourceOutcome.NOT_FOUND));
        assertThat(registry.remove("prom", Principal.anonymous(), Optional.of(Set.of(stored))))
                .isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> assertThat(r.code()).isEqualTo(SourceOutcome.NOT_FOUND));
    }

    @Test
    void ofTwoChangesSentAtOnceOnTheSameVersion_exactlyOneIsMade() throws Exception {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        SourcePrecondition onRead = SourcePrecondition.onVersions(
                Optional.of(Set.of(registry.find("prom", Principal.anonymous()).orElseThrow().version())));
        java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(2);
        java.util.concurrent.Callable<SourceOutcome> change = () -> {
            together.await();
            return registry.update("prom", new SourceDraft("prom", "prometheus", Optional.empty(), "", true,
                    Json.createObjectBuilder().add("step", Thread.currentThread().getName()).build()), Principal.anonymous(), onRead);
        };
        try (var executor = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            var one = executor.submit(change);
            var other = executor.submit(change);
            List<SourceOutcome> outcomes = List.of(one.get(), other.get());
            assertThat(outcomes).filteredOn(SourceOutcome.Saved.class::isInstance).hasSize(1);
            assertThat(outcomes).filteredOn(SourceOutcome.Stale.class::isInstance).hasSize(1);
        }
    }

    @Test
    void whatAPreconditionFindsWrongWithTheStoredSource_refusesTheChange() {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        List<SourceView> judged = new ArrayList<>();
        SourcePrecondition endpointMustBeElsewhere = new SourcePrecondition(Optional.empty(), stored -> {
            judged.add(stored);
            return List.of("'endpoint' is read-only");
        });

        SourceOutcome outcome = registry.update("prom", draft("prom", "prometheus", "https://prom.example.com"), Principal.anonymous(),
                endpointMustBeElsewhere);

        assertThat(outcome).isEqualTo(new SourceOutcome.Refused(SourceOutcome.INVALID, "'endpoint' is read-only"));
        assertThat(judged).extracting(SourceView::endpoint).containsExactly("https://prom.example.com");
        assertThat(store.saves).isZero();
    }

    @Test
    void theApiCannotNameFilesOnTheGatewayHost() {
        SourceRegistry registry = registry(false);
        JsonObject settings = Json.createObjectBuilder().add("kubeconfig", "/root/.kube/config").build();
        SourceOutcome outcome = registry.add(new SourceDraft("k", "prometheus", Optional.of("https://prom.example.com"), "", true,
                settings), Principal.anonymous());
        assertThat(outcome).isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> assertThat(r.reason()).contains("kubeconfig"));
    }

    @Test
    void theApiCannotNameFilesOnTheGatewayHost_insideListsEither() {
        // a plugin's connector may read a list of upstreams, each with its own CA file
        SourceRegistry registry = registry(false);
        JsonObject inAList = Json.createObjectBuilder().add("upstreams", Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("url", "https://a.example.com"))
                .add(Json.createObjectBuilder().add("caFile", "/etc/shadow"))).build();
        JsonObject aListOfFiles = Json.createObjectBuilder().add("tls", Json.createObjectBuilder()
                .add("caFile", Json.createArrayBuilder().add("/etc/omcp/ca.pem").add("/root/.ssh/id_rsa"))).build();
        assertThat(registry.add(new SourceDraft("k", "prometheus", Optional.of("https://prom.example.com"), "", true, inAList),
                Principal.anonymous())).isInstanceOfSatisfying(SourceOutcome.Refused.class,
                        r -> assertThat(r.reason()).contains("upstreams[1].caFile"));
        assertThat(registry.add(new SourceDraft("k", "prometheus", Optional.of("https://prom.example.com"), "", true, aListOfFiles),
                Principal.anonymous())).isInstanceOfSatisfying(SourceOutcome.Refused.class,
                        r -> assertThat(r.reason()).contains("tls.caFile[0]", "tls.caFile[1]"));
        assertThat(store.sources).isEmpty();
    }

    @Test
    void unusableTlsSettingsAreABadRequestNotASavedFailure() {
        SourceRegistry registry = registry(false);
        JsonObject settings = Json.createObjectBuilder().add("tls", Json.createObjectBuilder().add("ca", "not a pem")).build();
        SourceOutcome outcome = registry.add(new SourceDraft("p", "prometheus", Optional.of("https://prom.example.com"), "", true,
                settings), Principal.anonymous());
        assertThat(outcome).isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> {
            assertThat(r.code()).isEqualTo(SourceOutcome.INVALID);
            assertThat(r.reason()).contains("tls.ca");
        });
        assertThat(store.saves).isZero();
    }

    @Test
    void settingsTheFactoryRefuses_areABadRequestFromTheApi_butAFileEntryIsKeptAsFailed() {
        JsonObject settings = Json.createObjectBuilder().add("badOption", 5).build();
        store.sources.add(def("fromfile", "prometheus", "https://prom.example.com", "", settings));
        SourceRegistry registry = registry(false);

        SourceOutcome outcome = registry.add(new SourceDraft("p", "prometheus", Optional.of("https://prom.example.com"), "", true,
                settings), Principal.anonymous());

        assertThat(outcome).isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> {
            assertThat(r.code()).isEqualTo(SourceOutcome.INVALID);
            assertThat(r.reason()).isEqualTo("badOption must be a list of label names");
        });
        assertThat(store.saves).isZero();
        assertThat(registry.list(Principal.anonymous())).singleElement().satisfies(v -> {
            assertThat(v.name()).isEqualTo("fromfile");
            assertThat(v.status()).isEqualTo("failed");
            assertThat(v.problem()).contains("badOption");
        });
        // a change to the file's entry with the same settings is refused too, and the entry stays
        SourceOutcome update = registry.update("fromfile", new SourceDraft("fromfile", "prometheus", Optional.empty(), "", true,
                settings), Principal.anonymous());
        assertThat(update).isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> assertThat(r.code()).isEqualTo(SourceOutcome.INVALID));
        assertThat(store.saves).isZero();
    }

    @Test
    void settingsAgainstTheManifestsConfigSchema_areCheckedBeforeTheFactory_withoutQuotingValues() {
        JsonObject schema = Json.createObjectBuilder().add("type", "object")
                .add("properties", Json.createObjectBuilder()
                        .add("url", Json.createObjectBuilder().add("type", "string").add("pattern", "^https://"))
                        .add("fetchConcurrency", Json.createObjectBuilder().add("type", "integer").add("maximum", 32))
                        .add("tenantHeader", Json.createObjectBuilder().add("type", "string")))
                .add("required", Json.createArrayBuilder().add("tenantHeader"))
                .add("additionalProperties", false).build();
        List<SourceConfig> seen = new CopyOnWriteArrayList<>();
        ConnectorFactory factory = new ConnectorFactory() {
            @Override
            public ConnectorManifest manifest() {
                return new ConnectorManifest(1, "traces", "traces", "1.0.0", "test", List.of(), new Capabilities(true, false, true, false, false),
                        schema, Optional.empty(), Optional.empty(), List.of(), Optional.empty(), Optional.empty());
            }

            @Override
            public CompletionStage<Connector> create(SourceConfig source, ConnectorContext context) {
                seen.add(source);
                return CompletableFuture.completedFuture(track(new MetricsOnly(source)));
            }
        };
        types.put("traces", new ConnectorType(factory, factory.manifest(), ConnectorType.Origin.FILESYSTEM));
        store.sources.add(def("fromfile", "traces", "https://prom.example.com", "",
                Json.createObjectBuilder().add("fetchConcurrency", 500).add("tenantHeader", "team-a").build()));
        SourceRegistry registry = registry(false);

        // the transport keys the gateway reads itself need not be in a closed schema
        JsonObject secretSettings = Json.createObjectBuilder().add("fetchConcurrency", "s3cr3t-value")
                .add("auth", Json.createObjectBuilder().add("type", "bearer").add("token", "t0ken")).build();
        SourceOutcome outcome = registry.add(new SourceDraft("api", "traces", Optional.of("https://prom.example.com"), "", true,
                secretSettings), Principal.anonymous());
        assertThat(outcome).isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> {
            assertThat(r.code()).isEqualTo(SourceOutcome.INVALID);
            assertThat(r.reason()).startsWith("the source does not match the configSchema of the traces connector's manifest: ")
                    .contains("source.fetchConcurrency: must be an integer, got a string", "source.tenantHeader: is required")
                    .doesNotContain("s3cr3t", "t0ken", "auth");
        });
        assertThat(registry.list(Principal.anonymous())).singleElement().satisfies(v -> {
            assertThat(v.status()).isEqualTo("failed");
            assertThat(v.problem()).contains("source.fetchConcurrency: must be <= 32");
        });
        assertThat(seen).as("the factory never saw a source its schema refuses").isEmpty();
        assertThat(store.saves).isZero();

        SourceOutcome fine = registry.add(new SourceDraft("ok", "traces", Optional.of("https://prom.example.com"), "", true,
                Json.createObjectBuilder().add("fetchConcurrency", 8).add("tenantHeader", "team-a")
                        .add("auth", Json.createObjectBuilder().add("type", "bearer").add("token", "t0ken")).build()), Principal.anonymous());
        assertThat(fine).isNotInstanceOf(SourceOutcome.Refused.class);
        assertThat(seen).singleElement().satisfies(source -> assertThat(source.name()).isEqualTo("ok"));
    }

    @Test
    void changesBeforeStart_areRefused_andTheStoreKeepsTheSourcesItWasNotAskedForYet() {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = unstarted(false);

        assertThatThrownBy(() -> registry.add(draft("logs", "loki", "https://loki.example.com"), Principal.anonymous()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("call start() before");
        assertThatThrownBy(() -> registry.update("prom", draft("prom", "prometheus", "https://prom.example.com"), Principal.anonymous()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("not started");
        assertThatThrownBy(() -> registry.remove("prom", Principal.anonymous()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("not started");
        assertThat(store.saves).isZero();
        assertThat(created).isEmpty();

        registry.start();
        assertThat(registry.list(Principal.anonymous())).extracting(SourceView::name).containsExactly("prom");
    }

    @Test
    void readsBeforeStart_serveNothing_warnOnceWithWhatToDo_andSayTheRegistryIsNotStarted() {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = unstarted(false);

        assertThat(registry.isStarted()).isFalse();
        assertThat(registry.with(MetricsCapability.class, Principal.anonymous())).isEmpty();
        assertThat(registry.list(Principal.anonymous())).isEmpty();
        // a tool that finds no source because nobody called start() is the embedder's mistake: say it once, not per call
        assertThat(log.messages(Level.WARN)).singleElement().asString()
                .contains("event=sources-read-before-start").contains("call SourceRegistry.start()");

        registry.start();
        assertThat(registry.isStarted()).isTrue();
        assertThat(registry.list(Principal.anonymous())).extracting(SourceView::name).containsExactly("prom");
        registry.close();
        assertThat(registry.isStarted()).isTrue();
        assertThat(log.messages(Level.WARN)).hasSize(1);
    }

    @Test
    void aSecondStart_isRefused_andConnectsNothingMore() {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);

        assertThatThrownBy(registry::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("started already");
        assertThat(created).hasSize(1);
        assertThat(created.get(0).closed).isFalse();
    }

    @Test
    void afterClose_everyConnectorIsClosed_andChangesAndAStartAreRefused() {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        registry.close();

        assertThat(created).singleElement().satisfies(c -> assertThat(c.closed).isTrue());
        assertThat(registry.list(Principal.anonymous())).isEmpty();
        assertThatThrownBy(() -> registry.add(draft("logs", "loki", "https://loki.example.com"), Principal.anonymous()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(registry::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThat(created).hasSize(1);
        registry.close(); // closing again does nothing
    }

    @Test
    void aReplacedConnector_isClosedOnlyAfterTheCallInFlightOnItEnds_andTheChangeDoesNotWaitForThatCall() throws Exception {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        List<Bound<MetricsCapability>> bound = registry.with(MetricsCapability.class, Principal.anonymous());
        FakeConnector old = created.get(0);
        CountDownLatch inCall = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        AtomicBoolean closedUnderTheCall = new AtomicBoolean();
        try (ExecutorService caller = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<List<FanOut.Outcome<String>>> call = caller.submit(() -> FanOut.call(bound, metrics -> {
                inCall.countDown();
                awaitQuietly(answer);
                // the JDK client's close() fails every request sent after it and waits for those in flight
                closedUnderTheCall.set(old.closed);
                return "answered";
            }, Duration.ofSeconds(30), Duration.ofSeconds(30)));
            try {
                assertThat(inCall.await(10, TimeUnit.SECONDS)).isTrue();

                SourceOutcome outcome = registry.update("prom", new SourceDraft("prom", "prometheus", Optional.empty(), "", true,
                        Json.createObjectBuilder().add("step", "30s").build()), Principal.anonymous());

                assertThat(outcome).isInstanceOf(SourceOutcome.Saved.class);
                assertThat(old.closed).as("closed while a call still runs on it").isFalse();
            } finally {
                answer.countDown();
            }
            assertThat(call.get(10, TimeUnit.SECONDS)).singleElement().isInstanceOf(FanOut.Outcome.Answered.class);
        }
        assertThat(closedUnderTheCall).isFalse();
        assertThat(old.closing.await(10, TimeUnit.SECONDS)).as("closed once the call ended").isTrue();
    }

    @Test
    void aCallStartedOnARemovedSourcesConnector_failsSayingSo_insteadOfUsingTheClosedConnector() {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        List<Bound<MetricsCapability>> bound = registry.with(MetricsCapability.class, Principal.anonymous());
        assertThat(registry.remove("prom", Principal.anonymous())).isEqualTo(new SourceOutcome.Removed("prom"));
        AtomicBoolean called = new AtomicBoolean();

        List<FanOut.Outcome<String>> outcomes = FanOut.call(bound, metrics -> {
            called.set(true);
            return "answered by a closed connector";
        }, Duration.ofSeconds(5), Duration.ofSeconds(5));

        assertThat(called).isFalse();
        assertThat(outcomes).singleElement().isInstanceOfSatisfying(FanOut.Outcome.Failed.class, f -> {
            assertThat(f.kind()).isEqualTo(ConnectorException.Kind.UNAVAILABLE);
            assertThat(f.message()).contains("'prom' was changed or removed").contains("call the tool again");
        });
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void removeClosesTheConnector() {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        assertThat(registry.remove("prom", Principal.anonymous())).isEqualTo(new SourceOutcome.Removed("prom"));
        assertThat(created.get(0).closed).isTrue();
        assertThat(store.sources).isEmpty();
        assertThat(registry.remove("prom", Principal.anonymous())).isInstanceOfSatisfying(SourceOutcome.Refused.class,
                r -> assertThat(r.code()).isEqualTo(SourceOutcome.NOT_FOUND));
    }

    @Test
    void theRemovedLine_quotesTheCallersId_soASpaceOrQuoteInItCannotAddAField() {
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        registry.remove("prom", Principal.apiKey("ci outcome=\"x\" actor=admin", ""));

        assertThat(log.messages(Level.INFO)).filteredOn(line -> line.startsWith("event=source-removed ")).singleElement()
                .isEqualTo("event=source-removed source=prom actor=\"key:ci outcome=\\\"x\\\" actor=admin\"");
    }

    @Test
    void aFactoryThatDoesNotCompleteInTimeFailsTheSourceAndItsLateConnectorIsClosed() {
        store.sources.add(def("slow", "prometheus", "https://prom.example.com",
                "", Json.createObjectBuilder().add("never", true).build()));
        store.sources.add(def("broken", "prometheus", "https://prom.example.com",
                "", Json.createObjectBuilder().add("failWith", "backend said no").build()));
        SourceRegistry registry = registry(false);
        List<SourceView> views = registry.list(Principal.anonymous());
        assertThat(views).extracting(SourceView::status).containsExactly("failed", "failed");
        assertThat(views.get(0).problem()).isEqualTo("backend said no");
        assertThat(views.get(1).problem()).contains("did not start within");
        lateCompletions.forEach(Runnable::run);
        assertThat(created).singleElement().satisfies(c -> assertThat(c.closed).isTrue());
    }

    @Test
    void aLateConnectorWhoseCloseThrows_isLoggedAsAnyFailedClose() {
        store.sources.add(def("slow", "prometheus", "https://prom.example.com", "",
                Json.createObjectBuilder().add("never", true).add("closeError", true).build()));
        SourceRegistry registry = registry(false);
        assertThat(registry.list(Principal.anonymous())).singleElement().satisfies(v -> assertThat(v.status()).isEqualTo("failed"));

        lateCompletions.forEach(Runnable::run);

        assertThat(created).singleElement().satisfies(c -> assertThat(c.closed).isTrue());
        assertThat(log.messages(Level.WARN)).filteredOn(line -> line.startsWith("event=connector-close-failed ")).singleElement()
                .isEqualTo("event=connector-close-failed source=slow error=java.lang.AssertionError");
    }

    @Test
    void aFactoryWhoseCreateNeverReturns_failsItsSource_withoutHangingTheStartOrHoldingTheRegistry() throws Exception {
        JsonObject blocks = Json.createObjectBuilder().add("createBlocks", true).build();
        store.sources.add(def("stuck", "prometheus", "https://prom.example.com", "", blocks));
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));

        SourceRegistry registry = within(Duration.ofSeconds(5), () -> registry(false));
        assertThat(registry.find("stuck", Principal.anonymous())).get().satisfies(v -> {
            assertThat(v.status()).isEqualTo("failed");
            assertThat(v.problem()).startsWith("the connector factory did not return within 200ms");
        });
        assertThat(registry.find("prom", Principal.anonymous())).get().extracting(SourceView::status).isEqualTo("connected");
        assertThat(log.messages(Level.WARN)).anySatisfy(line -> assertThat(line).startsWith("event=connector-factory-hung source=stuck "));

        // an API add of such a source answers too, and the lock it held is free for the next change
        SourceOutcome added = within(Duration.ofSeconds(5), () -> registry.add(new SourceDraft("stuck2", "prometheus",
                Optional.of("https://prom.example.com"), "", true, blocks), Principal.anonymous()));
        assertThat(added).isInstanceOfSatisfying(SourceOutcome.Saved.class, s -> assertThat(s.source().status()).isEqualTo("failed"));
        assertThat(within(Duration.ofSeconds(5), () -> registry.add(draft("logs", "loki", "https://loki.example.com"),
                Principal.anonymous()))).isInstanceOf(SourceOutcome.Saved.class);
        SourceCheck tested = within(Duration.ofSeconds(5), () -> registry.test(new SourceDraft("probe", "prometheus",
                Optional.of("https://prom.example.com"), "", true, blocks), Principal.anonymous()));
        assertThat(tested.stage()).isEqualTo("connect");
        assertThat(tested.message()).startsWith("the connector factory did not return within");
    }

    @Test
    void aConnectorThatReturnsFromAHungCreateLate_isClosed() throws Exception {
        store.sources.add(def("stuck", "prometheus", "https://prom.example.com", "",
                Json.createObjectBuilder().add("createBlocks", true).build()));
        SourceRegistry registry = within(Duration.ofSeconds(5), () -> registry(false));

        released.countDown();
        assertThat(within(Duration.ofSeconds(5), () -> {
            while (created.isEmpty() || !created.get(0).closed) {
                Thread.sleep(10);
            }
            return created.get(0).closed;
        })).isTrue();
        assertThat(registry.with(MetricsCapability.class, Principal.anonymous())).isEmpty();
    }

    @Test
    void aConnectorWhoseCloseHangs_holdsNeitherTheChangeNorTheNextOneNorTheShutdown() throws Exception {
        JsonObject closeBlocks = Json.createObjectBuilder().add("closeBlocks", true).build();
        store.sources.add(def("a", "prometheus", "https://prom.example.com", "", closeBlocks));
        store.sources.add(def("b", "prometheus", "https://prom.example.com", "", closeBlocks));
        store.sources.add(def("c", "prometheus", "https://prom.example.com", "", closeBlocks));
        SourceRegistry registry = registry(false);

        assertThat(within(Duration.ofSeconds(5), () -> registry.remove("a", Principal.anonymous())))
                .isInstanceOf(SourceOutcome.Removed.class);
        assertThat(within(Duration.ofSeconds(5), () -> registry.update("b", new SourceDraft("b", "prometheus",
                Optional.of("https://prom.example.com"), "", true, JsonObject.EMPTY_JSON_OBJECT), Principal.anonymous(),
                SourcePrecondition.NONE))).isInstanceOf(SourceOutcome.Saved.class);
        assertThat(log.messages(Level.WARN)).anySatisfy(line -> assertThat(line).startsWith("event=connector-close-hung source=a "));

        long began = System.nanoTime();
        within(Duration.ofSeconds(5), () -> {
            registry.close();
            return null;
        });
        // the sources still open are closed side by side under one deadline, not one after another
        assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(2));
        assertThat(created).allSatisfy(c -> assertThat(c.closed).isTrue());
    }

    @Test
    void aTestWhoseHealthCheckHangs_answersThatItDidNotAnswer() throws Exception {
        SourceRegistry registry = registry(false);

        SourceCheck check = within(Duration.ofSeconds(5), () -> registry.test(new SourceDraft("probe", "prometheus",
                Optional.of("https://prom.example.com"), "", true, Json.createObjectBuilder().add("healthBlocks", true).build()),
                Principal.anonymous()));

        assertThat(check.ok()).isFalse();
        assertThat(check.stage()).isEqualTo("health");
        assertThat(check.message()).startsWith("the connector's health check did not answer within 200ms");
        assertThat(created).singleElement().satisfies(c -> assertThat(c.closed).isTrue());
    }

    @Test
    void aConnectorsFailureMessage_isLoggedEscapedAndCut_soABackendsAnswerCannotForgeALogLine() {
        // a connector's message may quote what its backend answered: the backend's text, of any length
        String answer = "bad gateway\r\n event=source-saved source=prom status=\"connected\u2028" + "z".repeat(5_000);
        store.sources.add(def("broken", "prometheus", "https://prom.example.com",
                "", Json.createObjectBuilder().add("failWith", answer).build()));

        registry(false);

        assertThat(log.messages(Level.WARN)).filteredOn(line -> line.startsWith("event=source-")).hasSize(1).allSatisfy(line -> {
            assertThat(line).doesNotContain("\r", "\n", "\u2028", "status=\"connected").hasSizeLessThan(600);
        });
        assertThat(log.messages(Level.WARN)).filteredOn(line -> line.startsWith("event=source-failed ")).singleElement().asString()
                .contains("reason=\"bad gateway\\u000d\\u000a event=source-saved source=prom status=\\\"connected\\u2028zzz")
                .endsWith(" chars)\"");
    }

    @Test
    void aConnectorsFailureMessage_isShownAsOneBoundedPrintableLine_toTheApiToAgentsAndInReconnections() {
        // a plugin connector's message is its author's or its backend's text: a megabyte, terminal escapes, bidi overrides
        String answer = "bad gateway\r\n event=forged \u001b[31mred\u001b[0m \u202eevil\u2028next\u0000" + "z".repeat(1 << 20);
        store.sources.add(def("broken", "prometheus", "https://prom.example.com",
                "", Json.createObjectBuilder().add("failWith", answer).build()));
        SourceRegistry registry = registry(false);

        SourceView view = registry.find("broken", Principal.anonymous()).orElseThrow();
        SourceReconnection reconnection = registry.reconnect("prometheus").getFirst();
        SourceCheck check = registry.test(new SourceDraft("probe", "prometheus", Optional.of("https://prom.example.com"), "", true,
                Json.createObjectBuilder().add("failWith", answer).build()), Principal.anonymous());

        assertThat(List.of(view.problem(), reconnection.problem(), check.message())).allSatisfy(shown -> assertThat(shown)
                .startsWith("bad gateway").contains(" event=forged ", "[31mred", " evil next zzz").endsWith("…")
                .hasSizeLessThanOrEqualTo(SourceView.MAX_PROBLEM_CHARS + 1)
                .doesNotContain("\r", "\n", "\u001b", "\u202e", "\u2028", "\u0000"));
    }

    @Test
    void aNameTakenByAnotherTenantsSource_isRefusedWithoutSayingItExistsOrSendingTheCallerToPut() {
        store.sources.add(def("globex-prom", "prometheus", "https://prom.example.com", "globex", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);

        SourceOutcome outcome = registry.add(draft("globex-prom", "prometheus", "https://other.example.com"), tenantUser("acme"));

        // the 409 cannot hide that the name is taken (names are unique), but it tells nothing more
        assertThat(outcome).isEqualTo(new SourceOutcome.Refused(SourceOutcome.EXISTS, "the name 'globex-prom' is not available "
                + "(source names are unique across the gateway); choose another name"));
        assertThat(store.saves).isZero();
    }

    @Test
    void aChangeThatDoesNotSayWhetherTheSourceIsEnabled_keepsItAsItWas() {
        store.sources.add(new SourceDefinition(new SourceConfig("off", "prometheus", "https://prom.example.com", "",
                JsonObject.EMPTY_JSON_OBJECT), false, SourceDefinition.Origin.FILE));
        store.sources.add(def("on", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);

        for (String name : List.of("off", "on")) {
            assertThat(registry.update(name, new SourceDraft(name, "prometheus", Optional.empty(), Optional.empty(), Optional.empty(),
                    JsonObject.EMPTY_JSON_OBJECT), Principal.anonymous())).isInstanceOf(SourceOutcome.Saved.class);
        }

        assertThat(registry.list(Principal.anonymous())).extracting(SourceView::name, SourceView::enabled, SourceView::status)
                .containsExactly(tuple("off", false, "disabled"),
                        tuple("on", true, "connected"));
        assertThat(store.sources).extracting(SourceDefinition::enabled).containsExactly(false, true);
        // a new source that does not say is enabled
        assertThat(registry.add(new SourceDraft("new", "prometheus", Optional.of("https://prom.example.com"), Optional.empty(),
                Optional.empty(), JsonObject.EMPTY_JSON_OBJECT), Principal.anonymous()))
                .isInstanceOfSatisfying(SourceOutcome.Saved.class, saved -> assertThat(saved.source().enabled()).isTrue());
    }

    @Test
    void aTestOfADraftNamedLikeAStoredSource_neverFillsItsMasksFromThatSource() {
        JsonObject settings = Json.createObjectBuilder()
                .add("auth", Json.createObjectBuilder().add("type", "bearer").add("token", "stored-token")).build();
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "", settings));
        SourceRegistry registry = registry(false);
        JsonObject shown = registry.list(Principal.anonymous()).get(0).settings();

        registry.test(new SourceDraft("prom", "prometheus", Optional.of("https://loki.example.com"), "", true, shown),
                Principal.anonymous());

        assertThat(created).hasSize(2);
        assertThat(created.get(1).source().settings().toString()).doesNotContain("stored-token").contains(ManageSources.MASK);
    }

    @Test
    void disabledSourcesAreKeptWithoutAConnector() {
        store.sources.add(new SourceDefinition(new SourceConfig("off", "prometheus", "https://prom.example.com", "",
                JsonObject.EMPTY_JSON_OBJECT), false, SourceDefinition.Origin.FILE));
        SourceRegistry registry = registry(false);
        assertThat(registry.list(Principal.anonymous())).singleElement().satisfies(v -> assertThat(v.status()).isEqualTo("disabled"));
        assertThat(created).isEmpty();
    }

    @Test
    void aStoreThatCouldNotBeReadIsNeverOverwritten_andSaysWhy() {
        store.writable = false;
        store.problems.add("the sources file is not valid YAML at line 3");
        SourceRegistry registry = registry(false);
        assertThat(registry.add(draft("prom", "prometheus", "https://prom.example.com"), Principal.anonymous()))
                .isInstanceOfSatisfying(SourceOutcome.Refused.class, r -> assertThat(r.code()).isEqualTo(SourceOutcome.NOT_PERSISTED));
        assertThat(store.saves).isZero();
        assertThat(registry.storeProblem()).contains("the sources file is not valid YAML at line 3");
    }

    @Test
    void aReadStore_orOneThatIsReadOnlyWithoutAProblem_hasNoStoreProblem() {
        assertThat(registry(false).storeProblem()).isEmpty();
        store.writable = false;
        assertThat(registry(false).storeProblem()).isEmpty();
    }

    @Test
    void aSourceWhoseBackendNameCannotBeChecked_failsAtConnect_operatorsSeeWhatToRegister_agentsThatNoAddressWasJudged() {
        // before: a source whose backend name the JVM cannot check read as connected while each request failed
        store.sources.add(def("prom", "prometheus", "https://prom.example.com", "",
                Json.createObjectBuilder().add("unguardedName", true).build()));

        SourceRegistry registry = registry(false);

        assertThat(registry.list(Principal.anonymous())).singleElement().satisfies(view -> {
            assertThat(view.status()).isEqualTo("failed");
            assertThat(view.problem()).as("the operator's view names what to register").isEqualTo(RESOLVER_MISSING);
        });
        // before: agents read that the egress policy refuses the backend's address, though no address was judged at all
        assertThat(registry.listForAgents(Principal.anonymous())).singleElement().satisfies(view -> assertThat(view.problem())
                .contains("cannot check this source's backend host name", "egress resolver is not installed",
                        "ask the gateway's operator", "event=source-url-rejected")
                .doesNotContain("refuses the address", "GuardedResolverProvider", "META-INF"));
        assertThat(registry.with(MetricsCapability.class, Principal.anonymous())).isEmpty();
        assertThat(log.messages(Level.WARN)).filteredOn(line -> line.startsWith("event=source-url-rejected source=prom "))
                .singleElement().asString().contains("GuardedResolverProvider");
        assertThat(created).isEmpty();
    }

    @Test
    void testConnectsChecksHealthAndSavesNothing() {
        SourceRegistry registry = registry(false);
        SourceCheck check = registry.test(draft("probe", "prometheus", "https://prom.example.com"), Principal.anonymous());
        assertThat(check.ok()).isTrue();
        assertThat(check.stage()).isEqualTo("done");
        assertThat(check.capabilities()).contains("queryMetrics");
        assertThat(created).singleElement().satisfies(c -> assertThat(c.closed).isTrue());
        assertThat(store.saves).isZero();
        assertThat(registry.list(Principal.anonymous())).isEmpty();

        SourceCheck refused = registry.test(draft("probe", "prometheus", "http://192.168.0.1"), Principal.anonymous());
        assertThat(refused.ok()).isFalse();
        assertThat(refused.stage()).isEqualTo("egress");
    }

    @Test
    void pluginPinsAreHandedToTheLoader() {
        store.pins.add(new PluginPin("tempo", "1.2.0"));
        assertThat(registry(false).pluginPins()).containsExactly(new PluginPin("tempo", "1.2.0"));
    }

    @Test
    void fanOutReportsEachSourceAndDoesNotWaitForStragglers() {
        store.sources.add(def("a", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        store.sources.add(def("b", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        store.sources.add(def("c", "prometheus", "https://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT));
        SourceRegistry registry = registry(false);
        List<Bound<MetricsCapability>> bound = registry.with(MetricsCapability.class, Principal.anonymous());

        List<FanOut.Outcome<String>> outcomes = FanOut.call(bound, capability -> {
            String name = ((Connector) capability).source().name();
            switch (name) {
                case "b" -> throw new ConnectorException(ConnectorException.Kind.BAD_QUERY, "parse error at char 3");
                case "c" -> {
                    try {
                        new java.util.concurrent.CountDownLatch(1).await(); // a backend that hangs until cancelled
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return "late";
                }
                default -> {
                    return "ok-" + name;
                }
            }
        }, Duration.ofMillis(300), Duration.ofSeconds(2));

        assertThat(outcomes.get(0)).isEqualTo(new FanOut.Outcome.Answered<>("a", "ok-a"));
        assertThat(outcomes.get(1)).isEqualTo(new FanOut.Outcome.Failed<>("b", ConnectorException.Kind.BAD_QUERY, "parse error at char 3"));
        assertThat(outcomes.get(2)).isInstanceOfSatisfying(FanOut.Outcome.Failed.class,
                f -> assertThat(f.kind()).isEqualTo(ConnectorException.Kind.TIMEOUT));
    }

    @Test
    void theStoreAndAProblem_areQuotedInTheLogLines_soTheirSpacesAndQuotesKeepTheLineParseable() {
        store.description = "sources file sources.yaml";
        store.problems.add("source 'x' has \"type\": 42, not a name");
        registry(false);
        assertThat(log.events()).extracting(ILoggingEvent::getFormattedMessage)
                .anySatisfy(line -> assertThat(line).startsWith("event=sources-loaded store=\"sources file sources.yaml\" sources=0 "))
                .anySatisfy(line -> assertThat(line).isEqualTo(
                        "event=source-skipped store=\"sources file sources.yaml\" reason=\"source 'x' has \\\"type\\\": 42, not a name\""));
    }

    @Test
    void endpointShowsSchemeHostAndPortOnly() {
        assertThat(SourceRegistry.endpoint("https://prom.example.com:9443/a/b?token=x")).isEqualTo("https://prom.example.com:9443");
        assertThat(SourceRegistry.endpoint("http://[::1]:9090/")).isEqualTo("http://[::1]:9090");
        assertThat(SourceRegistry.endpoint("")).isEmpty();
    }

    // ------------------------------------------------------------------ fakes

    private static final class MemoryStore implements SourceStore {
        final List<SourceDefinition> sources = new ArrayList<>();
        final List<PluginPin> pins = new ArrayList<>();
        boolean writable = true;
        final List<String> problems = new ArrayList<>();
        boolean failNext;
        boolean breakNext;
        boolean errorNext;
        int saves;

        @Override
        public SourcesDocument load() {
            return new SourcesDocument(sources, pins, problems, writable);
        }

        @Override
        public void save(List<SourceDefinition> next) throws SourceStoreException {
            if (failNext) {
                failNext = false;
                throw new SourceStoreException("disk full");
            }
            if (breakNext) {
                breakNext = false;
                // an embedder's store with a bug; its message quotes what it was handed
                throw new IllegalStateException("cannot serialize secret-in-message");
            }
            if (errorNext) {
                errorNext = false;
                throw new AssertionError("the store's invariant broke");
            }
            saves++;
            sources.clear();
            sources.addAll(next);
        }

        String description = "memory";

        @Override
        public String describe() {
            return description;
        }
    }

    private static final class StaticContext implements ConnectorContext {
        @Override
        public HttpClient httpClient() {
            throw new UnsupportedOperationException("the fake connectors make no HTTP calls");
        }

        @Override
        public Duration requestTimeout() {
            return Duration.ofSeconds(1);
        }

        @Override
        public Clock clock() {
            return Clock.systemUTC();
        }
    }

    private abstract static class FakeConnector implements Connector {
        private final SourceConfig source;
        volatile boolean closed;
        final CountDownLatch closing = new CountDownLatch(1);
        final CountDownLatch released = new CountDownLatch(1);

        FakeConnector(SourceConfig source) {
            this.source = source;
        }

        @Override
        public SourceConfig source() {
            return source;
        }

        @Override
        public Health health() {
            if (source.settings().containsKey("healthError")) {
                throw new AssertionError("the plugin's health check broke");
            }
            if (source.settings().containsKey("healthBlocks")) {
                holdUntil(released);
            }
            return new Health(true, "fake 1.0", Duration.ofMillis(3));
        }

        @Override
        public void close() {
            closed = true;
            closing.countDown();
            if (source.settings().containsKey("closeBlocks")) {
                holdUntil(released);
            }
            if (source.settings().containsKey("closeError")) {
                throw new AssertionError("the plugin's close broke");
            }
        }
    }

    private static final class MetricsOnly extends FakeConnector implements MetricsCapability {
        MetricsOnly(SourceConfig source) {
            super(source);
        }

        @Override
        public MetricResult queryMetrics(MetricQuery query) {
            return new MetricResult(List.of(), "up", "job");
        }
    }

    private static final class LogsOnly extends FakeConnector implements LogsCapability {
        LogsOnly(SourceConfig source) {
            super(source);
        }

        @Override
        public LogResult queryLogs(LogQuery query) {
            return new LogResult(List.of(), false, "{}");
        }
    }
}
