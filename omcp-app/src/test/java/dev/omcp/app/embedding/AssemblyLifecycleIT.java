package dev.omcp.app.embedding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.omcp.app.settings.SettingsReader;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.app.wiring.GatewayAssembly;
import dev.omcp.app.wiring.StartRefusedException;
import dev.omcp.ports.audit.AuditEvent;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole launcher assembly started and closed in one JVM, as an embedder's tests do: a start
 * refused half-way leaves nothing it opened behind, and many start and close cycles leave no
 * thread and no open file behind.
 */
class AssemblyLifecycleIT {
    @TempDir
    Path dir;

    private Map<String, String> environment() throws IOException {
        Map<String, String> env = new HashMap<>();
        env.put("HOST", "127.0.0.1");
        env.put("PORT", "0");
        env.put("OMCP_SHUTDOWN_GRACE", "1");
        env.put("OMCP_MGMT_AUDIT_FILE", dir.resolve("audit.jsonl").toString());
        env.put("OMCP_AUDIT_FSYNC", "batch");
        env.put("OMCP_AUTH_REVOCATION_FILE", dir.resolve("revocations.jsonl").toString());
        return env;
    }

    private static GatewayAssembly start(Map<String, String> env) throws Exception {
        return GatewayAssembly.start(SettingsReader.read(env), GatewayAssembly.Options.none(), "test");
    }

    @Test
    void aStartRefusedAfterTheAuditFileOpened_closesItAgain() throws Exception {
        Map<String, String> env = environment();
        Path policy = Files.writeString(dir.resolve("policy.yaml"), "roles: [not, a, map\n");
        env.put("OMCP_RBAC_POLICY_FILE", policy.toString());

        assertThatThrownBy(() -> start(env)).isInstanceOf(StartRefusedException.class).hasMessageContaining("OMCP_RBAC_POLICY_FILE");

        // an embedder that fixes the file and starts again in the same JVM must not find the old start's file and thread
        assertThat(openFilesUnder(dir)).as("files of the refused start still open").isEmpty();
        assertThat(threadsNamed("omcp-audit-fsync")).as("the audit file's fsync thread of the refused start").isZero();
        env.remove("OMCP_RBAC_POLICY_FILE");
        start(env).close();
    }

    @Test
    void aStartRefusedBecauseThePortIsTaken_closesTheAuditFile() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Map<String, String> env = environment();
            env.put("PORT", Integer.toString(taken.getLocalPort()));

            assertThatThrownBy(() -> start(env)).isInstanceOf(StartRefusedException.class).hasMessageContaining("already in use");

            assertThat(openFilesUnder(dir)).as("files of the refused start still open").isEmpty();
            assertThat(threadsNamed("omcp-audit-fsync")).as("the audit file's fsync thread of the refused start").isZero();
        }
    }

    @Test
    void twentyStartsAndCloses_withEverySinkAndASource_andRequestsServed_leaveNoThreadAndNoOpenFileBehind() throws Exception {
        HttpServer receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.start();
        try {
            String url = "http://127.0.0.1:" + receiver.getAddress().getPort();
            Map<String, String> env = environment();
            env.put("OMCP_ALLOW_PRIVATE_BACKENDS", "true");
            env.put("OMCP_AUDIT_WEBHOOK_URL", url + "/hook");
            env.putAll(Map.of("OMCP_AUDIT_S3_ENDPOINT", url, "OMCP_AUDIT_S3_BUCKET", "audit", "OMCP_AUDIT_S3_ACCESS_KEY_ID", "AKID",
                    "OMCP_AUDIT_S3_SECRET_ACCESS_KEY", "s3cr3t-key", "OMCP_AUDIT_S3_BATCH_SIZE", "1"));
            env.put("OMCP_ANOMALY_HISTORY_REMOTE_WRITE", url + "/api/v1/write");
            env.put("PROMETHEUS_URL", url);
            startServeAndClose(env);
            int threadsBefore = liveThreads().size();
            long filesBefore = openFileCount();

            for (int i = 0; i < 20; i++) {
                startServeAndClose(env);
            }

            assertThat(openFilesUnder(dir)).as("files of closed gateways still open").isEmpty();
            long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while ((liveThreads().size() > threadsBefore + 5 || openFileCount() > filesBefore + 5) && System.nanoTime() < until) {
                System.gc();
                Thread.sleep(100);
            }
            assertThat(liveThreads().size()).as("threads after 20 closed gateways: %s", liveThreads())
                    .isLessThanOrEqualTo(threadsBefore + 5);
            assertThat(openFileCount()).as("open file descriptors after 20 closed gateways").isLessThanOrEqualTo(filesBefore + 5);
        } finally {
            receiver.stop(0);
        }
    }

    private static void startServeAndClose(Map<String, String> env) throws Exception {
        try (GatewayAssembly gateway = start(env)) {
            McpHttpClient client = new McpHttpClient("http://127.0.0.1:" + gateway.port());
            client.initialize();
            client.call("tools/list", "{}");
            client.toolResult("list_sources", "{}");
            gateway.audit().record(new AuditEvent("user:alice", "", "sources", "write", "PUT", "/api/sources/prom", 200,
                    "127.0.0.1", "prom"));
        }
    }

    private static List<String> liveThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName).sorted().toList();
    }

    private static long threadsNamed(String name) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.isAlive() && t.getName().equals(name)).count();
    }

    private static long openFileCount() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    /** The files under {@code root} this process holds open, read from /proc (Linux). */
    private static List<Path> openFilesUnder(Path root) throws IOException {
        List<Path> open = new ArrayList<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    Path target = Files.readSymbolicLink(fd);
                    if (target.startsWith(root.toRealPath())) {
                        open.add(target);
                    }
                } catch (IOException e) {
                    // the descriptor closed between the listing and the read: not open any more
                }
            }
        }
        return open;
    }
}
