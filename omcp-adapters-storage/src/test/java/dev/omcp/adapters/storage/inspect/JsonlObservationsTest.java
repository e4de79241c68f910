package dev.omcp.adapters.storage.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.inspect.Observation;
import dev.omcp.ports.inspect.ObservationQuery;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonlObservationsTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-03-01T10:00:00Z"), ZoneOffset.UTC);
    @TempDir
    Path dir;

    private static Observation at(String ts, String tool) {
        return new Observation(Instant.parse(ts), "key:ci", "api_key", "acme", tool, Map.of("service", "checkout"),
                Map.of("filter", "text:len<=16:lower"), Observation.Outcome.OK, 12, Observation.Decision.ALLOW);
    }

    @Test
    void appendedRecords_areReadNewestFirst_fromAFileOfMode0600() throws Exception {
        Path file = dir.resolve("inspect.jsonl");
        try (JsonlObservations store = JsonlObservations.open(file, CLOCK)) {
            store.append(at("2026-03-01T09:00:00Z", "query_logs"));
            store.append(at("2026-03-01T09:01:00Z", "query_metrics"));

            assertThat(store.newestFirst(ObservationQuery.newest(10))).extracting(Observation::tool)
                    .containsExactly("query_metrics", "query_logs");
            assertThat(store.newestFirst(ObservationQuery.newest(10).notBefore(Instant.parse("2026-03-01T09:00:30Z"))))
                    .extracting(Observation::tool).containsExactly("query_metrics");
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.readAllLines(file)).hasSize(2).allMatch(line -> line.contains("\"decision\":\"allow\""));
    }

    @Test
    void tornLastLine_isSkippedOnRead_andTheNextRecordStartsOnItsOwnLine() throws Exception {
        Path file = dir.resolve("inspect.jsonl");
        Files.write(file, (new String(ObservationLines.line(at("2026-03-01T08:00:00Z", "get_topology")), StandardCharsets.UTF_8)
                + "{\"ts\":\"2026-03-01T08:0").getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE_NEW);
        try (JsonlObservations store = JsonlObservations.open(file, CLOCK)) {
            assertThat(store.newestFirst(ObservationQuery.newest(10))).extracting(Observation::tool).containsExactly("get_topology");

            store.append(at("2026-03-01T09:00:00Z", "query_logs"));

            assertThat(store.newestFirst(ObservationQuery.newest(10))).extracting(Observation::tool)
                    .containsExactly("query_logs", "get_topology");
        }
    }

    @Test
    void fullQueue_dropsAndCountsInsteadOfWaiting() {
        JsonlObservations store = JsonlObservations.unstarted(dir.resolve("inspect.jsonl"), CLOCK, 2);
        for (int i = 0; i < 5; i++) {
            store.append(at("2026-03-01T09:00:00Z", "query_logs"));
        }
        assertThat(store.dropped()).isEqualTo(3);
    }
}
