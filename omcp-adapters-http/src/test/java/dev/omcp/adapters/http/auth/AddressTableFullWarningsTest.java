package dev.omcp.adapters.http.auth;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.omcp.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A flood of refusals from a full per-address login counter is reported, without flooding the log. */
class AddressTableFullWarningsTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-29T10:00:00Z"));
    private final AddressTableFullWarnings warnings = new AddressTableFullWarnings(clock);
    private final ListAppender<ILoggingEvent> events = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(AddressTableFullWarnings.class);

    @BeforeEach
    void attach() {
        events.start();
        logger.addAppender(events);
    }

    @AfterEach
    void detach() {
        logger.detachAppender(events);
        events.stop();
    }

    private List<String> lines() {
        return events.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    @Test
    void theFirstRefusalIsLoggedAtOnce_asAWarningWithItsOwnEvent() {
        warnings.refused(100_000);

        assertThat(lines()).singleElement().asString()
                .startsWith("event=login-address-table-full capacity=100000 refused=1 ")
                .contains("OMCP_LOGIN_ADDRESS_TABLE_FULL");
        assertThat(events.list.get(0).getLevel()).isEqualTo(Level.WARN);
    }

    @Test
    void aFloodWritesOneLineAMinute_andEachLineCountsTheRefusalsSinceThePreviousOne() {
        warnings.refused(100_000);
        for (int i = 0; i < 5_000; i++) {
            clock.advance(Duration.ofMillis(10));
            warnings.refused(100_000);
        }
        assertThat(lines()).as("50 s of refusals after the first line").hasSize(1);

        clock.advance(Duration.ofSeconds(10));
        warnings.refused(100_000);

        assertThat(lines()).hasSize(2);
        assertThat(lines().get(1)).contains("refused=5001 ");
        clock.advance(Duration.ofSeconds(59));
        warnings.refused(100_000);
        assertThat(lines()).hasSize(2);
        clock.advance(Duration.ofSeconds(1));
        warnings.refused(100_000);
        assertThat(lines()).hasSize(3);
        assertThat(lines().get(2)).contains("refused=2 ");
    }
}
