package dev.omcp.adapters.storage.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.audit.AuditEntry;
import dev.omcp.ports.audit.AuditQuery;
import dev.omcp.ports.audit.AuditRecord;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit file changed by someone else while the store has it open: a line appended past the
 * lock (an {@code echo >>}, a forged entry), the file cut back ({@code logrotate copytruncate}),
 * moved aside or deleted. The store must not chain its next entry onto bytes it did not write, nor
 * keep writing entries into a file that is no longer the audit file (a deleted one loses them at
 * close): it takes no further entry and says what happened, and searches keep answering.
 */
class AuditFileChangedUnderItIT {
    private static final Instant T0 = Instant.parse("2025-01-31T12:00:00Z");

    @TempDir
    Path dir;

    private JsonlAuditLog openWithTwoEntries(Path file) {
        JsonlAuditLog log = new JsonlAuditLog(file, JsonlAuditLog.Options.defaults());
        log.open();
        log.awaitDurable(log.append(TestRecords.record(1, T0, "user:a", "update", "s1")));
        log.awaitDurable(log.append(TestRecords.record(2, T0.plusSeconds(1), "user:a", "update", "s2")));
        return log;
    }

    private static AuditRecord third() {
        return TestRecords.record(3, T0.plusSeconds(2), "user:a", "update", "s3");
    }

    private static List<Long> seqsFound(JsonlAuditLog log) {
        return log.search(new AuditQuery(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), 100))
                .entries().stream().map(AuditEntry::seq).toList();
    }

    @Test
    void aLineAppendedByAnotherProcess_isNeverChainedOver_theStoreStopsTakingEntriesAndSaysWhy() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        JsonlAuditLog log = openWithTwoEntries(file);
        String ours = Files.readString(file);
        String foreign = "{\"note\":\"appended by hand\"}\n";
        Files.writeString(file, foreign, StandardOpenOption.APPEND);

        assertThatThrownBy(() -> log.append(third())).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("the audit file " + file + " is " + (ours.length() + foreign.length()) + " bytes long")
                .hasMessageContaining("wrote it up to byte " + ours.length())
                .hasMessageContaining("omcp audit verify");
        assertThat(log.refusing()).hasValueSatisfying(reason -> assertThat(reason).contains("restart the gateway"));
        // nothing glued onto the foreign line, which stays as evidence; what the store wrote is still found
        assertThat(Files.readString(file)).isEqualTo(ours + foreign);
        assertThat(seqsFound(log)).containsExactly(2L, 1L);
        log.close();
    }

    @Test
    void aFileCutBackUnderTheStore_asCopytruncateDoes_stopsTheStore_andSearchesStillAnswer() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        JsonlAuditLog log = openWithTwoEntries(file);
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            raw.setLength(0);
        }

        assertThat(seqsFound(log)).isEmpty();
        assertThatThrownBy(() -> log.append(third())).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("is 0 bytes long").hasMessageContaining("copytruncate");
        assertThat(Files.size(file)).isZero();
        log.close();
    }

    @Test
    void aFileMovedAsideAndReplaced_stopsTheStore_ratherThanWritingOnIntoTheMovedFile() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        JsonlAuditLog log = openWithTwoEntries(file);
        Path moved = dir.resolve("audit-old.jsonl");
        Files.move(file, moved);
        Files.writeString(file, "");

        assertThatThrownBy(() -> log.append(third())).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("is no longer the file the gateway opened")
                .hasMessageContaining("stop the gateway");
        assertThat(Files.readAllLines(moved, StandardCharsets.UTF_8)).hasSize(2);
        assertThat(Files.size(file)).isZero();
        log.close();
    }

    @Test
    void aDeletedFile_stopsTheStore_ratherThanWritingEntriesThatCloseWouldLose() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        JsonlAuditLog log = openWithTwoEntries(file);
        Files.delete(file);

        assertThatThrownBy(() -> log.append(third())).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("is no longer the file the gateway opened");
        assertThat(log.refusing()).isPresent();
        log.close();
    }

    @Test
    void entriesTheStoreWroteItselfPassTheCheck_acrossReopening() {
        Path file = dir.resolve("audit.jsonl");
        JsonlAuditLog log = openWithTwoEntries(file);
        log.close();
        JsonlAuditLog reopened = new JsonlAuditLog(file, JsonlAuditLog.Options.defaults());
        reopened.open();
        reopened.awaitDurable(reopened.append(third()));

        assertThat(reopened.refusing()).isEmpty();
        assertThat(seqsFound(reopened)).containsExactly(3L, 2L, 1L);
        reopened.close();
    }
}
