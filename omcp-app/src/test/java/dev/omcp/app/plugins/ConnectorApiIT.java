package dev.omcp.app.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.app.plugins.fixture.FailingConnectorFactory;
import dev.omcp.app.plugins.fixture.GuardConnectorFactory;
import dev.omcp.app.plugins.fixture.HangingConnectorFactory;
import dev.omcp.app.settings.Settings;
import dev.omcp.app.settings.SettingsReader;
import dev.omcp.app.wiring.GatewayAssembly;
import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import dev.omcp.ports.mcp.McpTransport;
import dev.omcp.testkit.packaging.PluginPackager;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** spec 4.3, 7.4, 6.1 rule 5: the connector management API on a running gateway. */
class ConnectorApiIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private final KeyPair key = TestPlugins.newKey();

    @TempDir
    Path tmp;
    private Path plugins;
    private Path trustRoot;
    private GatewayAssembly gateway;

    @BeforeEach
    void setUp() throws IOException {
        plugins = tmp.resolve("plugins");
        trustRoot = TestPlugins.trustRoot(tmp, key);
    }

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    @AfterAll
    static void releaseTheHungPluginThreads() {
        System.setProperty(HangingConnectorFactory.RELEASE, "true");
    }

    private void start(Map<String, String> extra) throws Exception {
        Map<String, String> env = new HashMap<>(Map.of(
                "PORT", "0",
                "PLUGINS_DIR", plugins.toString(),
                "CONFIG_PATH", tmp.resolve("sources.yaml").toString(),
                "HUB_CATALOG_URL", TestPlugins.hub().toString()));
        env.putAll(extra);
        Settings settings = SettingsReader.read(env);
        gateway = GatewayAssembly.start(settings, new GatewayAssembly.Options(true), "0.1.0");
    }

    private void startWithInstall() throws Exception {
        start(Map.of("ENABLE_UI_INSTALL", "true", "PLUGIN_TRUST_ROOT", trustRoot.toString()));
    }

    private String url(String path) {
        return "http://127.0.0.1:" + gateway.port() + path;
    }

    private HttpResponse<String> upload(byte[] bundle) throws Exception {
        return upload(bundle, "");
    }

    private HttpResponse<String> upload(byte[] bundle, String query) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url("/api/connectors/upload" + query))).header("Authorization", "Bearer test-cli")
                .header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(bundle)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> install(String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url("/api/connectors/install"))).header("Authorization", "Bearer test-cli")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url(path))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private List<String> written() throws IOException {
        if (!Files.exists(plugins)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(plugins)) {
            // the change lock's file is created by the first install or removal and kept for good: it holds no plugin
            return walk.filter(p -> !p.equals(plugins)).map(p -> plugins.relativize(p).toString())
                    .filter(p -> !p.equals(".omcp-install.lock")).sorted().toList();
        }
    }

    private static byte[] tarball(String name) throws IOException {
        return Files.readAllBytes(TestPlugins.hub().resolve("tarballs").resolve(name + "-0.1.0-SNAPSHOT.tgz"));
    }

    @Test
    void spec7_4_uploadWithoutEnableUiInstall_is403_andNothingIsWritten() throws Exception {
        start(Map.of("PLUGIN_TRUST_ROOT", trustRoot.toString()));
        HttpResponse<String> response = upload(tarball("tempo"));
        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(JSON.readTree(response.body()).path("code").asText()).isEqualTo("OMCP_UI_INSTALL_DISABLED");
        assertThat(install("{\"name\":\"tempo\"}").statusCode()).isEqualTo(403);
        assertThat(written()).isEmpty();
    }

    @Test
    void spec7_4_uploadWithoutTrustRoot_is412() throws Exception {
        start(Map.of("ENABLE_UI_INSTALL", "true"));
        HttpResponse<String> response = upload(tarball("tempo"));
        assertThat(response.statusCode()).isEqualTo(412);
        assertThat(JSON.readTree(response.body()).path("error").asText()).contains("PLUGIN_TRUST_ROOT is not set");
        assertThat(install("{\"name\":\"tempo\"}").statusCode()).isEqualTo(412);
        assertThat(written()).isEmpty();
    }

    @Test
    void uploadOver50MiB_is413_andNothingIsWritten() throws Exception {
        startWithInstall();
        // Declared too large by a client that asks before sending: refused from the header, no 100 Continue.
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), gateway.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /api/connectors/upload HTTP/1.1\r\nHost: 127.0.0.1:" + gateway.port() + "\r\nAuthorization: Bearer test-cli"
                    + "\r\nContent-Type: application/octet-stream\r\nContent-Length: 60000000\r\nExpect: 100-continue\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String status = new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            assertThat(status).isEqualTo("HTTP/1.1 413");
        }
        // Declared too large by a client that sends at once: the body is read and dropped, so the whole of it
        // goes out and the 413 arrives (closing mid-body would reset the connection under the sender).
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), gateway.port())) {
            socket.setSoTimeout(60_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /api/connectors/upload HTTP/1.1\r\nHost: 127.0.0.1:" + gateway.port() + "\r\nAuthorization: Bearer test-cli"
                    + "\r\nContent-Type: application/octet-stream\r\nContent-Length: 60000000\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            byte[] chunk = new byte[1 << 20];
            for (int sent = 0; sent < 60_000_000; sent += chunk.length) {
                out.write(chunk, 0, Math.min(chunk.length, 60_000_000 - sent));
            }
            out.flush();
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(answer).startsWith("HTTP/1.1 413").contains("OMCP_BUNDLE_TOO_LARGE");
        }
        // Streamed without a length: refused once one byte past 50 MiB has arrived.
        byte[] big = new byte[50 * 1024 * 1024 + 1];
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url("/api/connectors/upload"))).header("Authorization", "Bearer test-cli")
                .header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(big))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(JSON.readTree(response.body()).path("code").asText()).isEqualTo("OMCP_BUNDLE_TOO_LARGE");
        assertThat(written()).isEmpty();
    }

    @Test
    void anUploadOfExactly50MiB_isInstalled_andOneByteMoreIs413WithNothingWritten() throws Exception {
        startWithInstall();
        byte[] bundle = TestPlugins.guard(tmp.resolve("guard"), key).bundle();
        // a real bundle padded to the limit: the reader stops at the tar's end, so what follows is never inflated
        byte[] atTheLimit = java.util.Arrays.copyOf(bundle, 50 * 1024 * 1024);
        byte[] overTheLimit = java.util.Arrays.copyOf(bundle, 50 * 1024 * 1024 + 1);

        HttpResponse<String> over = upload(overTheLimit);
        assertThat(over.statusCode()).as(over.body()).isEqualTo(413);
        assertThat(JSON.readTree(over.body()).path("code").asText()).isEqualTo("OMCP_BUNDLE_TOO_LARGE");
        assertThat(written()).isEmpty();

        HttpResponse<String> at = upload(atTheLimit);
        assertThat(at.statusCode()).as(at.body()).isEqualTo(201);
        assertThat(written()).contains("guard/manifest.json").noneMatch(p -> p.startsWith(".staging-") || p.startsWith(".replaced-"));
    }

    @Test
    void aSecondUpload_whileOneIsStillArriving_is503WithRetryAfter_andTheFirstStillInstalls() throws Exception {
        startWithInstall();
        PluginPackager.Packed guard = TestPlugins.guard(tmp.resolve("guard"), key);
        byte[] bundle = guard.bundle();
        byte[] notABundle = {1, 2, 3};
        // A deadline, not a count of tries: on a machine loaded by a whole build the first request took over 5 s.
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        long patienceMillis = 100;
        while (true) {
            try (Socket first = startUpload(bundle)) {
                Thread.sleep(patienceMillis);
                HttpResponse<String> second = upload(notABundle);
                if (second.statusCode() == 503) {
                    assertThat(second.headers().firstValue("Retry-After")).hasValue("5");
                    assertThat(JSON.readTree(second.body()).path("code").asText()).isEqualTo("OMCP_UPLOAD_BUSY");
                    assertThat(JSON.readTree(second.body()).path("error").asText()).contains("nothing was written", "Retry-After");
                    assertThat(written()).isEmpty();

                    OutputStream out = first.getOutputStream();
                    out.write(bundle, 10, bundle.length - 10);
                    out.flush();
                    String status = new String(first.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
                    assertThat(status).isEqualTo("HTTP/1.1 201");
                    break;
                }
                // The second upload held the slot itself (400, nothing written): the first had not reached
                // its handler yet, or reached it then and was refused as busy. Either way it cannot be the
                // one this test is about, so end it and wait for its answer, which comes only after its
                // handler let go of the slot: no earlier attempt can still hold it when the next begins.
                assertThat(second.statusCode()).as(second.body()).isEqualTo(400);
                assertThat(System.nanoTime()).as("the first upload never held the slot").isLessThan(deadline);
                first.shutdownOutput();
                first.getInputStream().readAllBytes();
                patienceMillis = Math.min(patienceMillis * 2, 2_000);
            }
        }
        assertThat(written()).contains("guard/manifest.json");
        assertThat(upload(bundle).statusCode()).as("the slot is free again: the same version re-uploaded").isNotEqualTo(503);
    }

    /** An upload whose first 10 body bytes are sent and the rest held back: its body is still arriving. */
    private Socket startUpload(byte[] bundle) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), gateway.port());
        socket.setSoTimeout(60_000);
        OutputStream out = socket.getOutputStream();
        out.write(("POST /api/connectors/upload HTTP/1.1\r\nHost: 127.0.0.1:" + gateway.port()
                + "\r\nAuthorization: Bearer test-cli\r\nContent-Type: application/octet-stream\r\nContent-Length: "
                + bundle.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(bundle, 0, 10);
        out.flush();
        return socket;
    }

    @Test
    void spec7_4_aTamperedBundle_is400_andNothingIsWritten() throws Exception {
        startWithInstall();
        PluginPackager.Packed guard = TestPlugins.guard(tmp.resolve("guard"), TestPlugins.newKey());
        HttpResponse<String> response = upload(guard.bundle());
        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.path("code").asText()).isEqualTo("OMCP_PLUGIN_VERIFICATION_FAILED");
        assertThat(body.path("error").asText()).contains("does not verify against the trust root");
        assertThat(written()).isEmpty();
    }

    @Test
    void spec7_4_aBundleEscapingItsRoot_is400_andNothingIsWritten() throws Exception {
        startWithInstall();
        ByteArrayOutputStream tar = new ByteArrayOutputStream();
        byte[] header = new byte[512];
        byte[] name = "../../evil.txt".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(name, 0, header, 0, name.length);
        System.arraycopy("0000644\0".getBytes(StandardCharsets.US_ASCII), 0, header, 100, 8);
        System.arraycopy("00000000001\0".getBytes(StandardCharsets.US_ASCII), 0, header, 124, 12);
        header[156] = '0';
        java.util.Arrays.fill(header, 148, 156, (byte) ' ');
        int sum = 0;
        for (byte b : header) {
            sum += b & 0xff;
        }
        System.arraycopy(String.format("%06o\0 ", sum).getBytes(StandardCharsets.US_ASCII), 0, header, 148, 8);
        tar.writeBytes(header);
        byte[] content = new byte[512];
        content[0] = 'x';
        tar.writeBytes(content);
        tar.writeBytes(new byte[1024]);
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write(tar.toByteArray());
        }
        HttpResponse<String> response = upload(gz.toByteArray());
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(response.body()).path("error").asText()).contains("'..' segment");
        assertThat(written()).isEmpty();
        assertThat(tmp.resolve("evil.txt")).doesNotExist();
    }

    @Test
    void spec6_1_rule5_anUploadedPluginsHooksWorkWithoutRestart() throws Exception {
        startWithInstall();
        assertThat(callSimpleText().path("isError").isMissingNode()).isTrue();
        PluginPackager.Packed guard = TestPlugins.guard(tmp.resolve("guard"), key);
        HttpResponse<String> response = upload(guard.bundle());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        assertThat(JSON.readTree(response.body()).path("loaded").asBoolean()).isTrue();
        JsonNode call = callSimpleText();
        assertThat(call.path("isError").asBoolean()).isTrue();
        assertThat(call.path("content").get(0).path("text").asText()).isEqualTo("blocked by the guard plugin for anonymous");
        JsonNode connector = TestPlugins.withoutBuiltins(get("/api/connectors").path("connectors")).get(0);
        assertThat(connector.path("name").asText()).isEqualTo("guard");
        assertThat(connector.path("state").asText()).isEqualTo("loaded");
        assertThat(connector.path("hooks").get(0).path("registered").asBoolean()).isTrue();
        assertThat(connector.path("hooks").get(1).path("registered").asBoolean()).isFalse();
        assertThat(connector.path("hooks").get(1).path("reason").asText()).contains("escapes the plugin root");
        assertThat(written()).contains("guard", "guard/manifest.json", "guard/guard-connector.jar");
    }

    @Test
    void anUpgradeThatVerifiesButDoesNotLoad_is422_andTheEarlierVersionKeepsServing() throws Exception {
        startWithInstall();
        assertThat(upload(TestPlugins.guard(tmp.resolve("guard-1.0.0"), key).bundle()).statusCode()).isEqualTo(201);
        PluginPackager.Packed broken = TestPlugins.guard(tmp.resolve("guard-1.1.0"), key, "1.1.0", FailingConnectorFactory.class.getName());

        HttpResponse<String> response = upload(broken.bundle());

        assertThat(response.statusCode()).as(response.body()).isEqualTo(422);
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.path("code").asText()).isEqualTo("OMCP_PLUGIN_LOAD_FAILED");
        assertThat(body.path("error").asText()).contains("guard 1.1.0 verified but did not load")
                .contains("the version it would have replaced is back in place and loaded");
        // the 1.0.0 hook still refuses the tool, from the 1.0.0 files, and nothing is left aside
        assertThat(callSimpleText().path("content").get(0).path("text").asText()).isEqualTo("blocked by the guard plugin for anonymous");
        assertThat(Files.readString(plugins.resolve("guard/manifest.json"))).contains("\"version\": \"1.0.0\"");
        assertThat(written()).noneMatch(p -> p.startsWith(".")).contains("guard/manifest.json");
        JsonNode connector = TestPlugins.withoutBuiltins(get("/api/connectors").path("connectors")).get(0);
        assertThat(connector.path("state").asText()).isEqualTo("loaded");
        assertThat(connector.path("manifest").path("version").asText()).isEqualTo("1.0.0");
    }

    /** Waits the gateway's real deadline, 30 seconds: a test seam for a shorter one is on the store only. */
    @Test
    void anUpgradeThatHangsWhileLoading_is422WithinTheDeadline_theEarlierVersionServes_andTheDirectoryIsFreeAgain() throws Exception {
        startWithInstall();
        assertThat(upload(TestPlugins.guard(tmp.resolve("guard-1.0.0"), key).bundle()).statusCode()).isEqualTo(201);
        byte[] hanging = TestPlugins.guard(tmp.resolve("guard-1.1.0"), key, "1.1.0", HangingConnectorFactory.class.getName()).bundle();

        long started = System.nanoTime();
        HttpResponse<String> response = upload(hanging);

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(45));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(422);
        assertThat(JSON.readTree(response.body()).path("error").asText()).contains("guard 1.1.0 verified but did not load")
                .contains("'guard' did not finish loading within 30s")
                .contains("the version it would have replaced is back in place and loaded");
        assertThat(callSimpleText().path("content").get(0).path("text").asText()).isEqualTo("blocked by the guard plugin for anonymous");
        assertThat(written()).noneMatch(p -> p.startsWith("."));

        // the plugins directory was let go: the same bundle again is answered at once, without waiting out another deadline
        started = System.nanoTime();
        HttpResponse<String> again = upload(hanging);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        assertThat(again.statusCode()).as(again.body()).isEqualTo(422);
        assertThat(JSON.readTree(again.body()).path("error").asText()).contains("at an earlier attempt");
        JsonNode connector = TestPlugins.withoutBuiltins(get("/api/connectors").path("connectors")).get(0);
        assertThat(connector.path("manifest").path("version").asText()).isEqualTo("1.0.0");
    }

    @Test
    void anUpgradeThatDoesNotVerify_is400_andTheInstalledVersionKeepsServing_itsFilesUntouched() throws Exception {
        startWithInstall();
        assertThat(upload(TestPlugins.guard(tmp.resolve("guard-1.0.0"), key).bundle()).statusCode()).isEqualTo(201);
        List<String> before = written();
        byte[] manifestBefore = Files.readAllBytes(plugins.resolve("guard/manifest.json"));
        // a newer version of the same plugin, signed by a key the trust root does not hold
        PluginPackager.Packed foreign = TestPlugins.guard(tmp.resolve("guard-1.1.0"), TestPlugins.newKey(), "1.1.0",
                GuardConnectorFactory.class.getName());

        HttpResponse<String> response = upload(foreign.bundle());

        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(JSON.readTree(response.body()).path("code").asText()).isEqualTo("OMCP_PLUGIN_VERIFICATION_FAILED");
        assertThat(written()).isEqualTo(before);
        assertThat(Files.readAllBytes(plugins.resolve("guard/manifest.json"))).isEqualTo(manifestBefore);
        assertThat(callSimpleText().path("content").get(0).path("text").asText()).isEqualTo("blocked by the guard plugin for anonymous");
        JsonNode connector = TestPlugins.withoutBuiltins(get("/api/connectors").path("connectors")).get(0);
        assertThat(connector.path("state").asText()).isEqualTo("loaded");
        assertThat(connector.path("manifest").path("version").asText()).isEqualTo("1.0.0");
    }

    @Test
    void aBundleLargerThanTheJsonBodyLimit_butUnder50MiB_isAccepted() throws Exception {
        startWithInstall();
        PluginPackager.Packed guard = TestPlugins.guard(tmp.resolve("guard"), key, 3 * 1024 * 1024);
        assertThat(guard.bundle().length).isGreaterThan(3 * 1024 * 1024);
        HttpResponse<String> response = upload(guard.bundle());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    }

    private JsonNode callSimpleText() throws IOException {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"test_simple_text\",\"arguments\":{}}}";
        McpReply reply = gateway.gateway().mcp().handle(
                new McpInbound(Principal.anonymous(), Optional.empty(), Optional.empty(), body, McpTransport.IN_PROCESS), McpOutbound.discarding());
        return JSON.readTree(((McpReply.Response) reply).json()).path("result");
    }

    @Test
    void installFromTheHub_verifiesWritesAndLoadsWithoutRestart() throws Exception {
        startWithInstall();
        assertThat(gateway.connectorCatalog().find("tempo")).isEmpty();
        HttpResponse<String> response = install("{\"name\":\"tempo\"}");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        assertThat(gateway.connectorCatalog().find("tempo")).get().extracting(ConnectorType::origin).isEqualTo(ConnectorType.Origin.FILESYSTEM);
        JsonNode catalog = get("/api/hub/catalog");
        JsonNode tempo = catalog.path("connectors").get(0);
        assertThat(tempo.path("name").asText()).isEqualTo("tempo");
        assertThat(tempo.path("installedVersion").asText()).isEqualTo("0.1.0-SNAPSHOT");
        assertThat(tempo.path("loaded").asBoolean()).isTrue();
        assertThat(tempo.path("versions").get(0).path("manifest").path("capabilities").path("queryTraces").asBoolean()).isTrue();
        assertThat(catalog.path("connectors").get(1).path("installedVersion").isNull()).isTrue();
        JsonNode listed = TestPlugins.withoutBuiltins(get("/api/connectors").path("connectors")).get(0);
        assertThat(listed.path("manifest").path("configSchema").path("properties").has("url")).isTrue();
    }

    @Test
    void installOfAnUnknownConnectorOrAMalformedBody_isRefused() throws Exception {
        startWithInstall();
        HttpResponse<String> unknown = install("{\"name\":\"jaeger\"}");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(unknown.body()).path("code").asText()).isEqualTo("OMCP_NOT_IN_CATALOG");
        for (String body : List.of("{\"name\":\"../etc\"}", "not json", "{\"name\":\"tempo\",\"version\":7}")) {
            HttpResponse<String> refused = install(body);
            assertThat(refused.statusCode()).as(body).isEqualTo(400);
            assertThat(JSON.readTree(refused.body()).path("code").asText()).as(body).isEqualTo("OMCP_INVALID_BODY");
        }
        assertThat(written()).isEmpty();
    }

    @Test
    void anInstallBodyFollowsTheManagementApiRules_andInstallsNothingWhenRefused() throws Exception {
        startWithInstall();
        HttpResponse<String> plain = http.send(HttpRequest.newBuilder(URI.create(url("/api/connectors/install")))
                .header("Authorization", "Bearer test-cli").header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"tempo\"}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(plain.statusCode()).isEqualTo(415);
        assertThat(JSON.readTree(plain.body()).path("code").asText()).isEqualTo("OMCP_UNSUPPORTED_MEDIA_TYPE");

        HttpResponse<String> twice = install("{\"name\":\"zipkin\",\"name\":\"tempo\"}");
        assertThat(twice.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(twice.body()).path("code").asText()).isEqualTo("OMCP_INVALID_BODY");

        HttpResponse<String> unknown = install("{\"name\":\"tempo\",\"force\":true}");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(unknown.body()).path("error").asText()).contains("'force'");

        HttpResponse<String> tooLarge = install("{\"name\":\"tempo\",\"pad\":\"" + "x".repeat(1024 * 1024) + "\"}");
        assertThat(tooLarge.statusCode()).isEqualTo(413);
        assertThat(JSON.readTree(tooLarge.body()).path("code").asText()).isEqualTo("OMCP_BODY_TOO_LARGE");

        assertThat(written()).isEmpty();
        assertThat(gateway.connectorCatalog().find("tempo")).isEmpty();
    }

    @Test
    void uploadNeedsTheOctetStreamContentType() throws Exception {
        startWithInstall();
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url("/api/connectors/upload"))).header("Authorization", "Bearer test-cli")
                .header("Content-Type", "multipart/form-data; boundary=x")
                .POST(HttpRequest.BodyPublishers.ofByteArray(tarball("tempo"))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(415);
    }

    @Test
    void theRoutesAreInTheOpenApiDocument() throws Exception {
        start(Map.of());
        JsonNode paths = get("/api/openapi.json").path("paths");
        assertThat(paths.has("/api/connectors")).isTrue();
        assertThat(paths.path("/api/connectors/upload").path("post").path("responses").has("413")).isTrue();
        assertThat(paths.path("/api/hub/catalog").path("get").path("summary").asText()).contains("catalog:read");
    }


    private PluginPackager.Packed guardAt(String version) {
        return TestPlugins.guard(tmp.resolve("guard-" + version), key, version, GuardConnectorFactory.class.getName());
    }

    private String installedGuardVersion() throws IOException {
        return JSON.readTree(Files.readString(plugins.resolve("guard/manifest.json"))).path("version").asText();
    }

    /** The audit targets of the uploads, oldest first. */
    private List<String> uploadAuditTargets() throws Exception {
        List<String> targets = new java.util.ArrayList<>();
        for (JsonNode entry : get("/api/audit?action=write").path("entries")) {
            if (entry.path("path").asText().equals("/api/connectors/upload")) {
                // an entry without a target has none (null)
                targets.add(0, entry.path("status").asInt() + " " + (entry.path("target").isTextual() ? entry.path("target").asText() : "-"));
            }
        }
        return targets;
    }

    @Test
    void anOlderVersion_is409_untilTheUploadAllowsTheDowngrade_whichTheAuditRecords() throws Exception {
        startWithInstall();
        assertThat(upload(guardAt("1.1.0").bundle()).statusCode()).isEqualTo(201);
        byte[] older = guardAt("1.0.0").bundle();

        HttpResponse<String> refused = upload(older);

        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
        JsonNode body = JSON.readTree(refused.body());
        assertThat(body.path("code").asText()).isEqualTo("OMCP_PLUGIN_DOWNGRADE_REFUSED");
        assertThat(body.path("error").asText()).startsWith("guard 1.0.0 is older than the installed 1.1.0").contains("allowDowngrade=true");
        assertThat(installedGuardVersion()).isEqualTo("1.1.0");
        assertThat(written()).noneMatch(p -> p.startsWith("."));

        HttpResponse<String> notUnderstood = upload(older, "?allowDowngrade=yes");
        assertThat(notUnderstood.statusCode()).as(notUnderstood.body()).isEqualTo(400);
        assertThat(JSON.readTree(notUnderstood.body()).path("code").asText()).isEqualTo("OMCP_INVALID_PARAMETERS");
        assertThat(installedGuardVersion()).isEqualTo("1.1.0");

        HttpResponse<String> allowed = upload(older, "?allowDowngrade=true");

        assertThat(allowed.statusCode()).as(allowed.body()).isEqualTo(201);
        assertThat(JSON.readTree(allowed.body()).path("downgradedFrom").asText()).isEqualTo("1.1.0");
        assertThat(installedGuardVersion()).isEqualTo("1.0.0");
        JsonNode connector = TestPlugins.withoutBuiltins(get("/api/connectors").path("connectors")).get(0);
        assertThat(connector.path("state").asText()).isEqualTo("loaded");
        assertThat(connector.path("manifest").path("version").asText()).isEqualTo("1.0.0");
        assertThat(uploadAuditTargets()).containsExactly("201 guard@1.1.0", "409 -", "400 -",
                "201 guard@1.0.0 downgraded from 1.1.0 (allowDowngrade=true)");
    }

    @Test
    void theInstalledVersionAgain_isInstalledWithTheSameBytes_and409WithOthers() throws Exception {
        startWithInstall();
        PluginPackager.Packed installed = TestPlugins.guard(tmp.resolve("guard"), key);
        assertThat(upload(installed.bundle()).statusCode()).isEqualTo(201);
        byte[] jarBefore = Files.readAllBytes(plugins.resolve("guard/guard-connector.jar"));

        assertThat(upload(installed.bundle()).statusCode()).as("the same bundle again").isEqualTo(201);
        // the same version number, other bytes in its JAR
        PluginPackager.Packed rebuilt = TestPlugins.guard(tmp.resolve("guard-rebuilt"), key, 4096);
        HttpResponse<String> response = upload(rebuilt.bundle(), "?allowDowngrade=true");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(409);
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.path("code").asText()).isEqualTo("OMCP_PLUGIN_VERSION_CONFLICT");
        assertThat(body.path("error").asText()).startsWith("guard 1.0.0 is installed already, with other contents");
        assertThat(Files.readAllBytes(plugins.resolve("guard/guard-connector.jar"))).isEqualTo(jarBefore);
        assertThat(uploadAuditTargets()).containsExactly("201 guard@1.0.0", "201 guard@1.0.0", "409 allowDowngrade=true");
    }

    private HttpResponse<String> remove(String name, String query) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url("/api/connectors/" + name + query))).header("Authorization", "Bearer test-cli")
                .DELETE().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The audit entries of removals, oldest first: status, path and target. */
    private List<String> removalAuditEntries() throws Exception {
        List<String> entries = new java.util.ArrayList<>();
        for (JsonNode entry : get("/api/audit?action=delete").path("entries")) {
            if (entry.path("path").asText().startsWith("/api/connectors/")) {
                entries.add(0, entry.path("status").asInt() + " " + entry.path("path").asText() + " "
                        + (entry.path("target").isTextual() ? entry.path("target").asText() : "-"));
            }
        }
        return entries;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path path : walk.toList()) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        }
    }

    @Test
    void aRemovedPlugin_isUnloadedWithItsHooks_itsFilesAreGone_andTheAuditNamesIt() throws Exception {
        startWithInstall();
        assertThat(upload(TestPlugins.guard(tmp.resolve("guard"), key).bundle()).statusCode()).isEqualTo(201);
        assertThat(callSimpleText().path("isError").asBoolean()).as("the guard hook refuses the tool").isTrue();

        HttpResponse<String> response = remove("guard", "");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.path("removed").asBoolean()).isTrue();
        assertThat(body.path("name").asText()).isEqualTo("guard");
        assertThat(body.path("version").asText()).isEqualTo("1.0.0");
        assertThat(body.path("sourcesWithoutConnector")).isEmpty();
        assertThat(body.path("detail").asText()).isEqualTo("removed");
        assertThat(callSimpleText().path("isError").isMissingNode()).as("the hook is gone without a restart").isTrue();
        assertThat(TestPlugins.withoutBuiltins(get("/api/connectors").path("connectors"))).isEmpty();
        assertThat(written()).as("nothing left, hidden or not").isEmpty();
        assertThat(removalAuditEntries()).containsExactly("200 /api/connectors/guard guard@1.0.0 removed");
    }

    @Test
    void afterARemoval_anOlderVersionInstallsWithoutAllowDowngrade_theRemovalForgotTheVersion() throws Exception {
        startWithInstall();
        assertThat(upload(guardAt("1.1.0").bundle()).statusCode()).isEqualTo(201);
        byte[] older = guardAt("1.0.0").bundle();
        assertThat(upload(older).statusCode()).as("a downgrade while 1.1.0 is installed").isEqualTo(409);

        assertThat(remove("guard", "").statusCode()).isEqualTo(200);
        HttpResponse<String> reinstalled = upload(older);

        assertThat(reinstalled.statusCode()).as(reinstalled.body()).isEqualTo(201);
        assertThat(JSON.readTree(reinstalled.body()).has("downgradedFrom")).isFalse();
        assertThat(installedGuardVersion()).isEqualTo("1.0.0");
        assertThat(TestPlugins.withoutBuiltins(get("/api/connectors").path("connectors")).get(0).path("state").asText()).isEqualTo("loaded");
        assertThat(uploadAuditTargets()).containsExactly("201 guard@1.1.0", "409 -", "201 guard@1.0.0");
    }

    @Test
    void aPluginSourcesUse_is409NamingThem_untilForced_thenTheSourcesAreLeftWithoutConnector_untilItIsInstalledAgain() throws Exception {
        copyTree(TestPlugins.reference().resolve("plugins/tempo"), plugins.resolve("tempo"));
        Files.writeString(tmp.resolve("sources.yaml"), "sources:\n  - name: traces\n    type: tempo\n    url: http://127.0.0.1:9\n");
        start(Map.of("ENABLE_UI_INSTALL", "true", "PLUGIN_TRUST_ROOT", trustRoot.toString(), "OMCP_ALLOW_PRIVATE_BACKENDS", "true"));
        assertThat(get("/api/sources").path("sources").get(0).path("status").asText()).isEqualTo("connected");

        HttpResponse<String> refused = remove("tempo", "");

        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
        JsonNode body = JSON.readTree(refused.body());
        assertThat(body.path("code").asText()).isEqualTo("OMCP_PLUGIN_IN_USE");
        assertThat(body.path("sources").get(0).asText()).isEqualTo("traces");
        assertThat(body.path("error").asText()).contains("source(s) traces").contains("force=true").contains("Nothing was removed");
        assertThat(written()).contains("tempo/manifest.json").noneMatch(p -> p.startsWith("."));
        assertThat(gateway.connectorCatalog().find("tempo")).isPresent();

        HttpResponse<String> forced = remove("tempo", "?force=true");

        assertThat(forced.statusCode()).as(forced.body()).isEqualTo(200);
        assertThat(JSON.readTree(forced.body()).path("sourcesWithoutConnector").get(0).asText()).isEqualTo("traces");
        assertThat(gateway.connectorCatalog().find("tempo")).isEmpty();
        JsonNode source = get("/api/sources").path("sources").get(0);
        assertThat(source.path("name").asText()).as("the source stays defined").isEqualTo("traces");
        assertThat(source.path("status").asText()).isEqualTo("unknown-type");
        assertThat(written()).isEmpty();
        assertThat(removalAuditEntries()).containsExactly("409 /api/connectors/tempo tempo",
                "200 /api/connectors/tempo tempo@0.1.0-SNAPSHOT removed (force=true; sources without a connector: traces)");

        assertThat(install("{\"name\":\"tempo\"}").statusCode()).as("installed again").isEqualTo(201);
        JsonNode again = get("/api/sources").path("sources").get(0);
        assertThat(again.path("status").asText()).as("connected by the install, without a restart or a PUT: " + again).isEqualTo("connected");
    }

    @Test
    void anUploadOfTheConnectorAForcedRemovalTookAway_connectsItsSources() throws Exception {
        copyTree(TestPlugins.reference().resolve("plugins/tempo"), plugins.resolve("tempo"));
        Files.writeString(tmp.resolve("sources.yaml"), "sources:\n  - name: traces\n    type: tempo\n    url: http://127.0.0.1:9\n");
        start(Map.of("ENABLE_UI_INSTALL", "true", "PLUGIN_TRUST_ROOT", trustRoot.toString(), "OMCP_ALLOW_PRIVATE_BACKENDS", "true"));
        assertThat(remove("tempo", "?force=true").statusCode()).isEqualTo(200);
        assertThat(get("/api/sources").path("sources").get(0).path("status").asText()).isEqualTo("unknown-type");

        HttpResponse<String> uploaded = upload(tarball("tempo"));

        assertThat(uploaded.statusCode()).as(uploaded.body()).isEqualTo(201);
        assertThat(get("/api/sources").path("sources").get(0).path("status").asText()).isEqualTo("connected");
    }

    @Test
    void anUpgrade_reconnectsTheSourcesOfItsType_andTheAnswerSaysWhatBecameOfEach() throws Exception {
        Files.writeString(tmp.resolve("sources.yaml"), "sources:\n  - name: gate\n    type: guard\n    url: http://127.0.0.1:9\n");
        start(Map.of("ENABLE_UI_INSTALL", "true", "PLUGIN_TRUST_ROOT", trustRoot.toString(), "OMCP_ALLOW_PRIVATE_BACKENDS", "true"));
        JsonNode first = JSON.readTree(upload(guardAt("1.0.0").bundle()).body());
        assertThat(first.path("sources").get(0).path("name").asText()).as("a first install connects what had no connector: " + first)
                .isEqualTo("gate");

        HttpResponse<String> upgraded = upload(guardAt("1.1.0").bundle());

        assertThat(upgraded.statusCode()).as(upgraded.body()).isEqualTo(201);
        JsonNode body = JSON.readTree(upgraded.body());
        // the guard's connector serves no source: the reconnect fails, and the answer names the source and why
        JsonNode source = body.path("sources").get(0);
        assertThat(source.path("name").asText()).as(body.toString()).isEqualTo("gate");
        assertThat(source.path("status").asText()).isEqualTo("failed");
        assertThat(source.path("problem").asText()).contains("the guard plugin serves no sources");
        assertThat(body.path("detail").asText()).contains("0 of 1 enabled source(s) of type guard now run version 1.1.0")
                .contains("gate (the guard plugin serves no sources) did not reconnect to guard 1.1.0");
        JsonNode listed = get("/api/sources").path("sources").get(0);
        assertThat(listed.path("name").asText()).as("the definition is kept").isEqualTo("gate");
        assertThat(listed.path("status").asText()).isEqualTo("failed");
    }

    @Test
    void removalsThatCannotBeDone_areRefusedWithTheReason_andNothingIsRemoved() throws Exception {
        startWithInstall();
        assertThat(upload(TestPlugins.guard(tmp.resolve("guard"), key).bundle()).statusCode()).isEqualTo(201);
        List<String> before = written();

        HttpResponse<String> unknown = remove("jaeger", "");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(unknown.body()).path("code").asText()).isEqualTo("OMCP_PLUGIN_NOT_INSTALLED");
        assertThat(JSON.readTree(unknown.body()).path("error").asText()).startsWith("no plugin 'jaeger' is installed").contains("GET /api/connectors");

        HttpResponse<String> outside = remove("..%2Fplugins%2Fguard", "");
        assertThat(outside.statusCode()).as(outside.body()).isEqualTo(404);

        HttpResponse<String> builtin = remove("prometheus", "?force=true");
        assertThat(builtin.statusCode()).isEqualTo(409);
        assertThat(JSON.readTree(builtin.body()).path("code").asText()).isEqualTo("OMCP_CONNECTOR_NAME_CONFLICT");
        assertThat(JSON.readTree(builtin.body()).path("error").asText()).contains("builtin connector").contains("cannot be removed");

        for (String query : List.of("?force=yes", "?force=true&force=false")) {
            HttpResponse<String> badForce = remove("guard", query);
            assertThat(badForce.statusCode()).as(query).isEqualTo(400);
            assertThat(JSON.readTree(badForce.body()).path("code").asText()).isEqualTo("OMCP_INVALID_PARAMETERS");
            assertThat(JSON.readTree(badForce.body()).path("error").asText()).contains("force must be given once, as true or false");
        }

        assertThat(written()).isEqualTo(before);
        assertThat(TestPlugins.withoutBuiltins(get("/api/connectors").path("connectors")).get(0).path("state").asText()).isEqualTo("loaded");
        // a refusal's target is the name in the path, and a refused forced one says force=true
        assertThat(removalAuditEntries()).containsExactly("404 /api/connectors/jaeger jaeger", "404 /api/connectors/..%2Fplugins%2Fguard ../plugins/guard",
                "409 /api/connectors/prometheus force=true", "400 /api/connectors/guard guard", "400 /api/connectors/guard guard");
    }

    @Test
    void aPinnedVersionedDirectory_is409Pinned_evenForced_sayingToTakeThePinOutFirst_andKeepsServing() throws Exception {
        copyTree(TestPlugins.reference().resolve("plugins/tempo"), plugins.resolve("tempo-0.1.0-SNAPSHOT"));
        Files.writeString(tmp.resolve("sources.yaml"), "sources: []\nplugins:\n  - name: tempo\n    version: 0.1.0-SNAPSHOT\n");
        startWithInstall();
        assertThat(gateway.connectorCatalog().find("tempo")).as("loaded through the pin").isPresent();

        for (String query : List.of("", "?force=true")) {
            HttpResponse<String> response = remove("tempo-0.1.0-SNAPSHOT", query);
            assertThat(response.statusCode()).as(query + " " + response.body()).isEqualTo(409);
            JsonNode body = JSON.readTree(response.body());
            assertThat(body.path("code").asText()).isEqualTo("OMCP_PLUGIN_PINNED");
            assertThat(body.path("error").asText()).contains("the versioned directory the sources file pins (plugins: name tempo, version 0.1.0-SNAPSHOT)")
                    .contains("Take the pin out of the sources file (CONFIG_PATH) first").contains("Nothing was removed");
        }

        assertThat(written()).contains("tempo-0.1.0-SNAPSHOT/manifest.json").noneMatch(p -> p.startsWith("."));
        assertThat(gateway.connectorCatalog().find("tempo")).isPresent();
    }

    @Test
    void withoutEnableUiInstall_aRemovalIs403_andThePluginStays() throws Exception {
        copyTree(TestPlugins.reference().resolve("plugins/tempo"), plugins.resolve("tempo"));
        start(Map.of("PLUGIN_TRUST_ROOT", trustRoot.toString()));

        HttpResponse<String> response = remove("tempo", "");

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(JSON.readTree(response.body()).path("code").asText()).isEqualTo("OMCP_UI_INSTALL_DISABLED");
        assertThat(JSON.readTree(response.body()).path("error").asText()).contains("ENABLE_UI_INSTALL=true").contains("omcp plugin remove");
        assertThat(gateway.connectorCatalog().find("tempo")).isPresent();
        assertThat(written()).contains("tempo/manifest.json");
    }

    @Test
    void theRemovalRouteIsInTheOpenApiDocument() throws Exception {
        start(Map.of());
        JsonNode delete = get("/api/openapi.json").path("paths").path("/api/connectors/{name}").path("delete");
        assertThat(delete.path("summary").asText()).contains("connectors:delete").contains("force=true");
        assertThat(delete.path("responses").has("409")).isTrue();
    }

    private Path revoking(KeyPair revoked) throws Exception {
        String fingerprint = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(revoked.getPublic().getEncoded()));
        return Files.writeString(tmp.resolve("revoked-keys.txt"), "# leaked\nsha256:" + fingerprint + " build machine 2025\n");
    }

    @Test
    void aBundleSignedByARevokedKey_is400_andNothingIsWritten() throws Exception {
        start(Map.of("ENABLE_UI_INSTALL", "true", "PLUGIN_TRUST_ROOT", trustRoot.toString(), "OMCP_PLUGIN_REVOKED_KEYS", revoking(key).toString()));

        HttpResponse<String> response = upload(TestPlugins.guard(tmp.resolve("guard"), key).bundle());

        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(JSON.readTree(response.body()).path("code").asText()).isEqualTo("OMCP_PLUGIN_VERIFICATION_FAILED");
        assertThat(JSON.readTree(response.body()).path("error").asText()).contains("signed by a revoked key (Ed25519 key sha256:")
                .contains("OMCP_PLUGIN_REVOKED_KEYS");
        assertThat(written()).isEmpty();
        assertThat(install("{\"name\":\"tempo\"}").statusCode()).as("a hub plugin signed by a key still trusted installs").isEqualTo(201);
    }

    @Test
    void anInstalledPluginWhoseKeyIsRevoked_isNotLoadedAtTheNextStart_andTheListSaysWhy() throws Exception {
        startWithInstall();
        assertThat(upload(TestPlugins.guard(tmp.resolve("guard"), key).bundle()).statusCode()).isEqualTo(201);
        gateway.close();
        gateway = null;

        start(Map.of("ENABLE_UI_INSTALL", "true", "PLUGIN_TRUST_ROOT", trustRoot.toString(), "OMCP_PLUGIN_REVOKED_KEYS", revoking(key).toString()));

        JsonNode guard = TestPlugins.withoutBuiltins(get("/api/connectors").path("connectors")).get(0);
        assertThat(guard.path("name").asText()).isEqualTo("guard");
        assertThat(guard.path("state").asText()).isEqualTo("skipped");
        assertThat(guard.path("reason").asText()).contains("signed by a revoked key").contains("OMCP_PLUGIN_REVOKED_KEYS");
        assertThat(callSimpleText().path("isError").isMissingNode()).as("its hook does not run").isTrue();
        assertThat(written()).as("the files stay for the operator to remove").contains("guard/manifest.json");
        assertThat(remove("guard", "").statusCode()).as("and can be removed").isEqualTo(200);
    }

    @Test
    void spec3_5_inStrictMode_anInstalledPluginWhoseKeyIsRevoked_refusesTheStart() throws Exception {
        startWithInstall();
        assertThat(upload(TestPlugins.guard(tmp.resolve("guard"), key).bundle()).statusCode()).isEqualTo(201);
        gateway.close();
        gateway = null;

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> start(Map.of("PLUGIN_TRUST_ROOT", trustRoot.toString(),
                        "PLUGIN_REQUIRE_SIGNATURE", "true", "OMCP_PLUGIN_REVOKED_KEYS", revoking(key).toString())))
                .isInstanceOf(dev.omcp.core.plugins.PluginStartRefusedException.class).hasMessageContaining("signed by a revoked key");
    }

    @Test
    void aRevocationListThatDoesNotRead_trustsNoKey_soInstallsAre412_withTheReason() throws Exception {
        Path list = Files.writeString(tmp.resolve("revoked-keys.txt"), "Ed25519 key sha256:1a2b3c4d5e6f7a8b\n");
        start(Map.of("ENABLE_UI_INSTALL", "true", "PLUGIN_TRUST_ROOT", trustRoot.toString(), "OMCP_PLUGIN_REVOKED_KEYS", list.toString()));

        HttpResponse<String> response = install("{\"name\":\"tempo\"}");

        assertThat(response.statusCode()).isEqualTo(412);
        assertThat(JSON.readTree(response.body()).path("error").asText()).contains("OMCP_PLUGIN_REVOKED_KEYS " + list + " line 1 is not a key fingerprint")
                .contains("no key is trusted");
        assertThat(written()).isEmpty();
    }
}
