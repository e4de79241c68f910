package dev.omcp.app.bench;

import dev.omcp.adapters.storage.audit.FsyncPolicy;
import dev.omcp.adapters.storage.audit.JsonlAuditLog;
import dev.omcp.adapters.storage.audit.TornTailPolicy;
import dev.omcp.core.audit.AuditChain;
import dev.omcp.core.audit.MemoryAuditLog;
import dev.omcp.ports.audit.AuditEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A timed harness (not a test): append throughput and latency of the audit chain on a real file,
 * for each fsync policy and 1 or 8 writers. Run by hand, see docs/benchmarks.md:
 *
 * <pre>
 * mvn -q -o -pl omcp-app -am test-compile
 * mvn -q -o -pl omcp-app dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -cp omcp-app/target/test-classes:omcp-app/target/classes:$(cat /tmp/cp.txt) \
 *     dev.omcp.app.bench.AuditAppendBenchmark [directory]
 * </pre>
 */
public final class AuditAppendBenchmark {
    private AuditAppendBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("omcp-audit-bench");
        System.out.printf("directory %s, %d cores, %s%n", dir, Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.vm.version"));
        System.out.println("policy | writers | entries | entries/s | p50 µs | p99 µs | max µs");
        for (int writers : new int[] {1, 8}) {
            run(dir, null, writers, 2000);
            run(dir, null, writers, 40_000);
        }
        for (FsyncPolicy policy : FsyncPolicy.values()) {
            for (int writers : new int[] {1, 8}) {
                int entries = policy == FsyncPolicy.ALWAYS ? (writers == 1 ? 1000 : 4000) : 40_000;
                run(dir, policy, writers, 2000); // warm-up
                run(dir, policy, writers, entries);
            }
        }
    }

    private static void run(Path dir, FsyncPolicy policy, int writers, int entries) throws Exception {
        Path file = dir.resolve("bench-" + policy + "-" + writers + "-" + System.nanoTime() + ".jsonl");
        // policy null: the memory ring, to separate hashing and canonical JSON from file I/O
        AuditChain chain = new AuditChain(policy == null ? new MemoryAuditLog()
                : new JsonlAuditLog(file, new JsonlAuditLog.Options(policy, Duration.ofSeconds(1), TornTailPolicy.REPAIR)),
                List.of(), Clock.systemUTC()).start();
        int perWriter = entries / writers;
        long[][] latencies = new long[writers][perWriter];
        CountDownLatch go = new CountDownLatch(1);
        long started;
        long elapsed;
        try (ExecutorService pool = Executors.newFixedThreadPool(writers)) {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                done.add(pool.submit(() -> {
                    go.await();
                    for (int i = 0; i < perWriter; i++) {
                        long t0 = System.nanoTime();
                        chain.record(new AuditEvent("user:bench" + writer, "", "sources", "write", "PUT",
                                "/api/sources/source-" + i, 200, "127.0.0.1", "source-" + i));
                        latencies[writer][i] = System.nanoTime() - t0;
                    }
                    return null;
                }));
            }
            started = System.nanoTime();
            go.countDown();
            for (Future<?> f : done) {
                f.get();
            }
            elapsed = System.nanoTime() - started;
        }
        chain.close();
        String name = policy == null ? "memory ring (no file)" : policy.name().toLowerCase(java.util.Locale.ROOT);
        long[] all = Arrays.stream(latencies).flatMapToLong(Arrays::stream).sorted().toArray();
        int total = all.length;
        if (entries != 2000) { // not the warm-up
            System.out.printf("%s | %d | %d | %.0f | %d | %d | %d%n", name, writers, total, total / (elapsed / 1e9),
                    all[total / 2] / 1000, all[(int) (total * 0.99)] / 1000, all[total - 1] / 1000);
        }
        Files.deleteIfExists(file);
    }
}
