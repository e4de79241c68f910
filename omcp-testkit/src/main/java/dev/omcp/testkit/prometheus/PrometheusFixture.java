package dev.omcp.testkit.prometheus;

import dev.omcp.testkit.files.ScratchDirectory;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Starts the real {@code prometheus} binary (Debian package {@code prometheus}) on a free loopback
 * port over a TSDB that {@code promtool tsdb create-blocks-from openmetrics} backfilled with
 * {@link SyntheticMetrics}. Start once per test class ({@code @BeforeAll}) and {@link #close()} it
 * ({@code @AfterAll}); a JVM shutdown hook stops it too if a test run is killed.
 *
 * <p>A missing binary is an error, not a skip: tests using this fixture are tagged {@code backend}
 * and run only when the CI installed it.
 */
public final class PrometheusFixture implements AutoCloseable {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final ScratchDirectory scratch;
    private final int port;
    private final Instant end;
    private final Thread shutdownHook;

    private PrometheusFixture(Process process, ScratchDirectory scratch, int port, Instant end) {
        this.process = process;
        this.scratch = scratch;
        this.port = port;
        this.end = end;
        // a killed test run (or a benchmark stopped with SIGTERM) still stops Prometheus and removes its TSDB
        this.shutdownHook = new Thread(this::stopAndDelete, "prometheus-fixture-stop");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Generates {@code history} of data ending now, backfills it and starts Prometheus.
     *
     * @throws IllegalStateException when a binary is missing or Prometheus does not become ready
     */
    public static PrometheusFixture start(Duration history) throws IOException, InterruptedException {
        return start(history, SyntheticMetrics.MoreSeries.NONE, false, port -> "scrape_configs: []\n");
    }

    /**
     * Like {@link #start(Duration)}, with {@code more} series of the test's own in the TSDB, for a case the generated
     * history does not have (a test class of its own, so other tests' exact answers stay as they are).
     */
    public static PrometheusFixture start(Duration history, SyntheticMetrics.MoreSeries more) throws IOException, InterruptedException {
        return start(history, more, false, port -> "scrape_configs: []\n");
    }

    /**
     * Like {@link #start(Duration)}, with the remote-write receiver enabled
     * ({@code --web.enable-remote-write-receiver}): {@code POST} {@link #remoteWriteUrl()} accepts
     * remote-write 0.1.0 requests, whose samples the query API then answers.
     */
    public static PrometheusFixture startWithRemoteWriteReceiver(Duration history) throws IOException, InterruptedException {
        return start(history, SyntheticMetrics.MoreSeries.NONE, true, port -> "scrape_configs: []\n");
    }
    /**
     * As {@link #start(Duration)}, and Prometheus also scrapes itself every second as job
     * {@code job}, plus each of {@code downTargets} ({@code host:port} where nothing answers), so
     * its targets API lists active targets in both health states.
     */
    public static PrometheusFixture startScrapingItself(Duration history, String job, List<String> downTargets)
            throws IOException, InterruptedException {
        if (!job.matches("[A-Za-z0-9_.-]+") || downTargets.stream().anyMatch(t -> !t.matches("[A-Za-z0-9.\\[\\]:-]+"))) {
            throw new IllegalArgumentException("job and targets must be plain names and host:port, got " + job + " " + downTargets);
        }
        return start(history, SyntheticMetrics.MoreSeries.NONE, false, port -> {
            StringBuilder targets = new StringBuilder("'127.0.0.1:" + port + "'");
            downTargets.forEach(t -> targets.append(", '").append(t).append("'"));
            return "scrape_configs:\n  - job_name: " + job + "\n    scrape_interval: 1s\n    scrape_timeout: 1s\n"
                    + "    static_configs:\n      - targets: [" + targets + "]\n";
        });
    }

    /**
     * @param more series of the test's own, written beside the generated ones
     * @param remoteWriteReceiver whether Prometheus accepts remote-write requests
     * @param scrapeConfigs the {@code scrape_configs} section of the configuration, given Prometheus's own port
     */
    private static PrometheusFixture start(Duration history, SyntheticMetrics.MoreSeries more, boolean remoteWriteReceiver,
            IntFunction<String> scrapeConfigs) throws IOException, InterruptedException {
        String prometheus = binary("prometheus");
        String promtool = binary("promtool");
        ScratchDirectory scratch = ScratchDirectory.create("omcp-prometheus-");
        Process process;
        Instant end;
        int port;
        try {
            Path dir = scratch.path();
            end = Instant.ofEpochSecond(Instant.now().getEpochSecond() / 60 * 60);
            port = freePort();
            process = backfillAndStart(prometheus, promtool, dir, end, port, history, more, remoteWriteReceiver, scrapeConfigs);
        } catch (IOException | InterruptedException | RuntimeException e) {
            scratch.close();
            throw e;
        }
        PrometheusFixture fixture = new PrometheusFixture(process, scratch, port, end);
        try {
            fixture.awaitReady();
        } catch (RuntimeException | IOException | InterruptedException e) {
            fixture.close();
            throw e;
        }
        return fixture;
    }

    private static Process backfillAndStart(String prometheus, String promtool, Path dir, Instant end, int port, Duration history,
            SyntheticMetrics.MoreSeries more, boolean remoteWriteReceiver, IntFunction<String> scrapeConfigs)
            throws IOException, InterruptedException {
        Path data = dir.resolve("data.om");
        Files.writeString(data, SyntheticMetrics.openMetrics(end, history, more), StandardCharsets.UTF_8);
        Path tsdb = dir.resolve("tsdb");
        run(List.of(promtool, "tsdb", "create-blocks-from", "openmetrics", data.toString(), tsdb.toString()), dir);
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, "global:\n  scrape_interval: 15s\n" + scrapeConfigs.apply(port), StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>(List.of(prometheus,
                "--config.file=" + config,
                "--storage.tsdb.path=" + tsdb,
                "--storage.tsdb.retention.time=30d",
                "--web.listen-address=127.0.0.1:" + port,
                "--log.level=warn"));
        if (remoteWriteReceiver) {
            command.add("--web.enable-remote-write-receiver");
        }
        return new ProcessBuilder(command).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
    }

    /** The base URL, {@code http://127.0.0.1:<port>}. */
    public String url() {
        return "http://127.0.0.1:" + port;
    }

    /** The remote-write endpoint, {@code http://127.0.0.1:<port>/api/v1/write} (answers only when started with the receiver). */
    public String remoteWriteUrl() {
        return url() + "/api/v1/write";
    }

    /** The timestamp of the last generated sample. */
    public Instant end() {
        return end;
    }

    private void awaitReady() throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).proxy(HttpClient.Builder.NO_PROXY).build();
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("prometheus exited with " + process.exitValue() + ": " + log());
            }
            try {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(url() + "/-/ready"))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            process.waitFor(100, TimeUnit.MILLISECONDS); // poll interval; returns early if it dies
        }
        throw new IllegalStateException("prometheus did not become ready within " + READY_TIMEOUT.toSeconds() + " s: " + log());
    }

    private String log() {
        try {
            String text = Files.readString(scratch.resolve("prometheus.log"));
            return text.length() > 2000 ? text.substring(text.length() - 2000) : text;
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static String binary(String name) {
        List<String> candidates = new ArrayList<>();
        String explicit = System.getProperty("omcp." + name + ".bin");
        if (explicit != null) {
            candidates.add(explicit);
        }
        String path = System.getProperty("omcp.test.path", "/usr/local/bin:/usr/bin:/bin");
        for (String dir : path.split(":")) {
            candidates.add(dir + "/" + name);
        }
        for (String c : candidates) {
            if (Files.isExecutable(Path.of(c))) {
                return c;
            }
        }
        throw new IllegalStateException(name + " is not installed; install the Debian package: "
                + "apt-get install -y --no-install-recommends prometheus");
    }

    private static void run(List<String> command, Path dir) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output;
        try (InputStream in = p.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(command.get(0) + " did not finish within 120 s");
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command.subList(0, 3)) + " failed with " + p.exitValue() + ": "
                    + (output.length() > 2000 ? output.substring(output.length() - 2000) : output));
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Stops Prometheus and deletes its files. */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down; the hook runs anyway, and stopping twice is harmless
        }
        stopAndDelete();
    }

    private void stopAndDelete() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        // Prometheus writes its TSDB until it exits; deleting before that would race its last writes
        scratch.close();
    }
}
