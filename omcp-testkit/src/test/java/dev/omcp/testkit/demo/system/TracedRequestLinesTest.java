package dev.omcp.testkit.demo.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shop's logs follow its traces without growing: the traced requests are among the sampled access lines. */
class TracedRequestLinesTest {
    private static final Instant NOW = Instant.parse("2026-11-22T14:00:00Z");
    private static final SimulatedSystem SYSTEM = SimulatedSystem.create(Clock.fixed(NOW, ZoneOffset.UTC), 7, Duration.ofHours(3),
            Duration.ofMinutes(25));
    private static final long HOUR = 3_600_000L;

    @Test
    void theTracedRateOfEachService_isTheServerSpansTheTracesGiveIt() {
        long from = NOW.toEpochMilli() - 2 * HOUR;
        List<List<TraceGenerator.Span>> traces = new TraceGenerator(SYSTEM).traces(from, from + HOUR);
        for (DemoService service : SYSTEM.services()) {
            long spans = traces.stream().flatMap(List::stream)
                    .filter(s -> s.kind().equals("SERVER") && s.service().equals(service.name())).count();
            assertThat(spans).as(service.name()).isEqualTo(Math.round(TraceGenerator.tracesPerSecondThrough(service.name()) * 3600));
        }
    }

    @Test
    void anHoursLinesPerService_stayAboutOnePer40Requests_withTheTracedRequestsAmongThem() {
        // an hour before the incident: access lines only, and the frontend's sign-ins (one pod-second in 20)
        long from = NOW.toEpochMilli() - 2 * HOUR;
        LogGenerator logs = new LogGenerator(SYSTEM);
        for (DemoService service : SYSTEM.services()) {
            double expected = 0;
            for (long t = from; t < from + HOUR; t += 1000) {
                expected += SYSTEM.requestRate(service, t) / 40;
            }
            if (service.name().equals("frontend")) {
                expected += 0.05 * 3600 * service.replicas();
            }
            long lines = logs.lines(SYSTEM.podsOf(service.name()), from, from + HOUR).size();
            // four standard deviations of a Poisson count: without the traced lines taken out, payments logs a third more
            assertThat((double) lines).as(service.name()).isCloseTo(expected, within(4 * Math.sqrt(expected)));
        }
    }

    @Test
    void aWindowCutAnywhere_givesTheLinesOfOnePass_tracedOnesIncluded() {
        long to = NOW.toEpochMilli();
        long from = to - 10 * 60_000L;
        LogGenerator logs = new LogGenerator(SYSTEM);
        List<LogLine> whole = logs.lines(SYSTEM.pods(), from, to);
        assertThat(whole).anySatisfy(l -> assertThat(l.line()).contains("\"span_id\""));
        for (long cut = from + 7_919; cut < to; cut += 179_237) {
            List<LogLine> parts = new java.util.ArrayList<>(logs.lines(SYSTEM.pods(), from, cut));
            parts.addAll(logs.lines(SYSTEM.pods(), cut, to));
            assertThat(parts).as("cut at " + cut).isEqualTo(whole);
        }
    }
}
