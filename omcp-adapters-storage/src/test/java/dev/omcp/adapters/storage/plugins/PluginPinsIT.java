package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginPin;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** spec 5.8: versioned directories load only through a pin of the sources file. */
class PluginPinsIT {
    private static final KeyPair KEY = Keys.ed25519();

    @TempDir
    Path plugins;
    @TempDir
    Path keys;
    private FilesystemPluginStore store;

    @BeforeEach
    void setUp() throws IOException {
        Path trustRoot = Files.writeString(keys.resolve("trust-root.pem"), Keys.publicPem(KEY));
        store = new FilesystemPluginStore(plugins, Optional.of(trustRoot));
        PluginFixture.named("tempo").version("2.0.0").signedBy(KEY).writeInto(plugins);
        PluginFixture.named("tempo").version("1.2.0").directory("tempo-1.2.0").signedBy(KEY).writeInto(plugins);
        PluginFixture.named("tempo").version("1.1.0").directory("tempo-1.1.0").signedBy(KEY).writeInto(plugins);
    }

    @Test
    void unpinnedVersionedDirectories_areNotScanned() {
        assertThat(store.scan(List.of()).candidates()).extracting(PluginCandidate::location).containsExactly("tempo");
    }

    @Test
    void aPin_addsItsDirectoryAsAPinnedCandidate() {
        List<PluginCandidate> candidates = store.scan(List.of(new PluginPin("tempo", "1.2.0"))).candidates();
        assertThat(candidates).extracting(PluginCandidate::location).containsExactly("tempo", "tempo-1.2.0");
        PluginCandidate pinned = candidates.get(1);
        assertThat(pinned.origin()).isEqualTo(ConnectorType.Origin.PINNED);
        assertThat(pinned.fullyVerified()).isTrue();
        assertThat(pinned.manifest().orElseThrow().version()).isEqualTo("1.2.0");
    }

    @Test
    void aPinOfAMissingDirectory_isACandidateThatFailsWithTheReason() {
        PluginCandidate missing = store.scan(List.of(new PluginPin("tempo", "9.0.0"))).candidates().get(1);
        assertThat(missing.manifestCheck().summary()).contains("'tempo-9.0.0' does not exist");
    }

    @Test
    void aPinnedDirectoryHoldingAnotherVersion_fails() throws IOException {
        PluginFixture.named("tempo").version("1.3.0").directory("tempo-1.4.0").signedBy(KEY).writeInto(plugins);
        PluginCandidate wrong = store.scan(List.of(new PluginPin("tempo", "1.4.0"))).candidates().stream()
                .filter(c -> c.location().equals("tempo-1.4.0")).findFirst().orElseThrow();
        assertThat(wrong.manifestCheck().summary()).contains("/version '1.3.0' differs from the pinned version '1.4.0'");
    }

    @Test
    void aPinnedPluginLoads() throws Exception {
        PluginCandidate pinned = store.scan(List.of(new PluginPin("tempo", "1.1.0"))).candidates().get(1);
        assertThat(store.load(pinned).factory().manifest().name()).isEqualTo("tempo");
    }
}
