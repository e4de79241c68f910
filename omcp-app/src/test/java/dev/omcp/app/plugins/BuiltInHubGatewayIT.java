package dev.omcp.app.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.app.settings.SettingsReader;
import dev.omcp.app.wiring.GatewayAssembly;
import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.testkit.packaging.PluginPackager;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * spec 1.5, 4.3, 5.8: the built-in connector hub on a running gateway. Without {@code HUB_CATALOG_URL}
 * the catalog is the one the jar carries, whose tarballs verify against the key beside it; an
 * operator's hub keeps verifying against {@code PLUGIN_TRUST_ROOT} alone; {@code off} turns the hub off.
 *
 * <p>The operator's trust root here holds a key of its own and not the build's: what installs from the
 * built-in hub is vouched for by the jar, and nothing else gains from that.
 */
class BuiltInHubGatewayIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TEMPO_TARBALL = "tempo-0.1.0-SNAPSHOT.tgz";
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path tmp;
    private Path plugins;
    /** A trust root of the operator's own key only: not the key the build signed the reference plugins with. */
    private Path operatorTrustRoot;
    private GatewayAssembly gateway;

    @BeforeEach
    void setUp() throws IOException {
        plugins = tmp.resolve("plugins");
        operatorTrustRoot = Files.writeString(tmp.resolve("operator-trust-root.pem"),
                PluginPackager.publicKeyPem(TestPlugins.newKey().getPublic()));
    }

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
            gateway = null;
        }
    }

    private void start(Map<String, String> extra) throws Exception {
        stop();
        Map<String, String> env = new HashMap<>(Map.of(
                "PORT", "0",
                "PLUGINS_DIR", plugins.toString(),
                "CONFIG_PATH", tmp.resolve("sources.yaml").toString()));
        env.putAll(extra);
        gateway = GatewayAssembly.start(SettingsReader.read(env), new GatewayAssembly.Options(true), "0.1.0");
    }

    private Map<String, String> withInstall(String... more) {
        Map<String, String> env = new HashMap<>(Map.of("ENABLE_UI_INSTALL", "true", "PLUGIN_TRUST_ROOT", operatorTrustRoot.toString()));
        for (int i = 0; i < more.length; i += 2) {
            env.put(more[i], more[i + 1]);
        }
        return env;
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.header("Authorization", "Bearer test-cli").build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> catalog() throws Exception {
        return send(HttpRequest.newBuilder(url("/api/hub/catalog")));
    }

    private HttpResponse<String> install(String name) throws Exception {
        return send(HttpRequest.newBuilder(url("/api/connectors/install")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"" + name + "\"}")));
    }

    private HttpResponse<String> upload(byte[] bundle) throws Exception {
        return send(HttpRequest.newBuilder(url("/api/connectors/upload")).header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(bundle)));
    }

    private URI url(String path) {
        return URI.create("http://127.0.0.1:" + gateway.port() + path);
    }

    private JsonNode tempoStatus() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(url("/api/connectors")));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode plugin = TestPlugins.withoutBuiltins(JSON.readTree(response.body()).path("connectors")).get(0);
        assertThat(plugin).as("a plugin is listed").isNotNull();
        assertThat(plugin.path("name").asText()).isEqualTo("tempo");
        return plugin;
    }

    private List<String> written() throws IOException {
        if (!Files.exists(plugins)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(plugins)) {
            return walk.filter(p -> !p.equals(plugins)).map(p -> plugins.relativize(p).toString())
                    .filter(p -> !p.equals(".omcp-install.lock")).sorted().toList();
        }
    }

    private static byte[] builtInTarball(String file) throws IOException {
        try (InputStream in = BuiltInHubGatewayIT.class.getClassLoader().getResourceAsStream("dev/omcp/app/demo/hub/tarballs/" + file)) {
            assertThat(in).as("the build lays the built-in hub into the launcher's resources (omcp-app pom)").isNotNull();
            return in.readAllBytes();
        }
    }

    @Test
    void spec5_8_withoutHubCatalogUrl_theCatalogIsTheBuiltInHub_listingTempoAndZipkin() throws Exception {
        start(Map.of());

        HttpResponse<String> response = catalog();

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.path("source").asText()).as("spec 4.3: which hub answers").isEqualTo("builtin");
        assertThat(java.util.stream.StreamSupport.stream(body.path("connectors").spliterator(), false).map(c -> c.path("name").asText()))
                .containsExactly("tempo", "zipkin");
        JsonNode tempo = body.path("connectors").get(0);
        assertThat(tempo.path("installedVersion").isNull()).isTrue();
        assertThat(tempo.path("versions").get(0).path("tarballUrl").asText()).isEqualTo("../tarballs/" + TEMPO_TARBALL);
    }

    @Test
    void installingTempoFromTheBuiltInHub_verifiesAgainstTheJarsKey_loadsAtOnce_andAgainAfterARestart() throws Exception {
        start(withInstall());
        assertThat(gateway.connectorCatalog().find("tempo")).isEmpty();

        HttpResponse<String> response = install("tempo");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        assertThat(gateway.connectorCatalog().find("tempo")).get().extracting(ConnectorType::origin)
                .isEqualTo(ConnectorType.Origin.FILESYSTEM);
        assertThat(tempoStatus().path("state").asText()).isEqualTo("loaded");
        JsonNode listed = JSON.readTree(catalog().body()).path("connectors").get(0);
        assertThat(listed.path("installedVersion").asText()).isEqualTo("0.1.0-SNAPSHOT");
        assertThat(listed.path("loaded").asBoolean()).isTrue();

        // spec 3.5: strict mode admits it too, and a hub turned off afterwards does not unload what it installed
        start(Map.of("PLUGIN_TRUST_ROOT", operatorTrustRoot.toString(), "PLUGIN_REQUIRE_SIGNATURE", "true"));
        assertThat(tempoStatus().path("state").asText()).isEqualTo("loaded");
        start(Map.of("PLUGIN_TRUST_ROOT", operatorTrustRoot.toString(), "HUB_CATALOG_URL", "off"));
        assertThat(tempoStatus().path("state").asText()).isEqualTo("loaded");
    }

    @Test
    void anOperatorsHubWhoseTarballPluginTrustRootDoesNotVerify_isRefused_thoughTheJarsKeyWouldVerifyIt() throws Exception {
        // the testkit's hub holds the very tarballs the jar carries, signed by the same build key
        assertThat(Files.readAllBytes(TestPlugins.hub().resolve("tarballs").resolve(TEMPO_TARBALL)))
                .isEqualTo(builtInTarball(TEMPO_TARBALL));
        start(withInstall("HUB_CATALOG_URL", TestPlugins.hub().toString()));
        assertThat(JSON.readTree(catalog().body()).path("source").asText()).isEqualTo(TestPlugins.hub().normalize().toString());

        HttpResponse<String> response = install("tempo");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.path("code").asText()).isEqualTo("OMCP_PLUGIN_VERIFICATION_FAILED");
        assertThat(body.path("error").asText()).contains("the tarball of tempo@0.1.0-SNAPSHOT")
                .contains("does not verify against the trust root");
        assertThat(written()).isEmpty();
        assertThat(gateway.connectorCatalog().find("tempo")).isEmpty();
    }

    @Test
    void hubCatalogUrlOff_turnsTheHubOff_502NamingTheSetting_andNothingInstalls() throws Exception {
        start(withInstall("HUB_CATALOG_URL", "Off"));

        HttpResponse<String> listing = catalog();
        HttpResponse<String> installing = install("tempo");

        for (HttpResponse<String> response : List.of(listing, installing)) {
            assertThat(response.statusCode()).as(response.body()).isEqualTo(502);
            JsonNode body = JSON.readTree(response.body());
            assertThat(body.path("code").asText()).isEqualTo("OMCP_HUB_UNAVAILABLE");
            assertThat(body.path("error").asText()).isEqualTo("the connector hub is off (HUB_CATALOG_URL=Off); unset "
                    + "HUB_CATALOG_URL to use the built-in hub, or set it to a hub's URL or directory");
        }
        assertThat(written()).isEmpty();
    }

    @Test
    void spec7_4_theBuiltInHubToo_installsOnlyWithPluginTrustRootSet() throws Exception {
        start(Map.of("ENABLE_UI_INSTALL", "true"));

        HttpResponse<String> response = install("tempo");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(412);
        assertThat(JSON.readTree(response.body()).path("error").asText()).contains("PLUGIN_TRUST_ROOT is not set");
        assertThat(written()).isEmpty();
    }

    @Test
    void theJarsKeyRevoked_refusesTheBuiltInHubsTarballs_namingIt() throws Exception {
        String pem = new String(BuiltInHubGatewayIT.class.getClassLoader().getResourceAsStream("dev/omcp/app/demo/trust-root.pem")
                .readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
        String base64 = pem.substring(pem.indexOf("-----\n") + 6, pem.indexOf("-----END")).replaceAll("\\s", "");
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(java.util.Base64.getDecoder().decode(base64));
        String fingerprint = HexFormat.of().formatHex(digest);
        Path revoked = Files.writeString(tmp.resolve("revoked-keys.txt"), "sha256:" + fingerprint + " the build key\n");
        start(withInstall("OMCP_PLUGIN_REVOKED_KEYS", revoked.toString()));

        HttpResponse<String> response = install("tempo");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(JSON.readTree(response.body()).path("error").asText()).contains("the built-in hub's key (Ed25519 key sha256:")
                .contains("is revoked by OMCP_PLUGIN_REVOKED_KEYS");
        assertThat(written()).isEmpty();
    }

    @Test
    void anUploadOfTheBuiltInTempoTarball_verifiesAgainstTheJarsKey_asItsInstallFromTheHubDoes() throws Exception {
        // the jar's key signed only the reference plugins the jar carries: an upload of one is what the built-in hub offers
        start(withInstall());

        HttpResponse<String> response = upload(builtInTarball(TEMPO_TARBALL));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        assertThat(tempoStatus().path("state").asText()).isEqualTo("loaded");
    }
}
