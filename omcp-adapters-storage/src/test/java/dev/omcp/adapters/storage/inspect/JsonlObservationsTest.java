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
import java.util.ArrayList;
import java.util.List;
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

    @Test
    void forEachSince_visitsTheWindowOldestFirst_skippingTornForeignAndOverlongLines() throws Exception {
        Path file = dir.resolve("inspect.jsonl");
        String oldFormat = "{\"ts\":\"2026-03-01T08:30:00Z\",\"principal\":\"key:ci\",\"authKind\":\"api_key\",\"tenant\":\"acme\","
                + "\"tool\":\"old_format\",\"resources\":{},\"args\":{},\"outcome\":\"ok\",\"latencyMs\":3,\"decision\":\"allow\"}\n";
        String content = line(at("2026-03-01T08:00:00Z", "before_window"))
                + oldFormat
                + "{\"ts\":\"2026-03-01T08:4\n" // a torn line, ended by a later append
                + "not an observation\n"
                + "{\"padding\":\"" + "x".repeat(JsonlObservations.MAX_LINE_BYTES) + "\"}\n"
                + line(at("2026-03-01T09:00:00Z", "query_logs"))
                + "{\"ts\":\"2026-03-01T09:3"; // a torn last line
        Files.writeString(file, content, StandardOpenOption.CREATE_NEW);

        try (JsonlObservations store = JsonlObservations.open(file, CLOCK)) {
            assertThat(visited(store, Instant.parse("2026-03-01T08:30:00Z"))).extracting(Observation::tool)
                    .containsExactly("old_format", "query_logs");
            assertThat(visited(store, Instant.EPOCH)).extracting(Observation::tool)
                    .containsExactly("before_window", "old_format", "query_logs");
            assertThat(visited(store, Instant.parse("2026-03-01T09:00:00.001Z"))).isEmpty();
            assertThat(visited(store, Instant.EPOCH).get(1).roles()).as("an old line has no roles").isEmpty();
        }
    }

    @Test
    void forEachSince_readsALargeFileAcrossItsBlocks_andOnlyTheWindowIsHandedOver() throws Exception {
        Path file = dir.resolve("inspect.jsonl");
        StringBuilder content = new StringBuilder();
        Instant start = Instant.parse("2026-03-01T00:00:00Z");
        for (int i = 0; i < 3_000; i++) { // about 800 KB: many blocks of the readers
            content.append(line(at(start.plusSeconds(i).toString(), "tool_" + i)));
        }
        Files.writeString(file, content, StandardOpenOption.CREATE_NEW);

        try (JsonlObservations store = JsonlObservations.open(file, CLOCK)) {
            List<Observation> window = visited(store, start.plusSeconds(2_900));

            assertThat(window).hasSize(100);
            assertThat(window.getFirst().tool()).isEqualTo("tool_2900");
            assertThat(window.getLast().tool()).isEqualTo("tool_2999");
            assertThat(window).extracting(Observation::ts).isSorted();
            assertThat(visited(store, Instant.EPOCH)).hasSize(3_000);
        }
    }

    @Test
    void forEachSince_seesWhatWasAppendedBefore_andTheVisitorMayAppendAndReadMeanwhile() throws Exception {
        Path file = dir.resolve("inspect.jsonl");
        try (JsonlObservations store = JsonlObservations.open(file, CLOCK)) {
            store.append(at("2026-03-01T09:00:00Z", "query_logs"));
            store.append(at("2026-03-01T09:01:00Z", "query_metrics"));
            List<String> seen = new ArrayList<>();

            store.forEachSince(Instant.EPOCH, observation -> {
                // the visitor runs on the caller's thread with no lock held: the writer and readers carry on
                store.append(at("2026-03-01T09:02:00Z", "appended_while_visiting"));
                seen.add(observation.tool() + "/" + store.newestFirst(ObservationQuery.newest(10)).size());
            });

            assertThat(seen).hasSize(2).first().asString().startsWith("query_logs/");
            assertThat(seen.get(1)).startsWith("query_metrics/");
            assertThat(visited(store, Instant.EPOCH)).extracting(Observation::tool)
                    .containsExactly("query_logs", "query_metrics", "appended_while_visiting", "appended_while_visiting");
        }
    }

    @Test
    void forEachSince_onAFileNotWrittenYet_visitsNothing() {
        try (JsonlObservations store = JsonlObservations.open(dir.resolve("inspect.jsonl"), CLOCK)) {
            assertThat(visited(store, Instant.EPOCH)).isEmpty();
        }
    }

    private static String line(Observation observation) {
        return new String(ObservationLines.line(observation), StandardCharsets.UTF_8);
    }

    private static List<Observation> visited(JsonlObservations store, Instant notBefore) {
        List<Observation> seen = new ArrayList<>();
        store.forEachSince(notBefore, seen::add);
        return seen;
    }
}
