package dev.omcp.app.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * spec 4.6 and 3.5 with the launcher jar as a process: {@code omcp plugin list|info|install|verify}
 * against the local hub the build produced, then a restart that loads the installed plugin, and strict
 * mode refusing to start.
 */
class PluginCliSystemTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/mcp");

    @TempDir
    Path tmp;
    private Path plugins;
    private Path trustRoot;

    /** The outcome of one command. */
    private record Run(int exit, String out, String err) {}

    @BeforeEach
    void setUp() {
        plugins = tmp.resolve("plugins");
        trustRoot = TestPlugins.reference().resolve("trust-root.pem").toAbsolutePath();
    }

    private static Path jar() {
        Path jar = Path.of(System.getProperty("omcp.launcher.jar", "target/omcp.jar"));
        assertThat(jar).as("the launcher jar is built in the package phase").exists();
        return jar;
    }

    private ProcessBuilder process(Map<String, String> env, String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar().toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().clear();
        builder.environment().put("PLUGINS_DIR", plugins.toString());
        builder.environment().put("CONFIG_PATH", tmp.resolve("sources.yaml").toString());
        builder.environment().put("OMCP_LOG_LEVEL", "info");
        builder.environment().putAll(env);
        return builder;
    }

    private Run run(Map<String, String> env, String... args) throws Exception {
        Path out = Files.createTempFile(tmp, "out", ".txt");
        Path err = Files.createTempFile(tmp, "err", ".txt");
        Process process = process(env, args).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        process.getOutputStream().close();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("omcp " + String.join(" ", args) + " did not finish within 60 s; stderr: " + Files.readString(err));
        }
        return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    private Map<String, String> withTrustRoot() {
        return Map.of("PLUGIN_TRUST_ROOT", trustRoot.toString());
    }

    /** Starts {@code omcp serve}, returns the plugins of {@code GET /api/connectors} (no builtins), then stops it with SIGTERM. */
    private JsonNode serveAndListConnectors(Map<String, String> env) throws Exception {
        Map<String, String> all = new HashMap<>(env);
        all.put("PORT", "0");
        Process process = process(all, "serve").redirectError(tmp.resolve("serve-" + System.nanoTime() + ".log").toFile()).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line;
            int port = -1;
            while ((line = out.readLine()) != null) {
                Matcher m = LISTENING.matcher(line);
                if (m.find()) {
                    port = Integer.parseInt(m.group(1));
                    break;
                }
            }
            assertThat(port).as("the gateway printed its port").isPositive();
            HttpResponse<String> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/connectors")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            return TestPlugins.withoutBuiltins(JSON.readTree(response.body()).path("connectors"));
        } finally {
            process.destroy();
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("the gateway stops on SIGTERM").isTrue();
        }
    }

    @Test
    void spec4_6_installTempoFromTheLocalHub_thenARestartLoadsIt() throws Exception {
        assertThat(serveAndListConnectors(withTrustRoot())).as("no plugin before the install").isEmpty();

        Run install = run(withTrustRoot(), "plugin", "install", "tempo", "--from", TestPlugins.hub().toString());
        assertThat(install.exit()).as(install.err()).isZero();
        assertThat(install.out()).contains("installed tempo 0.1.0-SNAPSHOT into " + plugins.resolve("tempo"));
        assertThat(plugins.resolve("tempo/manifest.json.sig")).exists();

        JsonNode connectors = serveAndListConnectors(withTrustRoot());
        assertThat(connectors).hasSize(1);
        assertThat(connectors.get(0).path("name").asText()).isEqualTo("tempo");
        assertThat(connectors.get(0).path("origin").asText()).isEqualTo("filesystem");
        assertThat(connectors.get(0).path("state").asText()).isEqualTo("loaded");
    }

    @Test
    void thePluginCommands_logAtOMCP_LOG_LEVEL_inOMCP_LOG_FORMAT_asTheGatewayDoes() throws Exception {
        Map<String, String> quiet = new HashMap<>(withTrustRoot());
        quiet.put("OMCP_LOG_LEVEL", "warn");
        Run install = run(quiet, "plugin", "install", "tempo", "--from", TestPlugins.hub().toString());
        assertThat(install.exit()).as(install.err()).isZero();
        assertThat(install.err()).as("no information events at warn").doesNotContain("event=trust-root-loaded")
                .doesNotContain("event=plugin-installed");

        Map<String, String> json = new HashMap<>(withTrustRoot());
        json.put("OMCP_LOG_FORMAT", "json");
        Run remove = run(json, "plugin", "remove", "tempo");
        assertThat(remove.exit()).as(remove.err()).isZero();
        List<String> events = remove.err().lines().filter(line -> line.contains("event=")).toList();
        assertThat(events).isNotEmpty().allSatisfy(line -> assertThat(JSON.readTree(line).path("formattedMessage").asText())
                .contains("event="));
    }

    @Test
    void aRefusalOrAnOutcome_isSaidOnceOnStandardError_notAgainAsALogLine() throws Exception {
        Run remove = run(withTrustRoot(), "plugin", "remove", "nope");
        assertThat(remove.exit()).isEqualTo(1);
        assertThat(occurrences(remove.err(), "no plugin 'nope' is installed")).as(remove.err()).isEqualTo(1);
        assertThat(occurrences(remove.err(), "event=sources-file-missing")).as("the sources file is read once").isLessThanOrEqualTo(1);

        Path hub = tmp.resolve("hub");
        copyTree(TestPlugins.hub(), hub);
        Files.write(hub.resolve("tarballs/tempo-0.1.0-SNAPSHOT.tgz"), new byte[] {0}, StandardOpenOption.APPEND);
        Run install = run(withTrustRoot(), "plugin", "install", "tempo", "--from", hub.toString());
        assertThat(install.exit()).isEqualTo(1);
        assertThat(occurrences(install.err(), "does not match the catalog's integrity")).as(install.err()).isEqualTo(1);

        Run installed = run(withTrustRoot(), "plugin", "install", "tempo", "--from", TestPlugins.hub().toString());
        assertThat(installed.exit()).as(installed.err()).isZero();
        assertThat(installed.out()).contains("installed tempo 0.1.0-SNAPSHOT");
        assertThat(installed.err()).doesNotContain("event=plugin-installed");
    }

    private static int occurrences(String text, String part) {
        return text.split(java.util.regex.Pattern.quote(part), -1).length - 1;
    }

    @Test
    void spec4_6_listAndInfoReadTheCatalog() throws Exception {
        Run list = run(withTrustRoot(), "plugin", "list", "--from", TestPlugins.hub().toString());
        assertThat(list.exit()).as(list.err()).isZero();
        assertThat(list.out()).contains("tempo", "zipkin", "2 connectors in");
        Run info = run(withTrustRoot(), "plugin", "info", "zipkin", "--from", TestPlugins.hub().toString());
        assertThat(info.exit()).isZero();
        assertThat(info.out()).contains("capabilities: listServices, queryTraces, topology").contains("integrity: sha256-");
        Run missing = run(withTrustRoot(), "plugin", "info", "jaeger", "--from", TestPlugins.hub().toString());
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.err()).contains("no connector 'jaeger'");
    }

    @Test
    void spec4_6_installWithoutTrustRootOrHub_exits1AndWritesNothing() throws Exception {
        Run noTrust = run(Map.of(), "plugin", "install", "tempo", "--from", TestPlugins.hub().toString());
        assertThat(noTrust.exit()).isEqualTo(1);
        assertThat(noTrust.err()).contains("PLUGIN_TRUST_ROOT is not set");
        Map<String, String> hubOff = new HashMap<>(withTrustRoot());
        hubOff.put("HUB_CATALOG_URL", "off");
        Run noHub = run(hubOff, "plugin", "install", "tempo");
        assertThat(noHub.exit()).isEqualTo(1);
        assertThat(noHub.err()).contains("omcp: no hub catalog: the connector hub is off (HUB_CATALOG_URL=off)")
                .contains("or pass --from <dir|url>");
        assertThat(plugins).doesNotExist();
    }

    /**
     * spec 1.5, 5.8: without --from or HUB_CATALOG_URL the commands read the hub the jar carries, offline. Its
     * tarballs verify against the jar's key, so a trust root holding only the operator's own key is enough,
     * and the gateway (and verify) then load the plugin as the jar's key vouches for it.
     */
    @Test
    void spec5_8_withoutFromOrHubCatalogUrl_listInfoAndInstallUseTheBuiltInHub_andARestartLoadsIt() throws Exception {
        Path ownKey = Files.writeString(tmp.resolve("operator.pem"),
                dev.omcp.testkit.packaging.PluginPackager.publicKeyPem(TestPlugins.newKey().getPublic()));
        Map<String, String> operator = Map.of("PLUGIN_TRUST_ROOT", ownKey.toString());

        Run list = run(operator, "plugin", "list");
        assertThat(list.exit()).as(list.err()).isZero();
        assertThat(list.out()).contains("tempo", "zipkin", "2 connectors in the built-in hub");
        Run info = run(operator, "plugin", "info", "zipkin");
        assertThat(info.exit()).as(info.err()).isZero();
        assertThat(info.out()).contains("capabilities: listServices, queryTraces, topology");

        Run install = run(operator, "plugin", "install", "tempo");
        assertThat(install.exit()).as(install.err()).isZero();
        assertThat(install.out()).contains("installed tempo 0.1.0-SNAPSHOT into " + plugins.resolve("tempo"));

        Run verify = run(operator, "plugin", "verify", plugins.resolve("tempo").toString());
        assertThat(verify.exit()).as(verify.out() + verify.err()).isZero();
        assertThat(verify.out()).contains("(the built-in hub's)").contains("signature: ok").contains("verdict: OK");
        JsonNode connectors = serveAndListConnectors(operator);
        assertThat(connectors).hasSize(1);
        assertThat(connectors.get(0).path("name").asText()).isEqualTo("tempo");
        assertThat(connectors.get(0).path("state").asText()).isEqualTo("loaded");

        // an operator's hub verifies against PLUGIN_TRUST_ROOT alone: the same tarballs from the testkit's hub are refused
        Run fromOperatorsHub = run(operator, "plugin", "install", "zipkin", "--from", TestPlugins.hub().toString());
        assertThat(fromOperatorsHub.exit()).isEqualTo(1);
        assertThat(fromOperatorsHub.err()).contains("install refused (verification failed)")
                .contains("does not verify against the trust root");
        assertThat(plugins.resolve("zipkin")).doesNotExist();
    }

    @Test
    void installWithoutATrustRoot_isRefusedAsSuch_sayingWhatToDo_beforeTheHubIsAsked() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        HttpServer hub = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        hub.createContext("/", exchange -> {
            requests.incrementAndGet();
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        hub.start();
        try {
            String url = "http://127.0.0.1:" + hub.getAddress().getPort() + "/index.json";
            Run install = run(Map.of(), "plugin", "install", "tempo", "--from", url);
            assertThat(install.exit()).isEqualTo(1);
            assertThat(install.err()).contains("omcp: install refused (no trust root): PLUGIN_TRUST_ROOT is not set")
                    .contains("pass --trust-root <pem> or set PLUGIN_TRUST_ROOT").doesNotContain("hub unavailable");
            assertThat(requests).as("nothing can install without a key: the hub is not asked").hasValue(0);
        } finally {
            hub.stop(0);
        }

        Run local = run(Map.of(), "plugin", "install", "tempo", "--from", TestPlugins.hub().toString());
        assertThat(local.exit()).isEqualTo(1);
        assertThat(local.err()).contains("install refused (no trust root)").doesNotContain("verification failed");
        assertThat(plugins).doesNotExist();
    }

    @Test
    void installWithAnUnusableTrustRootOption_saysItOnce_namingTheOption() throws Exception {
        Path notAKey = Files.writeString(tmp.resolve("not-a-key.pem"), "hello\n");

        Run install = run(withTrustRoot(), "plugin", "install", "tempo", "--from", TestPlugins.hub().toString(), "--trust-root",
                notAKey.toString());

        assertThat(install.exit()).isEqualTo(1);
        assertThat(install.err())
                .contains("omcp: install refused (no trust root): the trust root --trust-root " + notAKey + " is unusable: ")
                .doesNotContain("event=trust-root-unusable");
        assertThat(occurrences(install.err(), "holds no PEM public key")).as(install.err()).isEqualTo(1);
        assertThat(plugins).doesNotExist();
    }

    @Test
    void spec4_6_aTamperedHubTarball_isRefusedBeforeExtraction() throws Exception {
        Path hub = tmp.resolve("hub");
        copyTree(TestPlugins.hub(), hub);
        Files.write(hub.resolve("tarballs/tempo-0.1.0-SNAPSHOT.tgz"), new byte[] {0}, StandardOpenOption.APPEND);
        Run install = run(withTrustRoot(), "plugin", "install", "tempo", "--from", hub.toString());
        assertThat(install.exit()).isEqualTo(1);
        assertThat(install.err()).contains("install refused (verification failed)").contains("does not match the catalog's integrity");
        assertThat(plugins).doesNotExist();
    }

    @Test
    void spec4_6_verifyPrintsTheVerdict_andExitsNonZeroOnFailure() throws Exception {
        Path tempo = TestPlugins.reference().resolve("plugins/tempo").toAbsolutePath();
        Run ok = run(withTrustRoot(), "plugin", "verify", tempo.toString());
        assertThat(ok.exit()).as(ok.out() + ok.err()).isZero();
        assertThat(ok.out()).contains("manifest: ok", "integrity: ok", "signature: ok", "load: ok", "verdict: OK");

        Path tampered = tmp.resolve("tempo");
        copyTree(tempo, tampered);
        Files.write(tampered.resolve("tempo-connector.jar"), new byte[] {0}, StandardOpenOption.APPEND);
        Run refused = run(withTrustRoot(), "plugin", "verify", tampered.toString());
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.out()).contains("integrity: FAILED: integrity mismatch").contains("verdict: REFUSED");

        Run noTrust = run(Map.of(), "plugin", "verify", tempo.toString());
        assertThat(noTrust.exit()).isEqualTo(1);
        assertThat(noTrust.out()).contains("verdict: REFUSED");

        // a key file the option names, not the variable: the verdict says where it came from, once
        Path notAKey = Files.writeString(tmp.resolve("not-a-key.pem"), "hello\n");
        Run unusable = run(Map.of(), "plugin", "verify", "--trust-root", notAKey.toString(), tempo.toString());
        assertThat(unusable.exit()).isEqualTo(1);
        assertThat(unusable.out()).contains("trust root: UNUSABLE (--trust-root " + notAKey + "): ")
                .contains("signature: NOT CHECKED: no usable trust root (see above)").contains("verdict: REFUSED")
                .doesNotContain("PLUGIN_TRUST_ROOT is unusable").doesNotContain("not checked: signature not checked");
    }

    /**
     * A trust root with the reference plugins' key and another, and a revocation list naming the
     * reference key: what an operator has after a signing key leaked and a new one was added.
     */
    private Map<String, String> withTheReferenceKeyRevoked() throws Exception {
        Path bothKeys = TestPlugins.trustRoot(tmp, TestPlugins.newKey());
        String pem = Files.readString(trustRoot);
        String base64 = pem.substring(pem.indexOf("-----\n") + 6, pem.indexOf("-----END")).replaceAll("\\s", "");
        String fingerprint = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(java.util.Base64.getDecoder().decode(base64)));
        Path revoked = Files.writeString(tmp.resolve("revoked-keys.txt"), "sha256:" + fingerprint + " leaked build key\n");
        return Map.of("PLUGIN_TRUST_ROOT", bothKeys.toString(), "OMCP_PLUGIN_REVOKED_KEYS", revoked.toString());
    }

    @Test
    void verifyOfAPluginSignedByARevokedKey_exits1_namingTheKeyAndTheList() throws Exception {
        Path tempo = TestPlugins.reference().resolve("plugins/tempo").toAbsolutePath();

        Run refused = run(withTheReferenceKeyRevoked(), "plugin", "verify", tempo.toString());

        assertThat(refused.exit()).as(refused.out() + refused.err()).isEqualTo(1);
        assertThat(refused.out()).contains("trust root: ").contains("revoked by OMCP_PLUGIN_REVOKED_KEYS: Ed25519 key sha256:")
                .contains("signature: FAILED: manifest.json.sig: signed by a revoked key (Ed25519 key sha256:")
                .contains("which OMCP_PLUGIN_REVOKED_KEYS revokes; install a version signed with a current key")
                .contains("verdict: REFUSED").doesNotContain("load: ok");
    }

    @Test
    void installFromTheHubOfATarballSignedByARevokedKey_exits1_beforeItIsUnpacked_andWritesNothing() throws Exception {
        Run install = run(withTheReferenceKeyRevoked(), "plugin", "install", "tempo", "--from", TestPlugins.hub().toString());

        assertThat(install.exit()).as(install.out() + install.err()).isEqualTo(1);
        // refused by the hub's tarball signature check, not later by the manifest's: the download path honours the list too
        assertThat(install.err()).contains("omcp: install refused (verification failed): the tarball of tempo@0.1.0-SNAPSHOT: "
                + "signed by a revoked key (Ed25519 key sha256:").contains("OMCP_PLUGIN_REVOKED_KEYS");
        assertThat(plugins).doesNotExist();
    }

    @Test
    void spec3_5_strictModeWithAnUnverifiablePlugin_refusesToStart_exit1() throws Exception {
        copyTree(TestPlugins.reference().resolve("plugins/tempo"), plugins.resolve("tempo"));
        Files.delete(plugins.resolve("tempo/manifest.json.sig"));
        Map<String, String> env = new HashMap<>(withTrustRoot());
        env.put("PLUGIN_REQUIRE_SIGNATURE", "true");
        env.put("PORT", "0");
        Run serve = run(env, "serve");
        assertThat(serve.exit()).isEqualTo(1);
        assertThat(serve.err()).contains("'tempo' is unverifiable").contains("manifest.json.sig is missing");
        assertThat(serve.out()).doesNotContain("listening on");
    }

    @Test
    void spec3_5_strictModeWithoutTrustRoot_refusesToStart_exit1() throws Exception {
        Run serve = run(Map.of("PLUGIN_REQUIRE_SIGNATURE", "true", "PORT", "0"), "serve");
        assertThat(serve.exit()).isEqualTo(1);
        assertThat(serve.err()).contains("PLUGIN_TRUST_ROOT is not set");
    }

    @Test
    void spec3_5_defaultMode_skipsTheUnverifiablePluginAndStarts() throws Exception {
        copyTree(TestPlugins.reference().resolve("plugins/tempo"), plugins.resolve("tempo"));
        Files.delete(plugins.resolve("tempo/manifest.json.sig"));
        JsonNode connectors = serveAndListConnectors(withTrustRoot());
        assertThat(connectors.get(0).path("state").asText()).isEqualTo("skipped");
        assertThat(connectors.get(0).path("reason").asText()).contains("manifest.json.sig is missing");
    }

    @Test
    void spec3_5_verificationOff_loadsTheUnsignedPlugin() throws Exception {
        copyTree(TestPlugins.reference().resolve("plugins/tempo"), plugins.resolve("tempo"));
        Files.delete(plugins.resolve("tempo/manifest.json.sig"));
        JsonNode connectors = serveAndListConnectors(Map.of("VERIFY_PLUGINS", "false"));
        assertThat(connectors.get(0).path("state").asText()).isEqualTo("loaded");
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path source : walk.toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
    }
}
