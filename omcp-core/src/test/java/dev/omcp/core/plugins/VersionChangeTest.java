package dev.omcp.core.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.plugins.CheckResult;
import dev.omcp.ports.plugins.DowngradePolicy;
import dev.omcp.ports.plugins.InstallOutcome;
import dev.omcp.ports.plugins.PluginCandidate;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** An install may raise the version in place; lowering it needs an explicit opt-in; the same version must be the same bytes. */
class VersionChangeTest {

    private static PluginCandidate tempo(String version, String fingerprint) {
        return new PluginCandidate("tempo", ConnectorType.Origin.FILESYSTEM, "tempo",
                Optional.of(Candidates.manifest("tempo", version, Optional.empty(), List.of())), CheckResult.passed(), CheckResult.passed(),
                CheckResult.passed(), fingerprint);
    }

    private static VersionChange change(String installed, String offered, DowngradePolicy policy) {
        return VersionChange.of(Optional.of(tempo(installed, "fp-" + installed)), tempo(offered, "fp-" + offered), policy);
    }

    @Test
    void aFirstInstall_oneOverABrokenInstall_orOneOverAnotherPlugin_hasNothingToCompareWith() {
        assertThat(VersionChange.of(Optional.empty(), tempo("1.0.0", "a"), DowngradePolicy.REFUSE)).isEqualTo(new VersionChange.Allowed(Optional.empty()));
        assertThat(VersionChange.of(Optional.of(Candidates.invalidManifest("tempo")), tempo("1.0.0", "a"), DowngradePolicy.REFUSE))
                .isEqualTo(new VersionChange.Allowed(Optional.empty()));
        PluginCandidate otherPlugin = Candidates.verified("tempo", "zipkin", ConnectorType.Origin.FILESYSTEM,
                Candidates.manifest("zipkin", "9.0.0", Optional.empty(), List.of()));
        assertThat(VersionChange.of(Optional.of(otherPlugin), tempo("1.0.0", "a"), DowngradePolicy.REFUSE))
                .isEqualTo(new VersionChange.Allowed(Optional.empty()));
    }

    @Test
    void anUpgrade_isAllowed_comparingNumbersAsNumbers() {
        assertThat(change("1.9.0", "1.10.0", DowngradePolicy.REFUSE)).isEqualTo(new VersionChange.Allowed(Optional.empty()));
        assertThat(change("1.2.0-rc.1", "1.2.0", DowngradePolicy.REFUSE)).isEqualTo(new VersionChange.Allowed(Optional.empty()));
    }

    @Test
    void aDowngrade_isRefusedByDefault_namingBothVersionsAndHowToAllowIt() {
        assertThat(change("1.10.0", "1.9.0", DowngradePolicy.REFUSE)).isEqualTo(new VersionChange.Refused(InstallOutcome.Kind.DOWNGRADE,
                "tempo 1.9.0 is older than the installed 1.10.0: replacing it would be a downgrade, which an old, validly signed bundle"
                        + " with a known flaw could be used for; nothing was written. To go back to 1.9.0 on purpose, install again allowing"
                        + " the downgrade (allowDowngrade=true on the management API, --allow-downgrade for omcp plugin install); it is audited"));
        assertThat(change("1.2.0", "1.2.0-rc.1", DowngradePolicy.REFUSE)).as("a pre-release is older than its release")
                .isInstanceOfSatisfying(VersionChange.Refused.class, r -> assertThat(r.kind()).isEqualTo(InstallOutcome.Kind.DOWNGRADE));
    }

    @Test
    void aDowngrade_isAllowedWhenAsked_sayingWhichVersionItReplaces() {
        assertThat(change("1.10.0", "1.9.0", DowngradePolicy.ALLOW)).isEqualTo(new VersionChange.Allowed(Optional.of("1.10.0")));
    }

    @Test
    void theSameVersionWithTheSameBytes_mayBeInstalledAgain() {
        assertThat(VersionChange.of(Optional.of(tempo("1.2.0", "same")), tempo("1.2.0", "same"), DowngradePolicy.REFUSE))
                .isEqualTo(new VersionChange.Allowed(Optional.empty()));
    }

    @Test
    void theSameVersionWithOtherBytes_isRefusedAsAConflict_evenWhenDowngradesAreAllowed() {
        for (DowngradePolicy policy : DowngradePolicy.values()) {
            assertThat(VersionChange.of(Optional.of(tempo("1.2.0", "installed")), tempo("1.2.0", "other"), policy)).as(policy.name())
                    .isInstanceOfSatisfying(VersionChange.Refused.class, refused -> {
                        assertThat(refused.kind()).isEqualTo(InstallOutcome.Kind.VERSION_CONFLICT);
                        assertThat(refused.reason()).startsWith("tempo 1.2.0 is installed already, with other contents")
                                .contains("sign of tampering").contains("Publish the change under a higher version");
                    });
        }
        assertThat(VersionChange.of(Optional.of(tempo("1.2.0+build.1", "installed")), tempo("1.2.0+build.2", "other"), DowngradePolicy.ALLOW))
                .as("build metadata does not make another version")
                .isInstanceOfSatisfying(VersionChange.Refused.class, refused -> assertThat(refused.reason()).contains("(installed as 1.2.0+build.1)"));
    }

    @Test
    void versionsThatCannotBeOrdered_areTreatedAsADowngrade() {
        assertThat(change("1.0.0", "1234567890.0.0", DowngradePolicy.REFUSE)).isInstanceOfSatisfying(VersionChange.Refused.class, refused ->
                assertThat(refused.reason()).contains("1234567890.0.0 cannot be ordered against the installed 1.0.0"));
        assertThat(change("1.0.0", "1234567890.0.0", DowngradePolicy.ALLOW)).isEqualTo(new VersionChange.Allowed(Optional.of("1.0.0")));
    }
}
