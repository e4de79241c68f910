package dev.omcp.app.demo;

import dev.omcp.app.support.RunningGateway;
import dev.omcp.testkit.demo.DemoBackends;
import dev.omcp.testkit.files.ScratchDirectory;
import dev.omcp.testkit.demo.system.SimulatedSystem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The gateway in front of the simulated shop, in-process on a free port: what {@code omcp demo}
 * runs, for end-to-end tests of the tools.
 *
 * <p>The shop and the gateway share a clock that starts at {@link #PINNED_START} and then ticks
 * in real time. The shop's traffic follows the time of day and its noise is drawn from a fixed
 * seed, so on the wall clock every run saw different data, and one CI run, started in the morning
 * traffic climb, failed on a false alarm no earlier run had met. Pinned, every run judges the same
 * series; the demo itself ({@code omcp demo}) stays on the wall clock, and the anomaly detector's
 * behaviour over the whole day is covered by the backtest and the trend tests of the core.
 */
public final class DemoGateway implements AutoCloseable {
    /**
     * Mid-afternoon, near the shop's daily traffic peak (14:00 UTC); the incident is 25 minutes old
     * then. {@code -DargLine=-Domcp.demo.pinned=<instant>} replays another moment of the day.
     */
    public static final Instant PINNED_START = Instant.parse(System.getProperty("omcp.demo.pinned", "2026-11-24T14:35:00Z"));

    /** How long the simulated Loki may take for one query (the demo itself keeps Loki's 15 s). */
    private static final Duration LOKI_QUERY_TIMEOUT = Duration.ofSeconds(40);

    private final DemoBackends backends;
    private final RunningGateway gateway;
    private final ScratchDirectory work;

    private DemoGateway(DemoBackends backends, RunningGateway gateway, ScratchDirectory work) {
        this.backends = backends;
        this.gateway = gateway;
        this.work = work;
    }

    /** Starts the standard demo shop and a gateway over it; {@code extraEnv} adds settings. */
    public static DemoGateway start(Map<String, String> extraEnv) {
        Clock clock = Clock.offset(Clock.systemUTC(), Duration.between(Instant.now(), PINNED_START));
        DemoBackends backends;
        try {
            backends = DemoBackends.start(SimulatedSystem.standard(clock), LOKI_QUERY_TIMEOUT);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ScratchDirectory work = ScratchDirectory.create("omcp-demo-it");
        try {
            Path reference = Path.of(System.getProperty("omcp.reference.dir", "../omcp-testkit/target/reference-plugins"));
            Map<String, String> env = new HashMap<>(DemoEnvironment.prepare(backends, work.path(), Optional.of(reference)));
            // These tests judge what the tools answer, never how fast: on a machine loaded by a whole
            // build (load over 15 on 2 cores) the simulated Loki once needed more than 15 s for an hour
            // of logs, and a post-mortem came back partial. Room for that; a test may still set its own.
            env.put("OMCP_TOOL_SOURCE_TIMEOUT", Long.toString(LOKI_QUERY_TIMEOUT.toSeconds() + 5));
            env.put("OMCP_TOOL_DEADLINE", "60");
            env.putAll(extraEnv);
            return new DemoGateway(backends, RunningGateway.start(env, clock), work);
        } catch (RuntimeException e) {
            backends.close();
            work.close();
            throw e;
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
        work.close();
    }
}
