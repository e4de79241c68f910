package dev.omcp.core.tools.observability;

import static dev.omcp.core.tools.observability.FakeMetricsBackend.noisy;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.anomaly.AnomalyScoreSample;
import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.MetricDiscoveryCapability;
import dev.omcp.sdk.connector.MetricsCapability;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.query.MetricInfo;
import dev.omcp.sdk.query.MetricQuery;
import dev.omcp.sdk.query.MetricResult;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.ServiceListing;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A plugin connector at the gateway's anomaly receiver lists, as any naive Prometheus reader would, the {@code service}
 * values of the gateway's own {@code omcp_anomaly_*} series: every tenant's judged names. The core leaves out, for every
 * plugin, the names whose only metrics at that source are those series; a builtin connector filters them itself.
 */
class ServiceListingsTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-10T12:00:00Z"));

    /**
     * A receiver as a plugin reads it: payments is a service of the backend that some call also judged, quiet is listed
     * without metrics (a target that exports nothing yet), and ghost is a name only the gateway's series carry.
     */
    private static FakeMetricsBackend receiver(String name) {
        return new FakeMetricsBackend(name)
                .serve("payments", "http_requests_total", noisy(40, 0.05))
                .serve("payments", "omcp_anomaly_score", Map.of("signal", "error_rate", "tenant", "globex"), noisy(1, 0.1))
                .serve("ghost", "omcp_anomaly_score", Map.of("signal", "error_rate", "tenant", "globex"), noisy(1, 0.1))
                .serve("ghost", "omcp_anomaly_detected", Map.of("signal", "error_rate", "tenant", "globex"), t -> 0)
                .knows("quiet");
    }

    private Toolkit toolkit(InMemorySources sources) {
        return Toolkit.builder(sources.registry(), clock).build();
    }

    private static List<String> names(JsonObject listed) {
        return listed.getJsonArray("services").stream().map(s -> s.asJsonObject().getString("name")).toList();
    }

    @Test
    void aPluginAtTheReceiver_doesNotListTheNamesOnlyTheGatewaysSeriesCarry_butEveryOtherName() {
        FakeMetricsBackend plugin = receiver("history");

        JsonObject listed = ToolHarness.ok(new ListServicesTool(toolkit(new InMemorySources().addPlugin(plugin))), "{}",
                Principal.apiKey("acme-agent", "acme"));

        assertThat(names(listed)).containsExactly("payments", "quiet");
        assertThat(listed.getInt("total")).isEqualTo(2);
        assertThat(listed.getBoolean("partial")).isFalse();
    }

    @Test
    void aNameHiddenOnADiscoveryThatWarnedItMayLackNames_isCountedInTheListingsWarnings_withoutNamingIt() {
        FakeMetricsBackend plugin = receiver("history").discoveryWarning("metric names: a store was not asked about ghost");

        JsonObject listed = ToolHarness.ok(new ListServicesTool(toolkit(new InMemorySources().addPlugin(plugin))), "{}",
                Principal.apiKey("acme-agent", "acme"));

        assertThat(names(listed)).containsExactly("payments", "quiet");
        JsonObject warned = listed.getJsonArray("backendWarnings").getJsonObject(0);
        assertThat(warned.getString("source")).isEqualTo("history");
        assertThat(warned.getJsonArray("warnings").getString(0)).startsWith("1 listed name was left out as carrying only the gateway's")
                .doesNotContain("ghost");
    }

    @Test
    void theNamesOnlyTheGatewaysSeriesCarry_areNeitherSuggestedNorJudged() {
        Toolkit toolkit = toolkit(new InMemorySources().addPlugin(receiver("history")));
        Principal acme = Principal.apiKey("acme-agent", "acme");

        assertThat(new ServiceNameSuggestions(toolkit).matching("", acme)).containsExactly("payments", "quiet");
        assertThat(new ServiceNameSuggestions(toolkit).closest("ghots", acme)).isEmpty();
        JsonObject judged = ToolHarness.ok(new DetectAnomaliesTool(toolkit), "{\"metrics\":[\"http_requests_total\"]}", acme);
        assertThat(judged.getJsonObject("services").getInt("total")).isEqualTo(2);
    }

    @Test
    void aBuiltinConnector_isLeftToItsOwnFilter_andNotAskedAboutItsNames() {
        FakeMetricsBackend builtin = receiver("prometheus");

        JsonObject listed = ToolHarness.ok(new ListServicesTool(toolkit(new InMemorySources().add(builtin))), "{}");

        // the builtin Prometheus connector leaves such names out itself (BackendServiceNames); this fake does not
        assertThat(names(listed)).containsExactly("ghost", "payments", "quiet");
        assertThat(builtin.discoveries).isEmpty();
    }

    @Test
    void aPluginsNames_areEachCheckedOnce_andTheVerdictsKeptForAWhile_forThatConnectorInstance() {
        FakeMetricsBackend plugin = new FakeMetricsBackend("prom").serve("payments", "http_requests_total", noisy(40, 0.05))
                .serve("checkout", "http_requests_total", noisy(40, 0.05)).knows("quiet");
        ListServicesTool tool = new ListServicesTool(toolkit(new InMemorySources().addPlugin(plugin)));

        assertThat(names(ToolHarness.ok(tool, "{}"))).containsExactly("checkout", "payments", "quiet");
        assertThat(plugin.discoveries).containsExactlyInAnyOrder("checkout", "payments", "quiet");
        plugin.discoveries.clear();

        clock.advance(ListedNameVerdicts.KEPT.minusSeconds(1));
        assertThat(names(ToolHarness.ok(tool, "{}"))).containsExactly("checkout", "payments", "quiet");
        assertThat(plugin.discoveries).isEmpty();

        clock.advance(Duration.ofSeconds(2));
        assertThat(names(ToolHarness.ok(tool, "{}"))).containsExactly("checkout", "payments", "quiet");
        assertThat(plugin.discoveries).containsExactlyInAnyOrder("checkout", "payments", "quiet");
    }

    @Test
    void aPluginThatCapsItsOwnDiscovery_belowWhatWasAsked_stillHasEachNameChecked() {
        // holds the gateway's series, but its discovery of every metric stops at one name, which is not among them
        FakeMetricsBackend plugin = receiver("history").discoveringAtMost(1);

        JsonObject listed = ToolHarness.ok(new ListServicesTool(toolkit(new InMemorySources().addPlugin(plugin))), "{}");

        assertThat(names(listed)).containsExactly("payments", "quiet");
    }

    @Test
    void aPluginListingMoreNamesThanOneCallChecks_showsOnlyCheckedNames_saysWhy_andTheNextCallChecksTheRest() {
        int listed = ServiceListings.CHECKS_PER_LISTING + 300;
        ManyNames plugin = new ManyNames(listed);
        ListServicesTool tool = new ListServicesTool(toolkit(new InMemorySources().addPlugin(plugin)));

        JsonObject first = ToolHarness.ok(tool, "{\"limit\":1000}");

        assertThat(plugin.discoveries.get()).isEqualTo(ServiceListings.CHECKS_PER_LISTING);
        assertThat(first.getInt("total")).isEqualTo(ServiceListings.CHECKS_PER_LISTING - 1); // svc-0000 is a judgement
        assertThat(names(first)).doesNotContain("svc-0000", "svc-" + ServiceListings.CHECKS_PER_LISTING);
        assertThat(first.getBoolean("partial")).isTrue();
        JsonObject failed = first.getJsonArray("failedSources").getJsonObject(0);
        assertThat(failed.getString("source")).isEqualTo("many");
        // nothing timed out: the gateway chose not to check them yet, and saying timeout would send an agent narrowing a query
        assertThat(failed.getString("kind")).isEqualTo("unchecked");
        assertThat(failed.getString("error")).contains("300 of the " + listed + " names it listed were left out unchecked")
                .contains("call again within 5 minutes");
        assertThat(first.getJsonArray("sources").getString(0)).isEqualTo("many");

        JsonObject second = ToolHarness.ok(tool, "{\"limit\":1000}");

        assertThat(plugin.discoveries.get()).isEqualTo(listed);
        assertThat(second.getInt("total")).isEqualTo(listed - 1);
        assertThat(second.getBoolean("partial")).isFalse();
    }

    @Test
    void aPluginListingMoreNamesThanTheVerdictsKept_isNotToldThatCallingAgainShowsThemAll() {
        // beyond the verdicts kept per connector, each call's checks push out the oldest: the listing never gets complete
        int listed = ListedNameVerdicts.NAMES_PER_CONNECTOR + 1;
        ListServicesTool tool = new ListServicesTool(toolkit(new InMemorySources().addPlugin(new ManyNames(listed))));

        JsonObject first = ToolHarness.ok(tool, "{\"limit\":1}");

        JsonObject failed = first.getJsonArray("failedSources").getJsonObject(0);
        assertThat(failed.getString("kind")).isEqualTo("unchecked");
        assertThat(failed.getString("error")).doesNotContain("to check the next ones")
                .contains("more names than the gateway keeps verdicts for (" + ListedNameVerdicts.NAMES_PER_CONNECTOR + ")")
                .contains("no call shows them all").contains("detect_anomalies with service");
    }

    @Test
    void aVerdictIsNotKeptLongerThanFiveMinutes_whenTheClockIsSetBack() {
        FakeMetricsBackend plugin = new FakeMetricsBackend("prom").serve("payments", "http_requests_total", noisy(40, 0.05));
        ListServicesTool tool = new ListServicesTool(toolkit(new InMemorySources().addPlugin(plugin)));
        ToolHarness.ok(tool, "{}");
        plugin.discoveries.clear();

        // an NTP step back of an hour: measured by the wall clock alone, the verdict would be kept an hour and five minutes
        clock.advance(Duration.ofHours(-1));
        ToolHarness.ok(tool, "{}");

        assertThat(plugin.discoveries).containsExactly("payments");
    }

    @Test
    void theVerdictsOfAListingThatFailed_areKept_soTheNextCallAsksOnlyAboutTheRest() {
        ManyNames plugin = new ManyNames(20);
        plugin.failing = "svc-0019";
        ListServicesTool tool = new ListServicesTool(toolkit(new InMemorySources().addPlugin(plugin)));

        JsonObject failed = ToolHarness.ok(tool, "{}");
        plugin.failing = "";
        plugin.discoveries.set(0);
        JsonObject listed = ToolHarness.ok(tool, "{}");

        assertThat(failed.getJsonArray("failedSources").getJsonObject(0).getString("error")).contains("svc-0019 broke");
        assertThat(listed.getInt("total")).isEqualTo(19);
        // svc-0019 waits for a free slot, so at least the first 12 were checked before it failed
        assertThat(plugin.discoveries.get()).isPositive().isLessThanOrEqualTo(20 - 12);
    }

    @Test
    void aNameLeftOutUnchecked_isNotCalledUnknownToTheTracesSources() {
        ManyNames plugin = new ManyNames(ServiceListings.CHECKS_PER_LISTING + 1);
        Toolkit toolkit = toolkit(new InMemorySources().addPlugin(plugin));
        String last = "svc-" + ServiceListings.CHECKS_PER_LISTING;

        TracedServiceRecognition.Verdict verdict = TracedServiceRecognition.check(toolkit, Principal.apiKey("acme-agent", "acme"),
                List.of("many"), new TracedServiceName(last, last, Optional.empty(), Optional.empty(), List.of()));

        assertThat(verdict).isInstanceOf(TracedServiceRecognition.Verdict.Unchecked.class);
    }

    @Test
    void aCheckThatFails_failsTheListingAtOnce_ratherThanAfterTheOtherChecksOrAtTheDeadline() {
        ReceiverWithABrokenName plugin = new ReceiverWithABrokenName();
        Toolkit toolkit = Toolkit.builder(new InMemorySources().addPlugin(plugin).registry(), clock)
                .timeouts(Duration.ofSeconds(20), Duration.ofSeconds(20)).build();
        long started = System.nanoTime();

        Gathered<ServiceListing> gathered = ServiceListings.of(toolkit, Principal.apiKey("acme-agent", "acme"),
                toolkit.sources().with(ServiceListingCapability.class, Principal.apiKey("acme-agent", "acme")));

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        assertThat(gathered.answers()).isEmpty();
        assertThat(gathered.failures()).singleElement().satisfies(f -> {
            assertThat(f.kind()).isEqualTo(FailureKind.UNAVAILABLE);
            assertThat(f.message()).contains("the discovery of zz-broken broke");
        });
    }

    @Test
    void aFilteredListing_checksTheNamesItCanShow_soANameBeyondTheFirstThousandIsAnsweredAtOnce() {
        int listed = ServiceListings.CHECKS_PER_LISTING + 300;
        String last = String.format(Locale.ROOT, "svc-%04d", listed - 1);
        ManyNames plugin = new ManyNames(listed);
        ListServicesTool tool = new ListServicesTool(toolkit(new InMemorySources().addPlugin(plugin)));

        JsonObject filtered = ToolHarness.ok(tool, "{\"filter\":\"" + last.toUpperCase(Locale.ROOT) + "\"}");

        assertThat(names(filtered)).containsExactly(last);
        assertThat(filtered.getBoolean("partial")).isFalse();
        // the names the call cannot show are neither checked nor counted as left out
        assertThat(plugin.discoveries.get()).isEqualTo(1);
    }

    @Test
    void aFilterMatchingMoreNamesThanOneCallChecks_countsOnlyTheMatchingOnesLeftOut() {
        // of svc-0000..svc-1299, the 162 names without a 0 in them (svc-1111 to svc-1299) do not match
        ManyNames plugin = new ManyNames(ServiceListings.CHECKS_PER_LISTING + 300);
        ListServicesTool tool = new ListServicesTool(toolkit(new InMemorySources().addPlugin(plugin)));

        JsonObject filtered = ToolHarness.ok(tool, "{\"filter\":\"0\"}");

        assertThat(plugin.discoveries.get()).isEqualTo(ServiceListings.CHECKS_PER_LISTING);
        assertThat(filtered.getJsonArray("failedSources").getJsonObject(0).getString("error"))
                .startsWith("138 of the 1138 names it listed that this call asked about were left out unchecked");
    }

    @Test
    void concurrentListingsOfOnePlugin_shareTheChecksAlreadyRunning_ratherThanAskingTheBackendAgain() throws Exception {
        HeldNames plugin = new HeldNames("checkout", "payments");
        ListServicesTool tool = new ListServicesTool(toolkit(new InMemorySources().addPlugin(plugin)));
        try (ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<JsonObject> first = calls.submit(() -> ToolHarness.ok(tool, "{}"));
            plugin.awaitDiscoveries(2);
            Future<JsonObject> second = calls.submit(() -> ToolHarness.ok(tool, "{}"));
            plugin.awaitListings(2);
            // the second call has its listing: checking the names itself, it would ask about them within microseconds
            boolean askedAgain = plugin.discoveriesReach(3, Duration.ofMillis(500));
            plugin.release();

            assertThat(names(first.get(10, TimeUnit.SECONDS))).containsExactly("checkout", "payments");
            assertThat(names(second.get(10, TimeUnit.SECONDS))).containsExactly("checkout", "payments");
            assertThat(askedAgain).isFalse();
            assertThat(plugin.discovered).containsExactlyInAnyOrder("checkout", "payments");
        }
    }

    @Test
    void aCallWaitingForAnotherCallsCheck_stillEndsAtItsOwnDeadline() throws Exception {
        HeldNames plugin = new HeldNames("checkout", "payments");
        Toolkit toolkit = toolkit(new InMemorySources().addPlugin(plugin));
        Principal acme = Principal.apiKey("acme-agent", "acme");
        try (ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<Gathered<ServiceListing>> first = calls.submit(() -> ServiceListings.of(toolkit, acme,
                    toolkit.sources().with(ServiceListingCapability.class, acme)));
            plugin.awaitDiscoveries(2);
            long started = System.nanoTime();

            Gathered<ServiceListing> second = ServiceListings.of(toolkit, acme,
                    toolkit.sources().with(ServiceListingCapability.class, acme), Duration.ofMillis(300));

            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));
            assertThat(second.failures()).singleElement().satisfies(f -> assertThat(f.kind()).isEqualTo(FailureKind.TIMEOUT));
            plugin.release();
            assertThat(first.get(10, TimeUnit.SECONDS).answers()).singleElement()
                    .satisfies(a -> assertThat(a.value().services()).extracting(ServiceInfo::name).containsExactly("checkout", "payments"));
            assertThat(plugin.discovered).containsExactlyInAnyOrder("checkout", "payments");
        }
    }

    @Test
    void aCheckLeftByACallThatRanOutOfTime_isTakenOverByTheCallWaitingForIt() throws Exception {
        HeldNames plugin = new HeldNames("checkout", "payments");
        Toolkit toolkit = toolkit(new InMemorySources().addPlugin(plugin));
        Principal acme = Principal.apiKey("acme-agent", "acme");
        try (ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<Gathered<ServiceListing>> first = listing(calls, toolkit, acme, Duration.ofSeconds(1));
            plugin.awaitDiscoveries(2);
            Future<Gathered<ServiceListing>> second = listing(calls, toolkit, acme);
            plugin.awaitListings(2);

            // the first call's deadline interrupts its checks: they say nothing of the names, and the second asks itself
            assertTimedOut(first);
            plugin.release();
            assertListsCheckoutAndPayments(second);
        }
    }

    @Test
    void aCheckLeftByACallThatRanOutOfTime_isTakenOver_evenWhenThePluginHidesTheInterruptInItsFailure() throws Exception {
        // the call's deadline cut its checks short, whatever the plugin made of the interrupt: that says nothing of the names,
        // and the call waiting for them must not fail with an error that only the first call's deadline caused
        HeldNames plugin = new HeldNames("checkout", "payments");
        plugin.hidesInterrupts = true;
        Toolkit toolkit = toolkit(new InMemorySources().addPlugin(plugin));
        Principal acme = Principal.apiKey("acme-agent", "acme");
        try (ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<Gathered<ServiceListing>> first = listing(calls, toolkit, acme, Duration.ofSeconds(1));
            plugin.awaitDiscoveries(2);
            Future<Gathered<ServiceListing>> second = listing(calls, toolkit, acme);
            plugin.awaitListings(2);

            assertTimedOut(first);
            plugin.release();
            assertListsCheckoutAndPayments(second);
        }
    }

    @Test
    void aCheckLeftByACallThatRanOutOfTime_isTakenOverAtOnce_evenWhenThePluginKeepsRunningThroughTheInterrupt()
            throws Exception {
        // a plugin blocked in I/O that no interrupt ends: the call that gave its checks up must not hold their claims until
        // the plugin returns, or the call waiting for those names waits to its own deadline instead of checking them itself
        HeldNames plugin = new HeldNames("checkout", "payments");
        plugin.ignoresInterrupts = true;
        Toolkit toolkit = toolkit(new InMemorySources().addPlugin(plugin));
        Principal acme = Principal.apiKey("acme-agent", "acme");
        try (ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<Gathered<ServiceListing>> first = listing(calls, toolkit, acme, Duration.ofSeconds(1));
            plugin.awaitDiscoveries(2);
            Future<Gathered<ServiceListing>> second = listing(calls, toolkit, acme);
            plugin.awaitListings(2);
            assertTimedOut(first);

            // taken over while the first call's discoveries still run
            assertThat(plugin.discoveriesReach(4, Duration.ofSeconds(5))).as("the second call checks the names itself").isTrue();
            plugin.release();
            assertListsCheckoutAndPayments(second);
        }
    }

    @Test
    void aCheckLeftByACallThatRanOutOfTime_keepsNoVerdict_evenWhenThePluginSwallowsTheInterruptAndAnswersNothing()
            throws Exception {
        // "no metrics" from a check its call gave up is no answer of the name: kept as a verdict, it would list for minutes
        // a name that only carries the gateway's own series, in every call of every tenant
        HeldNames plugin = new HeldNames("checkout", "payments");
        plugin.swallowsInterrupts = true;
        plugin.metrics = List.of(new MetricInfo("omcp_anomaly_score", "gauge", ""));
        Toolkit toolkit = toolkit(new InMemorySources().addPlugin(plugin));
        Principal acme = Principal.apiKey("acme-agent", "acme");
        try (ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<Gathered<ServiceListing>> first = listing(calls, toolkit, acme, Duration.ofSeconds(1));
            plugin.awaitDiscoveries(2);
            assertTimedOut(first);

            plugin.release();
            Gathered<ServiceListing> answered = calls.submit(() -> ServiceListings.of(toolkit, acme,
                    toolkit.sources().with(ServiceListingCapability.class, acme))).get(10, TimeUnit.SECONDS);
            assertThat(answered.failures()).isEmpty();
            assertThat(answered.answers()).singleElement().satisfies(a -> assertThat(a.value().services()).isEmpty());
        }
    }

    @Test
    void aNameLongerThanAnyTheGatewayJudges_isCheckedInEachCall_butNoVerdictOfItIsKept() {
        // the verdicts of 256 connectors' 10,000 names each are kept: each name must be bounded, as a scored name is
        String longest = "s".repeat(AnomalyScoreSample.MAX_NAME_LENGTH);
        String longer = "t".repeat(AnomalyScoreSample.MAX_NAME_LENGTH + 1);
        FakeMetricsBackend plugin = new FakeMetricsBackend("prom").serve(longest, "http_requests_total", noisy(40, 0.05))
                .serve(longer, "http_requests_total", noisy(40, 0.05));
        ListServicesTool tool = new ListServicesTool(toolkit(new InMemorySources().addPlugin(plugin)));
        ToolHarness.ok(tool, "{}");
        plugin.discoveries.clear();

        JsonObject listed = ToolHarness.ok(tool, "{}");

        assertThat(names(listed)).containsExactly(longest, longer);
        assertThat(plugin.discoveries).containsExactly(longer);
    }

    /**
     * A receiver listing {@code count} names, {@code svc-0000} on: the first only the gateway's series carry, every other a
     * service with metrics of its own.
     */
    private static final class ManyNames implements Connector, MetricsCapability, ServiceListingCapability, MetricDiscoveryCapability {
        private final SourceConfig source = new SourceConfig("many", "many-names", "https://many.example.com", "",
                JsonObject.EMPTY_JSON_OBJECT);
        private final int count;
        final AtomicInteger discoveries = new AtomicInteger();
        volatile String failing = "";

        ManyNames(int count) {
            this.count = count;
        }

        @Override
        public List<ServiceInfo> listServices() {
            return IntStream.range(0, count).mapToObj(i -> new ServiceInfo(String.format(Locale.ROOT, "svc-%04d", i), Map.of())).toList();
        }

        @Override
        public List<MetricInfo> discoverMetrics(String service, int limit) throws ConnectorException {
            if (service.isEmpty()) {
                return List.of(new MetricInfo("http_requests_total", "counter", ""), new MetricInfo("omcp_anomaly_score", "gauge", ""));
            }
            discoveries.incrementAndGet();
            if (service.equals(failing)) {
                throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "the discovery of " + service + " broke");
            }
            return List.of(new MetricInfo(service.equals("svc-0000") ? "omcp_anomaly_score" : "http_requests_total", "gauge", ""));
        }

        @Override
        public MetricResult queryMetrics(MetricQuery query) throws ConnectorException {
            throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "not asked in this test");
        }

        @Override
        public SourceConfig source() {
            return source;
        }

        @Override
        public Health health() {
            return new Health(true, "many names", Duration.ofMillis(1));
        }

        @Override
        public void close() {}
    }

    /**
     * A receiver whose discovery of the last listed name fails at once, while that of the three before it takes a minute
     * unless interrupted (all four are checked at once): the failure decides the listing, and the checks still running
     * are not needed any more.
     */
    private static final class ReceiverWithABrokenName implements Connector, MetricsCapability, ServiceListingCapability,
            MetricDiscoveryCapability {
        private final SourceConfig source = new SourceConfig("history", "slow-receiver", "https://history.example.com", "",
                JsonObject.EMPTY_JSON_OBJECT);

        @Override
        public List<ServiceInfo> listServices() {
            Stream<ServiceInfo> slow = IntStream.range(0, 3).mapToObj(i -> new ServiceInfo("slow-" + i, Map.of()));
            return Stream.concat(slow, Stream.of(new ServiceInfo("zz-broken", Map.of()))).toList();
        }

        @Override
        public List<MetricInfo> discoverMetrics(String service, int limit) throws ConnectorException {
            if (service.isEmpty()) {
                return List.of(new MetricInfo("omcp_anomaly_score", "gauge", ""));
            }
            if (service.equals("zz-broken")) {
                throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "the discovery of zz-broken broke");
            }
            try {
                Thread.sleep(Duration.ofMinutes(1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ConnectorException(ConnectorException.Kind.TIMEOUT, "interrupted", e);
            }
            return List.of(new MetricInfo("http_requests_total", "counter", ""));
        }

        @Override
        public MetricResult queryMetrics(MetricQuery query) throws ConnectorException {
            throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "not asked in this test");
        }

        @Override
        public SourceConfig source() {
            return source;
        }

        @Override
        public Health health() {
            return new Health(true, "slow receiver", Duration.ofMillis(1));
        }

        @Override
        public void close() {}
    }

    /** A list_services call of {@code caller} on a thread of {@code calls}, ending at {@code deadline}. */
    private static Future<Gathered<ServiceListing>> listing(ExecutorService calls, Toolkit toolkit, Principal caller,
            Duration deadline) {
        return calls.submit(() -> ServiceListings.of(toolkit, caller, toolkit.sources().with(ServiceListingCapability.class, caller),
                deadline));
    }

    /** A list_services call of {@code caller} on a thread of {@code calls}, with the default deadline. */
    private static Future<Gathered<ServiceListing>> listing(ExecutorService calls, Toolkit toolkit, Principal caller) {
        return calls.submit(() -> ServiceListings.of(toolkit, caller, toolkit.sources().with(ServiceListingCapability.class, caller)));
    }

    private static void assertTimedOut(Future<Gathered<ServiceListing>> call) throws Exception {
        assertThat(call.get(10, TimeUnit.SECONDS).failures()).singleElement()
                .satisfies(f -> assertThat(f.kind()).isEqualTo(FailureKind.TIMEOUT));
    }

    private static void assertListsCheckoutAndPayments(Future<Gathered<ServiceListing>> call) throws Exception {
        Gathered<ServiceListing> answered = call.get(10, TimeUnit.SECONDS);
        assertThat(answered.failures()).isEmpty();
        assertThat(answered.answers()).singleElement()
                .satisfies(a -> assertThat(a.value().services()).extracting(ServiceInfo::name).containsExactly("checkout", "payments"));
    }

    /**
     * A plugin whose discoveries each wait until the test releases them (or their call is interrupted), so a test can
     * start a second call while the first one's checks run.
     */
    private static final class HeldNames implements Connector, MetricsCapability, ServiceListingCapability,
            MetricDiscoveryCapability {
        private final SourceConfig source = new SourceConfig("held", "held-names", "https://held.example.com", "",
                JsonObject.EMPTY_JSON_OBJECT);
        private final List<String> listed;
        private final CountDownLatch released = new CountDownLatch(1);
        private final AtomicInteger listings = new AtomicInteger();
        private final AtomicInteger discoveries = new AtomicInteger();
        /** The names whose discovery ended with an answer. */
        final List<String> discovered = new CopyOnWriteArrayList<>();
        /**
         * Whether an interrupted discovery fails as a plugin that maps every failure to "unavailable" does: without the
         * interrupt as its cause, and with the thread's interrupt status cleared.
         */
        volatile boolean hidesInterrupts;
        /** Whether a discovery goes on waiting for the release through interrupts, as a plugin blocked in uninterruptible I/O. */
        volatile boolean ignoresInterrupts;
        /** Whether an interrupted discovery answers "no metrics" as if nothing happened, its interrupt status cleared. */
        volatile boolean swallowsInterrupts;
        /** What a released discovery answers. */
        volatile List<MetricInfo> metrics = List.of(new MetricInfo("http_requests_total", "counter", ""));

        HeldNames(String... listed) {
            this.listed = List.of(listed);
        }

        void release() {
            released.countDown();
        }

        private void awaitReleaseUninterruptibly() {
            boolean interrupted = false;
            while (released.getCount() > 0) {
                try {
                    released.await();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        void awaitDiscoveries(int count) throws InterruptedException {
            assertThat(discoveriesReach(count, Duration.ofSeconds(5))).as("discoveries started").isTrue();
        }

        boolean discoveriesReach(int count, Duration within) throws InterruptedException {
            return await(discoveries, count, within);
        }

        void awaitListings(int count) throws InterruptedException {
            assertThat(await(listings, count, Duration.ofSeconds(5))).as("listings").isTrue();
        }

        private static boolean await(AtomicInteger counter, int count, Duration within) throws InterruptedException {
            long end = System.nanoTime() + within.toNanos();
            while (counter.get() < count && System.nanoTime() < end) {
                Thread.sleep(5);
            }
            return counter.get() >= count;
        }

        @Override
        public List<ServiceInfo> listServices() {
            listings.incrementAndGet();
            return listed.stream().map(n -> new ServiceInfo(n, Map.of())).toList();
        }

        @Override
        public List<MetricInfo> discoverMetrics(String service, int limit) throws ConnectorException {
            if (service.isEmpty()) {
                return List.of(new MetricInfo("http_requests_total", "counter", ""), new MetricInfo("omcp_anomaly_score", "gauge", ""));
            }
            discoveries.incrementAndGet();
            try {
                if (ignoresInterrupts) {
                    awaitReleaseUninterruptibly();
                } else {
                    released.await();
                }
            } catch (InterruptedException e) {
                if (hidesInterrupts) {
                    throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "the held backend cannot be reached");
                }
                if (swallowsInterrupts) {
                    return List.of();
                }
                Thread.currentThread().interrupt();
                throw new ConnectorException(ConnectorException.Kind.TIMEOUT, "interrupted", e);
            }
            discovered.add(service);
            return metrics;
        }

        @Override
        public MetricResult queryMetrics(MetricQuery query) throws ConnectorException {
            throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "not asked in this test");
        }

        @Override
        public SourceConfig source() {
            return source;
        }

        @Override
        public Health health() {
            return new Health(true, "held names", Duration.ofMillis(1));
        }

        @Override
        public void close() {}
    }
}
