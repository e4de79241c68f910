package dev.omcp.core.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.hooks.HookRegistry;
import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.plugins.InstallOutcome;
import dev.omcp.ports.plugins.RemoveOutcome;
import dev.omcp.ports.plugins.SourceAudience;
import dev.omcp.ports.plugins.TrustRoot;
import dev.omcp.sdk.hook.HookKind;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Removing a plugin through the connector management use cases: refusals, unloading, and what a re-install finds. */
class PluginRemovalTest {
    private static final TrustRoot KEY = TrustRoot.loaded("Ed25519 key");
    private final HookRegistry hooks = new HookRegistry();
    private final FakeConnectorUsers users = new FakeConnectorUsers();

    private ConnectorManagement management(FakePluginStore store, boolean enabled) {
        PluginCatalog catalog = PluginCatalog.start(List.of(FakePluginStore.builtin("prometheus")), store, List.of(),
                VerificationPolicy.defaults(), SemanticVersion.of(0, 1, 0), hooks);
        return new ConnectorManagement(catalog, store, Optional.empty(), enabled, users);
    }

    private static RemoveOutcome.Refused refused(RemoveOutcome outcome) {
        assertThat(outcome).isInstanceOf(RemoveOutcome.Refused.class);
        return (RemoveOutcome.Refused) outcome;
    }

    @Test
    void aRemovedPlugin_isUnloaded_itsHooksUnregistered_andItsSourcesAskedToReconnect() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.withHooks("tempo", Candidates.hook(HookKind.TOOL_PRE_INVOKE, "com/acme/G.class")));
        ConnectorManagement management = management(store, true);
        assertThat(hooks.hooks(HookKind.TOOL_PRE_INVOKE)).hasSize(1);

        RemoveOutcome outcome = management.remove("tempo", false);

        assertThat(outcome).isEqualTo(new RemoveOutcome.Removed("tempo", "1.0.0", List.of(), "removed"));
        assertThat(store.removed).containsExactly("tempo");
        assertThat(management.connectors()).noneMatch(s -> s.name().equals("tempo"));
        assertThat(hooks.hooks(HookKind.TOOL_PRE_INVOKE)).isEmpty();
        assertThat(users.reconnected).containsExactly("tempo");
    }

    @Test
    void withoutEnableUiInstall_theRemovalIsRefusedAsDisabled_andNothingIsRemoved() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo"));

        RemoveOutcome.Refused refused = refused(management(store, false).remove("tempo", true));

        assertThat(refused.kind()).isEqualTo(RemoveOutcome.Kind.DISABLED);
        assertThat(refused.reason()).contains("ENABLE_UI_INSTALL=true").contains("omcp plugin remove");
        assertThat(store.removed).isEmpty();
        assertThat(store.directory).hasSize(1);
    }

    @Test
    void anUnknownName_isNotInstalled_andTheMessageSaysWhereToLook() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo"));

        RemoveOutcome.Refused refused = refused(management(store, true).remove("jaeger", false));

        assertThat(refused.kind()).isEqualTo(RemoveOutcome.Kind.NOT_INSTALLED);
        assertThat(refused.reason()).startsWith("no plugin 'jaeger' is installed").contains("GET /api/connectors").contains("for a versioned directory its directory name");
        assertThat(store.directory).hasSize(1);
    }

    @Test
    void aNameFromTheUrl_isShownOnOneLine_andCut() {
        FakePluginStore store = new FakePluginStore(KEY);

        RemoveOutcome.Refused refused = refused(management(store, true).remove("evil\nevent=forged " + "x".repeat(200), false));

        assertThat(refused.reason()).doesNotContain("\n").contains("evil?event=forged").doesNotContain("x".repeat(100));
        RemoveOutcome.Refused bidi = refused(management(store, true).remove("evil\u202egpj.exe", false));
        assertThat(bidi.reason()).as("a bidi override reorders what is read").contains("evil?gpj.exe");
    }

    @Test
    void aBuiltin_cannotBeRemoved() {
        FakePluginStore store = new FakePluginStore(KEY);

        RemoveOutcome.Refused refused = refused(management(store, true).remove("prometheus", true));

        assertThat(refused.kind()).isEqualTo(RemoveOutcome.Kind.BUILTIN);
        assertThat(refused.reason()).contains("builtin connector").contains("cannot be removed");
    }

    @Test
    void aPluginSourcesUse_isRefusedNamingThem_andStaysLoaded() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo"));
        users.source("traces-eu", "tempo").source("traces-us", "tempo").source("metrics", "prometheus");
        ConnectorManagement management = management(store, true);

        RemoveOutcome.Refused refused = refused(management.remove("tempo", false));

        assertThat(refused.kind()).isEqualTo(RemoveOutcome.Kind.IN_USE);
        assertThat(refused.sources()).containsExactly("traces-eu", "traces-us");
        assertThat(refused.reason()).contains("source(s) traces-eu, traces-us").contains("force=true").contains("Nothing was removed");
        assertThat(store.removed).isEmpty();
        assertThat(management.connectors()).anyMatch(s -> s.name().equals("tempo"));
        assertThat(users.reconnected).isEmpty();
    }

    @Test
    void aTenantsAdmin_learnsOnlyTheNamesOfSourcesItMaySee_theOthersAreCounted() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo"));
        users.source("traces-acme", "tempo").source("traces-globex", "tempo").source("traces-initech", "tempo");
        ConnectorManagement management = management(store, true);
        SourceAudience acme = SourceAudience.of(java.util.Set.of("traces-acme", "metrics"));

        RemoveOutcome.Refused refused = refused(management.remove("tempo", false, acme));

        assertThat(refused.kind()).isEqualTo(RemoveOutcome.Kind.IN_USE);
        assertThat(refused.sources()).containsExactly("traces-acme");
        assertThat(refused.reason()).contains("source(s) traces-acme and 2 source(s) you cannot list")
                .doesNotContain("globex").doesNotContain("initech");
        assertThat(refused(management.remove("tempo", false, SourceAudience.of(java.util.Set.of()))).reason())
                .contains("serves the connector of 3 source(s) you cannot list").doesNotContain("traces-");

        RemoveOutcome.Removed removed = (RemoveOutcome.Removed) management.remove("tempo", true, acme);
        assertThat(removed.sourcesWithoutConnector()).containsExactly("traces-acme");
        assertThat(removed.detail()).contains("2 source(s) you cannot list are without a connector too").doesNotContain("globex");
    }

    @Test
    void aForcedRemoval_leavesTheSourcesWithoutConnector_andSaysWhich() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo"));
        users.source("traces-eu", "tempo");

        RemoveOutcome outcome = management(store, true).remove("tempo", true);

        assertThat(outcome).isEqualTo(new RemoveOutcome.Removed("tempo", "1.0.0", List.of("traces-eu"), "removed"));
        assertThat(users.reconnected).containsExactly("tempo");
    }

    @Test
    void aPluginThatIsNotLoaded_servesNoSource_soItsRemovalNeedsNoForce() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.tamperedJar("tempo"));
        users.source("traces-eu", "tempo");

        RemoveOutcome outcome = management(store, true).remove("tempo", false);

        assertThat(outcome).isInstanceOf(RemoveOutcome.Removed.class);
        assertThat(store.directory).isEmpty();
    }

    @Test
    void aShadowedPinTakesTheNameOver_soItsSourcesKeepAConnector() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo"),
                Candidates.verified("tempo-0.9.0", "tempo", ConnectorType.Origin.PINNED, Candidates.manifest("tempo", "0.9.0", Optional.empty(), List.of())));
        users.source("traces-eu", "tempo");
        ConnectorManagement management = management(store, true);

        RemoveOutcome outcome = management.remove("tempo", true);

        assertThat(outcome).isEqualTo(new RemoveOutcome.Removed("tempo", "1.0.0", List.of(), "removed"));
        assertThat(management.connectors()).filteredOn(s -> s.name().equals("tempo")).singleElement()
                .satisfies(s -> assertThat(s.location()).isEqualTo("tempo-0.9.0"));
    }

    @Test
    void aFileSystemThatRefusesTheRename_isAFailure_andTheplugInStaysLoaded() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo"));
        store.removeFailure = "moving plugin 'tempo' out of the plugins directory failed (AccessDeniedException)";
        ConnectorManagement management = management(store, true);

        RemoveOutcome.Refused refused = refused(management.remove("tempo", false));

        assertThat(refused.kind()).isEqualTo(RemoveOutcome.Kind.FAILED);
        assertThat(refused.reason()).contains("AccessDeniedException").endsWith("nothing was removed");
        assertThat(management.connectors()).anyMatch(s -> s.name().equals("tempo"));
        assertThat(users.reconnected).isEmpty();
    }

    @Test
    void filesLeftOnDisk_areReportedInTheDetail() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo"));
        store.removeDeletesAll = false;

        RemoveOutcome outcome = management(store, true).remove("tempo", false);

        assertThat(outcome).isInstanceOfSatisfying(RemoveOutcome.Removed.class,
                removed -> assertThat(removed.detail()).startsWith("removed; some of its files could not be deleted").contains("next start"));
    }

    @Test
    void afterARemoval_anOlderVersionInstallsWithoutAllowingADowngrade_becauseTheRemovalForgetsTheVersion() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo", "tempo", ConnectorType.Origin.FILESYSTEM,
                Candidates.manifest("tempo", "1.2.0", Optional.empty(), List.of())));
        byte[] older = "tempo 1.1.0".getBytes(StandardCharsets.UTF_8);
        store.bundle(older, Candidates.verified("tempo", "tempo", ConnectorType.Origin.FILESYSTEM,
                Candidates.manifest("tempo", "1.1.0", Optional.empty(), List.of())));
        ConnectorManagement management = management(store, true);
        assertThat(management.upload(older)).isInstanceOfSatisfying(InstallOutcome.Refused.class,
                r -> assertThat(r.kind()).isEqualTo(InstallOutcome.Kind.DOWNGRADE));

        assertThat(management.remove("tempo", false)).isInstanceOf(RemoveOutcome.Removed.class);
        InstallOutcome reinstalled = management.upload(older);

        assertThat(reinstalled).isEqualTo(new InstallOutcome.Installed("tempo", "1.1.0", true, "installed and loaded"));
    }

    @Test
    void aRemovalWhileAnotherProcessHoldsThePluginsDirectory_isRefusedAsBusy_andNothingIsRemoved() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo"));
        store.heldElsewhere = "another install or removal is in progress in the plugins directory";

        RemoveOutcome.Refused refused = refused(management(store, true).remove("tempo", true));

        assertThat(refused.kind()).isEqualTo(RemoveOutcome.Kind.BUSY);
        assertThat(refused.reason()).isEqualTo(store.heldElsewhere);
        assertThat(store.removed).isEmpty();
        assertThat(store.directory).hasSize(1);
    }

    @Test
    void aRemoval_removesOnlyWhileHoldingThePluginsDirectory() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo"));

        assertThat(management(store, true).remove("tempo", false)).isInstanceOf(RemoveOutcome.Removed.class);

        assertThat(store.removed).containsExactly("tempo");
        assertThat(store.unlockedChanges).isEmpty();
    }
}
