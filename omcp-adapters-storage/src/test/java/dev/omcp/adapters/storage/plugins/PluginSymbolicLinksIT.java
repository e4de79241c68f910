package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.plugins.LoadedPlugin;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginLoadException;
import dev.omcp.ports.plugins.PluginScan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Symbolic links in the plugins directory, against real files: a link is followed only while it
 * stays inside (the plugin directory for a plugin's files, the plugins directory for a plugin
 * directory), which admits a Kubernetes ConfigMap or Secret mount and refuses every link out.
 */
class PluginSymbolicLinksIT {
    private static final KeyPair KEY = Keys.ed25519();
    /** The hidden, timestamped directory kubelet writes a ConfigMap's files into. */
    private static final String TIMESTAMPED = "..2026_11_30_10_15_42.1234567890";

    @TempDir
    Path tmp;
    private Path plugins;
    private FilesystemPluginStore store;

    @BeforeEach
    void setUp() throws IOException {
        plugins = Files.createDirectories(tmp.resolve("plugins"));
        store = new FilesystemPluginStore(plugins, Optional.of(Files.writeString(tmp.resolve("trust-root.pem"), Keys.publicPem(KEY))));
    }

    /**
     * Lays {@code files} out in {@code mount} as kubelet mounts a ConfigMap: the files in a timestamped
     * directory, {@code ..data} linking to it, and each name linking to {@code ..data/<name>}.
     */
    private static void configMapMount(Path mount, Map<String, byte[]> files, String timestamped) throws IOException {
        Path data = Files.createDirectories(mount.resolve(timestamped));
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Files.write(data.resolve(file.getKey()), file.getValue());
        }
        Files.createSymbolicLink(mount.resolve("..data"), Path.of(timestamped));
        for (String name : files.keySet()) {
            Files.createSymbolicLink(mount.resolve(name), Path.of("..data", name));
        }
    }

    private PluginCandidate only() {
        PluginScan scan = store.scan(List.of());
        assertThat(scan.candidates()).hasSize(1);
        return scan.candidates().getFirst();
    }

    @Test
    void aPluginDirectoryMountedFromAConfigMap_withItsDataIndirection_isVerifiedAndLoaded() throws Exception {
        configMapMount(Files.createDirectory(plugins.resolve("echo")), PluginFixture.named("echo").signedBy(KEY).files(), TIMESTAMPED);

        PluginCandidate candidate = only();

        assertThat(candidate.fullyVerified()).as(candidate.problems().toString()).isTrue();
        assertThat(candidate.location()).isEqualTo("echo");
        LoadedPlugin loaded = store.load(candidate);
        assertThat(loaded.factory().manifest().name()).isEqualTo("echo");
    }

    @Test
    void aConfigMapMountedAsThePluginsDirectory_withItemPaths_isVerifiedAndLoaded() throws Exception {
        // items: [{key: package.json, path: echo/package.json}, …] makes echo -> ..data/echo
        Path data = Files.createDirectories(plugins.resolve(TIMESTAMPED));
        PluginFixture.named("echo").signedBy(KEY).writeInto(data);
        Files.createSymbolicLink(plugins.resolve("..data"), Path.of(TIMESTAMPED));
        Files.createSymbolicLink(plugins.resolve("echo"), Path.of("..data", "echo"));

        PluginCandidate candidate = only();

        assertThat(candidate.fullyVerified()).as(candidate.problems().toString()).isTrue();
        assertThat(store.load(candidate).factory().manifest().name()).isEqualTo("echo");
    }

    @Test
    void aFileLinkLeavingThePluginDirectory_isRefusedWithAClearMessage() throws IOException {
        Path root = PluginFixture.named("echo").signedBy(KEY).writeInto(plugins);
        Path outside = Files.move(root.resolve("manifest.json"), tmp.resolve("manifest.json"));
        Files.createSymbolicLink(root.resolve("manifest.json"), outside);

        assertThat(only().manifestCheck().problems()).contains("manifest 'manifest.json' is or lies under a symbolic link leading outside"
                + " the plugin directory; links are followed only to files inside the plugin directory");
    }

    @Test
    void aFileLinkIntoAnotherPluginOfThePluginsDirectory_isRefusedToo() throws IOException {
        Path echo = PluginFixture.named("echo").signedBy(KEY).writeInto(plugins);
        Path versions = Files.createDirectories(plugins.resolve(".versions"));
        Path other = PluginFixture.named("echo").directory("other").signedBy(KEY).writeInto(versions);
        Files.delete(echo.resolve("echo-connector.jar"));
        Files.createSymbolicLink(echo.resolve("echo-connector.jar"), other.resolve("echo-connector.jar"));

        assertThat(only().manifestCheck().summary())
                .contains("entry JAR 'echo-connector.jar' is or lies under a symbolic link leading outside the plugin directory");
    }

    @Test
    void aPluginDirectoryLinkLeavingThePluginsDirectory_isRefusedWithAClearMessage_andNeverLoaded() throws Exception {
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        PluginFixture.named("echo").signedBy(KEY).writeInto(outside);
        Files.createSymbolicLink(plugins.resolve("echo"), outside.resolve("echo"));

        PluginCandidate candidate = only();

        assertThat(candidate.fullyVerified()).isFalse();
        assertThat(candidate.manifest()).isEmpty();
        assertThat(candidate.manifestCheck().problems()).containsExactly("the plugin directory 'echo' is a symbolic link leading outside"
                + " the plugins directory; a link there is followed only to a directory inside the plugins directory: copy the plugin into it,"
                + " or mount it there");
        assertThatThrownBy(() -> store.load(candidate)).isInstanceOf(PluginLoadException.class);
    }

    @Test
    void aPluginDirectoryLinkRepointedOutsideAfterTheScan_isNotLoaded() throws Exception {
        Map<String, byte[]> files = PluginFixture.named("echo").signedBy(KEY).files();
        Path inside = Files.createDirectories(plugins.resolve(".versions/echo-1.0.0"));
        files.forEach((name, bytes) -> write(inside.resolve(name), bytes));
        Path link = Files.createSymbolicLink(plugins.resolve("echo"), inside);
        PluginCandidate candidate = only();
        assertThat(candidate.fullyVerified()).as(candidate.problems().toString()).isTrue();

        // the very same bytes, so only where they lie tells the two apart
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        files.forEach((name, bytes) -> write(outside.resolve(name), bytes));
        Files.delete(link);
        Files.createSymbolicLink(link, outside);

        assertThatThrownBy(() -> store.load(candidate)).isInstanceOf(PluginLoadException.class)
                .hasMessageContaining("changed since they were checked");
    }

    @Test
    void aConfigMapUpdatedBetweenScanAndLoad_isNotLoadedFromBytesThatWereNotChecked() throws Exception {
        Path mount = Files.createDirectory(plugins.resolve("echo"));
        configMapMount(mount, PluginFixture.named("echo").signedBy(KEY).files(), TIMESTAMPED);
        PluginCandidate candidate = only();

        // kubelet writes the new version beside the old one and swaps ..data to it
        String updated = "..2026_11_30_11_00_00.0987654321";
        Path data = Files.createDirectories(mount.resolve(updated));
        PluginFixture.named("echo").version("1.1.0").signedBy(KEY).files().forEach((name, bytes) -> write(data.resolve(name), bytes));
        Files.delete(mount.resolve("..data"));
        Files.createSymbolicLink(mount.resolve("..data"), Path.of(updated));

        assertThatThrownBy(() -> store.load(candidate)).isInstanceOf(PluginLoadException.class)
                .hasMessageContaining("changed since they were checked");
        assertThat(only().manifest().orElseThrow().version()).as("the next scan checks the new version").isEqualTo("1.1.0");
    }

    private static void write(Path file, byte[] bytes) {
        try {
            Files.write(file, bytes);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
