package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServiceNameSuggestionsTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-10T12:00:00Z"));

    private ServiceNameSuggestions suggestions(InMemorySources sources) {
        return new ServiceNameSuggestions(Toolkit.builder(sources.registry(), clock).build());
    }

    @Test
    void namesThatStartWithTheTypedText_comeBeforeNamesThatContainIt_caseInsensitive() {
        FakeMetricsBackend a = new FakeMetricsBackend("prom-a").knows("payments").knows("shop/payments-db").knows("checkout");
        FakeMetricsBackend b = new FakeMetricsBackend("prom-b").knows("Payroll").knows("payments");

        ServiceNameSuggestions names = suggestions(new InMemorySources().add(a).add(b));

        assertThat(names.matching("pay", Principal.anonymous())).containsExactly("Payroll", "payments", "shop/payments-db");
        assertThat(names.matching("", Principal.anonymous())).containsExactly("Payroll", "checkout", "payments", "shop/payments-db");
        assertThat(names.matching("shop/", Principal.anonymous())).containsExactly("shop/payments-db");
        assertThat(names.matching("nothing-like-it", Principal.anonymous())).isEmpty();
    }

    @Test
    void closest_isTheNameAfterTheNamespace_aCaseVariant_orTheOnlyNameATypoAway() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").knows("payments").knows("payments-db").knows("Checkout")
                .knows("cart").knows("card");
        ServiceNameSuggestions names = suggestions(new InMemorySources().add(prom));
        Principal anyone = Principal.anonymous();

        assertThat(names.closest("shop/payments", anyone)).containsExactly("payments");
        assertThat(names.closest("checkout", anyone)).containsExactly("Checkout");
        assertThat(names.closest("paymnets", anyone)).containsExactly("payments");
        assertThat(names.closest("payments-bd", anyone)).containsExactly("payments-db");
        assertThat(names.closest("payments", anyone)).as("a known name needs no guess").isEmpty();
        assertThat(names.closest("inventory", anyone)).as("nothing close").isEmpty();
        assertThat(names.closest("carx", anyone)).as("cart and card are equally close: no guess").isEmpty();
        assertThat(names.closest("crt", anyone)).as("too short to guess a typo").isEmpty();
        assertThat(names.didYouMean("shop/payments", anyone)).isEqualTo(" Did you mean 'payments'?");
        assertThat(names.didYouMean("inventory", anyone)).isEmpty();
    }

    @Test
    void aFailingSource_onlyLeavesItsNamesOut() {
        FakeMetricsBackend ok = new FakeMetricsBackend("prom-a").knows("payments");
        FakeMetricsBackend broken = new FakeMetricsBackend("prom-b").knows("checkout")
                .failingAll(new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "connection refused"));

        assertThat(suggestions(new InMemorySources().add(ok).add(broken)).matching("", Principal.anonymous())).containsExactly("payments");
    }

    @Test
    void aHangingSource_holdsTheSuggestionsForTwoSecondsAtMost_notForTheToolsDeadline() {
        FakeMetricsBackend ok = new FakeMetricsBackend("prom-a").knows("payments");
        InMemorySources sources = new InMemorySources().add(ok).add(new HangingListing("stuck"));
        ServiceNameSuggestions names = new ServiceNameSuggestions(Toolkit.builder(sources.registry(), clock)
                .timeouts(Duration.ofSeconds(60), Duration.ofSeconds(60)).build());

        long started = System.nanoTime();
        List<String> suggested = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> names.matching("", Principal.anonymous()));
        assertThat(suggested).containsExactly("payments");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aCallerIsOnlyOfferedTheNamesOfTheSourcesItMaySee() {
        FakeMetricsBackend shared = new FakeMetricsBackend("shared").knows("gateway");
        FakeMetricsBackend acme = new FakeMetricsBackend("acme-prom").knows("acme-billing");
        ServiceNameSuggestions names = suggestions(new InMemorySources().add(shared).add(acme, "acme"));

        assertThat(names.matching("", Principal.apiKey("globex-bot", "globex"))).containsExactly("gateway");
        assertThat(names.matching("", Principal.apiKey("acme-bot", "acme"))).containsExactly("acme-billing", "gateway");
    }

    @Test
    void unknownName_claimsNothing_whenASourceCouldNotSay() {
        // the broken source may list 'checkout': "no source lists it" would be a false answer, and send the agent to a wrong name
        FakeMetricsBackend ok = new FakeMetricsBackend("prom-a").knows("payments").knows("checkouts");
        FakeMetricsBackend broken = new FakeMetricsBackend("prom-b").knows("checkout")
                .failingAll(new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "connection refused"));
        ServiceNameSuggestions names = suggestions(new InMemorySources().add(ok).add(broken));

        assertThat(names.unknownName("checkout", Principal.anonymous())).isEmpty();
        FakeMetricsBackend leftOut = new FakeMetricsBackend("prom-c").knows("cart").listingWarning("3 targets were left out");
        assertThat(suggestions(new InMemorySources().add(ok).add(leftOut)).unknownName("checkout", Principal.anonymous()))
                .as("a listing that left targets out may lack the name").isEmpty();
        assertThat(suggestions(new InMemorySources().add(ok)).unknownName("checkout", Principal.anonymous()))
                .as("every source answered").hasValueSatisfying(note -> assertThat(note).contains("Did you mean 'checkouts'?"));
    }
}
