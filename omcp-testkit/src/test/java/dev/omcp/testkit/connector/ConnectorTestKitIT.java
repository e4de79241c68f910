package dev.omcp.testkit.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.testkit.packaging.PluginPackager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.KeyPairGenerator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kit refuses exactly what the gateway refuses, with the gateway's reasons. */
class ConnectorTestKitIT {
    private static final Path REFERENCE = Path.of(System.getProperty("omcp.reference.dir", "target/reference-plugins"));

    @TempDir
    Path tmp;

    private Path copyOfTempo() throws IOException {
        Path copy = tmp.resolve("tempo");
        Files.createDirectories(copy);
        try (Stream<Path> files = Files.list(REFERENCE.resolve("plugins/tempo"))) {
            for (Path file : files.toList()) {
                Files.copy(file, copy.resolve(file.getFileName()));
            }
        }
        return copy;
    }

    @Test
    void theReferencePluginLoadsWithTheGatewaysVerification() {
        VerifiedPlugin plugin = ConnectorTestKit.load(REFERENCE.resolve("plugins/tempo"), REFERENCE.resolve("trust-root.pem"));
        assertThat(plugin.manifest().name()).isEqualTo("tempo");
        assertThat(plugin.inspection().candidate().fullyVerified()).isTrue();
        assertThat(plugin.factory().getClass().getClassLoader()).isNotSameAs(ConnectorTestKitIT.class.getClassLoader());
    }

    @Test
    void aTamperedJar_isRefusedWithTheIntegrityReason() throws IOException {
        Path copy = copyOfTempo();
        Files.write(copy.resolve("tempo-connector.jar"), new byte[] {0}, StandardOpenOption.APPEND);
        assertThatThrownBy(() -> ConnectorTestKit.load(copy, REFERENCE.resolve("trust-root.pem")))
                .isInstanceOf(PluginRefusedException.class)
                .hasMessageContaining("integrity mismatch");
    }

    @Test
    void aTamperedManifest_isRefusedWithTheSignatureReason() throws IOException {
        Path copy = copyOfTempo();
        Files.writeString(copy.resolve("manifest.json"), Files.readString(copy.resolve("manifest.json")).replace("Grafana Tempo", "Grafana Tempo+"));
        assertThatThrownBy(() -> ConnectorTestKit.load(copy, REFERENCE.resolve("trust-root.pem")))
                .hasMessageContaining("manifest.json.sig: the signature does not verify");
    }

    @Test
    void anotherTrustRoot_isRefused() throws Exception {
        Path otherKey = Files.writeString(tmp.resolve("other.pem"),
                PluginPackager.publicKeyPem(KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPublic()));
        assertThatThrownBy(() -> ConnectorTestKit.load(REFERENCE.resolve("plugins/tempo"), otherKey))
                .hasMessageContaining("does not verify against the trust root");
    }

    @Test
    void aMissingSignatureOrTrustRoot_isRefused() throws IOException {
        Path copy = copyOfTempo();
        Files.delete(copy.resolve("manifest.json.sig"));
        assertThatThrownBy(() -> ConnectorTestKit.load(copy, REFERENCE.resolve("trust-root.pem"))).hasMessageContaining("unsigned");
        assertThatThrownBy(() -> ConnectorTestKit.load(REFERENCE.resolve("plugins/tempo"), tmp.resolve("none.pem")))
                .hasMessageContaining("the file does not exist");
    }

    @Test
    void aPluginDirectoryNotPackedYet_isRefusedSayingToPackItFirst() {
        Path notPacked = tmp.resolve("target/plugin/minimetrics");
        assertThatThrownBy(() -> ConnectorTestKit.load(notPacked, REFERENCE.resolve("trust-root.pem")))
                .isInstanceOf(PluginRefusedException.class)
                .hasMessageContaining("there is no plugin to verify at " + notPacked.toAbsolutePath())
                .hasMessageContaining("the directory does not exist: pack the plugin there first")
                .hasMessageNotContaining("no connector plugin found");
    }

    @Test
    void aTrustRootFileThatIsNotThere_isNamedByItsPath_notByTheGatewaysSetting() {
        Path missing = tmp.resolve("src/test/resources/trust-root.pem");
        assertThatThrownBy(() -> ConnectorTestKit.load(REFERENCE.resolve("plugins/tempo"), missing))
                .isInstanceOf(PluginRefusedException.class)
                .hasMessageContaining("the trust root " + missing.toAbsolutePath() + " is unusable: the file does not exist")
                .hasMessageNotContaining("PLUGIN_TRUST_ROOT is unusable");
    }

    @Test
    void aDirectoryWithoutAPlugin_listsEachReasonOnce() throws IOException {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        assertThatThrownBy(() -> ConnectorTestKit.load(empty, REFERENCE.resolve("trust-root.pem")))
                .isInstanceOfSatisfying(PluginRefusedException.class,
                        e -> assertThat(e.problems()).doesNotHaveDuplicates().anyMatch(p -> p.startsWith("no connector plugin here")));
    }
}
