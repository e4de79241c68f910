package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.omcp.adapters.storage.CapturedLog;
import dev.omcp.adapters.storage.TestClock;
import dev.omcp.ports.plugins.BundleRejectedException;
import dev.omcp.ports.plugins.HubCatalog;
import dev.omcp.ports.plugins.HubEntry;
import dev.omcp.ports.plugins.HubRelease;
import dev.omcp.ports.plugins.HubUnavailableException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** spec 2.18: the static hub catalog, local and over HTTP, and the checks before a tarball is handed out. */
class StaticConnectorHubIT {
    private static final KeyPair KEY = Keys.ed25519();

    @RegisterExtension
    final CapturedLog log = new CapturedLog(StaticConnectorHub.class);
    @TempDir
    Path tmp;
    private Path hub;
    private Path trustRoot;
    private byte[] tarball;

    @BeforeEach
    void setUp() throws IOException {
        hub = Files.createDirectories(tmp.resolve("hub"));
        trustRoot = Files.writeString(tmp.resolve("trust-root.pem"), Keys.publicPem(KEY));
        tarball = PluginFixture.named("echo").signedBy(KEY).bundle("package");
        Files.createDirectories(hub.resolve("tarballs"));
        Files.createDirectories(hub.resolve("connectors"));
        Files.write(hub.resolve("tarballs/echo-1.0.0.tgz"), tarball);
        Files.write(hub.resolve("tarballs/echo-1.0.0.tgz.sig"), Keys.sign(KEY, tarball));
        writeEntry("../tarballs/echo-1.0.0.tgz", PluginFiles.integrity(tarball));
        ObjectNode index = PluginFixture.JSON.createObjectNode().put("schemaVersion", 1);
        index.putArray("connectors").addObject().put("name", "echo").put("catalog", "connectors/echo.json");
        Files.write(hub.resolve("index.json"), PluginFixture.JSON.writeValueAsBytes(index));
    }

    private void writeEntry(String tarballUrl, String integrity) throws IOException {
        ObjectNode manifest = (ObjectNode) PluginFixture.JSON.readTree(PluginFixture.named("echo").files().get("manifest.json"));
        ObjectNode entry = PluginFixture.JSON.createObjectNode().put("schemaVersion", 1).put("name", "echo").put("displayName", "Echo")
                .put("description", "test").put("latest", "1.0.0");
        entry.putArray("versions").addObject().put("version", "1.0.0").put("published", "2026-01-01").put("changelog", "first")
                .put("tarballUrl", tarballUrl).put("integrity", integrity).set("manifest", manifest);
        Files.write(hub.resolve("connectors/echo.json"), PluginFixture.JSON.writeValueAsBytes(entry));
    }

    private HubRelease release(StaticConnectorHub connectorHub) throws HubUnavailableException {
        HubCatalog catalog = connectorHub.catalog();
        HubEntry entry = catalog.find("echo").orElseThrow();
        return entry.latestRelease().orElseThrow();
    }

    @Test
    void aLocalHub_listsItsConnectors_andHandsOutAVerifiedTarball() throws Exception {
        StaticConnectorHub local = StaticConnectorHub.at(hub.toString(), Optional.of(trustRoot));
        HubCatalog catalog = local.catalog();
        assertThat(catalog.entries()).singleElement().satisfies(entry -> {
            assertThat(entry.displayName()).isEqualTo("Echo");
            assertThat(entry.releases().getFirst().changelog()).isEqualTo("first");
            assertThat(entry.releases().getFirst().signatureUrl()).isEqualTo("../tarballs/echo-1.0.0.tgz.sig");
            assertThat(entry.releases().getFirst().manifest().capabilities().queryTraces()).isTrue();
        });
        assertThat(local.fetchBundle(release(local))).isEqualTo(tarball);
    }

    @Test
    void aTarballNotMatchingTheCatalogIntegrity_isRejected() throws Exception {
        writeEntry("../tarballs/echo-1.0.0.tgz", PluginFiles.integrity("something else".getBytes()));
        StaticConnectorHub local = StaticConnectorHub.at(hub.toString(), Optional.of(trustRoot));
        assertThatThrownBy(() -> local.fetchBundle(release(local))).isInstanceOf(BundleRejectedException.class)
                .hasMessageContaining("does not match the catalog's integrity");
    }

    @Test
    void aTarballSignedByAnotherKey_isRejected() throws Exception {
        Files.write(hub.resolve("tarballs/echo-1.0.0.tgz.sig"), Keys.sign(Keys.ed25519(), tarball));
        StaticConnectorHub local = StaticConnectorHub.at(hub.toString(), Optional.of(trustRoot));
        assertThatThrownBy(() -> local.fetchBundle(release(local))).isInstanceOf(BundleRejectedException.class)
                .hasMessageContaining("does not verify against the trust root");
    }

    @Test
    void aTarballSignedByARevokedKey_isRejected_namingTheKeyAndTheList_whileAKeyStillTrustedVerifies() throws Exception {
        KeyPair current = Keys.ed25519();
        Path bothKeys = Files.writeString(tmp.resolve("both.pem"), Keys.publicPem(KEY) + Keys.publicPem(current));
        Path revoked = Files.writeString(tmp.resolve("revoked.txt"),
                "sha256:" + java.util.HexFormat.of().formatHex(PluginFiles.sha256(KEY.getPublic().getEncoded())) + " leaked\n");
        StaticConnectorHub revoking = StaticConnectorHub.at(hub.toString(), Optional.of(bothKeys), Optional.of(revoked));

        assertThatThrownBy(() -> revoking.fetchBundle(release(revoking))).isInstanceOf(BundleRejectedException.class)
                .hasMessage("the tarball of echo@1.0.0: signed by a revoked key (" + TrustRootKeys.describe(KEY.getPublic())
                        + "), which OMCP_PLUGIN_REVOKED_KEYS revokes; install a version signed with a current key");

        Files.write(hub.resolve("tarballs/echo-1.0.0.tgz.sig"), Keys.sign(current, tarball));
        assertThat(revoking.fetchBundle(release(revoking))).as("re-signed with the current key").isEqualTo(tarball);
        StaticConnectorHub onlyRevoked = StaticConnectorHub.at(hub.toString(), Optional.of(trustRoot), Optional.of(revoked));
        assertThatThrownBy(() -> onlyRevoked.fetchBundle(release(onlyRevoked))).isInstanceOf(BundleRejectedException.class)
                .hasMessageStartingWith("the tarball cannot be verified: ").hasMessageContaining("every key it holds is revoked");
    }

    @Test
    void withoutTrustRoot_noTarballIsHandedOut() throws Exception {
        StaticConnectorHub local = StaticConnectorHub.at(hub.toString(), Optional.empty());
        assertThatThrownBy(() -> local.fetchBundle(release(local))).hasMessageContaining("PLUGIN_TRUST_ROOT is not set");
    }

    @Test
    void aLocalHubNeverReadsOutsideItsDirectory() throws Exception {
        Files.writeString(tmp.resolve("secret.tgz"), "secret");
        writeEntry("../../secret.tgz", PluginFiles.integrity("secret".getBytes()));
        StaticConnectorHub local = StaticConnectorHub.at(hub.toString(), Optional.of(trustRoot));
        assertThatThrownBy(local::catalog).isInstanceOf(HubUnavailableException.class).hasMessageContaining("outside its directory");
    }

    @Test
    void aVersionWhoseManifestIsInvalid_isLeftOut() throws Exception {
        String entry = Files.readString(hub.resolve("connectors/echo.json")).replace("\"signalTypes\":[\"traces\"]", "\"signalTypes\":[\"events\"]");
        Files.writeString(hub.resolve("connectors/echo.json"), entry);
        assertThat(StaticConnectorHub.at(hub.toString(), Optional.of(trustRoot)).catalog().entries()).isEmpty();
    }

    @Test
    void theNamesAndVersionsAHubSends_areQuotedInTheLog_soTheyCannotForgeAField() throws Exception {
        // the hub is another party: a name with a space and =, a version with quotes
        String name = "echo reason=\"signed by the trust root\"";
        ObjectNode index = PluginFixture.JSON.createObjectNode().put("schemaVersion", 1);
        index.putArray("connectors").addObject().put("name", name).put("catalog", "connectors/echo.json");
        index.withArray("connectors").addObject().put("name", "echo").put("catalog", "connectors/echo.json");
        Files.write(hub.resolve("index.json"), PluginFixture.JSON.writeValueAsBytes(index));
        ObjectNode entry = (ObjectNode) PluginFixture.JSON.readTree(hub.resolve("connectors/echo.json").toFile());
        ((ObjectNode) entry.get("versions").get(0)).put("version", "2\" outcome=\"installed");
        Files.write(hub.resolve("connectors/echo.json"), PluginFixture.JSON.writeValueAsBytes(entry));

        assertThat(StaticConnectorHub.at(hub.toString(), Optional.of(trustRoot)).catalog().entries()).isEmpty();

        assertThat(log.messages(Level.WARN)).hasSize(2)
                .anySatisfy(line -> assertThat(line).startsWith("event=hub-entry-ignored ")
                        .contains(" connector=\"echo reason=\\\"signed by the trust root\\\"\" reason=\"not a connector name"))
                .anySatisfy(line -> assertThat(line).startsWith("event=hub-version-ignored ")
                        .contains(" connector=\"echo\" version=\"2\\\" outcome=\\\"installed\" "))
                .allSatisfy(line -> assertThat(line).doesNotContain(" reason=\"signed").doesNotContain(" outcome=\"installed\""));
    }

    private static long indexReads(List<String> asked) {
        return asked.stream().filter(path -> path.endsWith("/index.json")).count();
    }

    @Test
    void theCatalogIsReadOnceForEveryCallerWithinItsMaxAge_andAgainAfterIt() throws Exception {
        TestClock clock = new TestClock(Instant.parse("2026-01-01T00:00:00Z"));
        List<String> asked = new CopyOnWriteArrayList<>();
        HttpServer server = serveHub(asked);
        try {
            StaticConnectorHub remote = StaticConnectorHub.at(base(server), Optional.of(trustRoot), Optional.empty(),
                    StaticConnectorHub.Timeouts.DEFAULT, new StaticConnectorHub.CatalogReads(Duration.ofSeconds(30), 1 << 20, clock));

            HubCatalog first = remote.catalog();
            clock.advance(Duration.ofSeconds(29));
            assertThat(remote.catalog()).isSameAs(first);
            assertThat(remote.fetchBundle(release(remote))).as("an install uses the kept read too").isEqualTo(tarball);
            assertThat(indexReads(asked)).isEqualTo(1);

            clock.advance(Duration.ofSeconds(1));
            assertThat(remote.catalog().entries()).singleElement().satisfies(e -> assertThat(e.name()).isEqualTo("echo"));
            assertThat(indexReads(asked)).as("read again once 30 seconds old").isEqualTo(2);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void readersThatAskWhileTheCatalogIsBeingRead_shareThatOneRead() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<String> asked = new CopyOnWriteArrayList<>();
        HttpServer slow = serve(exchange -> {
            asked.add(exchange.getRequestURI().getPath());
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = Files.readAllBytes(hub.resolve(exchange.getRequestURI().getPath().substring("/catalog/".length())));
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        try (var readers = Executors.newVirtualThreadPerTaskExecutor()) {
            StaticConnectorHub remote = StaticConnectorHub.at(base(slow), Optional.of(trustRoot));
            List<Future<HubCatalog>> results = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                results.add(readers.submit(remote::catalog));
            }
            while (asked.isEmpty()) {
                Thread.onSpinWait();
            }
            // the others arrive while the index is held back: without sharing, each would fetch its own
            Thread.sleep(300);
            release.countDown();
            for (var result : results) {
                assertThat(result.get(10, TimeUnit.SECONDS).entries()).hasSize(1);
            }
            assertThat(indexReads(asked)).isEqualTo(1);
        } finally {
            release.countDown();
            slow.stop(0);
        }
    }

    @Test
    void aCatalogWhoseFilesTogetherPassTheBound_isHubUnavailable_namingTheBound() throws Exception {
        long indexBytes = Files.size(hub.resolve("index.json"));
        StaticConnectorHub local = StaticConnectorHub.at(hub.toString(), Optional.of(trustRoot), Optional.empty(),
                StaticConnectorHub.Timeouts.DEFAULT, new StaticConnectorHub.CatalogReads(Duration.ofSeconds(30), indexBytes + 10,
                        Clock.systemUTC()));

        assertThatThrownBy(local::catalog).isInstanceOf(HubUnavailableException.class)
                .hasMessageContaining("is larger than " + (indexBytes + 10) + " bytes in all")
                .hasMessageContaining("reading stopped at the catalog file of 'echo'")
                .hasMessageContaining("the hub must drop old versions or list fewer connectors");
    }

    @Test
    void aLatestThatNamesNoListedVersion_isReplacedByTheHighestListed_andLogged() throws Exception {
        ObjectNode entry = (ObjectNode) PluginFixture.JSON.readTree(hub.resolve("connectors/echo.json").toFile());
        ArrayNode versions = (ArrayNode) entry.get("versions");
        for (String number : new String[] {"1.10.0", "1.9.0", "1.10.0-rc.1"}) {
            ObjectNode copy = versions.get(0).deepCopy();
            copy.put("version", number);
            ((ObjectNode) copy.get("manifest")).put("version", number);
            versions.add(copy);
        }
        entry.put("latest", "9.9.9");
        Files.write(hub.resolve("connectors/echo.json"), PluginFixture.JSON.writeValueAsBytes(entry));

        HubEntry echo = StaticConnectorHub.at(hub.toString(), Optional.of(trustRoot)).catalog().find("echo").orElseThrow();

        assertThat(echo.latest()).isEqualTo("1.10.0");
        assertThat(echo.latestRelease()).isPresent();
        assertThat(log.messages(Level.WARN)).singleElement().satisfies(line -> assertThat(line).startsWith("event=hub-latest-corrected ")
                .contains(" connector=\"echo\" latest=\"9.9.9\" used=\"1.10.0\" "));
    }

    @Test
    void aMissingIndex_isHubUnavailable() {
        assertThatThrownBy(() -> StaticConnectorHub.at(tmp.resolve("nohub").toString(), Optional.of(trustRoot)).catalog())
                .isInstanceOf(HubUnavailableException.class).hasMessageContaining("is missing");
    }

    /** Serves the hub directory under {@code /catalog/}; records every path asked for. */
    private HttpServer serveHub(List<String> asked) throws IOException {
        return serve(exchange -> {
            asked.add(exchange.getRequestURI().getPath());
            Path file = hub.resolve(exchange.getRequestURI().getPath().substring("/catalog/".length())).normalize();
            if (!file.startsWith(hub) || !Files.isRegularFile(file)) {
                exchange.sendResponseHeaders(404, -1);
                exchange.close();
                return;
            }
            byte[] body = Files.readAllBytes(file);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
    }

    private static HttpServer serve(HttpHandler handler) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", handler);
        server.start();
        return server;
    }

    private static String base(HttpServer server) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/catalog/";
    }

    private void writeIndex(String catalogRef) throws IOException {
        ObjectNode index = PluginFixture.JSON.createObjectNode().put("schemaVersion", 1);
        index.putArray("connectors").addObject().put("name", "echo").put("catalog", catalogRef);
        Files.write(hub.resolve("index.json"), PluginFixture.JSON.writeValueAsBytes(index));
    }

    @Test
    void aHubServedOverHttp_works_andAn404IsHubUnavailable() throws Exception {
        HttpServer server = serveHub(new CopyOnWriteArrayList<>());
        try {
            String base = base(server);
            StaticConnectorHub remote = StaticConnectorHub.at(base, Optional.of(trustRoot));
            assertThat(remote.catalog().source()).isEqualTo(base + "index.json");
            assertThat(remote.fetchBundle(release(remote))).isEqualTo(tarball);
            StaticConnectorHub missing = StaticConnectorHub.at(base + "missing/index.json", Optional.of(trustRoot));
            assertThatThrownBy(missing::catalog).isInstanceOf(HubUnavailableException.class).hasMessageContaining("HTTP 404");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aHubServerError_isHubUnavailable_sayingItIsTheHubsServer_andWhatToDo() throws Exception {
        HttpServer failing = serve(exchange -> {
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
        });
        try {
            assertThatThrownBy(StaticConnectorHub.at(base(failing), Optional.of(trustRoot))::catalog)
                    .isInstanceOf(HubUnavailableException.class)
                    .hasMessageContaining("the hub index could not be fetched from the hub " + base(failing)
                            + "index.json: HTTP 503, an error of the hub's server")
                    .hasMessageContaining("try again later").hasMessageContaining("--from <dir>");
        } finally {
            failing.stop(0);
        }
    }

    @Test
    void aRefusedConnection_isHubUnavailable_sayingSo_andWhatToDo() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        String base = "http://127.0.0.1:" + closedPort + "/catalog/";
        assertThatThrownBy(StaticConnectorHub.at(base, Optional.of(trustRoot))::catalog)
                .isInstanceOf(HubUnavailableException.class)
                .hasMessageContaining("the hub index could not be fetched from the hub " + base + "index.json: the connection was refused")
                .hasMessageContaining("check that HUB_CATALOG_URL (or --from) names the hub and that it is reachable from this host")
                .hasMessageNotContaining("ConnectException");
    }

    @Test
    void aConnectionTheHubResets_isHubUnavailable_sayingSo_andWhatToDo() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            // answers every connection by closing it at once, as a hub that crashes or a proxy that drops it would;
            // a backlog of 50: with 1, a retried connection found it full under load and was refused instead
            Thread closer = Thread.ofVirtual().start(() -> {
                while (!socket.isClosed()) {
                    try (Socket accepted = socket.accept()) {
                        accepted.setSoLinger(true, 0);
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            String base = "http://127.0.0.1:" + socket.getLocalPort() + "/catalog/";
            assertThatThrownBy(StaticConnectorHub.at(base, Optional.of(trustRoot))::catalog)
                    .isInstanceOf(HubUnavailableException.class)
                    .hasMessageContaining("the hub index could not be fetched from the hub " + base + "index.json: the hub closed or reset "
                            + "the connection before its answer was complete")
                    .hasMessageContaining("check that HUB_CATALOG_URL (or --from) names the hub");
            socket.close();
            closer.join();
        }
    }

    @Test
    void anAbsoluteUrlOnTheHubsOwnOrigin_works() throws Exception {
        HttpServer server = serveHub(new CopyOnWriteArrayList<>());
        try {
            writeIndex(base(server) + "connectors/echo.json");
            StaticConnectorHub remote = StaticConnectorHub.at(base(server), Optional.of(trustRoot));
            assertThat(remote.fetchBundle(release(remote))).isEqualTo(tarball);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aRedirectToAnotherHost_isNotFollowed() throws Exception {
        List<String> elsewhere = new CopyOnWriteArrayList<>();
        HttpServer other = serveHub(elsewhere);
        HttpServer redirecting = serve(exchange -> {
            exchange.getResponseHeaders().add("Location", base(other) + "index.json");
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
        });
        try {
            StaticConnectorHub remote = StaticConnectorHub.at(base(redirecting), Optional.of(trustRoot));
            assertThatThrownBy(remote::catalog).isInstanceOf(HubUnavailableException.class)
                    .hasMessageContaining("HTTP 302").hasMessageContaining("does not follow");
            assertThat(elsewhere).isEmpty();
        } finally {
            redirecting.stop(0);
            other.stop(0);
        }
    }

    @Test
    void anIndexUrlOnAnotherHost_isRefusedBeforeItIsFetched() throws Exception {
        List<String> elsewhere = new CopyOnWriteArrayList<>();
        HttpServer other = serveHub(elsewhere);
        HttpServer server = serveHub(new CopyOnWriteArrayList<>());
        try {
            writeIndex(base(other) + "connectors/echo.json");
            StaticConnectorHub remote = StaticConnectorHub.at(base(server), Optional.of(trustRoot));
            assertThatThrownBy(remote::catalog).isInstanceOf(HubUnavailableException.class)
                    .hasMessageContaining(base(other) + "connectors/echo.json")
                    .hasMessageContaining("not on the hub's own origin http://127.0.0.1:" + server.getAddress().getPort());
            assertThat(elsewhere).isEmpty();
        } finally {
            server.stop(0);
            other.stop(0);
        }
    }

    @Test
    void aTarballUrlOnAnotherHost_isRefused() throws Exception {
        writeEntry("http://169.254.169.254/latest/meta-data/echo.tgz", PluginFiles.integrity(tarball));
        HttpServer server = serveHub(new CopyOnWriteArrayList<>());
        try {
            StaticConnectorHub remote = StaticConnectorHub.at(base(server), Optional.of(trustRoot));
            assertThatThrownBy(remote::catalog).isInstanceOf(HubUnavailableException.class)
                    .hasMessageContaining("not on the hub's own origin");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void anIndexOverTheEntryCap_isRefusedWithTheCap_beforeAnyCatalogFileIsFetched() throws Exception {
        ObjectNode index = PluginFixture.JSON.createObjectNode().put("schemaVersion", 1);
        ArrayNode connectors = index.putArray("connectors");
        for (int i = 0; i <= 1000; i++) {
            connectors.addObject().put("name", "c" + i).put("catalog", "connectors/c" + i + ".json");
        }
        Files.write(hub.resolve("index.json"), PluginFixture.JSON.writeValueAsBytes(index));
        List<String> asked = new CopyOnWriteArrayList<>();
        HttpServer server = serveHub(asked);
        try {
            StaticConnectorHub remote = StaticConnectorHub.at(base(server), Optional.of(trustRoot));
            assertThatThrownBy(remote::catalog).isInstanceOf(HubUnavailableException.class)
                    .hasMessageContaining("lists 1001 connectors, more than the 1000");
            assertThat(asked).containsExactly("/catalog/index.json");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aCatalogFileOverTheVersionCap_isRefusedWithTheCap() throws Exception {
        ObjectNode entry = (ObjectNode) PluginFixture.JSON.readTree(hub.resolve("connectors/echo.json").toFile());
        ArrayNode versions = (ArrayNode) entry.get("versions");
        JsonNode first = versions.get(0);
        for (int i = 1; i <= 500; i++) {
            versions.add(first.deepCopy());
        }
        Files.write(hub.resolve("connectors/echo.json"), PluginFixture.JSON.writeValueAsBytes(entry));
        StaticConnectorHub local = StaticConnectorHub.at(hub.toString(), Optional.of(trustRoot));
        assertThatThrownBy(local::catalog).isInstanceOf(HubUnavailableException.class)
                .hasMessageContaining("lists 501 versions, more than the 500");
    }

    @Test
    void aHubThatSendsHeadersAndThenStalls_isHubUnavailableWithinTheDeadline_notBlockedOnForEver() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        HttpServer stalling = serve(exchange -> {
            exchange.sendResponseHeaders(200, 1000);
            exchange.getResponseBody().write("{\"connectors\": [".getBytes());
            exchange.getResponseBody().flush();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        try {
            StaticConnectorHub remote = StaticConnectorHub.at(base(stalling), Optional.of(trustRoot), Optional.empty(),
                    new StaticConnectorHub.Timeouts(Duration.ofSeconds(1), Duration.ofSeconds(1)));
            // the request timeout of the JDK client ends with the headers: before the deadline on the whole body, this blocked
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThatThrownBy(remote::catalog)
                    .isInstanceOf(HubUnavailableException.class)
                    .hasMessageContaining("the hub index could not be fetched from the hub " + base(stalling) + "index.json")
                    .hasMessageContaining("did not arrive whole within 1 seconds"));
        } finally {
            release.countDown();
            stalling.stop(0);
        }
    }

    @Test
    void aTarballThatTricklesPastItsDeadline_isHubUnavailable() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        HttpServer server = serve(exchange -> {
            if (!exchange.getRequestURI().getPath().endsWith(".tgz")) {
                byte[] body = Files.readAllBytes(hub.resolve(exchange.getRequestURI().getPath().substring("/catalog/".length())));
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
                return;
            }
            exchange.sendResponseHeaders(200, tarball.length);
            try (OutputStream out = exchange.getResponseBody()) {
                // five bytes a second, each arriving well within any per-read timeout: only a deadline on the whole body stops it
                for (int i = 0; i < tarball.length && release.getCount() > 0; i++) {
                    out.write(tarball[i]);
                    out.flush();
                    release.await(200, TimeUnit.MILLISECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                // the client gave up: what the test wants
            }
        });
        try {
            StaticConnectorHub remote = StaticConnectorHub.at(base(server), Optional.of(trustRoot), Optional.empty(),
                    new StaticConnectorHub.Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(1)));
            HubRelease release1 = release(remote);
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThatThrownBy(() -> remote.fetchBundle(release1))
                    .isInstanceOf(HubUnavailableException.class)
                    .hasMessageContaining("the tarball of echo@1.0.0 could not be fetched")
                    .hasMessageContaining("did not arrive whole within 1 seconds"));
        } finally {
            release.countDown();
            server.stop(0);
        }
    }

    @Test
    void aCatalogFileLargerThanTheLimit_isRefusedWhileItStreams_withOrWithoutAContentLength() throws Exception {
        byte[] huge = new byte[PluginLimits.MAX_CATALOG_BYTES + 1];
        java.util.Arrays.fill(huge, (byte) ' ');
        for (long declared : new long[] {huge.length, 0}) {
            HttpServer server = serve(exchange -> {
                exchange.sendResponseHeaders(200, declared);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(huge);
                } catch (IOException e) {
                    // the client stopped reading: expected
                }
            });
            try {
                StaticConnectorHub remote = StaticConnectorHub.at(base(server), Optional.of(trustRoot));
                assertThatThrownBy(remote::catalog).as("Content-Length " + declared).isInstanceOf(HubUnavailableException.class)
                        .hasMessage("the hub index is larger than " + PluginLimits.MAX_CATALOG_BYTES + " bytes");
            } finally {
                server.stop(0);
            }
        }
    }

    @Test
    void theCatalogsOwnText_isQuotedInTheLog_soAHubCannotForgeLogLines() throws Exception {
        ObjectNode entry = (ObjectNode) PluginFixture.JSON.readTree(hub.resolve("connectors/echo.json").toFile());
        ((ArrayNode) entry.get("versions")).addObject().put("version", "9.9.9\nevent=forged-version").put("tarballUrl", "x.tgz")
                .put("integrity", PluginFiles.integrity(tarball)).set("manifest", entry.get("versions").get(0).get("manifest"));
        Files.write(hub.resolve("connectors/echo.json"), PluginFixture.JSON.writeValueAsBytes(entry));
        ObjectNode index = (ObjectNode) PluginFixture.JSON.readTree(hub.resolve("index.json").toFile());
        ((ArrayNode) index.get("connectors")).addObject().put("name", "echo\nevent=forged-entry").put("catalog", "connectors/echo.json");
        Files.write(hub.resolve("index.json"), PluginFixture.JSON.writeValueAsBytes(index));

        HubCatalog catalog = StaticConnectorHub.at(hub.toString(), Optional.of(trustRoot)).catalog();

        assertThat(catalog.entries()).extracting(HubEntry::name).containsExactly("echo");
        assertThat(log.messages(Level.WARN)).allSatisfy(line -> assertThat(line).doesNotContain("\n"))
                .anySatisfy(line -> assertThat(line).contains("connector=\"echo\\u000aevent=forged-entry\"")
                        .contains("not a connector name"))
                .anySatisfy(line -> assertThat(line).contains("version=\"9.9.9\\u000aevent=forged-version\""));
    }

    @Test
    void aLocalCatalogUrlWithAQueryOrAHost_isHubUnavailable_notAnUncaughtError() throws Exception {
        for (String reference : List.of("connectors/echo.json?v=1", "file://elsewhere/connectors/echo.json")) {
            writeIndex(reference);
            StaticConnectorHub local = StaticConnectorHub.at(hub.toString(), Optional.of(trustRoot));
            assertThatThrownBy(local::catalog).as(reference).isInstanceOf(HubUnavailableException.class)
                    .hasMessage("the local hub refers to '" + reference + "', which is no file of its directory; write it as a path "
                            + "relative to the file that holds it");
        }
    }

    @Test
    void anInvalidUrlInTheCatalog_isQuotedShortAndOnOneLine() throws Exception {
        writeIndex("connectors/\u001b]0;owned\u0007" + "x".repeat(5000) + ".json");
        StaticConnectorHub local = StaticConnectorHub.at(hub.toString(), Optional.of(trustRoot));
        assertThatThrownBy(local::catalog).isInstanceOf(HubUnavailableException.class)
                .hasMessageStartingWith("the hub catalog has an invalid URL 'connectors/?]0;owned?xxx")
                .hasMessageNotContaining("\u001b").satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(300));
    }
}
