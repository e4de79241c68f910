package dev.omcp.core.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.plugins.DowngradePolicy;
import dev.omcp.ports.plugins.InstallOutcome;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.TrustRoot;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A plugin may be named like a versioned directory ({@code tempo-1.2.0}); its install must not replace
 * that directory when it holds another plugin, such as the version of tempo a pin loads.
 */
class InstallTargetTest {
    private static final TrustRoot KEY = TrustRoot.loaded("Ed25519 key");
    private static final byte[] BUNDLE = "tempo-1.2.0 bundle".getBytes(StandardCharsets.UTF_8);
    private static final PluginCandidate PINNED_TEMPO = Candidates.verified("tempo-1.2.0", "tempo", ConnectorType.Origin.FILESYSTEM,
            Candidates.manifest("tempo", "1.2.0", Optional.empty(), List.of()));

    private static PluginCandidate offered(String name, String version) {
        return Candidates.verified(name, name, ConnectorType.Origin.FILESYSTEM,
                Candidates.manifest(name, version, Optional.empty(), List.of()));
    }

    @Test
    void omcpPluginInstall_ofAPluginNamedLikeAVersionedDirectory_doesNotReplaceThatDirectoryHoldingAnotherPlugin() {
        FakePluginStore store = new FakePluginStore(KEY, PINNED_TEMPO);
        store.bundle(BUNDLE, offered("tempo-1.2.0", "9.0.0"));
        BundleInstaller installer = new BundleInstaller(store, java.util.Set.of("prometheus"), SemanticVersion.of(1, 0, 0));

        InstallOutcome outcome = installer.install(BUNDLE, Optional.empty(), InstallChecks.none(), DowngradePolicy.ALLOW);

        assertThat(outcome).isInstanceOfSatisfying(InstallOutcome.Refused.class, refused -> {
            assertThat(refused.kind()).isEqualTo(InstallOutcome.Kind.NAME_CONFLICT);
            assertThat(refused.reason()).startsWith("the plugins directory's 'tempo-1.2.0' holds another plugin, tempo 1.2.0, the versioned"
                    + " directory a pin of tempo 1.2.0 loads, not tempo-1.2.0: installing tempo-1.2.0 would replace it."
                    + " Nothing was written.")
                    .contains("omcp plugin remove tempo-1.2.0").contains("once its pin is out of the sources file");
        });
        assertThat(store.directory).as("the pinned version is untouched").containsExactly(PINNED_TEMPO);
        assertThat(store.discarded).containsExactly("tempo-1.2.0");
    }

    @Test
    void aDirectoryHoldingAnotherPlugin_isNotReplaced_whateverItsName() {
        PluginCandidate zipkinUnderTempo = Candidates.verified("tempo", "zipkin", ConnectorType.Origin.FILESYSTEM,
                Candidates.manifest("zipkin", "9.0.0", Optional.empty(), List.of()));
        assertThat(InstallTarget.refusal(Optional.of(zipkinUnderTempo), offered("tempo", "1.0.0").manifest().orElseThrow()))
                .hasValueSatisfying(reason -> assertThat(reason).startsWith("the plugins directory's 'tempo' holds another plugin, zipkin"
                        + " 9.0.0, not tempo: installing tempo would replace it."));
    }

    @Test
    void nothingThere_anEarlierInstall_orABrokenOneUnderAPlainName_mayBeReplaced() {
        assertThat(InstallTarget.refusal(Optional.empty(), offered("tempo-1.2.0", "1.0.0").manifest().orElseThrow())).isEmpty();
        assertThat(InstallTarget.refusal(Optional.of(offered("tempo-1.2.0", "1.0.0")),
                offered("tempo-1.2.0", "2.0.0").manifest().orElseThrow()))
                .as("an earlier install of the plugin named tempo-1.2.0").isEmpty();
        assertThat(InstallTarget.refusal(Optional.of(Candidates.invalidManifest("tempo")),
                offered("tempo", "1.0.0").manifest().orElseThrow()))
                .as("a repair").isEmpty();
    }

    @Test
    void aBrokenPluginInADirectoryNamedLikeAVersionedOne_isNotReplacedUnseen() {
        assertThat(InstallTarget.refusal(Optional.of(Candidates.invalidManifest("tempo-1.2.0")),
                offered("tempo-1.2.0", "1.0.0").manifest().orElseThrow()))
                .hasValueSatisfying(reason -> assertThat(reason).contains("may be a pinned version of another plugin")
                        .contains("Nothing was written"));
    }

    @Test
    void aVersionedName_endsWithADashAndASemanticVersion() {
        assertThat(List.of("tempo-1.2.0", "tempo-1.2.0-rc.1", "a-b-0.0.1+build.7")).allMatch(InstallTarget::looksVersioned);
        assertThat(List.of("tempo", "tempo-v1.2.0", "tempo-1.2", "grafana-tempo", "1.2.0", "tempo-1.2.0x"))
                .noneMatch(InstallTarget::looksVersioned);
    }
}
