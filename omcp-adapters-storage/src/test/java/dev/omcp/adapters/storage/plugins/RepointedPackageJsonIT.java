package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.StagedBundle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code package.json} is not signed: whoever repacks a signed bundle may point its {@code main} and
 * {@code observabilityMcp.manifest} anywhere. Each way found here only reaches bytes that are
 * themselves signed (a manifest) or hashed by a signed manifest (the JAR), so none of them makes a
 * plugin that verifies other than one its signer built.
 */
class RepointedPackageJsonIT {
    private static final KeyPair KEY = Keys.ed25519();

    @TempDir
    Path tmp;
    private FilesystemPluginStore store;

    @BeforeEach
    void setUp() throws IOException {
        Path trustRoot = Files.writeString(tmp.resolve("trust-root.pem"), Keys.publicPem(KEY));
        store = new FilesystemPluginStore(Files.createDirectories(tmp.resolve("plugins")), Optional.of(trustRoot), Optional.empty(), true);
    }

    /** The signed echo 2.0.0 with {@code extra} files, its package.json edited by {@code edit}. */
    private static byte[] bundle(Map<String, byte[]> extra, Consumer<ObjectNode> edit) throws IOException {
        Map<String, byte[]> files = new LinkedHashMap<>(PluginFixture.named("echo").version("2.0.0").signedBy(KEY).files());
        ObjectNode pkg = (ObjectNode) PluginFixture.JSON.readTree(files.get("package.json"));
        edit.accept(pkg);
        files.put("package.json", PluginFixture.JSON.writeValueAsBytes(pkg));
        files.putAll(extra);
        TarWriter tar = new TarWriter();
        files.forEach(tar::file);
        return tar.tgz();
    }

    private static Consumer<ObjectNode> manifestAt(String path) {
        return pkg -> ((ObjectNode) pkg.get("observabilityMcp")).put("manifest", path);
    }

    private PluginCandidate staged(byte[] tgz) throws Exception {
        try (StagedBundle staged = store.stage(tgz)) {
            return staged.candidate();
        }
    }

    private static byte[] unsignedManifest() throws IOException {
        // the signed manifest with the integrity of another JAR: what a repacker would want loaded
        byte[] signedBytes = PluginFixture.named("echo").version("2.0.0").files().get("manifest.json");
        ObjectNode manifest = (ObjectNode) PluginFixture.JSON.readTree(signedBytes);
        manifest.put("integrity", PluginFiles.integrity(PluginFixture.named("evil").files().get("evil-connector.jar")));
        return PluginFixture.JSON.writeValueAsBytes(manifest);
    }

    @Test
    void aManifestRepointedAtAnUnsignedFile_doesNotVerify() throws Exception {
        PluginCandidate bare = staged(bundle(Map.of("notes.json", unsignedManifest()), manifestAt("notes.json")));
        assertThat(bare.fullyVerified()).isFalse();
        assertThat(bare.signature().summary()).contains("unsigned: notes.json.sig is missing beside the manifest");

        byte[] realSignature = PluginFixture.named("echo").version("2.0.0").signedBy(KEY).files().get("manifest.json.sig");
        PluginCandidate withAnotherSig = staged(bundle(Map.of("notes.json", unsignedManifest(), "notes.json.sig", realSignature),
                manifestAt("notes.json")));
        assertThat(withAnotherSig.fullyVerified()).isFalse();
        assertThat(withAnotherSig.signature().ok()).isFalse();
        assertThat(withAnotherSig.manifest()).as("never parsed").isEmpty();
    }

    @Test
    void aManifestRepointedAtAnotherPluginsSignedManifest_isThatPlugin_orFailsTheNameAndIntegrityChecks() throws Exception {
        Map<String, byte[]> other = PluginFixture.named("other").version("1.0.0").signedBy(KEY).files();
        Map<String, byte[]> copied = Map.of("other/manifest.json", other.get("manifest.json"), "other/manifest.json.sig",
                other.get("manifest.json.sig"), "other/other-connector.jar", other.get("other-connector.jar"));

        PluginCandidate underEcho = staged(bundle(copied, manifestAt("other/manifest.json")));
        assertThat(underEcho.fullyVerified()).isFalse();
        assertThat(underEcho.manifestCheck().summary()).contains("/name 'other' differs from the package marker name 'echo'");

        PluginCandidate otherWithEchosJar = staged(bundle(copied, manifestAt("other/manifest.json")
                .andThen(pkg -> ((ObjectNode) pkg.get("observabilityMcp")).put("name", "other"))));
        assertThat(otherWithEchosJar.fullyVerified()).as("echo's JAR is not the one other's manifest hashes").isFalse();
        assertThat(otherWithEchosJar.integrity().summary()).contains("integrity mismatch");

        PluginCandidate wholeOther = staged(bundle(copied, manifestAt("other/manifest.json")
                .andThen(pkg -> ((ObjectNode) pkg.get("observabilityMcp")).put("name", "other"))
                .andThen(pkg -> pkg.put("main", "other/other-connector.jar"))));
        assertThat(wholeOther.fullyVerified()).as("exactly the signed plugin other, as its own bundle would install it").isTrue();
        assertThat(wholeOther.name()).isEqualTo("other");
        assertThat(wholeOther.manifest().orElseThrow().integrity()).hasValue(PluginFiles.integrity(other.get("other-connector.jar")));
    }

    @Test
    void aManifestRepointedOutOfThePlugin_orAtADirectory_doesNotVerify() throws Exception {
        for (String path : new String[] {"../manifest.json", "lib/../../manifest.json", "/etc/passwd"}) {
            PluginCandidate escaping = staged(bundle(Map.of(), manifestAt(path)));
            assertThat(escaping.fullyVerified()).as(path).isFalse();
            assertThat(escaping.manifestCheck().summary()).as(path).contains("escapes the plugin directory");
        }
        PluginCandidate directory = staged(bundle(Map.of("lib/readme.txt", new byte[] {'x'}), manifestAt("lib")));
        assertThat(directory.fullyVerified()).isFalse();
        assertThat(directory.manifestCheck().summary()).contains("manifest 'lib' is not a regular file");
        PluginCandidate dot = staged(bundle(Map.of(), manifestAt(".")));
        assertThat(dot.fullyVerified()).isFalse();
    }

    @Test
    void mainRepointedAtASecondJarOfTheBundle_failsIntegrity() throws Exception {
        byte[] second = PluginFixture.named("echo").services("dev.omcp.Evil\n").files().get("echo-connector.jar");
        PluginCandidate candidate = staged(bundle(Map.of("lib/second.jar", second), pkg -> pkg.put("main", "lib/second.jar")));
        assertThat(candidate.fullyVerified()).isFalse();
        assertThat(candidate.integrity().summary()).contains("integrity mismatch")
                .contains("the JAR was changed after the manifest was written");
    }
}
