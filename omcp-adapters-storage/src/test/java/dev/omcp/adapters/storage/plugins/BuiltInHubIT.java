package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.omcp.ports.plugins.BundleRejectedException;
import dev.omcp.ports.plugins.ConnectorHub;
import dev.omcp.ports.plugins.HubCatalog;
import dev.omcp.ports.plugins.HubRelease;
import dev.omcp.ports.plugins.HubUnavailableException;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.TrustRoot;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * spec 1.5, 5.8 ({@code HUB_CATALOG_URL} unset): the built-in hub read from class-path resources, its
 * tarballs verified against the key beside it and no other, and a store that trusts that key only next
 * to a usable trust root.
 */
class BuiltInHubIT {
    private static final KeyPair BUILD_KEY = Keys.ed25519();
    private static final KeyPair OPERATOR_KEY = Keys.ed25519();
    private static final String FOLDER = "hub/";
    private static final String KEY = "trust-root.pem";

    @TempDir
    Path tmp;
    /** The jar's resources: name to bytes. */
    private final Map<String, byte[]> jar = new HashMap<>();
    private byte[] tarball;

    /** A class loader whose only resources are {@link #jar}'s, as a launcher jar holds them. */
    private final class JarResources extends ClassLoader {
        JarResources() {
            super(null);
        }

        @Override
        public InputStream getResourceAsStream(String name) {
            byte[] bytes = jar.get(name);
            return bytes == null ? null : new ByteArrayInputStream(bytes);
        }
    }

    @BeforeEach
    void layOutTheJar() throws IOException {
        tarball = PluginFixture.named("echo").signedBy(BUILD_KEY).bundle("package");
        jar.put(KEY, Keys.publicPem(BUILD_KEY).getBytes(StandardCharsets.US_ASCII));
        jar.put(FOLDER + "tarballs/echo-1.0.0.tgz", tarball);
        jar.put(FOLDER + "tarballs/echo-1.0.0.tgz.sig", Keys.sign(BUILD_KEY, tarball));
        catalogRefersTo("../tarballs/echo-1.0.0.tgz");
        ObjectNode index = PluginFixture.JSON.createObjectNode().put("schemaVersion", 1);
        index.putArray("connectors").addObject().put("name", "echo").put("catalog", "connectors/echo.json");
        jar.put(FOLDER + "index.json", PluginFixture.JSON.writeValueAsBytes(index));
    }

    private void catalogRefersTo(String tarballUrl) throws IOException {
        ObjectNode manifest = (ObjectNode) PluginFixture.JSON.readTree(PluginFixture.named("echo").files().get("manifest.json"));
        ObjectNode entry = PluginFixture.JSON.createObjectNode().put("schemaVersion", 1).put("name", "echo").put("latest", "1.0.0");
        entry.putArray("versions").addObject().put("version", "1.0.0").put("tarballUrl", tarballUrl)
                .put("integrity", PluginFiles.integrity(tarball)).set("manifest", manifest);
        jar.put(FOLDER + "connectors/echo.json", PluginFixture.JSON.writeValueAsBytes(entry));
    }

    private BuiltInHub.Lookup lookup() {
        return BuiltInHub.find(new JarResources(), FOLDER, KEY);
    }

    private BuiltInHub found() {
        return lookup().found().orElseThrow(() -> new AssertionError("not found: " + lookup()));
    }

    private static HubRelease echo(ConnectorHub hub) throws HubUnavailableException {
        return hub.catalog().find("echo").orElseThrow().latestRelease().orElseThrow();
    }

    private Path revoking(KeyPair key) throws Exception {
        byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(key.getPublic().getEncoded());
        String fingerprint = HexFormat.of().formatHex(digest);
        return Files.writeString(tmp.resolve("revoked.txt"), "sha256:" + fingerprint + " the build key\n");
    }

    @Test
    void theBuiltInHub_isReadFromTheClassPath_andHandsOutATarballVerifiedByTheKeyBesideIt() throws Exception {
        ConnectorHub hub = found().connectorHub(Optional.empty());

        HubCatalog catalog = hub.catalog();

        assertThat(catalog.source()).isEqualTo("builtin");
        assertThat(catalog.entries()).singleElement().satisfies(entry -> assertThat(entry.name()).isEqualTo("echo"));
        assertThat(hub.fetchBundle(echo(hub))).isEqualTo(tarball);
        assertThat(found().keyDescription()).startsWith("Ed25519 key sha256:");
    }

    @Test
    void aTarballSignedByAnotherKey_isRefused_theBuiltInKeyVerifiesOnlyWhatTheBuildSigned() throws Exception {
        jar.put(FOLDER + "tarballs/echo-1.0.0.tgz.sig", Keys.sign(OPERATOR_KEY, tarball));
        ConnectorHub hub = found().connectorHub(Optional.empty());

        assertThatThrownBy(() -> hub.fetchBundle(echo(hub))).isInstanceOf(BundleRejectedException.class)
                .hasMessageContaining("does not verify against the trust root");
    }

    @Test
    void itsKeyRevoked_noTarballOfItIsHandedOut_andTheRefusalNamesTheBuiltInKey() throws Exception {
        ConnectorHub hub = found().connectorHub(Optional.of(revoking(BUILD_KEY)));

        assertThatThrownBy(() -> hub.fetchBundle(echo(hub))).isInstanceOf(BundleRejectedException.class)
                .hasMessageContaining("the built-in hub's key (Ed25519 key sha256:")
                .hasMessageContaining("revoked by OMCP_PLUGIN_REVOKED_KEYS");
        Path unreadable = Files.writeString(tmp.resolve("bad-list.txt"), "not a fingerprint\n");
        ConnectorHub failClosed = found().connectorHub(Optional.of(unreadable));
        assertThatThrownBy(() -> failClosed.fetchBundle(echo(failClosed))).isInstanceOf(BundleRejectedException.class)
                .hasMessageContaining("until it reads, no key is trusted");
    }

    @Test
    void aCatalogReferenceOutsideItsOwnResources_isRefused() throws Exception {
        for (String outside : List.of("../../trust-root.pem", "../.hidden.tgz", "file:///etc/passwd", "https://hub.example.com/echo.tgz",
                "//other/echo.tgz", "../tarballs/echo-1.0.0.tgz?x=1")) {
            catalogRefersTo(outside);
            ConnectorHub hub = found().connectorHub(Optional.empty());
            assertThatThrownBy(hub::catalog).as(outside).isInstanceOf(HubUnavailableException.class)
                    .hasMessageContaining("the built-in hub refers to '").hasMessageContaining("which is no file of its own");
        }
    }

    @Test
    void aFileOfItOverTheHubLimit_isRefused_asFromAnyHub() {
        jar.put(FOLDER + "connectors/echo.json", new byte[PluginLimits.MAX_CATALOG_BYTES + 1]);
        ConnectorHub hub = found().connectorHub(Optional.empty());

        assertThatThrownBy(hub::catalog).isInstanceOf(HubUnavailableException.class)
                .hasMessageContaining("the catalog file of 'echo' of the built-in hub is larger than " + PluginLimits.MAX_CATALOG_BYTES);
    }

    @Test
    void aFileTheCatalogNamesButTheJarLacks_isHubUnavailable_sayingTheJarIsIncomplete() throws Exception {
        jar.remove(FOLDER + "tarballs/echo-1.0.0.tgz");
        ConnectorHub hub = found().connectorHub(Optional.empty());

        assertThatThrownBy(() -> hub.fetchBundle(echo(hub))).isInstanceOf(HubUnavailableException.class)
                .hasMessageContaining("the tarball of echo@1.0.0 is missing from the built-in hub")
                .hasMessageContaining("(no resource hub/tarballs/echo-1.0.0.tgz in the jar); the jar is incomplete: rebuild it");
    }

    @Test
    void aJarWithoutTheHubOrItsKey_hasNone_andSaysWhatIsMissing() {
        jar.remove(KEY);
        assertThat(lookup()).isInstanceOfSatisfying(BuiltInHub.Lookup.Missing.class,
                missing -> assertThat(missing.reason()).contains("no trust-root.pem"));
        jar.put(KEY, Keys.privatePem(BUILD_KEY).getBytes(StandardCharsets.US_ASCII));
        assertThat(lookup()).isInstanceOfSatisfying(BuiltInHub.Lookup.Missing.class,
                missing -> assertThat(missing.reason()).contains("its key trust-root.pem is unusable: it holds a private key"));
        jar.remove(FOLDER + "index.json");
        assertThat(lookup()).isInstanceOfSatisfying(BuiltInHub.Lookup.Missing.class,
                missing -> assertThat(missing.reason()).isEqualTo("the jar holds no hub/index.json"));
        assertThat(lookup().found()).isEmpty();
    }

    @Test
    void aStoreGivenTheBuiltInHub_verifiesItsPluginsNextToAUsableTrustRoot_namingItsKey() throws Exception {
        Path plugins = tmp.resolve("plugins");
        PluginFixture.named("echo").signedBy(BUILD_KEY).writeInto(plugins);
        Path operatorRoot = Files.writeString(tmp.resolve("operator.pem"), Keys.publicPem(OPERATOR_KEY));

        FilesystemPluginStore store = new FilesystemPluginStore(plugins, Optional.of(operatorRoot), Optional.empty(), true,
                lookup().found());

        assertThat(store.trustRoot().detail()).contains("(the built-in hub's)");
        PluginCandidate echo = store.scan(List.of()).candidates().getFirst();
        assertThat(echo.fullyVerified()).as(echo.problems().toString()).isTrue();
        PluginCandidate withoutTheHub = new FilesystemPluginStore(plugins, Optional.of(operatorRoot), Optional.empty(), true)
                .scan(List.of()).candidates().getFirst();
        assertThat(withoutTheHub.signature().ok()).as("the operator's key alone does not verify it").isFalse();
    }

    @Test
    void theBuiltInKey_makesNoTrustRootOfItsOwn_andIsRevokedLikeAnyKey() throws Exception {
        Path plugins = tmp.resolve("plugins");
        PluginFixture.named("echo").signedBy(BUILD_KEY).writeInto(plugins);
        Path operatorRoot = Files.writeString(tmp.resolve("operator.pem"), Keys.publicPem(OPERATOR_KEY));

        FilesystemPluginStore unset = new FilesystemPluginStore(plugins, Optional.empty(), Optional.empty(), true, lookup().found());
        assertThat(unset.trustRoot().state()).as("spec 3.5: PLUGIN_TRUST_ROOT unset is still no trust root")
                .isEqualTo(TrustRoot.State.ABSENT);

        FilesystemPluginStore revoked = new FilesystemPluginStore(plugins, Optional.of(operatorRoot), Optional.of(revoking(BUILD_KEY)),
                true, lookup().found());
        assertThat(revoked.trustRoot().detail()).contains("revoked by OMCP_PLUGIN_REVOKED_KEYS: Ed25519 key sha256:")
                .contains("(the built-in hub's)");
        PluginCandidate echo = revoked.scan(List.of()).candidates().getFirst();
        assertThat(echo.signature().ok()).isFalse();
        assertThat(echo.signature().problems().toString()).contains("signed by a revoked key");
    }
}
