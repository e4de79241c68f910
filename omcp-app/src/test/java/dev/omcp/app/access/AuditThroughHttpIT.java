package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.cli.OmcpCommand;
import dev.omcp.testkit.time.ManualClock;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Issue 5 acceptance, end to end: 8 threads x 1000 mutating requests through the HTTP API give
 * audit entries with seq 1..8000 without gaps and a chain that {@code omcp audit verify} accepts;
 * flipping a byte of the file makes it name that entry. (AuditAcceptanceIT drives the chain
 * directly; this drives the guard that writes the entries.)
 */
class AuditThroughHttpIT {
    private static final int THREADS = 8;
    private static final int REQUESTS = 1000;

    @TempDir
    Path dir;

    @Test
    void eightThreadsTimesAThousandMutatingRequests_giveSeqOneTo8000WithoutGaps_andAVerifiedChain() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        try (TestGateway gateway = TestGateway.start(Map.of("OMCP_MGMT_AUDIT_FILE", file.toString(), "OMCP_AUDIT_FSYNC", "never"),
                new ManualClock(Instant.parse("2026-03-01T10:00:00Z")))) {
            CountDownLatch go = new CountDownLatch(1);
            try (ExecutorService threads = Executors.newFixedThreadPool(THREADS)) {
                List<Future<Integer>> done = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    Browser browser = gateway.browser();
                    browser.get("/api/me");
                    done.add(threads.submit(() -> {
                        go.await();
                        int ok = 0;
                        for (int i = 0; i < REQUESTS; i++) {
                            if (browser.send("PUT", "/api/health/thresholds", "{}").status() == 200) {
                                ok++;
                            }
                        }
                        return ok;
                    }));
                }
                go.countDown();
                for (Future<Integer> thread : done) {
                    assertThat(thread.get()).isEqualTo(REQUESTS);
                }
            }
        }

        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(lines).hasSize(THREADS * REQUESTS);
        for (int i = 0; i < lines.size(); i++) {
            assertThat(lines.get(i)).contains("\"seq\":" + (i + 1) + ",").contains("\"resource\":\"health\"");
        }
        assertThat(verify(file)).startsWith("OK: 8000 entries, seq 1..8000");

        byte[] bytes = Files.readAllBytes(file);
        int entry = 4321;
        int position = 0;
        for (int line = 1; line < entry; line++) {
            position += lines.get(line - 1).getBytes(StandardCharsets.UTF_8).length + 1;
        }
        int inside = position + lines.get(entry - 1).indexOf("\"actor\"") + 3;
        bytes[inside] ^= 0x01;
        Files.write(file, bytes);
        assertThat(verify(file)).contains("seq " + entry);
    }

    private static String verify(Path file) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        new CommandLine(new OmcpCommand()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute("audit", "verify", file.toString());
        return out + err.toString();
    }
}
