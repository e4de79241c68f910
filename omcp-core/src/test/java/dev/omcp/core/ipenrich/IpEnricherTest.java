package dev.omcp.core.ipenrich;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.core.embeddedipv4.Nat64Prefix;
import dev.omcp.core.embeddedipv4.Nat64Prefixes;
import dev.omcp.ports.ipenrich.IpRegistrationLookup;
import dev.omcp.ports.ipenrich.RegistrationAnswer;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.StringReader;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class IpEnricherTest {
    private static final class TestClock extends Clock {
        volatile Instant now = Instant.parse("2025-03-10T10:00:00Z");

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private final TestClock clock = new TestClock();

    private static IpDataset dataset() throws IOException {
        return ((DatasetLoad.Loaded) new IpDatasetParser().parse(new StringReader(
                "network,asn,org\n8.8.8.0/24,15169,Example DNS\n2001:4860::/32,15169,Example DNS v6\n"))).dataset();
    }

    /** Answers from a map; counts calls and the most running at once. */
    private static final class FakeRegistry implements IpRegistrationLookup {
        final Map<String, RegistrationAnswer> answers = new ConcurrentHashMap<>();
        final List<String> asked = Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger maxRunning = new AtomicInteger();
        volatile CountDownLatch gate = new CountDownLatch(0);

        @Override
        public RegistrationAnswer lookup(String address) {
            asked.add(address);
            maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new RegistrationAnswer.Failed(true, "interrupted");
            } finally {
                running.decrementAndGet();
            }
            return answers.getOrDefault(address, new RegistrationAnswer.NotFound());
        }
    }

    @Test
    void eachAddress_isAnsweredInOrderWithItsOwnStatus() throws IOException {
        IpEnricher e = new IpEnricher(Optional.of(dataset()), Optional.empty());
        JsonObject json = e.enrich(List.of("8.8.8.8", "10.0.0.5", "1.1.1.1", "not-an-ip", "2001:4860::8888")).toJson();
        var results = json.getJsonArray("results");
        assertThat(results.getJsonObject(0).getString("status")).isEqualTo("found");
        assertThat(results.getJsonObject(0).getString("network")).isEqualTo("8.8.8.0/24");
        assertThat(results.getJsonObject(0).getJsonObject("attributes").getString("org")).isEqualTo("Example DNS");
        assertThat(results.getJsonObject(0).getString("source")).isEqualTo("dataset");
        assertThat(results.getJsonObject(1).getString("status")).isEqualTo("not_found");
        assertThat(results.getJsonObject(1).getString("scope")).isEqualTo("private");
        assertThat(results.getJsonObject(2).getString("note")).isEqualTo("not in the offline dataset");
        assertThat(results.getJsonObject(3).getString("status")).isEqualTo("invalid");
        assertThat(results.getJsonObject(3).getString("reason")).contains("not an IP address");
        assertThat(results.getJsonObject(4).getString("network")).isEqualTo("2001:4860::/32");
        assertThat(json.getJsonObject("summary").getInt("found")).isEqualTo(2);
        // 1.1.1.1 is public and uncovered: the note names the setting that would look it up
        assertThat(json.getString("note")).startsWith("1 public address is not in the offline dataset").contains("OMCP_IP_ENRICH_RDAP");
    }

    @Test
    void aRedactionPlaceholder_isNamedAsOne_ratherThanParsedAsABrokenIpv6Address() throws IOException {
        // query_logs hides addresses as [REDACTED:ipv4]; an agent enriching what it read there must learn why
        // it cannot, not that "each IPv6 group is 1 to 4 hex digits" (the colon made it look like IPv6)
        IpEnricher e = new IpEnricher(Optional.of(dataset()), Optional.empty());
        var result = e.enrich(List.of("[REDACTED:ipv4]", " [REDACTED:ipv6] ", "8.8.8.8")).toJson().getJsonArray("results");
        for (int i = 0; i < 2; i++) {
            assertThat(result.getJsonObject(i).getString("status")).isEqualTo("invalid");
            assertThat(result.getJsonObject(i).getString("reason"))
                    .startsWith("not an IP address: the placeholder redaction leaves where it hid an address")
                    .contains("alert").doesNotContain("IPv6 group");
        }
        assertThat(result.getJsonObject(2).getString("status")).as("the rest is still answered").isEqualTo("found");
    }

    @Test
    void aNetwork_isNotTakenForAnAddress_andSaysWhatToAskInstead() throws IOException {
        IpEnricher e = new IpEnricher(Optional.of(dataset()), Optional.empty());
        var result = e.enrich(List.of("8.8.8.0/24", "8.8.8.8")).toJson().getJsonArray("results");
        assertThat(result.getJsonObject(0).getString("status")).isEqualTo("invalid");
        assertThat(result.getJsonObject(0).getString("reason"))
                .isEqualTo("a network (CIDR) is not an address: ask for one address in it, for example 8.8.8.0");
        assertThat(result.getJsonObject(1).getString("status")).as("the rest is still answered").isEqualTo("found");
    }

    @Test
    void somethingWithASlashThatDoesNotStartWithAnAddress_isNotCalledANetwork_norOfferedAsAnAddressToAsk() throws IOException {
        IpEnricher e = new IpEnricher(Optional.of(dataset()), Optional.empty());
        var result = e.enrich(List.of("example.com/24", "/24", "2001:DB8::/32")).toJson().getJsonArray("results");
        // it read "a network (CIDR) is not an address: ask for one address in it, for example example.com"
        assertThat(result.getJsonObject(0).getString("reason")).doesNotContain("network").contains("host names are not resolved");
        assertThat(result.getJsonObject(1).getString("reason")).isEqualTo("empty address");
        assertThat(result.getJsonObject(2).getString("reason")).endsWith("for example 2001:db8::");
    }

    @Test
    void aDatasetThatCoversEveryPublicAddress_needsNoNote() throws IOException {
        IpEnricher e = new IpEnricher(Optional.of(dataset()), Optional.empty());
        JsonObject json = e.enrich(List.of("8.8.8.8", "10.0.0.5", "2001:4860::8888", "not-an-ip")).toJson();
        assertThat(json.containsKey("note")).isFalse();
    }

    @Test
    void moreThan1000Addresses_areRefusedWithAdviceToSplit() {
        IpEnricher e = new IpEnricher(Optional.empty(), Optional.empty());
        assertThatThrownBy(() -> e.enrich(Collections.nCopies(1001, "8.8.8.8")))
                .hasMessageContaining("at most 1000 addresses per call, got 1001").hasMessageContaining("split");
        assertThat(e.enrich(Collections.nCopies(1000, "8.8.8.8")).results()).hasSize(1000);
    }

    @Test
    void nothingConfigured_saysWhichVariablesEnableData() {
        IpEnricher.Result r = new IpEnricher(Optional.empty(), Optional.empty()).enrich(List.of("8.8.8.8"));
        assertThat(r.note()).hasValueSatisfying(n -> assertThat(n).contains("OMCP_IP_ENRICH_FILE").contains("OMCP_IP_ENRICH_RDAP"));
        assertThat(r.results().getFirst()).isInstanceOf(IpEnrichment.NotFound.class);
    }

    @Test
    void rdap_isAskedOnlyForPublicAddressesTheDatasetMisses_andAnswersAreCachedUntilTheTtl() throws IOException {
        FakeRegistry registry = new FakeRegistry();
        registry.answers.put("1.1.1.1", new RegistrationAnswer.Found("1.1.1.0/24", Map.of("name", "APNIC-LABS", "country", "AU")));
        RdapFallback rdap = new RdapFallback(registry, clock, new RdapFallback.Settings(4, Duration.ofSeconds(5), Duration.ofHours(1), 100));
        IpEnricher e = new IpEnricher(Optional.of(dataset()), Optional.of(rdap));
        IpEnricher.Result r = e.enrich(List.of("8.8.8.8", "10.0.0.1", "1.1.1.1", "9.9.9.9", "1.1.1.1"));
        assertThat(registry.asked).containsExactlyInAnyOrder("1.1.1.1", "9.9.9.9");
        IpEnrichment.Found cloudflare = (IpEnrichment.Found) r.results().get(2);
        assertThat(cloudflare.source()).isEqualTo("rdap");
        assertThat(cloudflare.attributes()).containsEntry("country", "AU");
        assertThat(r.results().get(4)).isEqualTo(cloudflare.withInput("1.1.1.1"));
        assertThat(((IpEnrichment.NotFound) r.results().get(3)).note()).contains("not registered according to RDAP");

        e.enrich(List.of("1.1.1.1", "9.9.9.9"));
        assertThat(registry.asked).as("cached").hasSize(2);
        clock.now = clock.now.plus(Duration.ofHours(2));
        e.enrich(List.of("1.1.1.1"));
        assertThat(registry.asked).as("expired").hasSize(3);
    }

    @Test
    void specialPurposeAddresses_thatAreNotGloballyReachable_areNeverSentToTheRegistry() {
        FakeRegistry registry = new FakeRegistry();
        RdapFallback rdap = new RdapFallback(registry, clock, RdapFallback.Settings.defaults());
        IpEnricher.Result r = new IpEnricher(Optional.empty(), Optional.of(rdap)).enrich(List.of(
                "192.0.0.170", "3fff::1", "2001:2::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "2002:c0a8:101::1",
                "10.0.0.1", "fe80::1%eth0", "::ffff:127.0.0.1", "64:ff9b::a00:1", "8.8.8.8", "2002:909:909::1"));
        assertThat(registry.asked).as("a 6to4 address is asked about as its IPv4 address").containsExactlyInAnyOrder("8.8.8.8", "9.9.9.9");
        assertThat(r.results().subList(0, 9)).allSatisfy(x -> assertThat(x).isInstanceOf(IpEnrichment.NotFound.class));
    }

    @Test
    void aCallWithUnavailableLookups_isPartial_andOneWithoutIsNot() {
        FakeRegistry registry = new FakeRegistry();
        registry.answers.put("1.1.1.1", new RegistrationAnswer.Failed(true, "registry answered 503"));
        IpEnricher e = new IpEnricher(Optional.empty(), Optional.of(new RdapFallback(registry, clock, RdapFallback.Settings.defaults())));
        JsonObject failed = e.enrich(List.of("9.9.9.9", "1.1.1.1", "10.0.0.1")).toJson();
        assertThat(failed.getBoolean("partial")).isTrue();
        assertThat(failed.getJsonObject("summary").getInt("unavailable")).isEqualTo(1);
        assertThat(failed.getJsonArray("results").getJsonObject(1).getString("input")).as("the failed lookup is named").isEqualTo("1.1.1.1");
        assertThat(e.enrich(List.of("9.9.9.9", "10.0.0.1", "nonsense")).toJson().getBoolean("partial")).isFalse();
    }

    @Test
    void theCache_keepsAtMostMaxCachedAnswers_evictingTheLeastRecentlyUsed() {
        FakeRegistry registry = new FakeRegistry();
        RdapFallback rdap = new RdapFallback(registry, clock, new RdapFallback.Settings(4, Duration.ofSeconds(5), Duration.ofHours(1), 2));
        IpEnricher e = new IpEnricher(Optional.empty(), Optional.of(rdap));
        e.enrich(List.of("1.1.1.1", "8.8.8.8"));
        e.enrich(List.of("1.1.1.1"));
        e.enrich(List.of("9.9.9.9"));
        assertThat(rdap.cached()).isEqualTo(2);
        e.enrich(List.of("1.1.1.1", "8.8.8.8"));
        // 8.8.8.8, the least recently used, was evicted and is asked again; 1.1.1.1 was kept
        assertThat(registry.asked).hasSize(4);
        assertThat(registry.asked.getLast()).isEqualTo("8.8.8.8");
        assertThat(Collections.frequency(registry.asked, "1.1.1.1")).isEqualTo(1);
    }

    @Test
    void transientFailures_areReportedAsSuchAndNotCached() {
        FakeRegistry registry = new FakeRegistry();
        registry.answers.put("1.1.1.1", new RegistrationAnswer.Failed(true, "registry answered 503"));
        RdapFallback rdap = new RdapFallback(registry, clock, RdapFallback.Settings.defaults());
        IpEnricher e = new IpEnricher(Optional.empty(), Optional.of(rdap));
        JsonObject json = e.enrich(List.of("1.1.1.1")).toJson().getJsonArray("results").getJsonObject(0);
        assertThat(json.getString("status")).isEqualTo("unavailable");
        assertThat(json.getBoolean("transient")).isTrue();
        assertThat(json.getString("reason")).isEqualTo("registry answered 503");
        e.enrich(List.of("1.1.1.1"));
        assertThat(registry.asked).as("a failure is asked again").hasSize(2);
        assertThat(rdap.cached()).isZero();
    }

    @Test
    void lookups_runAtMostMaxParallelAtOnce() throws InterruptedException {
        FakeRegistry registry = new FakeRegistry();
        registry.gate = new CountDownLatch(1);
        RdapFallback rdap = new RdapFallback(registry, clock, new RdapFallback.Settings(3, Duration.ofSeconds(20), Duration.ofHours(1), 100));
        List<String> many = new ArrayList<>();
        for (int i = 1; i <= 30; i++) {
            many.add("1.1.1." + i);
        }
        // opens the gate once three lookups are held inside it (or after 10 s, which then fails the test below)
        Thread releaser = Thread.ofVirtual().start(() -> {
            long giveUp = System.nanoTime() + 10_000_000_000L;
            while (registry.running.get() < 3 && System.nanoTime() < giveUp) {
                Thread.onSpinWait();
            }
            registry.gate.countDown();
        });
        IpEnricher.Result r = new IpEnricher(Optional.empty(), Optional.of(rdap)).enrich(many);
        assertThat(r.results()).hasSize(30);
        assertThat(registry.maxRunning.get()).isEqualTo(3);
        assertThat(registry.asked).hasSize(30);
        assertThat(releaser.join(Duration.ofSeconds(10))).isTrue();
    }

    @Test
    void registryThatDoesNotAnswerInTime_givesTransientFailuresWithinTheDeadline() {
        FakeRegistry registry = new FakeRegistry();
        registry.gate = new CountDownLatch(1); // never released
        RdapFallback rdap = new RdapFallback(registry, clock, new RdapFallback.Settings(2, Duration.ofMillis(300), Duration.ofHours(1), 100));
        long t0 = System.nanoTime();
        IpEnricher.Result r = new IpEnricher(Optional.empty(), Optional.of(rdap)).enrich(List.of("1.1.1.1", "1.0.0.1", "8.8.4.4"));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(r.results()).allSatisfy(x -> {
            assertThat(x).isInstanceOf(IpEnrichment.Unavailable.class);
            assertThat(((IpEnrichment.Unavailable) x).transientFailure()).isTrue();
            assertThat(((IpEnrichment.Unavailable) x).reason()).contains("no RDAP answer within");
        });
        assertThat(ms).isLessThan(5_000);
        assertThat(rdap.cached()).isZero();
    }

    @Test
    void anIpv4AddressWithAZone_isInvalidSayingWhy_andNeitherLookedUpNorAnsweredAsThePlainAddress() {
        FakeRegistry registry = new FakeRegistry();
        IpEnricher e = new IpEnricher(Optional.empty(), Optional.of(new RdapFallback(registry, clock, RdapFallback.Settings.defaults())));

        JsonObject json = e.enrich(List.of("1.2.3.4%eth0", "fe80::1%eth0", "1.2.3.4")).toJson();

        var results = json.getJsonArray("results");
        assertThat(results.getJsonObject(0).getString("input")).isEqualTo("1.2.3.4%eth0");
        assertThat(results.getJsonObject(0).getString("status")).isEqualTo("invalid");
        assertThat(results.getJsonObject(0).getString("reason")).isEqualTo("not an IP address: a zone ('%' and an interface name) "
                + "belongs only to an IPv6 address such as fe80::1%eth0, never to an IPv4 one; ask for 1.2.3.4 without it");
        assertThat(results.getJsonObject(1).getString("status")).as("a zone on an IPv6 link-local address is fine").isEqualTo("not_found");
        assertThat(results.getJsonObject(1).getString("scope")).isEqualTo("link-local");
        assertThat(results.getJsonObject(2).getString("status")).isEqualTo("not_found");
        assertThat(registry.asked).as("only the plain address is asked about").containsExactly("1.2.3.4");
        assertThat(json.getJsonObject("summary").getInt("invalid")).isEqualTo(1);
    }

    /** Waits until every thread waits (for a registry answer), or fails after 10 s. */
    private static void untilAllWait(List<Thread> threads) {
        long giveUp = System.nanoTime() + 10_000_000_000L;
        while (!threads.stream().allMatch(t -> t.getState() == Thread.State.WAITING || t.getState() == Thread.State.TIMED_WAITING)) {
            assertThat(System.nanoTime()).as("the callers wait for the registry within 10 s").isLessThan(giveUp);
            Thread.onSpinWait();
        }
    }

    @Test
    void concurrentCallsForTheSameAddress_shareOneRegistryLookup_andEachGetsItsAnswer() throws InterruptedException {
        FakeRegistry registry = new FakeRegistry();
        registry.gate = new CountDownLatch(1);
        registry.answers.put("1.1.1.1", new RegistrationAnswer.Found("1.1.1.0/24", Map.of("name", "APNIC-LABS")));
        RdapFallback rdap = new RdapFallback(registry, clock, new RdapFallback.Settings(4, Duration.ofSeconds(20), Duration.ofHours(1), 100));
        IpEnricher enricher = new IpEnricher(Optional.empty(), Optional.of(rdap));
        List<IpEnricher.Result> results = Collections.synchronizedList(new ArrayList<>());
        List<Thread> callers = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            callers.add(Thread.ofVirtual().start(() -> results.add(enricher.enrich(List.of("1.1.1.1", "1.1.1.1")))));
        }
        untilAllWait(callers);
        registry.gate.countDown();
        for (Thread t : callers) {
            assertThat(t.join(Duration.ofSeconds(10))).isTrue();
        }

        assertThat(registry.asked).as("one lookup for six calls").containsExactly("1.1.1.1");
        assertThat(results).hasSize(6).allSatisfy(r -> assertThat(r.results()).hasSize(2).allSatisfy(x ->
                assertThat(x).isInstanceOfSatisfying(IpEnrichment.Found.class, f -> assertThat(f.network()).isEqualTo("1.1.1.0/24"))));
        assertThat(rdap.lookupsInFlight()).isZero();
        assertThat(rdap.cached()).isEqualTo(1);
    }

    @Test
    void aSharedLookup_outlivesTheCallThatStartedIt_whileAnotherCallStillWaitsForIt() throws InterruptedException {
        FakeRegistry registry = new FakeRegistry();
        registry.gate = new CountDownLatch(1);
        RdapFallback rdap = new RdapFallback(registry, clock, new RdapFallback.Settings(4, Duration.ofSeconds(20), Duration.ofHours(1), 100));
        IpEnricher enricher = new IpEnricher(Optional.empty(), Optional.of(rdap));
        IpEnricher.Result[] hasty = new IpEnricher.Result[1];
        IpEnricher.Result[] patient = new IpEnricher.Result[1];
        Thread first = Thread.ofVirtual().start(() -> hasty[0] = enricher.enrich(List.of("9.9.9.9"), Duration.ofMillis(1500)));
        untilAllWait(List.of(first));
        Thread second = Thread.ofVirtual().start(() -> patient[0] = enricher.enrich(List.of("9.9.9.9"), Duration.ofSeconds(20)));
        untilAllWait(List.of(second));
        assertThat(first.join(Duration.ofSeconds(10))).isTrue();
        assertThat(hasty[0].results().getFirst()).isInstanceOf(IpEnrichment.Unavailable.class);

        registry.gate.countDown();
        assertThat(second.join(Duration.ofSeconds(10))).isTrue();

        assertThat(patient[0].results().getFirst()).as("not cancelled with the first call").isInstanceOf(IpEnrichment.NotFound.class);
        assertThat(registry.asked).containsExactly("9.9.9.9");
        assertThat(rdap.lookupsInFlight()).isZero();
    }

    @Test
    void aLookupEveryCallerGaveUpOn_isCancelledAndForgotten_soTheNextCallAsksAgain() {
        FakeRegistry registry = new FakeRegistry();
        registry.gate = new CountDownLatch(1);
        RdapFallback rdap = new RdapFallback(registry, clock, new RdapFallback.Settings(2, Duration.ofMillis(200), Duration.ofHours(1), 100));
        IpEnricher enricher = new IpEnricher(Optional.empty(), Optional.of(rdap));

        assertThat(enricher.enrich(List.of("9.9.9.9")).results().getFirst()).isInstanceOf(IpEnrichment.Unavailable.class);
        assertThat(rdap.lookupsInFlight()).as("nothing kept for a lookup nobody waits for").isZero();
        long giveUp = System.nanoTime() + 10_000_000_000L;
        while (registry.running.get() > 0) {
            assertThat(System.nanoTime()).as("the abandoned lookup is interrupted").isLessThan(giveUp);
            Thread.onSpinWait();
        }

        registry.gate.countDown();
        assertThat(enricher.enrich(List.of("9.9.9.9")).results().getFirst()).isInstanceOf(IpEnrichment.NotFound.class);
        assertThat(registry.asked).containsExactly("9.9.9.9", "9.9.9.9");
        assertThat(rdap.lookupsInFlight()).isZero();
    }

    @Test
    void aLookupThatThrows_isReportedAsUnavailable_andForgotten() {
        IpRegistrationLookup broken = address -> {
            throw new IllegalStateException("adapter bug");
        };
        RdapFallback rdap = new RdapFallback(broken, clock, RdapFallback.Settings.defaults());

        IpEnricher.Result r = new IpEnricher(Optional.empty(), Optional.of(rdap)).enrich(List.of("9.9.9.9"));

        assertThat(r.results().getFirst()).isInstanceOfSatisfying(IpEnrichment.Unavailable.class,
                u -> assertThat(u.reason()).isEqualTo("the RDAP lookup failed: IllegalStateException"));
        assertThat(rdap.lookupsInFlight()).isZero();
        assertThat(rdap.cached()).isZero();
    }

    /** A fallback that waits up to 10 s a call and keeps answers for an hour. */
    private static RdapFallback.Settings settings(int maxParallel, int maxCached) {
        return new RdapFallback.Settings(maxParallel, Duration.ofSeconds(10), Duration.ofHours(1), maxCached);
    }

    @Test
    void aNat64Address_isEnrichedAsTheIpv4ItEmbeds_fromTheDatasetAndTheRegistries_andSaysSo() throws IOException {
        FakeRegistry registry = new FakeRegistry();
        registry.answers.put("1.1.1.1", new RegistrationAnswer.Found("1.1.1.0/24", Map.of("name", "APNIC-LABS")));
        IpEnricher e = new IpEnricher(Optional.of(dataset()),
                Optional.of(new RdapFallback(registry, clock, RdapFallback.Settings.defaults())));

        var results = e.enrich(List.of("64:ff9b::808:808", "64:ff9b::1.1.1.1")).toJson().getJsonArray("results");

        JsonObject dns = results.getJsonObject(0);
        assertThat(dns.getString("status")).isEqualTo("found");
        assertThat(dns.getString("address")).isEqualTo("64:ff9b::8.8.8.8");
        assertThat(dns.getString("embedding")).isEqualTo("nat64");
        assertThat(dns.getString("ipv4")).isEqualTo("8.8.8.8");
        assertThat(dns.getString("scope")).isEqualTo("public");
        assertThat(dns.getString("network")).isEqualTo("8.8.8.0/24");
        assertThat(dns.getString("source")).isEqualTo("dataset");
        JsonObject labs = results.getJsonObject(1);
        assertThat(labs.getString("status")).isEqualTo("found");
        assertThat(labs.getString("ipv4")).isEqualTo("1.1.1.1");
        assertThat(labs.getString("network")).isEqualTo("1.1.1.0/24");
        assertThat(labs.getString("source")).isEqualTo("rdap");
        assertThat(registry.asked).as("the registries are asked about the IPv4 address").containsExactly("1.1.1.1");
    }

    @Test
    void aNat64AddressOfANonPublicIpv4_isClassedAsThatAddress_andNeverSentToTheRegistries() {
        FakeRegistry registry = new FakeRegistry();
        IpEnricher e = new IpEnricher(Optional.empty(), Optional.of(new RdapFallback(registry, clock, RdapFallback.Settings.defaults())));

        JsonObject pod = e.enrich(List.of("64:ff9b::10.42.0.12")).toJson().getJsonArray("results").getJsonObject(0);

        assertThat(pod.getString("status")).isEqualTo("not_found");
        assertThat(pod.getString("scope")).isEqualTo("private");
        assertThat(pod.getString("ipv4")).isEqualTo("10.42.0.12");
        assertThat(pod.getString("embedding")).isEqualTo("nat64");
        // RFC 6052 section 3.1: the well-known prefix must not carry a non-global IPv4 address
        assertThat(pod.getString("note")).contains("RFC 6052").contains("10.42.0.12");
        assertThat(registry.asked).isEmpty();
    }

    @Test
    void anAddressUnderTheOperatorsNat64Prefix_isAnsweredForTheIpv4ItCarries_namingThePrefix() throws IOException {
        FakeRegistry registry = new FakeRegistry();
        Nat64Prefixes operators = new Nat64Prefixes(List.of(new Nat64Prefix(0x2001_0db8_0100_0000L, 0, 40),
                new Nat64Prefix(0x0064_ff9b_0001_0000L, 0, 96)));
        RdapFallback rdap = new RdapFallback(registry, clock, RdapFallback.Settings.defaults());
        IpEnricher e = new IpEnricher(Optional.of(dataset()), Optional.of(rdap), operators);

        // RFC 6052 section 2.4's layout for a /40: 8.8.8.8 and 10.42.0.12, and a local-use /96 the operator named
        var results = e.enrich(List.of("2001:db8:108:808:8::", "2001:db8:10a:2a00:c::", "64:ff9b:1::a2a:c")).toJson()
                .getJsonArray("results");

        JsonObject dns = results.getJsonObject(0);
        assertThat(dns.getString("status")).isEqualTo("found");
        assertThat(dns.getString("address")).isEqualTo("2001:db8:108:808:8::");
        assertThat(dns.getString("embedding")).isEqualTo("nat64");
        assertThat(dns.getString("nat64Prefix")).isEqualTo("2001:db8:100::/40");
        assertThat(dns.getString("ipv4")).isEqualTo("8.8.8.8");
        assertThat(dns.getString("network")).isEqualTo("8.8.8.0/24");
        JsonObject pod = results.getJsonObject(1);
        assertThat(pod.getString("status")).isEqualTo("not_found");
        assertThat(pod.getString("ipv4")).isEqualTo("10.42.0.12");
        assertThat(pod.getString("scope")).isEqualTo("private");
        assertThat(pod.getString("note")).contains("2001:db8:100::/40").contains("10.42.0.12").doesNotContain("forbids");
        JsonObject local = results.getJsonObject(2);
        assertThat(local.getString("embedding")).isEqualTo("nat64");
        assertThat(local.getString("nat64Prefix")).isEqualTo("64:ff9b:1::/96");
        assertThat(local.getString("ipv4")).isEqualTo("10.42.0.12");
        assertThat(registry.asked).isEmpty();
        assertThat(new IpEnricher(Optional.empty(), Optional.empty()).enrich(List.of("64:ff9b::808:808")).toJson()
                .getJsonArray("results").getJsonObject(0).getString("nat64Prefix")).as("the well-known prefix is named too")
                .isEqualTo("64:ff9b::/96");
    }

    @Test
    void aLocalUseNat64Address_isReportedAsSuch_withoutGuessingTheIpv4ItEmbeds() {
        FakeRegistry registry = new FakeRegistry();
        IpEnricher e = new IpEnricher(Optional.empty(), Optional.of(new RdapFallback(registry, clock, RdapFallback.Settings.defaults())));

        JsonObject local = e.enrich(List.of("64:ff9b:1::808:808")).toJson().getJsonArray("results").getJsonObject(0);

        assertThat(local.getString("status")).isEqualTo("not_found");
        assertThat(local.getString("scope")).isEqualTo("reserved");
        assertThat(local.getString("embedding")).isEqualTo("nat64-local-use");
        assertThat(local.containsKey("ipv4")).isFalse();
        assertThat(local.getString("note")).contains("RFC 8215").contains("prefix length");
        assertThat(registry.asked).isEmpty();
    }

    @Test
    void anIpv4MappedAddress_isAnsweredLikeANat64One_namingTheIpv4ItLooksUp() throws IOException {
        IpEnricher e = new IpEnricher(Optional.of(dataset()), Optional.empty());

        var results = e.enrich(List.of("::ffff:8.8.8.8", "::FFFF:808:808", "8.8.8.8")).toJson().getJsonArray("results");

        for (int i = 0; i < 2; i++) {
            JsonObject mapped = results.getJsonObject(i);
            assertThat(mapped.getString("status")).isEqualTo("found");
            assertThat(mapped.getString("address")).isEqualTo("::ffff:8.8.8.8");
            assertThat(mapped.getString("embedding")).isEqualTo("ipv4-mapped");
            assertThat(mapped.getString("ipv4")).isEqualTo("8.8.8.8");
            assertThat(mapped.getString("network")).isEqualTo("8.8.8.0/24");
        }
        JsonObject plain = results.getJsonObject(2);
        assertThat(plain.getString("address")).isEqualTo("8.8.8.8");
        assertThat(plain.containsKey("embedding")).as("a plain IPv4 address embeds nothing").isFalse();
        assertThat(plain.containsKey("ipv4")).isFalse();
    }

    @Test
    void a6to4Address_isEnrichedAsTheIpv4OfItsSite_fromTheDatasetAndTheRegistries_andSaysSo() throws IOException {
        FakeRegistry registry = new FakeRegistry();
        registry.answers.put("1.1.1.1", new RegistrationAnswer.Found("1.1.1.0/24", Map.of("name", "APNIC-LABS")));
        IpEnricher e = new IpEnricher(Optional.of(dataset()),
                Optional.of(new RdapFallback(registry, clock, RdapFallback.Settings.defaults())));

        var results = e.enrich(List.of("2002:808:808::1", "2002:101:101:5::17")).toJson().getJsonArray("results");

        JsonObject dns = results.getJsonObject(0);
        assertThat(dns.getString("status")).isEqualTo("found");
        assertThat(dns.getString("address")).isEqualTo("2002:808:808::1");
        assertThat(dns.getString("embedding")).isEqualTo("6to4");
        assertThat(dns.getString("ipv4")).isEqualTo("8.8.8.8");
        assertThat(dns.getString("scope")).isEqualTo("public");
        assertThat(dns.getString("network")).isEqualTo("8.8.8.0/24");
        assertThat(dns.getString("source")).isEqualTo("dataset");
        assertThat(dns.containsKey("teredoServer")).isFalse();
        assertThat(dns.containsKey("teredoClientPort")).isFalse();
        JsonObject labs = results.getJsonObject(1);
        assertThat(labs.getString("ipv4")).isEqualTo("1.1.1.1");
        assertThat(labs.getString("network")).isEqualTo("1.1.1.0/24");
        assertThat(labs.getString("source")).isEqualTo("rdap");
        assertThat(registry.asked).as("the registries are asked about the site's IPv4 address").containsExactly("1.1.1.1");
    }

    @Test
    void a6to4AddressOfANonPublicIpv4_isClassedAsThatAddress_andNeverSentToTheRegistries() {
        FakeRegistry registry = new FakeRegistry();
        IpEnricher e = new IpEnricher(Optional.empty(), Optional.of(new RdapFallback(registry, clock, RdapFallback.Settings.defaults())));

        JsonObject home = e.enrich(List.of("2002:c0a8:101::1")).toJson().getJsonArray("results").getJsonObject(0);

        assertThat(home.getString("status")).isEqualTo("not_found");
        assertThat(home.getString("scope")).isEqualTo("private");
        assertThat(home.getString("embedding")).isEqualTo("6to4");
        assertThat(home.getString("ipv4")).isEqualTo("192.168.1.1");
        // RFC 3056 section 2: a 6to4 prefix is made of the site's globally unique IPv4 address
        assertThat(home.getString("note")).contains("RFC 3056").contains("192.168.1.1");
        assertThat(registry.asked).isEmpty();
    }

    @Test
    void aTeredoAddress_isEnrichedAsItsClientsPublicIpv4_andNamesItsServer() throws IOException {
        FakeRegistry registry = new FakeRegistry();
        registry.answers.put("1.1.1.1", new RegistrationAnswer.Found("1.1.1.0/24", Map.of("name", "APNIC-LABS")));
        IpEnricher e = new IpEnricher(Optional.of(dataset()),
                Optional.of(new RdapFallback(registry, clock, RdapFallback.Settings.defaults())));

        // RFC 4380 section 4: server 65.54.227.120 in bits 32-63, client 8.8.8.8 and 1.1.1.1 inverted in the last 32 bits
        var results = e.enrich(List.of("2001:0:4136:e378:8000:63bf:f7f7:f7f7", "2001:0:4136:e378:8000:63bf:fefe:fefe"))
                .toJson().getJsonArray("results");

        JsonObject dns = results.getJsonObject(0);
        assertThat(dns.getString("status")).isEqualTo("found");
        assertThat(dns.getString("address")).isEqualTo("2001:0:4136:e378:8000:63bf:f7f7:f7f7");
        assertThat(dns.getString("embedding")).isEqualTo("teredo");
        assertThat(dns.getString("ipv4")).isEqualTo("8.8.8.8");
        assertThat(dns.getString("teredoServer")).isEqualTo("65.54.227.120");
        // bits 80-95, 0x63bf, are the client's port 40000 with every bit inverted
        assertThat(dns.getInt("teredoClientPort")).isEqualTo(40000);
        assertThat(dns.getString("scope")).isEqualTo("public");
        assertThat(dns.getString("network")).isEqualTo("8.8.8.0/24");
        JsonObject labs = results.getJsonObject(1);
        assertThat(labs.getString("ipv4")).isEqualTo("1.1.1.1");
        assertThat(labs.getString("source")).isEqualTo("rdap");
        assertThat(registry.asked).as("the client's address is asked about, not the server's").containsExactly("1.1.1.1");
    }

    @Test
    void aTeredoAddressOfANonPublicClient_isClassedAsThatAddress_andNeverSentToTheRegistries() {
        FakeRegistry registry = new FakeRegistry();
        IpEnricher e = new IpEnricher(Optional.empty(), Optional.of(new RdapFallback(registry, clock, RdapFallback.Settings.defaults())));

        // the RFC 4380 example client, 192.0.2.45: documentation space
        JsonObject example = e.enrich(List.of("2001:0:4136:e378:8000:63bf:3fff:fdd2")).toJson().getJsonArray("results").getJsonObject(0);

        assertThat(example.getString("status")).isEqualTo("not_found");
        assertThat(example.getString("scope")).isEqualTo("documentation");
        assertThat(example.getString("embedding")).isEqualTo("teredo");
        assertThat(example.getString("ipv4")).isEqualTo("192.0.2.45");
        assertThat(example.getString("teredoServer")).isEqualTo("65.54.227.120");
        assertThat(example.getInt("teredoClientPort")).as("RFC 4380 section 4's example port").isEqualTo(40000);
        assertThat(example.getString("note")).contains("Teredo").contains("192.0.2.45");
        assertThat(registry.asked).isEmpty();
    }

    @Test
    void aTeredoClientPort_isReadInvertedFromBits80To95_atBothEndsOfItsRange() {
        IpEnricher e = new IpEnricher(Optional.empty(), Optional.empty());

        var results = e.enrich(List.of("2001:0:4136:e378:8000:ffff:f7f7:f7f7", "2001:0:4136:e378:8000:0:f7f7:f7f7",
                "2001:0:4136:e378:8000:fb6b:f7f7:f7f7")).toJson().getJsonArray("results");

        assertThat(results.stream().map(r -> r.asJsonObject().getInt("teredoClientPort"))).containsExactly(0, 65535, 1172);
    }

    @Test
    void anIpv4TranslatedAddress_isEnrichedAsTheIpv4ItEmbeds_andSaysSo() throws IOException {
        FakeRegistry registry = new FakeRegistry();
        registry.answers.put("1.1.1.1", new RegistrationAnswer.Found("1.1.1.0/24", Map.of("name", "APNIC-LABS")));
        IpEnricher e = new IpEnricher(Optional.of(dataset()),
                Optional.of(new RdapFallback(registry, clock, RdapFallback.Settings.defaults())));

        // RFC 2765 section 2.1 (SIIT): ::ffff:0:a.b.c.d names an IPv6 node by the IPv4 address the translator gave it
        var results = e.enrich(List.of("::ffff:0:8.8.8.8", "::FFFF:0:101:101", "::ffff:0:10.42.0.12")).toJson().getJsonArray("results");

        JsonObject dns = results.getJsonObject(0);
        assertThat(dns.getString("status")).isEqualTo("found");
        assertThat(dns.getString("address")).isEqualTo("::ffff:0:8.8.8.8");
        assertThat(dns.getString("embedding")).isEqualTo("ipv4-translated");
        assertThat(dns.getString("ipv4")).isEqualTo("8.8.8.8");
        assertThat(dns.getString("scope")).isEqualTo("public");
        assertThat(dns.getString("network")).isEqualTo("8.8.8.0/24");
        JsonObject labs = results.getJsonObject(1);
        assertThat(labs.getString("address")).isEqualTo("::ffff:0:1.1.1.1");
        assertThat(labs.getString("ipv4")).isEqualTo("1.1.1.1");
        assertThat(labs.getString("source")).isEqualTo("rdap");
        JsonObject pod = results.getJsonObject(2);
        assertThat(pod.getString("status")).isEqualTo("not_found");
        assertThat(pod.getString("scope")).isEqualTo("private");
        assertThat(pod.getString("embedding")).isEqualTo("ipv4-translated");
        assertThat(pod.getString("note")).contains("10.42.0.12").contains("private");
        assertThat(registry.asked).as("only the public IPv4 address is asked about").containsExactly("1.1.1.1");
    }

    @Test
    void anIpv4CompatibleAddress_isReservedAndNotLookedUp_andAnIsatapOneIsLookedUpAsItself() throws IOException {
        FakeRegistry registry = new FakeRegistry();
        IpEnricher e = new IpEnricher(Optional.of(dataset()),
                Optional.of(new RdapFallback(registry, clock, RdapFallback.Settings.defaults())));

        var results = e.enrich(List.of("::8.8.8.8", "::1", "2a00:1450::5efe:c0a8:101")).toJson().getJsonArray("results");

        JsonObject compatible = results.getJsonObject(0);
        assertThat(compatible.getString("status")).isEqualTo("not_found");
        assertThat(compatible.getString("address")).isEqualTo("::8.8.8.8");
        assertThat(compatible.getString("scope")).isEqualTo("reserved");
        assertThat(compatible.getString("embedding")).isEqualTo("ipv4-compatible");
        assertThat(compatible.containsKey("ipv4")).as("the deprecated form is not answered for its IPv4 address").isFalse();
        assertThat(compatible.getString("note")).contains("RFC 4291").contains("deprecated");
        JsonObject loopback = results.getJsonObject(1);
        assertThat(loopback.getString("scope")).isEqualTo("loopback");
        assertThat(loopback.containsKey("embedding")).isFalse();
        JsonObject isatap = results.getJsonObject(2);
        assertThat(isatap.containsKey("embedding")).as("ISATAP: the prefix, not the IPv4 address inside the site, is the owner's")
                .isFalse();
        assertThat(registry.asked).containsExactly("2a00:1450::5efe:c0a8:101");
    }

    @Test
    void aRegistryAnswer_coversTheOtherAddressesOfItsNetwork_untilItExpires() {
        FakeRegistry registry = new FakeRegistry();
        registry.answers.put("1.1.1.1", new RegistrationAnswer.Found("1.1.1.0/24", Map.of("name", "APNIC-LABS")));
        RdapFallback rdap = new RdapFallback(registry, clock, settings(4, 100));
        IpEnricher e = new IpEnricher(Optional.empty(), Optional.of(rdap));
        e.enrich(List.of("1.1.1.1"));

        IpEnricher.Result r = e.enrich(List.of("1.1.1.7", "1.1.1.255", "64:ff9b::1.1.1.9", "1.1.2.1"));

        assertThat(registry.asked).as("only the address outside the cached network is asked").containsExactly("1.1.1.1", "1.1.2.1");
        assertThat(r.results().subList(0, 3)).allSatisfy(x -> assertThat(x).isInstanceOfSatisfying(IpEnrichment.Found.class, f -> {
            assertThat(f.network()).isEqualTo("1.1.1.0/24");
            assertThat(f.source()).isEqualTo("rdap");
        }));
        assertThat(rdap.cached()).as("one network and one address").isEqualTo(2);
        clock.now = clock.now.plus(Duration.ofHours(2));
        e.enrich(List.of("1.1.1.7"));
        assertThat(registry.asked).as("expired").containsExactly("1.1.1.1", "1.1.2.1", "1.1.1.7");
    }

    @Test
    void manyAddressesOfOneNetworkInOneCall_askTheRegistryOnce_whenLookupsRunOneAtATime() {
        FakeRegistry registry = new FakeRegistry();
        for (int i = 1; i <= 100; i++) {
            registry.answers.put("81.2.69." + i, new RegistrationAnswer.Found("81.2.69.0/24", Map.of("name", "EXAMPLE-NET")));
        }
        RdapFallback rdap = new RdapFallback(registry, clock, settings(1, 100));
        List<String> log = new ArrayList<>();
        for (int i = 1; i <= 100; i++) {
            log.add("81.2.69." + i);
        }

        IpEnricher.Result r = new IpEnricher(Optional.empty(), Optional.of(rdap)).enrich(log);

        assertThat(registry.asked).hasSize(1);
        assertThat(r.results()).hasSize(100).allSatisfy(x -> assertThat(x).isInstanceOfSatisfying(IpEnrichment.Found.class,
                f -> assertThat(f.network()).isEqualTo("81.2.69.0/24")));
    }

    @Test
    void aNetworkThatDoesNotHoldTheAskedAddress_isNeverUsedForOtherAddresses() {
        FakeRegistry registry = new FakeRegistry();
        // a hostile or broken registry claims an unrelated network for 1.1.1.1
        registry.answers.put("1.1.1.1", new RegistrationAnswer.Found("9.9.9.0/24", Map.of("name", "NOT-IT")));
        registry.answers.put("1.0.0.1", new RegistrationAnswer.Found("not a network", Map.of("name", "GARBLED")));
        RdapFallback rdap = new RdapFallback(registry, clock, settings(4, 100));
        IpEnricher e = new IpEnricher(Optional.empty(), Optional.of(rdap));
        e.enrich(List.of("1.1.1.1", "1.0.0.1"));

        e.enrich(List.of("9.9.9.9", "1.1.1.1", "1.0.0.2", "1.0.0.1"));

        assertThat(registry.asked).as("each answer is kept for its own address only")
                .containsExactlyInAnyOrder("1.1.1.1", "1.0.0.1", "9.9.9.9", "1.0.0.2");
    }

    @Test
    void aVeryBroadNetwork_isKeptForTheAskedAddressOnly_andANarrowerOneForItsWholeRange() {
        FakeRegistry registry = new FakeRegistry();
        registry.answers.put("23.1.1.1", new RegistrationAnswer.Found("23.0.0.0/8", Map.of("name", "REGISTRY-POOL")));
        registry.answers.put("5.1.1.1", new RegistrationAnswer.Found("5.0.0.0/15", Map.of("name", "WIDE")));
        registry.answers.put("31.1.1.1", new RegistrationAnswer.Found("31.1.0.0/16", Map.of("name", "ISP")));
        registry.answers.put("2a00:1::1", new RegistrationAnswer.Found("2a00::/12", Map.of("name", "RIR-POOL")));
        registry.answers.put("2a01:1::1", new RegistrationAnswer.Found("2a01:1::/32", Map.of("name", "LIR")));
        RdapFallback rdap = new RdapFallback(registry, clock, settings(4, 100));
        IpEnricher e = new IpEnricher(Optional.empty(), Optional.of(rdap));
        e.enrich(List.of("23.1.1.1", "5.1.1.1", "31.1.1.1", "2a00:1::1", "2a01:1::1"));

        e.enrich(List.of("23.1.1.2", "5.1.1.2", "31.1.200.1", "2a00:1::2", "2a01:1:ffff::9", "23.1.1.1"));

        assertThat(registry.asked.subList(5, registry.asked.size())).as("wider than /16 (IPv4) or /32 (IPv6): asked again")
                .containsExactlyInAnyOrder("23.1.1.2", "5.1.1.2", "2a00:1::2");
    }

    @Test
    void theMostSpecificCachedNetwork_answers() {
        FakeRegistry registry = new FakeRegistry();
        registry.answers.put("31.1.5.1", new RegistrationAnswer.Found("31.1.5.0/24", Map.of("name", "CUSTOMER")));
        registry.answers.put("31.1.1.1", new RegistrationAnswer.Found("31.1.0.0/16", Map.of("name", "ISP")));
        RdapFallback rdap = new RdapFallback(registry, clock, settings(4, 100));
        IpEnricher e = new IpEnricher(Optional.empty(), Optional.of(rdap));
        e.enrich(List.of("31.1.5.1"));
        e.enrich(List.of("31.1.1.1"));

        IpEnricher.Result r = e.enrich(List.of("31.1.5.77", "31.1.9.9"));

        assertThat(((IpEnrichment.Found) r.results().get(0)).attributes()).containsEntry("name", "CUSTOMER");
        assertThat(((IpEnrichment.Found) r.results().get(1)).attributes()).containsEntry("name", "ISP");
        assertThat(registry.asked).hasSize(2);
    }

    @Test
    void cachedNetworks_countTowardsMaxCached() {
        FakeRegistry registry = new FakeRegistry();
        registry.answers.put("1.1.1.1", new RegistrationAnswer.Found("1.1.1.0/24", Map.of()));
        registry.answers.put("8.8.8.8", new RegistrationAnswer.Found("8.8.8.0/24", Map.of()));
        registry.answers.put("9.9.9.9", new RegistrationAnswer.Found("9.9.9.0/24", Map.of()));
        RdapFallback rdap = new RdapFallback(registry, clock, settings(4, 2));
        IpEnricher e = new IpEnricher(Optional.empty(), Optional.of(rdap));
        e.enrich(List.of("1.1.1.1"));
        e.enrich(List.of("8.8.8.8"));
        e.enrich(List.of("9.9.9.9"));

        e.enrich(List.of("1.1.1.2", "9.9.9.2"));

        assertThat(rdap.cached()).isEqualTo(2);
        assertThat(registry.asked).as("the least recently used network was evicted")
                .containsExactly("1.1.1.1", "8.8.8.8", "9.9.9.9", "1.1.1.2");
    }

    @Test
    void settings_refuseNonsense() {
        assertThatThrownBy(() -> new RdapFallback.Settings(0, Duration.ofSeconds(1), Duration.ofHours(1), 10)).hasMessageContaining("maxParallel");
        assertThatThrownBy(() -> new RdapFallback.Settings(2, Duration.ZERO, Duration.ofHours(1), 10)).hasMessageContaining("deadline");
    }
}
