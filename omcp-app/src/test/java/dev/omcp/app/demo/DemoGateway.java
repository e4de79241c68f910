package dev.omcp.app.demo;

import dev.omcp.app.support.RunningGateway;
import dev.omcp.testkit.demo.DemoBackends;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The gateway in front of the simulated shop, in-process on a free port: what {@code omcp demo}
 * runs, for end-to-end tests of the tools.
 */
public final class DemoGateway implements AutoCloseable {
    private final DemoBackends backends;
    private final RunningGateway gateway;

    private DemoGateway(DemoBackends backends, RunningGateway gateway) {
        this.backends = backends;
        this.gateway = gateway;
    }

    /** Starts the standard demo shop and a gateway over it; {@code extraEnv} adds settings. */
    public static DemoGateway start(Map<String, String> extraEnv) {
        try {
            DemoBackends backends = DemoBackends.startStandard();
            Path work = Files.createTempDirectory("omcp-demo-it");
            Path reference = Path.of(System.getProperty("omcp.reference.dir", "../omcp-testkit/target/reference-plugins"));
            Map<String, String> env = new HashMap<>(DemoEnvironment.prepare(backends, work, Optional.of(reference)));
            env.putAll(extraEnv);
            return new DemoGateway(backends, RunningGateway.start(env));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static DemoGateway start() {
        return start(Map.of());
    }

    public DemoBackends backends() {
        return backends;
    }

    public RunningGateway gateway() {
        return gateway;
    }

    public String baseUrl() {
        return gateway.baseUrl();
    }

    @Override
    public void close() {
        gateway.close();
        backends.close();
    }
}
