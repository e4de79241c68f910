package dev.omcp.core.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.omcp.core.hooks.HookRegistry;
import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.plugins.BundleRejectedException;
import dev.omcp.ports.plugins.ConnectorHub;
import dev.omcp.ports.plugins.ConnectorStatus;
import dev.omcp.ports.plugins.DowngradePolicy;
import dev.omcp.ports.plugins.HubCatalog;
import dev.omcp.ports.plugins.HubEntry;
import dev.omcp.ports.plugins.HubListing;
import dev.omcp.ports.plugins.HubRelease;
import dev.omcp.ports.plugins.HubUnavailableException;
import dev.omcp.ports.plugins.InstallOutcome;
import dev.omcp.ports.plugins.ManageConnectors;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginDirectoryWriteException;
import dev.omcp.ports.plugins.RemoveOutcome;
import dev.omcp.ports.plugins.SourceAudience;
import dev.omcp.ports.plugins.SourceReconnection;
import dev.omcp.ports.plugins.TrustRoot;
import dev.omcp.sdk.hook.HookKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** spec 7.4 and 6.1 rule 5: the install use cases behind the management API. */
class ConnectorManagementTest {
    private static final TrustRoot KEY = TrustRoot.loaded("Ed25519 key");
    private static final byte[] TEMPO = "tempo bundle".getBytes(StandardCharsets.UTF_8);
    private final HookRegistry hooks = new HookRegistry();

    private ConnectorManagement management(FakePluginStore store, Optional<ConnectorHub> hub, boolean enabled, VerificationPolicy policy) {
        return management(store, hub, enabled, policy, new FakeConnectorUsers());
    }

    private ConnectorManagement management(FakePluginStore store, Optional<ConnectorHub> hub, boolean enabled, VerificationPolicy policy,
            FakeConnectorUsers users) {
        PluginCatalog catalog = PluginCatalog.start(List.of(FakePluginStore.builtin("prometheus")), store, List.of(), policy,
                SemanticVersion.of(0, 1, 0), hooks);
        return new ConnectorManagement(catalog, store, hub, enabled, users);
    }

    private ConnectorManagement management(FakePluginStore store, boolean enabled) {
        return management(store, Optional.empty(), enabled, VerificationPolicy.defaults());
    }

    /** A hub serving one release per bundle; records what was fetched. */
    private static final class FakeHub implements ConnectorHub {
        final List<String> fetched = new ArrayList<>();
        final List<HubEntry> entries = new ArrayList<>();
        final java.util.Map<String, byte[]> tarballs = new java.util.HashMap<>();
        HubUnavailableException down;
        /** Runs inside every fetch, under the install lock: lets a test hold an install there. */
        Runnable whileFetching = () -> {};

        void publish(String name, String version, byte[] tarball) {
            HubRelease release = new HubRelease(version, Candidates.manifest(name, version, Optional.empty(), List.of()),
                    "tarballs/" + name + "-" + version + ".tgz", "tarballs/" + name + "-" + version + ".tgz.sig", "sha256-x", "", "");
            entries.add(new HubEntry(name, name, "test", version, List.of(release)));
            tarballs.put(release.tarballUrl(), tarball);
        }

        @Override
        public HubCatalog catalog() throws HubUnavailableException {
            if (down != null) {
                throw down;
            }
            return new HubCatalog("test hub", entries);
        }

        @Override
        public byte[] fetchBundle(HubRelease release) throws BundleRejectedException {
            fetched.add(release.tarballUrl());
            whileFetching.run();
            byte[] bytes = tarballs.get(release.tarballUrl());
            if (bytes == null) {
                throw new BundleRejectedException("signature does not verify");
            }
            return bytes;
        }
    }

    @Test
    void spec7_4_uploadWithoutEnableUiInstall_isRefusedAsDisabled_andNothingIsStaged() {
        FakePluginStore store = new FakePluginStore(KEY);
        store.bundle(TEMPO, Candidates.verified("tempo"));
        InstallOutcome outcome = management(store, false).upload(TEMPO);
        assertThat(outcome).isInstanceOf(InstallOutcome.Refused.class);
        assertThat(((InstallOutcome.Refused) outcome).kind()).isEqualTo(InstallOutcome.Kind.DISABLED);
        assertThat(((InstallOutcome.Refused) outcome).reason()).contains("ENABLE_UI_INSTALL=true");
        assertThat(store.staged).isEmpty();
    }

    @Test
    void spec7_4_uploadWithoutTrustRoot_isRefusedAsPreconditionFailed() {
        FakePluginStore store = new FakePluginStore(TrustRoot.absent());
        store.bundle(TEMPO, Candidates.verified("tempo"));
        InstallOutcome outcome = management(store, true).upload(TEMPO);
        assertThat(((InstallOutcome.Refused) outcome).kind()).isEqualTo(InstallOutcome.Kind.NO_TRUST_ROOT);
        assertThat(store.staged).isEmpty();
    }

    @Test
    void uploadOverTheLimit_isRefusedAsTooLarge() {
        FakePluginStore store = new FakePluginStore(KEY);
        InstallOutcome outcome = management(store, true).upload(new byte[ManageConnectors.MAX_BUNDLE_BYTES + 1]);
        assertThat(((InstallOutcome.Refused) outcome).kind()).isEqualTo(InstallOutcome.Kind.TOO_LARGE);
        assertThat(store.staged).isEmpty();
    }

    @Test
    void spec7_4_tamperedBundle_isRefused_andTheStagingIsDiscarded() {
        FakePluginStore store = new FakePluginStore(KEY);
        store.bundle(TEMPO, Candidates.tamperedJar("tempo"));
        ConnectorManagement management = management(store, true);
        InstallOutcome outcome = management.upload(TEMPO);
        assertThat(((InstallOutcome.Refused) outcome).kind()).isEqualTo(InstallOutcome.Kind.VERIFICATION_FAILED);
        assertThat(((InstallOutcome.Refused) outcome).reason()).contains("integrity mismatch");
        assertThat(store.discarded).containsExactly("tempo");
        assertThat(store.directory).isEmpty();
        assertThat(management.connectors()).noneMatch(s -> s.name().equals("tempo"));
    }

    @Test
    void spec7_4_unsignedBundle_isRefused() {
        FakePluginStore store = new FakePluginStore(KEY);
        store.bundle(TEMPO, Candidates.unsigned("tempo"));
        InstallOutcome outcome = management(store, true).upload(TEMPO);
        assertThat(((InstallOutcome.Refused) outcome).reason()).contains("manifest.json.sig is missing");
        assertThat(store.directory).isEmpty();
    }

    @Test
    void anArchiveTheStoreRefuses_isRefusedWithItsReason() {
        FakePluginStore store = new FakePluginStore(KEY);
        store.badBundle(TEMPO, "entry '../evil' has a '..' segment");
        InstallOutcome outcome = management(store, true).upload(TEMPO);
        assertThat(((InstallOutcome.Refused) outcome).kind()).isEqualTo(InstallOutcome.Kind.VERIFICATION_FAILED);
        assertThat(((InstallOutcome.Refused) outcome).reason()).contains("'..'");
    }

    @Test
    void aBundleNamedLikeABuiltin_isRefusedAsConflict() {
        FakePluginStore store = new FakePluginStore(KEY);
        store.bundle(TEMPO, Candidates.verified("prometheus"));
        InstallOutcome outcome = management(store, true).upload(TEMPO);
        assertThat(((InstallOutcome.Refused) outcome).kind()).isEqualTo(InstallOutcome.Kind.NAME_CONFLICT);
        assertThat(store.directory).isEmpty();
    }

    @Test
    void spec7_4_anInstallThatWouldMakeTheRescanTripStrictMode_writesNothing() {
        FakePluginStore store = new FakePluginStore(KEY);
        store.bundle(TEMPO, Candidates.verified("tempo"));
        ConnectorManagement management = management(store, Optional.empty(), true, new VerificationPolicy(true, true));
        // Someone copied an unsigned plugin into the directory after the start.
        store.directory.add(Candidates.unsigned("zipkin"));
        InstallOutcome outcome = management.upload(TEMPO);
        assertThat(((InstallOutcome.Refused) outcome).kind()).isEqualTo(InstallOutcome.Kind.VERIFICATION_FAILED);
        assertThat(((InstallOutcome.Refused) outcome).reason()).contains("trip strict mode").contains("'zipkin'");
        assertThat(store.directory).extracting(c -> c.name()).containsExactly("zipkin");
    }

    @Test
    void spec6_1_rule5_aVerifiedUploadIsLoadedAndItsHooksRegisteredWithoutRestart() {
        FakePluginStore store = new FakePluginStore(KEY);
        store.bundle(TEMPO, Candidates.withHooks("tempo", Candidates.hook(HookKind.TOOL_PRE_INVOKE, "com/acme/Guard.class")));
        ConnectorManagement management = management(store, true);
        assertThat(hooks.hooks(HookKind.TOOL_PRE_INVOKE)).isEmpty();
        InstallOutcome outcome = management.upload(TEMPO);
        assertThat(outcome).isEqualTo(new InstallOutcome.Installed("tempo", "1.0.0", true, "installed and loaded"));
        assertThat(hooks.hooks(HookKind.TOOL_PRE_INVOKE)).extracting(h -> h.plugin()).containsExactly("tempo");
        assertThat(management.connectors()).anyMatch(s -> s.name().equals("tempo"));
    }

    @Test
    void anUpgradeThatVerifiesButDoesNotLoad_isTakenBack_andTheEarlierVersionServesAgain() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo"));
        byte[] broken = "tempo 1.1.0 bundle".getBytes(StandardCharsets.UTF_8);
        store.bundle(broken, Candidates.verified("tempo", "tempo", ConnectorType.Origin.FILESYSTEM,
                Candidates.manifest("tempo", "1.1.0", Optional.of(">=0.1.0"), List.of())));
        store.loadFailures.put("tempo@1.1.0", "the factory class com.acme.TempoFactory is not in the JAR");
        ConnectorManagement management = management(store, true);
        assertThat(management.connectors()).filteredOn(s -> s.name().equals("tempo")).singleElement()
                .satisfies(s -> assertThat(s.state()).isEqualTo(ConnectorStatus.State.LOADED));

        InstallOutcome outcome = management.upload(broken);

        assertThat(outcome).isInstanceOfSatisfying(InstallOutcome.Refused.class, refused -> {
            assertThat(refused.kind()).isEqualTo(InstallOutcome.Kind.LOAD_FAILED);
            assertThat(refused.reason()).contains("tempo 1.1.0 verified but did not load")
                    .contains("com.acme.TempoFactory is not in the JAR")
                    .contains("the version it would have replaced is back in place and loaded");
        });
        assertThat(store.directory).singleElement().satisfies(c -> assertThat(c.manifest().orElseThrow().version()).isEqualTo("1.0.0"));
        assertThat(management.connectors()).filteredOn(s -> s.name().equals("tempo")).singleElement().satisfies(s -> {
            assertThat(s.state()).isEqualTo(ConnectorStatus.State.LOADED);
            assertThat(s.manifest().orElseThrow().version()).isEqualTo("1.0.0");
        });
    }

    @Test
    void anUpgradeThatDoesNotLoadAndCannotBeTakenBack_isAStorageFailure_notAnInstall() {
        // before: answered as installed (201, loaded false), which a script reads as success
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo"));
        byte[] broken = "tempo 1.1.0 bundle".getBytes(StandardCharsets.UTF_8);
        store.bundle(broken, Candidates.verified("tempo", "tempo", ConnectorType.Origin.FILESYSTEM,
                Candidates.manifest("tempo", "1.1.0", Optional.of(">=0.1.0"), List.of())));
        store.loadFailures.put("tempo@1.1.0", "the factory class com.acme.TempoFactory is not in the JAR");
        store.rollBackFailure = "the disk is full";

        InstallOutcome outcome = management(store, true).upload(broken);

        assertThat(outcome).isInstanceOfSatisfying(InstallOutcome.Refused.class, refused -> {
            assertThat(refused.kind()).isEqualTo(InstallOutcome.Kind.STORAGE_FAILED);
            assertThat(refused.reason()).contains("tempo 1.1.0 verified but did not load").contains("the disk is full")
                    .contains("stays in the plugins directory, not loaded").contains("omcp plugin remove");
        });
    }

    @Test
    void aFirstInstallThatVerifiesButDoesNotLoad_leavesNothingInstalled() {
        FakePluginStore store = new FakePluginStore(KEY);
        store.bundle(TEMPO, Candidates.verified("tempo"));
        store.loadFailures.put("tempo", "NoClassDefFoundError: dev/omcp/sdk/Removed");
        ConnectorManagement management = management(store, true);

        InstallOutcome outcome = management.upload(TEMPO);

        assertThat(outcome).isInstanceOfSatisfying(InstallOutcome.Refused.class, refused -> {
            assertThat(refused.kind()).isEqualTo(InstallOutcome.Kind.LOAD_FAILED);
            assertThat(refused.reason()).contains("NoClassDefFoundError").contains("nothing was installed")
                    .contains("install it again");
        });
        assertThat(store.directory).isEmpty();
        assertThat(store.discarded).containsExactly("tempo");
    }

    @Test
    void installFromHub_fetchesOnlyTheCatalogTarball_andLoadsIt() {
        FakePluginStore store = new FakePluginStore(KEY);
        store.bundle(TEMPO, Candidates.verified("tempo"));
        FakeHub hub = new FakeHub();
        hub.publish("tempo", "1.0.0", TEMPO);
        ConnectorManagement management = management(store, Optional.of(hub), true, VerificationPolicy.defaults());
        InstallOutcome outcome = management.install("tempo", Optional.empty());
        assertThat(outcome).isInstanceOf(InstallOutcome.Installed.class);
        assertThat(hub.fetched).containsExactly("tarballs/tempo-1.0.0.tgz");
    }

    @Test
    void installFromHub_unknownNameOrVersion_isNotInCatalog() {
        FakeHub hub = new FakeHub();
        hub.publish("tempo", "1.0.0", TEMPO);
        ConnectorManagement management = management(new FakePluginStore(KEY), Optional.of(hub), true, VerificationPolicy.defaults());
        assertThat(((InstallOutcome.Refused) management.install("jaeger", Optional.empty())).kind()).isEqualTo(InstallOutcome.Kind.NOT_IN_CATALOG);
        InstallOutcome wrongVersion = management.install("tempo", Optional.of("9.9.9"));
        assertThat(((InstallOutcome.Refused) wrongVersion).kind()).isEqualTo(InstallOutcome.Kind.NOT_IN_CATALOG);
        assertThat(((InstallOutcome.Refused) wrongVersion).reason()).contains("[1.0.0]");
        assertThat(hub.fetched).isEmpty();
    }

    @Test
    void installFromHub_aBundleHoldingAnotherConnectorThanTheCatalogSays_isRefused() {
        FakePluginStore store = new FakePluginStore(KEY);
        store.bundle(TEMPO, Candidates.verified("zipkin"));
        FakeHub hub = new FakeHub();
        hub.publish("tempo", "1.0.0", TEMPO);
        InstallOutcome outcome = management(store, Optional.of(hub), true, VerificationPolicy.defaults()).install("tempo", Optional.empty());
        assertThat(((InstallOutcome.Refused) outcome).reason()).contains("catalog promised tempo 1.0.0 but the bundle holds zipkin");
        assertThat(store.directory).isEmpty();
    }

    @Test
    void installFromHub_hubDownOrNotConfigured_isHubUnavailable() {
        FakeHub hub = new FakeHub();
        hub.down = new HubUnavailableException("the hub answered 503");
        assertThat(((InstallOutcome.Refused) management(new FakePluginStore(KEY), Optional.of(hub), true, VerificationPolicy.defaults())
                .install("tempo", Optional.empty())).kind()).isEqualTo(InstallOutcome.Kind.HUB_UNAVAILABLE);
        InstallOutcome noHub = management(new FakePluginStore(KEY), true).install("tempo", Optional.empty());
        assertThat(((InstallOutcome.Refused) noHub).reason()).contains("HUB_CATALOG_URL");
        assertThatThrownBy(() -> management(new FakePluginStore(KEY), true).hubCatalog())
                .isInstanceOf(HubUnavailableException.class).hasMessageContaining("HUB_CATALOG_URL");
    }

    @Test
    void hubCatalog_isMergedWithTheInstalledState() throws Exception {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo"));
        FakeHub hub = new FakeHub();
        hub.publish("tempo", "2.0.0", TEMPO);
        hub.publish("zipkin", "1.0.0", TEMPO);
        HubListing listing = management(store, Optional.of(hub), false, VerificationPolicy.defaults()).hubCatalog();
        HubListing.Item tempo = listing.entries().get(0);
        assertThat(tempo.installedVersion()).contains("1.0.0");
        assertThat(tempo.loaded()).isTrue();
        assertThat(tempo.updateAvailable()).isTrue();
        assertThat(listing.entries().get(1).installedVersion()).isEmpty();
    }

    private static PluginCandidate tempoAt(String version) {
        return Candidates.verified("tempo", "tempo", ConnectorType.Origin.FILESYSTEM, Candidates.manifest("tempo", version, Optional.of(">=0.1.0"),
                List.of()));
    }

    @Test
    void anUploadOfAnOlderVersion_isRefusedAsADowngrade_andTheInstalledVersionKeepsServing() {
        FakePluginStore store = new FakePluginStore(KEY, tempoAt("1.1.0"));
        store.bundle(TEMPO, tempoAt("1.0.0"));
        ConnectorManagement management = management(store, true);

        InstallOutcome outcome = management.upload(TEMPO);

        assertThat(outcome).isInstanceOfSatisfying(InstallOutcome.Refused.class, refused -> {
            assertThat(refused.kind()).isEqualTo(InstallOutcome.Kind.DOWNGRADE);
            assertThat(refused.reason()).startsWith("tempo 1.0.0 is older than the installed 1.1.0").contains("allowDowngrade=true");
        });
        assertThat(store.discarded).containsExactly("tempo");
        assertThat(store.directory).singleElement().satisfies(c -> assertThat(c.manifest().orElseThrow().version()).isEqualTo("1.1.0"));
        assertThat(management.connectors()).filteredOn(s -> s.name().equals("tempo")).singleElement()
                .satisfies(s -> assertThat(s.manifest().orElseThrow().version()).isEqualTo("1.1.0"));
    }

    @Test
    void anUploadOfAnOlderVersion_thatAllowsTheDowngrade_isInstalledAndSaysWhatItReplaced() {
        FakePluginStore store = new FakePluginStore(KEY, tempoAt("1.1.0"));
        store.bundle(TEMPO, tempoAt("1.0.0"));
        ConnectorManagement management = management(store, true);

        InstallOutcome outcome = management.upload(TEMPO, DowngradePolicy.ALLOW);

        assertThat(outcome).isEqualTo(new InstallOutcome.Installed("tempo", "1.0.0", true, "installed and loaded", Optional.of("1.1.0")));
        assertThat(management.connectors()).filteredOn(s -> s.name().equals("tempo")).singleElement()
                .satisfies(s -> assertThat(s.manifest().orElseThrow().version()).isEqualTo("1.0.0"));
    }

    @Test
    void theInstalledVersionUploadedAgain_isInstalledWhenItsBytesAreTheSame_andRefusedAsAConflictWhenNot() {
        FakePluginStore store = new FakePluginStore(KEY, tempoAt("1.0.0"));
        store.bundle(TEMPO, tempoAt("1.0.0"));
        byte[] changed = "tempo 1.0.0 rebuilt".getBytes(StandardCharsets.UTF_8);
        PluginCandidate same = tempoAt("1.0.0");
        store.bundle(changed, new PluginCandidate(same.location(), same.origin(), same.name(), same.manifest(), same.manifestCheck(),
                same.integrity(), same.signature(), "fp-other-bytes"));
        ConnectorManagement management = management(store, true);

        assertThat(management.upload(TEMPO)).isEqualTo(new InstallOutcome.Installed("tempo", "1.0.0", true, "installed and loaded"));
        InstallOutcome conflict = management.upload(changed, DowngradePolicy.ALLOW);

        assertThat(conflict).isInstanceOfSatisfying(InstallOutcome.Refused.class, refused -> {
            assertThat(refused.kind()).isEqualTo(InstallOutcome.Kind.VERSION_CONFLICT);
            assertThat(refused.reason()).startsWith("tempo 1.0.0 is installed already, with other contents");
        });
        assertThat(store.directory).singleElement().satisfies(c -> assertThat(c.fingerprint()).isEqualTo(same.fingerprint()));
    }

    @Test
    void installFromHub_ofAnOlderVersion_isRefusedUnlessTheDowngradeIsAllowed() {
        FakePluginStore store = new FakePluginStore(KEY, tempoAt("1.1.0"));
        store.bundle(TEMPO, tempoAt("1.0.0"));
        FakeHub hub = new FakeHub();
        hub.publish("tempo", "1.0.0", TEMPO);
        ConnectorManagement management = management(store, Optional.of(hub), true, VerificationPolicy.defaults());

        assertThat(management.install("tempo", Optional.of("1.0.0"))).isInstanceOfSatisfying(InstallOutcome.Refused.class,
                refused -> assertThat(refused.kind()).isEqualTo(InstallOutcome.Kind.DOWNGRADE));
        assertThat(store.directory).singleElement().satisfies(c -> assertThat(c.manifest().orElseThrow().version()).isEqualTo("1.1.0"));

        assertThat(management.install("tempo", Optional.of("1.0.0"), DowngradePolicy.ALLOW)).isInstanceOfSatisfying(InstallOutcome.Installed.class,
                installed -> assertThat(installed.downgradedFrom()).hasValue("1.1.0"));
    }

    @Test
    void anUpgrade_reconnectsEverySourceOfItsType_toTheNewVersion_andNamesEachSourceThatDidNotReconnect() {
        FakePluginStore store = new FakePluginStore(KEY, tempoAt("1.0.0"));
        store.bundle(TEMPO, tempoAt("1.1.0"));
        FakeConnectorUsers users = new FakeConnectorUsers().source("traces-a", "tempo").source("traces-b", "tempo").source("logs", "loki");
        users.failing.put("traces-b", "the connector did not start within 10 s");
        ConnectorManagement management = management(store, Optional.empty(), true, VerificationPolicy.defaults(), users);

        InstallOutcome outcome = management.upload(TEMPO);

        assertThat(users.reconnected).as("connected sources leave the version the upgrade replaced").containsExactly("tempo");
        assertThat(users.connected).isEmpty();
        assertThat(outcome).isInstanceOfSatisfying(InstallOutcome.Installed.class, installed -> {
            assertThat(installed.sources()).containsExactly(new SourceReconnection("traces-a", "connected", ""),
                    new SourceReconnection("traces-b", "failed", "the connector did not start within 10 s"));
            assertThat(installed.detail()).startsWith("installed and loaded; 1 of 2 enabled source(s) of type tempo now run version 1.1.0")
                    .contains("traces-b (the connector did not start within 10 s) did not reconnect to tempo 1.1.0")
                    .contains("definitions are kept").contains("PUT /api/sources/{name}");
        });
    }

    @Test
    void aFirstInstall_orTheSameBytesAgain_connectsOnlyTheSourcesWithoutAConnector() {
        FakePluginStore store = new FakePluginStore(KEY);
        store.bundle(TEMPO, tempoAt("1.0.0"));
        FakeConnectorUsers users = new FakeConnectorUsers().source("traces", "tempo");
        ConnectorManagement management = management(store, Optional.empty(), true, VerificationPolicy.defaults(), users);

        InstallOutcome first = management.upload(TEMPO);
        InstallOutcome again = management.upload(TEMPO);

        assertThat(users.connected).containsExactly("tempo", "tempo");
        assertThat(users.reconnected).as("the same plugin keeps serving: nothing to move").isEmpty();
        assertThat(first).isInstanceOfSatisfying(InstallOutcome.Installed.class,
                installed -> assertThat(installed.sources()).containsExactly(new SourceReconnection("traces", "connected", "")));
        assertThat(again).isInstanceOf(InstallOutcome.Installed.class);
    }

    @Test
    void anUpgradesAnswer_namesAndCountsOnlyTheSourcesTheCallerMaySee() {
        FakePluginStore store = new FakePluginStore(KEY, tempoAt("1.0.0"));
        store.bundle(TEMPO, tempoAt("1.1.0"));
        FakeConnectorUsers users = new FakeConnectorUsers().source("traces-acme", "tempo").source("traces-globex", "tempo");
        users.failing.put("traces-globex", "globex's backend refused the connection");
        ConnectorManagement management = management(store, Optional.empty(), true, VerificationPolicy.defaults(), users);

        InstallOutcome outcome = management.upload(TEMPO, DowngradePolicy.REFUSE, SourceAudience.of(java.util.Set.of("traces-acme")));

        assertThat(users.reconnected).as("the plugin serves every tenant: all its sources move").containsExactly("tempo");
        assertThat(outcome).isInstanceOfSatisfying(InstallOutcome.Installed.class, installed -> {
            assertThat(installed.sources()).containsExactly(new SourceReconnection("traces-acme", "connected", ""));
            assertThat(installed.detail()).isEqualTo("installed and loaded; 1 of 1 enabled source(s) of type tempo now run version 1.1.0")
                    .doesNotContain("globex");
        });
    }

    @Test
    void aFirstInstallsAnswer_namesNoSourceOfAnotherTenant() {
        FakePluginStore store = new FakePluginStore(KEY);
        store.bundle(TEMPO, tempoAt("1.0.0"));
        FakeConnectorUsers users = new FakeConnectorUsers().source("traces-acme", "tempo").source("traces-globex", "tempo");
        users.failing.put("traces-globex", "globex's backend refused the connection");
        ConnectorManagement management = management(store, Optional.empty(), true, VerificationPolicy.defaults(), users);

        InstallOutcome outcome = management.upload(TEMPO, DowngradePolicy.REFUSE, SourceAudience.of(java.util.Set.of("traces-acme")));

        assertThat(outcome).isInstanceOfSatisfying(InstallOutcome.Installed.class, installed -> {
            assertThat(installed.sources()).containsExactly(new SourceReconnection("traces-acme", "connected", ""));
            assertThat(installed.detail()).doesNotContain("globex");
        });
    }

    @Test
    void anUploadThePluginsDirectoryCannotHold_isRefusedAsTheHostsStorageFailure_notAsABundleThatDoesNotVerify() {
        FakePluginStore store = new FakePluginStore(KEY, tempoAt("1.0.0"));
        String diskFull = "the bundle could not be unpacked into the plugins directory /plugins: the disk is full";
        store.unwritable(TEMPO, new PluginDirectoryWriteException(diskFull, new IOException("full")));
        ConnectorManagement management = management(store, true);

        InstallOutcome outcome = management.upload(TEMPO);

        assertThat(outcome).isEqualTo(new InstallOutcome.Refused(InstallOutcome.Kind.STORAGE_FAILED, diskFull));
        assertThat(store.directory).singleElement().satisfies(c -> assertThat(c.manifest().orElseThrow().version()).isEqualTo("1.0.0"));
    }

    @Test
    void anInstallWhileAnotherProcessHoldsThePluginsDirectory_isRefusedAsBusy_andNothingIsStaged() {
        FakePluginStore store = new FakePluginStore(KEY, tempoAt("1.0.0"));
        store.bundle(TEMPO, tempoAt("1.1.0"));
        store.heldElsewhere = "another install or removal is in progress in the plugins directory";
        ConnectorManagement management = management(store, true);

        InstallOutcome outcome = management.upload(TEMPO);

        assertThat(outcome).isEqualTo(new InstallOutcome.Refused(InstallOutcome.Kind.BUSY, store.heldElsewhere));
        assertThat(store.staged).isEmpty();
        assertThat(store.directory).singleElement().satisfies(c -> assertThat(c.manifest().orElseThrow().version()).isEqualTo("1.0.0"));
    }

    @Test
    void anUpgrade_andATakenBackOne_changeThePluginsDirectoryOnlyWhileHoldingIt() {
        FakePluginStore store = new FakePluginStore(KEY, tempoAt("1.0.0"));
        store.bundle(TEMPO, tempoAt("1.1.0"));
        byte[] broken = "tempo 1.2.0 bundle".getBytes(StandardCharsets.UTF_8);
        store.bundle(broken, tempoAt("1.2.0"));
        store.loadFailures.put("tempo@1.2.0", "the factory class is not in the JAR");
        ConnectorManagement management = management(store, true);

        assertThat(management.upload(TEMPO)).isInstanceOf(InstallOutcome.Installed.class);
        assertThat(management.upload(broken)).isInstanceOfSatisfying(InstallOutcome.Refused.class,
                refused -> assertThat(refused.kind()).isEqualTo(InstallOutcome.Kind.LOAD_FAILED));

        assertThat(store.unlockedChanges).as("stage, commit, roll-back and settling all happen under the lock").isEmpty();
        assertThat(store.staged).containsExactly("tempo", "tempo");
    }

    @Test
    void anInstallWhenThePluginsDirectoryCannotBeLocked_isRefusedAsTheHostsStorageFailure_andNothingIsStaged() {
        FakePluginStore store = new FakePluginStore(KEY, tempoAt("1.0.0"));
        store.bundle(TEMPO, tempoAt("1.1.0"));
        String readOnly = "the plugins directory /plugins could not be locked for the change: it is not writable";
        store.lockFailure = new PluginDirectoryWriteException(readOnly, new IOException("Read-only file system"));
        ConnectorManagement management = management(store, true);

        assertThat(management.upload(TEMPO)).isEqualTo(new InstallOutcome.Refused(InstallOutcome.Kind.STORAGE_FAILED, readOnly));
        assertThat(management.remove("tempo", false)).isEqualTo(new RemoveOutcome.Refused(RemoveOutcome.Kind.FAILED, readOnly));
        assertThat(store.staged).isEmpty();
        assertThat(store.directory).singleElement().satisfies(c -> assertThat(c.manifest().orElseThrow().version()).isEqualTo("1.0.0"));
    }

    @Test
    void anUpgradeWhoseCommitFails_isRefusedAsTheHostsStorageFailure_andTheInstalledVersionKeepsServing() {
        FakePluginStore store = new FakePluginStore(KEY, tempoAt("1.0.0"));
        store.bundle(TEMPO, tempoAt("1.1.0"));
        String renameFailed = "the verified bundle of 'tempo' could not be renamed into the plugins directory /plugins: the disk is full";
        store.commitFailure = new PluginDirectoryWriteException(renameFailed, new IOException("No space left on device"));
        ConnectorManagement management = management(store, true);

        assertThat(management.upload(TEMPO)).isEqualTo(new InstallOutcome.Refused(InstallOutcome.Kind.STORAGE_FAILED, renameFailed));
        assertThat(store.discarded).as("the staging is deleted").containsExactly("tempo");
        assertThat(management.connectors()).filteredOn(s -> s.name().equals("tempo")).singleElement()
                .satisfies(s -> assertThat(s.state()).isEqualTo(ConnectorStatus.State.LOADED));
        assertThat(store.directory).singleElement().satisfies(c -> assertThat(c.manifest().orElseThrow().version()).isEqualTo("1.0.0"));
    }

    @Test
    void anInstallOrRemovalWhileAnotherRunsInThisGateway_isRefusedAsBusyAfterAShortWait_notQueuedBehindIt() throws Exception {
        FakePluginStore store = new FakePluginStore(KEY, tempoAt("1.0.0"));
        store.bundle(TEMPO, tempoAt("1.1.0"));
        byte[] loki = "loki bundle".getBytes(StandardCharsets.UTF_8);
        store.bundle(loki, Candidates.verified("loki"));
        FakeHub hub = new FakeHub();
        hub.publish("loki", "1.0.0", loki);
        CountDownLatch fetching = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        hub.whileFetching = () -> {
            fetching.countDown();
            awaitUninterruptibly(release);
        };
        PluginCatalog catalog = PluginCatalog.start(List.of(FakePluginStore.builtin("prometheus")), store, List.of(),
                VerificationPolicy.defaults(), SemanticVersion.of(0, 1, 0), hooks);
        ConnectorManagement management = new ConnectorManagement(catalog, store, Optional.of(hub), true, new FakeConnectorUsers(),
                Duration.ofMillis(100));
        CompletableFuture<InstallOutcome> slow = CompletableFuture.supplyAsync(() -> management.install("loki", Optional.empty()));
        try {
            assertThat(fetching.await(10, TimeUnit.SECONDS)).as("the slow install holds the install lock").isTrue();

            InstallOutcome upload = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> management.upload(TEMPO));
            RemoveOutcome removal = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> management.remove("tempo", false));

            assertThat(upload).isInstanceOfSatisfying(InstallOutcome.Refused.class, refused -> {
                assertThat(refused.kind()).isEqualTo(InstallOutcome.Kind.BUSY);
                assertThat(refused.reason()).contains("another install, upgrade or removal is running in this gateway")
                        .contains("nothing was written").contains("Try again once it has finished");
            });
            assertThat(removal).isInstanceOfSatisfying(RemoveOutcome.Refused.class, refused -> {
                assertThat(refused.kind()).isEqualTo(RemoveOutcome.Kind.BUSY);
                assertThat(refused.reason()).contains("running in this gateway").contains("nothing was removed");
            });
            assertThat(store.staged).as("the refused upload staged nothing").isEmpty();
        } finally {
            release.countDown();
        }
        assertThat(slow.get(10, TimeUnit.SECONDS)).isInstanceOf(InstallOutcome.Installed.class);
        assertThat(management.upload(TEMPO)).as("once it finished, the next one goes ahead").isInstanceOf(InstallOutcome.Installed.class);
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
