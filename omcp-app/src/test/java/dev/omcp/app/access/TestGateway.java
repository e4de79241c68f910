package dev.omcp.app.access;

import dev.omcp.app.settings.InvalidSettingsException;
import dev.omcp.app.settings.SettingsReader;
import dev.omcp.app.wiring.GatewayAssembly;
import dev.omcp.testkit.audit.RecordingAuditTrail;
import dev.omcp.testkit.files.ScratchDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/** A gateway started in-process on a free loopback port, with a recording audit trail and a given clock. */
final class TestGateway implements AutoCloseable {
    /** "correct horse battery", minted by Python's hashlib.scrypt with N=32768, r=8, p=1. */
    static final String PASSWORD = "correct horse battery";
    static final String SLOW_HASH = "scrypt$32768$8$1$AAECAwQFBgcICQoLDA0ODw==$xy6UCICz8Vv/P6JqOkkUD4DOmhxN0tXSe6sQAUBxupQOaQF8W4fxxT4tL3hHSEGLYZI6os9JTePK9k438hyW1g==";
    /** The same password with N=1024, so most tests do not spend a third of a second per login. */
    static final String HASH = "scrypt$1024$8$1$EBESExQVFhcYGRobHB0eHw==$XbyYPdUma9TQEMux0+TkqpxuU9BGN/gE8DwWuSNdyPn/ZSaq4MJI2/XG0XpckbaY9j99MUwCi5W0SYAybqa4iA==";
    static final String SECRET = "test-session-secret-0123456789-abcdefgh";

    private final GatewayAssembly assembly;
    final RecordingAuditTrail audit;
    private final ScratchDirectory scratch;

    private TestGateway(GatewayAssembly assembly, RecordingAuditTrail audit, ScratchDirectory scratch) {
        this.assembly = assembly;
        this.audit = audit;
        this.scratch = scratch;
    }

    static TestGateway start(Map<String, String> env, Clock clock) {
        return start(env, clock, "test");
    }

    /** A gateway that reports {@code version} (plugins check their compat.serverVersion against it). */
    static TestGateway start(Map<String, String> env, Clock clock, String version) {
        Map<String, String> all = new HashMap<>();
        all.put("HOST", "127.0.0.1");
        all.put("PORT", "0");
        all.put("OMCP_SHUTDOWN_GRACE", "1");
        ScratchDirectory scratch = ScratchDirectory.create("omcp-test-gateway");
        // Never the shared default /tmp/postmortems.jsonl: each gateway gets its own store.
        all.put("OMCP_POSTMORTEMS_FILE", scratch.resolve("postmortems.jsonl").toString());
        // Every request of a test comes from 127.0.0.1, one client to the per-address limits: a test of something else
        // (a fuzz of every route, a walk through wrong tokens) must not run into them. A test of those limits sets
        // them; an empty value gives the gateway's default.
        all.put("OMCP_API_RATE_PER_IP_PER_MIN", "off");
        all.put("OMCP_AUTH_FAILURES_PER_IP_PER_MIN", "off");
        all.putAll(env);
        RecordingAuditTrail audit = new RecordingAuditTrail();
        try {
            return new TestGateway(GatewayAssembly.start(SettingsReader.read(all), GatewayAssembly.Options.none(), version, clock, audit),
                    audit, scratch);
        } catch (InvalidSettingsException e) {
            scratch.close();
            throw new IllegalArgumentException(e.getMessage(), e);
        } catch (RuntimeException e) {
            scratch.close();
            throw e;
        }
    }

    /**
     * Basic mode with alice (admin), olivia (operator), victor (viewer, tenant acme) and sam (viewer,
     * hashed with the minting cost N=32768), all with {@link #PASSWORD}.
     */
    static Map<String, String> basicMode(Path dir) {
        Path users = dir.resolve("users.json");
        try {
            Files.writeString(users, "{\"users\": ["
                    + "{\"username\": \"alice\", \"name\": \"Alice Admin\", \"roles\": [\"admin\"], \"passwordHash\": \"" + HASH + "\"},"
                    + "{\"username\": \"olivia\", \"name\": \"Olivia Ops\", \"roles\": [\"operator\"], \"passwordHash\": \"" + HASH + "\"},"
                    + "{\"username\": \"victor\", \"name\": \"Victor View\", \"roles\": [\"viewer\"], \"passwordHash\": \"" + HASH
                    + "\", \"tenant\": \"acme\"},"
                    + "{\"username\": \"sam\", \"roles\": [\"viewer\"], \"passwordHash\": \"" + SLOW_HASH + "\"}]}");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> env = new HashMap<>();
        env.put("OMCP_AUTH", "basic");
        env.put("OMCP_USERS_FILE", users.toString());
        env.put("OMCP_SESSION_SECRET", SECRET);
        return env;
    }

    int port() {
        return assembly.port();
    }

    String base() {
        return "http://127.0.0.1:" + port();
    }

    Browser browser() {
        return new Browser(base());
    }

    GatewayAssembly assembly() {
        return assembly;
    }

    @Override
    public void close() {
        assembly.close();
        scratch.close();
    }
}
