package dev.omcp.testkit.demo;

import dev.omcp.testkit.demo.kubernetes.FakeKubernetesApiServer;
import dev.omcp.testkit.demo.loki.FakeLokiServer;
import dev.omcp.testkit.demo.prometheus.FakePrometheusServer;
import dev.omcp.testkit.demo.system.SimulatedSystem;
import dev.omcp.testkit.demo.zipkin.FakeZipkinServer;
import java.io.IOException;
import java.security.SecureRandom;
import java.time.Clock;
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

    private DemoBackends(SimulatedSystem system, String kubernetesToken) throws IOException {
        this.system = system;
        this.kubernetesToken = kubernetesToken;
        this.prometheus = FakePrometheusServer.start(system);
        this.loki = FakeLokiServer.start(system);
        this.kubernetes = FakeKubernetesApiServer.start(system, kubernetesToken);
        this.zipkin = FakeZipkinServer.start(system);
    }

    /** Starts every simulated backend for {@code system}. */
    public static DemoBackends start(SimulatedSystem system) throws IOException {
        byte[] token = new byte[24];
        new SecureRandom().nextBytes(token);
        return new DemoBackends(system, HexFormat.of().formatHex(token));
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
