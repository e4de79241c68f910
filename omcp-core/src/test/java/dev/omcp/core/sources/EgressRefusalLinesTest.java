package dev.omcp.core.sources;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.omcp.core.testing.CapturedLog;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

class EgressRefusalLinesTest {
    @RegisterExtension
    final CapturedLog log = new CapturedLog(EgressRefusalLinesTest.class);

    @Test
    void eachSourcesFirstRefusalIsLoggedAtOnce_thenOneLinePerMinuteCountsTheRefusalsItStandsFor() {
        AtomicLong now = new AtomicLong(5);
        EgressRefusalLines lines = new EgressRefusalLines(LoggerFactory.getLogger(EgressRefusalLinesTest.class), now::get);

        lines.refused("prom", "the backend address is private");
        lines.refused("loki", "the backend address is a cloud-metadata address");
        lines.refused("prom", "the backend address is private");
        lines.refused("prom", "the backend address is private");
        now.addAndGet(EgressRefusalLines.EVERY.toNanos());
        lines.refused("prom", "the backend address is private");

        assertThat(log.messages(Level.WARN)).containsExactly(
                "event=source-egress-refused source=prom reason=\"the backend address is private\" occurrences=1",
                "event=source-egress-refused source=loki reason=\"the backend address is a cloud-metadata address\" occurrences=1",
                "event=source-egress-refused source=prom reason=\"the backend address is private\" occurrences=3");
    }
}
