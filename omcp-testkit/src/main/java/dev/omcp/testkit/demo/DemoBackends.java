package dev.omcp.testkit.demo;

import dev.omcp.testkit.demo.kubernetes.FakeKubernetesApiServer;
import dev.omcp.testkit.demo.loki.FakeLokiServer;
import dev.omcp.testkit.demo.prometheus.FakePrometheusServer;
import dev.omcp.testkit.demo.system.SimulatedSystem;
import dev.omcp.testkit.demo.zipkin.FakeZipkinServer;
import java.io.IOException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HexFormat;

/**
 * The simulated shop behind real backend APIs on free loopback ports: Prometheus, Loki, the
 * Kubernetes API and Zipkin. {@code omcp demo} points the gateway at these; the end-to-end tests
 * use the same system.
 */
public final class DemoBackends implements AutoCloseable {
    private final SimulatedSystem system;
    private final FakePrometheusServer prometheus;
    private final FakeLokiServer loki;
    private final FakeKubernetesApiServer kubernetes;
    private final FakeZipkinServer zipkin;
    private final String kubernetesToken;

    private DemoBackends(SimulatedSystem system, String kubernetesToken, FakePrometheusServer prometheus, FakeLokiServer loki,
            FakeKubernetesApiServer kubernetes, FakeZipkinServer zipkin) {
        this.system = system;
        this.kubernetesToken = kubernetesToken;
        this.prometheus = prometheus;
        this.loki = loki;
        this.kubernetes = kubernetes;
        this.zipkin = zipkin;
    }

    /** Starts every simulated backend for {@code system}. */
    public static DemoBackends start(SimulatedSystem system) throws IOException {
        return start(system, FakeLokiServer.QUERY_TIMEOUT);
    }

    /**
     * Starts every simulated backend for {@code system}, the simulated Loki ending a query after
     * {@code lokiQueryTimeout}: tests on a loaded machine give it the time their gateway's source
     * timeout gives, since generating an hour of the shop's logs there takes longer than the default.
     */
    public static DemoBackends start(SimulatedSystem system, Duration lokiQueryTimeout) throws IOException {
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        String token = HexFormat.of().formatHex(bytes);
        // a backend that cannot start must not leave the ones before it listening, with their threads, in a
        // launcher or test that goes on (the demo prints the refusal and exits; a test class fails and the next runs)
        Deque<AutoCloseable> started = new ArrayDeque<>();
        try {
            FakePrometheusServer prometheus = remember(started, FakePrometheusServer.start(system));
            FakeLokiServer loki = remember(started, FakeLokiServer.start(system, lokiQueryTimeout));
            FakeKubernetesApiServer kubernetes = remember(started, FakeKubernetesApiServer.start(system, token));
            FakeZipkinServer zipkin = remember(started, FakeZipkinServer.start(system));
            return new DemoBackends(system, token, prometheus, loki, kubernetes, zipkin);
        } catch (IOException | RuntimeException e) {
            closeAll(started, e);
            throw e;
        }
    }

    private static <T extends AutoCloseable> T remember(Deque<AutoCloseable> started, T backend) {
        started.push(backend);
        return backend;
    }

    private static void closeAll(Deque<AutoCloseable> started, Exception cause) {
        for (AutoCloseable backend : started) {
            try {
                backend.close();
            } catch (Exception closing) {
                cause.addSuppressed(closing);
            }
        }
    }

    /** Starts the standard demo shop on the system clock. */
    public static DemoBackends startStandard() throws IOException {
        return start(SimulatedSystem.standard(Clock.systemUTC()));
    }

    public SimulatedSystem system() {
        return system;
    }

    public String prometheusUrl() {
        return prometheus.baseUrl();
    }

    public String lokiUrl() {
        return loki.baseUrl();
    }

    public String kubernetesUrl() {
        return kubernetes.baseUrl();
    }

    /** The bearer token the simulated Kubernetes API accepts. */
    public String kubernetesToken() {
        return kubernetesToken;
    }

    public String zipkinUrl() {
        return zipkin.baseUrl();
    }

    @Override
    public void close() {
        prometheus.close();
        loki.close();
        kubernetes.close();
        zipkin.close();
    }
}
