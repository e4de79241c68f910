package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.sources.Bound;
import dev.omcp.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class UnscoredServicesTest {
    private static final Instant NOW = Instant.parse("2025-03-10T10:00:00Z");
    private static final List<Bound<?>> PROM = List.of(metrics(new FakeMetricsBackend("prom")));
    private final ManualClock clock = new ManualClock(NOW);
    private final UnscoredServices unscored = new UnscoredServices(clock, Duration.ofHours(1));

    private static Bound<?> metrics(FakeMetricsBackend connector) {
        return new Bound<>(connector.source().name(), "prometheus", "", connector, connector);
    }

    private static UnscoredServices.Run ranAt(Instant at) {
        return new UnscoredServices.Run(at, UnscoredServices.AskedSources.of(PROM), Duration.ofMinutes(15),
                new PostmortemDetection.Counts(4, 3, 3, 1, 12));
    }

    private boolean kept(String tenant, String service) {
        return unscored.lately(tenant, service, PROM, NOW.minus(Duration.ofDays(1)), NOW.plus(Duration.ofDays(1))).isPresent();
    }

    @Test
    void aRunIsReportedOnlyToItsTenant_forTheServicesItCouldNotScore() {
        unscored.remember("acme", List.of("ledger"), ranAt(NOW));

        assertThat(kept("acme", "ledger")).isTrue();
        assertThat(kept("acme", "payments")).isFalse();
        assertThat(kept("globex", "ledger")).isFalse();
    }

    @Test
    void aRunIsUsedOnlyWhenTheWindowHoldsIt_andOverTheSameMetricsSources() {
        unscored.remember("acme", List.of("ledger"), ranAt(NOW));

        assertThat(unscored.lately("acme", "ledger", PROM, NOW.plusSeconds(1), NOW.plusSeconds(600))).isEmpty();
        assertThat(unscored.lately("acme", "ledger", PROM, NOW.minusSeconds(600), NOW.minusSeconds(1))).isEmpty();
        // a source added since may hold the service's metrics
        assertThat(unscored.lately("acme", "ledger", List.of(PROM.getFirst(), metrics(new FakeMetricsBackend("mimir"))),
                NOW.minusSeconds(600), NOW)).isEmpty();
        assertThat(unscored.lately("acme", "ledger", PROM, NOW.minusSeconds(600), NOW)).map(UnscoredServices.Run::ranAt)
                .contains(NOW);
    }

    @Test
    void aRunIsNotUsedOnceItsSourceWasReplaced_underTheSameName() {
        unscored.remember("acme", List.of("ledger"), ranAt(NOW));

        // an operator pointed prom at another backend (or fixed its credentials): the new one may hold the metrics
        List<Bound<?>> reconfigured = List.of(metrics(new FakeMetricsBackend("prom")));

        assertThat(unscored.lately("acme", "ledger", reconfigured, NOW.minusSeconds(600), NOW)).isEmpty();
    }

    @Test
    void aRunIsForgottenOnceTheHistoryWouldHaveDroppedItsScores() {
        unscored.remember("acme", List.of("ledger"), ranAt(NOW));

        clock.advance(Duration.ofMinutes(61));

        assertThat(kept("acme", "ledger")).isFalse();
    }

    @Test
    void memoryIsBounded_perTenantByServices_andByTenants() {
        List<String> many = IntStream.rangeClosed(0, UnscoredServices.SERVICES_PER_TENANT).mapToObj(i -> "svc-" + i).toList();
        unscored.remember("acme", many, ranAt(NOW));
        assertThat(kept("acme", "svc-0")).as("the oldest goes first").isFalse();
        assertThat(kept("acme", "svc-1")).isTrue();
        assertThat(kept("acme", "svc-" + UnscoredServices.SERVICES_PER_TENANT)).isTrue();

        for (int t = 0; t < UnscoredServices.TENANTS; t++) {
            unscored.remember("tenant-" + t, List.of("ledger"), ranAt(NOW));
        }
        assertThat(kept("acme", "svc-1")).as("the least recently used tenant goes").isFalse();
        assertThat(kept("tenant-0", "ledger")).isTrue();
    }

    @Test
    void aNameLongerThanAnyScoredOneIsNotKept() {
        String longName = "x".repeat(300);
        unscored.remember("acme", List.of(longName, "ledger"), ranAt(NOW));

        assertThat(kept("acme", longName)).isFalse();
        assertThat(kept("acme", "ledger")).isTrue();
    }
}
