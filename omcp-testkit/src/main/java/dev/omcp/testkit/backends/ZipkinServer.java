package dev.omcp.testkit.backends;

import dev.omcp.sdk.connector.SourceConfig;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Zipkin server ({@code io.zipkin:zipkin-server:3.6.1:exec}, in-memory storage) on a free
 * loopback port, for the Zipkin connector's backend tests. The jar's path comes from the system
 * property {@code omcp.zipkin.jar}, which the build sets when {@code OMCP_TEST_BACKENDS=true}
 * (Maven copies the jar from Maven Central into {@code target/backends}). Start it once per test
 * class; {@link #close()} stops the process.
 */
public final class ZipkinServer implements AutoCloseable {
    public static final String JAR_PROPERTY = "omcp.zipkin.jar";
    private static final Duration STARTUP = Duration.ofSeconds(90);

    private final Process process;
    private final int port;
    private final Path log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private ZipkinServer(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /**
     * Starts the server and waits until {@code /health} answers.
     *
     * @throws IllegalStateException when the jar is missing or the server does not come up; the
     *     message says how to get the jar and where the server's log is
     */
    public static ZipkinServer start() {
        String jarProperty = System.getProperty(JAR_PROPERTY, "");
        if (jarProperty.isBlank()) {
            throw new IllegalStateException("system property " + JAR_PROPERTY + " is not set; run the build with OMCP_TEST_BACKENDS=true "
                    + "so Maven copies io.zipkin:zipkin-server:3.6.1:exec into omcp-testkit/target/backends");
        }
        Path jar = Path.of(jarProperty);
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("the Zipkin server jar " + jar + " is missing; run the build with OMCP_TEST_BACKENDS=true "
                    + "so Maven copies io.zipkin:zipkin-server:3.6.1:exec there");
        }
        int port = freePort();
        Path log;
        try {
            log = Files.createTempFile("zipkin-server-", ".log");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        command.add("-jar");
        command.add(jar.toString());
        // All three, or Armeria picks a random port (TOOLCHAIN.md).
        command.add("--armeria.ports[0].port=" + port);
        command.add("--armeria.ports[0].ip=127.0.0.1");
        command.add("--armeria.ports[0].protocols[0]=http");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("STORAGE_TYPE", "mem");
        builder.environment().put("SELF_TRACING_ENABLED", "false");
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new IllegalStateException("the Zipkin server could not be started: " + e.getMessage(), e);
        }
        ZipkinServer server = new ZipkinServer(process, port, log);
        server.awaitHealthy();
        return server;
    }

    private void awaitHealthy() {
        long deadline = System.nanoTime() + STARTUP.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the Zipkin server exited with " + process.exitValue() + "; its log is " + log);
            }
            try {
                HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create(url() + "/health")).timeout(Duration.ofSeconds(2)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (health.statusCode() == 200 && health.body().contains("UP")) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stop();
                throw new IllegalStateException("interrupted while waiting for the Zipkin server");
            }
            try {
                process.waitFor(200, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stop();
                throw new IllegalStateException("interrupted while waiting for the Zipkin server");
            }
        }
        stop();
        throw new IllegalStateException("the Zipkin server was not healthy within " + STARTUP.toSeconds() + " s; its log is " + log);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }

    /** The base URL, for example {@code http://127.0.0.1:41234}. */
    public String url() {
        return "http://127.0.0.1:" + port;
    }

    /** A source of type {@code zipkin} pointing at this server. */
    public SourceConfig source(String name) {
        return new SourceConfig(name, "zipkin", url(), "", JsonValue.EMPTY_JSON_OBJECT);
    }

    /** Stores spans (a JSON array of Zipkin v2 spans) through {@code POST /api/v2/spans}. */
    public void postSpans(String spansJson) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url() + "/api/v2/spans"))
                            .timeout(Duration.ofSeconds(10))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(spansJson))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 202) {
                throw new IllegalStateException("Zipkin refused the spans: HTTP " + response.statusCode() + " " + response.body());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while posting spans");
        }
    }

    /** Stops the server and deletes its log. */
    @Override
    public void close() {
        stop();
        try {
            Files.deleteIfExists(log);
        } catch (IOException e) {
            // the log is a temporary file; leaving it behind harms nothing
        }
    }

    private void stop() {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
