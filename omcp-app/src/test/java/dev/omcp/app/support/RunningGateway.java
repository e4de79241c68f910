package dev.omcp.app.support;

import dev.omcp.app.settings.InvalidSettingsException;
import dev.omcp.app.settings.Settings;
import dev.omcp.app.settings.SettingsReader;
import dev.omcp.app.wiring.GatewayAssembly;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/** A gateway started in-process on a free loopback port, with the conformance fixture mounted. */
public final class RunningGateway implements AutoCloseable {
    private final GatewayAssembly assembly;

    private RunningGateway(GatewayAssembly assembly) {
        this.assembly = assembly;
    }

    /** Starts a gateway with the given environment on top of HOST=127.0.0.1, PORT=0 and the per-address limits off. */
    public static RunningGateway start(Map<String, String> env) {
        return start(env, Clock.systemUTC());
    }

    /** Starts a gateway with the given environment whose time rules all read {@code clock}. */
    public static RunningGateway start(Map<String, String> env, Clock clock) {
        Map<String, String> all = new HashMap<>();
        all.put("HOST", "127.0.0.1");
        all.put("PORT", "0");
        all.put("OMCP_SHUTDOWN_GRACE", "5");
        // Every request of a test comes from 127.0.0.1, one client to the per-address limits: a test of something else
        // must not run into them. A test of those limits sets them; an empty value gives the gateway's default.
        all.put("OMCP_API_RATE_PER_IP_PER_MIN", "off");
        all.put("OMCP_AUTH_FAILURES_PER_IP_PER_MIN", "off");
        all.putAll(env);
        try {
            Settings settings = SettingsReader.read(all);
            return new RunningGateway(GatewayAssembly.start(settings, new GatewayAssembly.Options(true), dev.omcp.app.cli.VersionProvider.version(), clock));
        } catch (InvalidSettingsException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    public static RunningGateway start() {
        return start(Map.of());
    }

    public int port() {
        return assembly.port();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    public GatewayAssembly assembly() {
        return assembly;
    }

    @Override
    public void close() {
        assembly.close();
    }
}
