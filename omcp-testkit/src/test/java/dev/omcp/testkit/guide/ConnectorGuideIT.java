package dev.omcp.testkit.guide;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.jaeger.PackPlugin;
import dev.omcp.sdk.hook.HookContext;
import dev.omcp.sdk.hook.HookKind;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.testkit.connector.ConnectorTestKit;
import dev.omcp.testkit.connector.VerifiedPlugin;
import jakarta.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What docs/writing-a-connector.md tells an author to do works: in a project laid out as the page
 * says, with the page's manifest, the packing program signs and packs the plugin and publishes it
 * to a local hub, and the page's plugin test ({@code JaegerPluginIT}) passes against it.
 */
class ConnectorGuideIT {
    private static final String VERSION = "1.0.0";

    @TempDir
    static Path tmp;

    private static AuthorProject project;
    private static KeyPair signing;
    private static AuthorProject.Run packing;

    @BeforeAll
    static void packThePlugin() throws Exception {
        signing = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        // Outside the project, as the page asks; PKCS#8 PEM, what `openssl genpkey` writes.
        Path signingKey = Files.writeString(tmp.resolve("signing-key.pem"), "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(signing.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        project = AuthorProject.layOut(tmp.resolve("jaeger-connector"), manifestOfThePage(), signing.getPublic());
        packing = project.run(PackPlugin.class.getName(), List.of(VERSION), Map.of("JAEGER_SIGNING_KEY", signingKey.toString()));
    }

    private static String manifestOfThePage() {
        return MarkdownPage.read("writing-a-connector.md").blocks("json").stream().map(lines -> String.join("\n", lines))
                .filter(json -> json.contains("\"schemaVersion\"")).findFirst().orElseThrow();
    }

    @Test
    void thePackingProgram_writesThePluginDirectoryAndTheHub() {
        assertThat(packing.exitCode()).as(packing.output()).isZero();

        assertThat(project.path("target/plugin/jaeger")).isDirectoryContaining("glob:**/jaeger-connector.jar")
                .isDirectoryContaining("glob:**/package.json").isDirectoryContaining("glob:**/manifest.json")
                .isDirectoryContaining("glob:**/manifest.json.sig");
        assertThat(project.path("target/hub/index.json")).isRegularFile();
    }

    @Test
    void thePagesPluginTest_passesInTheProject() throws Exception {
        assertThat(packing.exitCode()).as(packing.output()).isZero();

        AuthorProject.Run pluginTest = project.run(TestClassMain.class.getName(), List.of(AuthorProject.EXAMPLE_PACKAGE + ".JaegerPluginIT"),
                Map.of());

        assertThat(pluginTest.exitCode()).as(pluginTest.output()).isZero();
        assertThat(pluginTest.output()).contains("1 tests successful");
    }

    @Test
    void thePackedPlugin_hasTheVersionGivenAndItsHookDeniesAsThePageShows() throws Exception {
        assertThat(packing.exitCode()).as(packing.output()).isZero();

        VerifiedPlugin plugin = ConnectorTestKit.load(project.path("target/plugin/jaeger"), project.path("src/test/resources/trust-root.pem"));

        assertThat(plugin.manifest().version()).isEqualTo(VERSION);
        assertThat(plugin.loaded().skippedHooks()).isEmpty();
        JsonObject bypassing = Jsonp.object().add("args", Jsonp.object().add("bypass_redaction", true)).build();
        assertThat(plugin.loaded().hooks()).singleElement().satisfies(loaded -> {
            assertThat(loaded.hook().getClass().getClassLoader()).as("loaded from the plugin's JAR")
                    .isNotSameAs(ConnectorGuideIT.class.getClassLoader());
            assertThat(loaded.hook().handle(new HookContext("key:ci-bot", "", HookKind.TOOL_PRE_INVOKE, "query_logs"), bypassing).allow())
                    .isFalse();
        });
    }
}
