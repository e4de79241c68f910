import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Sends a tool's recorded backend requests (bench/tools.sh) straight to the backend <em>all at
 * once</em>, as the gateway's parallel fan-out does, and times each batch until its last answer.
 * That is the fair yardstick for a fan-out on a shared machine: five queries sent together make the
 * backend share its cores among them, so the slowest of them takes longer than it does alone.
 *
 * <p>Run: {@code java bench/FanOutReplay.java BASE_URL REPLAY_TSV WARMUP_SECONDS DURATION_SECONDS}.
 * The client is the JDK's, on HTTP/1.1 with keep-alive, as the gateway's source clients are. Prints
 * one {@code BENCH} line in the format of bench/replay.lua: batches per second and the batch
 * latency percentiles; any status of 400 or more is counted and fails the run.
 */
public final class FanOutReplay {
    private record Recorded(String method, String uri, String body) {}

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: FanOutReplay BASE_URL REPLAY_TSV WARMUP_SECONDS DURATION_SECONDS");
            System.exit(2);
        }
        String base = args[0];
        List<HttpRequest> requests = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(args[1]))) {
            if (line.isBlank()) {
                continue;
            }
            String[] parts = line.split("\t", 3);
            Recorded r = new Recorded(parts[0], parts[1], parts.length > 2 ? parts[2] : "");
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + r.uri())).timeout(Duration.ofSeconds(10))
                    .header("Accept", "application/json");
            if (r.body().isEmpty()) {
                b.method(r.method(), HttpRequest.BodyPublishers.noBody());
            } else {
                b.header("Content-Type", "application/x-www-form-urlencoded")
                        .method(r.method(), HttpRequest.BodyPublishers.ofString(r.body()));
            }
            requests.add(b.build());
        }
        if (requests.isEmpty()) {
            throw new IllegalArgumentException("no recorded requests in " + args[1]);
        }
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (ExecutorService pool = Executors.newFixedThreadPool(requests.size())) {
            int[] bad = new int[1];
            run(client, pool, requests, Long.parseLong(args[2]) * 1_000_000_000L, bad);
            bad[0] = 0;
            long start = System.nanoTime();
            long[] latencies = run(client, pool, requests, Long.parseLong(args[3]) * 1_000_000_000L, bad);
            double seconds = (System.nanoTime() - start) / 1e9;
            Arrays.sort(latencies);
            System.out.printf(Locale.ROOT,
                    "BENCH requests=%d duration_s=%.2f rps=%.0f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f bad_status=%d socket_errors=0 fanout=%d%n",
                    latencies.length, seconds, latencies.length / seconds, percentile(latencies, 50), percentile(latencies, 90),
                    percentile(latencies, 99), bad[0], requests.size());
            if (bad[0] > 0) {
                System.exit(1);
            }
        }
    }

    /** Batch after batch for {@code nanos}; the latency of each batch in nanoseconds. */
    private static long[] run(HttpClient client, ExecutorService pool, List<HttpRequest> requests, long nanos, int[] bad)
            throws Exception {
        long[] latencies = new long[1 << 16];
        int count = 0;
        long end = System.nanoTime() + nanos;
        List<Future<Integer>> pending = new ArrayList<>(requests.size());
        while (System.nanoTime() < end) {
            pending.clear();
            long t0 = System.nanoTime();
            for (HttpRequest request : requests) {
                pending.add(pool.submit(() -> client.send(request, HttpResponse.BodyHandlers.ofByteArray()).statusCode()));
            }
            for (Future<Integer> f : pending) {
                if (f.get() >= 400) {
                    bad[0]++;
                }
            }
            if (count == latencies.length) {
                latencies = Arrays.copyOf(latencies, count * 2);
            }
            latencies[count++] = System.nanoTime() - t0;
        }
        return Arrays.copyOf(latencies, count);
    }

    private static double percentile(long[] sorted, int p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, index)] / 1e6;
    }
}
