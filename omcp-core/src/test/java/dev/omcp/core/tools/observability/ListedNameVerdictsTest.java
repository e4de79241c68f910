package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonObject;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ListedNameVerdictsTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-10T12:00:00Z"));
    private final ListedNameVerdicts verdicts = new ListedNameVerdicts(clock);

    @Test
    void aReplacedConnector_isNotKeptAliveByItsVerdicts() throws InterruptedException {
        // a replaced connector is asked no more, and a plugin's holds its class loader: no later check may come to sweep it
        WeakReference<Connector> replaced = checkedOnce();

        for (int i = 0; i < 50 && replaced.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertThat(replaced.get()).isNull();
    }

    @Test
    void aNameClaimedByOneListing_isWaitedForByTheNext_andKeptOnceSettled() {
        Connector connector = new Plugin();
        ListedNameVerdicts.Claim first = verdicts.claim(connector, List.of("checkout", "payments"), 10);

        ListedNameVerdicts.Claim second = verdicts.claim(connector, List.of("checkout", "payments"), 10);

        assertThat(first.claimed()).extracting(ListedNameVerdicts.Check::name).containsExactly("checkout", "payments");
        assertThat(second.claimed()).isEmpty();
        assertThat(second.running()).containsOnlyKeys("checkout", "payments");
        verdicts.settle(first.claimed().get(0), false);
        assertThat(second.running().get("checkout")).isCompletedWithValue(false);
        assertThat(verdicts.claim(connector, List.of("checkout"), 10).kept()).containsEntry("checkout", false);
    }

    @Test
    void aCheckGivenUp_isCancelledForTheListingsWaitingForIt_andClaimedAgainByTheNext() {
        Connector connector = new Plugin();
        ListedNameVerdicts.Check check = verdicts.claim(connector, List.of("checkout"), 10).claimed().getFirst();
        ListedNameVerdicts.Claim waiting = verdicts.claim(connector, List.of("checkout"), 10);

        verdicts.abandon(check);

        assertThat(waiting.running().get("checkout")).isCancelled();
        assertThat(verdicts.claim(connector, List.of("checkout"), 10).claimed()).hasSize(1);
    }

    @Test
    void aListingClaimsNoMoreThanItMayCheck_andNamesTheRestBeyond() {
        ListedNameVerdicts.Claim claim = verdicts.claim(new Plugin(), List.of("a", "b", "c"), 2);

        assertThat(claim.claimed()).extracting(ListedNameVerdicts.Check::name).containsExactly("a", "b");
        assertThat(claim.beyond()).containsExactly("c");
    }

    private WeakReference<Connector> checkedOnce() {
        Connector connector = new Plugin();
        ListedNameVerdicts.Claim claim = verdicts.claim(connector, List.of("payments"), 1);
        verdicts.settle(claim.claimed().getFirst(), false);
        return new WeakReference<>(connector);
    }

    /** A connector nothing but the test holds. */
    private static final class Plugin implements Connector {
        @Override
        public SourceConfig source() {
            return new SourceConfig("plugin", "plugin", "https://plugin.example.com", "", JsonObject.EMPTY_JSON_OBJECT);
        }

        @Override
        public Health health() {
            return new Health(true, "plugin", Duration.ofMillis(1));
        }

        @Override
        public void close() {}
    }
}
