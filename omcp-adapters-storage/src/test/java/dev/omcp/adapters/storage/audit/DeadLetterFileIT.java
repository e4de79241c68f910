package dev.omcp.adapters.storage.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Clock;
import java.time.ZoneOffset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dead-letter file holds what a sink could not deliver, exactly as the audit file holds it. */
class DeadLetterFileIT {
    private static final Instant T0 = Instant.parse("2025-01-31T12:00:00Z");

    @TempDir
    Path dir;

    @Test
    void undeliveredEntriesAreKeptOnePerLineWithTheEntryUnchanged_inAnOwnerOnlyFile() throws Exception {
        Path file = dir.resolve("audit.jsonl.webhook-deadletter.jsonl");
        DeadLetterFile deadLetters = new DeadLetterFile(Optional.of(file), Clock.fixed(T0, ZoneOffset.UTC));
        var first = TestRecords.record(1, T0, "user:a", "create", "line\nbreak \u001b[31m");
        var second = TestRecords.record(2, T0, "user:b", "delete", "x");

        deadLetters.write("webhook", "HTTP 400", 1, List.of(first, second));
        deadLetters.close();

        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(2);
        JsonNode line = new ObjectMapper().readTree(lines.get(0));
        assertThat(line.get("entry").toString()).isEqualTo(first.json());
        assertThat(line.get("sink").asText()).isEqualTo("webhook");
        assertThat(lines.get(0)).doesNotContain("\u001b");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void aDeadLetterFileThatIsALinkIsNotWrittenThrough_theLossIsLoggedInstead() throws Exception {
        Path victim = dir.resolve("elsewhere");
        Files.writeString(victim, "untouched\n");
        Path file = Files.createSymbolicLink(dir.resolve("audit.jsonl.s3-deadletter.jsonl"), victim);
        DeadLetterFile deadLetters = new DeadLetterFile(Optional.of(file), Clock.fixed(T0, ZoneOffset.UTC));

        deadLetters.write("s3", "HTTP 403", 1, List.of(TestRecords.record(1, T0, "user:a", "create", "x")));
        deadLetters.close();

        assertThat(Files.readString(victim)).isEqualTo("untouched\n");
        assertThat(Files.isSymbolicLink(file)).isTrue();
    }
}
