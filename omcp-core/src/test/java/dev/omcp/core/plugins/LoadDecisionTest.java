package dev.omcp.core.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.TrustRoot;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** spec 3.5: every row of the plugin load decision table. */
class LoadDecisionTest {
    private static final SemanticVersion SERVER = SemanticVersion.parse("0.1.0-SNAPSHOT").orElseThrow();
    private static final TrustRoot KEY = TrustRoot.loaded("Ed25519 key sha256:abcd");
    private static final VerificationPolicy ON = new VerificationPolicy(true, false);
    private static final VerificationPolicy OFF = new VerificationPolicy(false, false);
    private static final VerificationPolicy STRICT = new VerificationPolicy(false, true);

    private static Admission decide(VerificationPolicy policy, TrustRoot trustRoot, PluginCandidate candidate) {
        return LoadDecision.decide(policy, trustRoot, candidate, SERVER);
    }

    @Nested
    class VerificationOn {
        @Test
        void row1_trustRootPresentAndEveryCheckOk_loads() {
            assertThat(decide(ON, KEY, Candidates.verified("tempo"))).isInstanceOf(Admission.Load.class);
        }

        @Test
        void row2_tamperedJar_isSkippedWithTheIntegrityReason() {
            assertThat(decide(ON, KEY, Candidates.tamperedJar("tempo")))
                    .isEqualTo(new Admission.Skip("integrity mismatch: manifest says sha256-AAA= but the entry JAR hashes to sha256-BBB="));
        }

        @Test
        void row2_missingSignature_isSkipped() {
            assertThat(decide(ON, KEY, Candidates.unsigned("tempo")))
                    .isEqualTo(new Admission.Skip("no signature: manifest.json.sig is missing"));
        }

        @Test
        void row2_invalidManifest_isSkippedWithEveryViolation() {
            Admission admission = decide(ON, KEY, Candidates.invalidManifest("tempo"));
            assertThat(admission).isInstanceOf(Admission.Skip.class);
            assertThat(((Admission.Skip) admission).reason())
                    .contains("$.version is missing")
                    .contains("'events' is not allowed");
        }

        @Test
        void row2_trustRootMissing_skipsEvenAVerifiedLookingPlugin() {
            Admission admission = decide(ON, TrustRoot.absent(), Candidates.unsignedWithoutTrustRoot("tempo"));
            assertThat(admission).isInstanceOf(Admission.Skip.class);
            assertThat(((Admission.Skip) admission).reason()).contains("PLUGIN_TRUST_ROOT is not set");
        }

        @Test
        void row2_trustRootInvalid_skipsWithItsReason() {
            Admission admission = decide(ON, TrustRoot.invalid("the file holds a private key, not a public key"), Candidates.verified("tempo"));
            assertThat(((Admission.Skip) admission).reason()).contains("unusable").contains("private key");
        }

        @Test
        void defaultPolicy_isVerificationOnWithoutStrictMode() {
            assertThat(VerificationPolicy.defaults()).isEqualTo(ON);
            assertThat(LoadDecision.refuseStartWithout(ON, TrustRoot.absent())).isEmpty();
        }
    }

    @Nested
    class StrictMode {
        @Test
        void row3_unverifiablePluginPresent_refusesTheStart() {
            Admission admission = decide(STRICT, KEY, Candidates.tamperedJar("tempo"));
            assertThat(admission).isInstanceOf(Admission.RefuseStart.class);
            assertThat(((Admission.RefuseStart) admission).reason()).contains("'tempo' is unverifiable").contains("integrity mismatch");
        }

        @Test
        void row3_trustRootMissing_refusesTheStartBeforeAnyPluginIsLookedAt() {
            assertThat(LoadDecision.refuseStartWithout(STRICT, TrustRoot.absent())).get().asString()
                    .contains("PLUGIN_TRUST_ROOT is not set").contains("does not start");
        }

        @Test
        void row3_trustRootUnloadable_refusesTheStart() {
            assertThat(LoadDecision.refuseStartWithout(STRICT, TrustRoot.invalid("no PEM block found"))).get().asString()
                    .contains("no PEM block found");
            assertThat(decide(STRICT, TrustRoot.invalid("no PEM block found"), Candidates.verified("tempo")))
                    .isInstanceOf(Admission.RefuseStart.class);
        }

        @Test
        void row3_strictModeImpliesVerification() {
            assertThat(STRICT.verify()).isTrue();
        }

        @Test
        void strictMode_stillLoadsAFullyVerifiedPlugin() {
            assertThat(decide(STRICT, KEY, Candidates.verified("tempo"))).isInstanceOf(Admission.Load.class);
        }

        @Test
        void strictMode_invalidManifestCountsAsUnverifiable() {
            assertThat(decide(STRICT, KEY, Candidates.invalidManifest("tempo"))).isInstanceOf(Admission.RefuseStart.class);
        }
    }

    @Nested
    class VerificationOff {
        @Test
        void row4_unsignedAndTamperedPluginsLoad() {
            assertThat(decide(OFF, TrustRoot.absent(), Candidates.unsignedWithoutTrustRoot("tempo"))).isInstanceOf(Admission.Load.class);
            assertThat(decide(OFF, TrustRoot.absent(), Candidates.tamperedJar("tempo"))).isInstanceOf(Admission.Load.class);
        }

        @Test
        void row4_anInvalidManifestIsStillNotLoaded() {
            // spec 2.2: an invalid manifest means the plugin is not loaded.
            assertThat(decide(OFF, TrustRoot.absent(), Candidates.invalidManifest("tempo"))).isInstanceOf(Admission.Skip.class);
        }
    }

    @Nested
    class Compatibility {
        @Test
        void aRangeExcludingThisGateway_isSkippedWithTheReason() {
            PluginCandidate future = Candidates.verified("tempo", "tempo", ConnectorType.Origin.FILESYSTEM,
                    Candidates.manifest("tempo", "1.0.0", Optional.of(">=2.0.0"), List.of()));
            Admission admission = decide(ON, KEY, future);
            assertThat(((Admission.Skip) admission).reason()).contains("'>=2.0.0' excludes this gateway's version 0.1.0-SNAPSHOT");
        }

        @Test
        void anIncompatiblePluginIsSkippedNotFatalEvenInStrictMode() {
            PluginCandidate future = Candidates.verified("tempo", "tempo", ConnectorType.Origin.FILESYSTEM,
                    Candidates.manifest("tempo", "1.0.0", Optional.of("^3.0.0"), List.of()));
            assertThat(decide(STRICT, KEY, future)).isInstanceOf(Admission.Skip.class);
        }

        @Test
        void anUnparsableRange_isSkippedWithTheParseError() {
            PluginCandidate broken = Candidates.verified("tempo", "tempo", ConnectorType.Origin.FILESYSTEM,
                    Candidates.manifest("tempo", "1.0.0", Optional.of("newest"), List.of()));
            assertThat(((Admission.Skip) decide(ON, KEY, broken)).reason()).contains("'newest' is not a version range");
        }

        @Test
        void noRange_meansNoConstraint() {
            PluginCandidate any = Candidates.verified("tempo", "tempo", ConnectorType.Origin.FILESYSTEM,
                    Candidates.manifest("tempo", "1.0.0", Optional.empty(), List.of()));
            assertThat(decide(ON, KEY, any)).isInstanceOf(Admission.Load.class);
        }
    }
}
