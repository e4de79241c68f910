package dev.omcp.adapters.storage.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.audit.AuditEntry;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One audit file, one writer: a second gateway on the same file would continue the chain from the
 * same tip and fork it (two entries with each later seq), and at its start could take the first
 * gateway's entry being written for a torn line and cut it off.
 */
class AuditFileSharingIT {
    private static final Instant T0 = Instant.parse("2025-01-31T12:00:00Z");

    @TempDir
    Path dir;

    @Test
    void aSecondStoreOnAFileAnotherStoreHoldsOpen_isRefused_andTheFileCanBeOpenedOnceTheFirstIsClosed() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        JsonlAuditLog first = new JsonlAuditLog(file, JsonlAuditLog.Options.defaults());
        first.open();
        first.append(TestRecords.record(1, T0, "user:a", "create", "x"));
        byte[] before = Files.readAllBytes(file);

        assertThatThrownBy(() -> new JsonlAuditLog(file, JsonlAuditLog.Options.defaults()).open())
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("another gateway")
                .hasMessageContaining("OMCP_MGMT_AUDIT_FILE");
        first.append(TestRecords.record(2, T0, "user:a", "create", "y"));
        first.close();

        assertThat(Files.size(file)).isGreaterThan(before.length);
        JsonlAuditLog next = new JsonlAuditLog(file, JsonlAuditLog.Options.defaults());
        assertThat(next.open().last()).map(AuditEntry::seq).contains(2L);
        next.close();
    }

    @Test
    void aSecondStore_neverCutsOffTheLineTheFirstIsWriting_asIfItWereTorn() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        JsonlAuditLog first = new JsonlAuditLog(file, JsonlAuditLog.Options.defaults());
        first.open();
        first.append(TestRecords.record(1, T0, "user:a", "create", "x"));
        // what a reader sees while the first store's next write is under way: a line without its line break yet
        String inFlight = TestRecords.record(2, T0, "user:a", "create", "y").json();
        Files.writeString(file, inFlight.substring(0, 40), StandardOpenOption.APPEND);
        byte[] before = Files.readAllBytes(file);

        assertThatThrownBy(() -> new JsonlAuditLog(file, JsonlAuditLog.Options.defaults()).open())
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("another gateway");

        assertThat(Files.readAllBytes(file)).isEqualTo(before);
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(name -> name.contains(".torn-"));
        }
        first.close();
    }

    @Test
    void aFileAnotherProcessHoldsOpen_isRefused() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        String java = ProcessHandle.current().info().command().orElse("java");
        Process holder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                HoldAuditFile.class.getName(), file.toString())
                .redirectErrorStream(true)
                .start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8))) {
            List<String> seen = new java.util.ArrayList<>();
            String line;
            while ((line = out.readLine()) != null && !line.equals(HoldAuditFile.READY)) {
                seen.add(line);
            }
            assertThat(line).as("the holder's output: %s", seen).isEqualTo(HoldAuditFile.READY);

            assertThatThrownBy(() -> new JsonlAuditLog(file, JsonlAuditLog.Options.defaults()).open())
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("another gateway");
        } finally {
            holder.getOutputStream().close(); // the holder closes its store and exits at the end of its input
            if (!holder.waitFor(20, TimeUnit.SECONDS)) {
                holder.destroyForcibly();
            }
        }
        JsonlAuditLog after = new JsonlAuditLog(file, JsonlAuditLog.Options.defaults());
        after.open();
        after.close();
    }

    /** Another process: opens the audit file, says so, and keeps it open until its input ends. */
    static final class HoldAuditFile {
        static final String READY = "audit-file-open";

        public static void main(String[] args) throws Exception {
            JsonlAuditLog log = new JsonlAuditLog(Path.of(args[0]), JsonlAuditLog.Options.defaults());
            log.open();
            System.out.println(READY);
            System.out.flush();
            while (System.in.read() >= 0) {
                // wait for the test to close our input
            }
            log.close();
        }
    }
}
