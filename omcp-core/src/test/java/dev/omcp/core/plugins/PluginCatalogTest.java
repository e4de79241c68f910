package dev.omcp.core.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import dev.omcp.core.hooks.HookRegistry;
import dev.omcp.core.testing.CapturedLog;
import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.plugins.ConnectorStatus;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginPin;
import dev.omcp.ports.plugins.TrustRoot;
import dev.omcp.sdk.hook.Hook;
import dev.omcp.sdk.hook.HookKind;
import dev.omcp.sdk.hook.HookResult;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PluginCatalogTest {
    private static final SemanticVersion SERVER = SemanticVersion.of(0, 1, 0);
    private static final TrustRoot KEY = TrustRoot.loaded("Ed25519 key");
    private final HookRegistry hooks = new HookRegistry();

    @RegisterExtension
    final CapturedLog log = new CapturedLog(PluginCatalog.class);

    private PluginCatalog start(FakePluginStore store, VerificationPolicy policy, List<PluginPin> pins, String... builtins) {
        return PluginCatalog.start(
                java.util.Arrays.stream(builtins).map(FakePluginStore::builtin).toList(), store, pins, policy, SERVER, hooks);
    }

    private static PluginCandidate pinned(String name, String version) {
        return Candidates.verified(name + "-" + version, name, ConnectorType.Origin.PINNED,
                Candidates.manifest(name, version, Optional.empty(), List.of()));
    }

    private static String location(PluginCatalog catalog, String name) {
        return ((FakePluginStore.NamedFactory) catalog.find(name).orElseThrow().factory()).location();
    }

    @Test
    void noPluginsAndNoTrustRoot_startsWithTheBuiltinsOnly() {
        PluginCatalog catalog = start(new FakePluginStore(TrustRoot.absent()), VerificationPolicy.defaults(), List.of(), "prometheus", "loki");
        assertThat(catalog.all()).extracting(ConnectorType::name).containsExactly("loki", "prometheus");
        assertThat(catalog.all()).allMatch(t -> t.origin() == ConnectorType.Origin.BUILTIN);
    }

    @Test
    void spec1_4_builtinsLoadEvenInStrictModeWithEveryPluginVerified() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo"));
        PluginCatalog catalog = start(store, new VerificationPolicy(true, true), List.of(), "prometheus");
        assertThat(catalog.find("prometheus")).get().extracting(ConnectorType::origin).isEqualTo(ConnectorType.Origin.BUILTIN);
        assertThat(catalog.find("tempo")).get().extracting(ConnectorType::origin).isEqualTo(ConnectorType.Origin.FILESYSTEM);
    }

    @Test
    void spec3_5_strictMode_refusesToStartAndNamesEveryUnverifiablePlugin() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo"), Candidates.tamperedJar("zipkin"), Candidates.unsigned("jaeger"));
        assertThatThrownBy(() -> start(store, new VerificationPolicy(true, true), List.of()))
                .isInstanceOf(PluginStartRefusedException.class)
                .satisfies(e -> assertThat(((PluginStartRefusedException) e).reasons()).hasSize(2))
                .hasMessageContaining("'zipkin' is unverifiable")
                .hasMessageContaining("'jaeger' is unverifiable");
        assertThat(store.loads).as("no plugin code runs when the start is refused").isEmpty();
    }

    @Test
    void spec3_5_strictMode_refusesToStartWithoutTrustRootEvenWithNoPlugins() {
        assertThatThrownBy(() -> start(new FakePluginStore(TrustRoot.absent()), new VerificationPolicy(false, true), List.of()))
                .isInstanceOf(PluginStartRefusedException.class)
                .hasMessageContaining("PLUGIN_TRUST_ROOT is not set");
    }

    @Test
    void spec3_5_defaultMode_skipsUnverifiablePluginsAndLoadsTheRest() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo"), Candidates.tamperedJar("zipkin"));
        PluginCatalog catalog = start(store, VerificationPolicy.defaults(), List.of());
        assertThat(catalog.find("tempo")).isPresent();
        assertThat(catalog.find("zipkin")).isEmpty();
        ConnectorStatus zipkin = catalog.statuses().stream().filter(s -> s.name().equals("zipkin")).findFirst().orElseThrow();
        assertThat(zipkin.state()).isEqualTo(ConnectorStatus.State.SKIPPED);
        assertThat(zipkin.reason()).contains("integrity mismatch");
        assertThat(store.loads).containsExactly("tempo");
    }

    @Test
    void spec5_8_builtinWinsOverAFilesystemPluginOfTheSameName() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("prometheus"));
        PluginCatalog catalog = start(store, VerificationPolicy.defaults(), List.of(), "prometheus");
        assertThat(catalog.find("prometheus").orElseThrow().origin()).isEqualTo(ConnectorType.Origin.BUILTIN);
        ConnectorStatus shadowed = catalog.statuses().stream().filter(s -> s.origin() == ConnectorType.Origin.FILESYSTEM).findFirst().orElseThrow();
        assertThat(shadowed.state()).isEqualTo(ConnectorStatus.State.SHADOWED);
        assertThat(shadowed.reason()).contains("the builtin connector");
        assertThat(store.loads).as("a shadowed plugin is never loaded").isEmpty();
    }

    @Test
    void spec5_8_filesystemWinsOverAPinOfTheSameName() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo"), pinned("tempo", "0.9.0"));
        PluginCatalog catalog = start(store, VerificationPolicy.defaults(), List.of(new PluginPin("tempo", "0.9.0")));
        assertThat(location(catalog, "tempo")).isEqualTo("tempo");
        assertThat(catalog.statuses()).anyMatch(s -> s.location().equals("tempo-0.9.0") && s.state() == ConnectorStatus.State.SHADOWED);
    }

    @Test
    void spec5_8_aPinLoadsWhenNothingOfHigherPrecedenceHasTheName() {
        FakePluginStore store = new FakePluginStore(KEY, pinned("tempo", "0.9.0"));
        PluginCatalog catalog = start(store, VerificationPolicy.defaults(), List.of(new PluginPin("tempo", "0.9.0")));
        assertThat(catalog.find("tempo").orElseThrow().origin()).isEqualTo(ConnectorType.Origin.PINNED);
        assertThat(catalog.find("tempo").orElseThrow().manifest().version()).isEqualTo("0.9.0");
    }

    @Test
    void aPluginThatFailsToLoad_leavesItsNameToTheNextCandidate() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo"), pinned("tempo", "0.9.0"));
        store.loadFailures.put("tempo", "no META-INF/services entry for dev.omcp.sdk.connector.ConnectorFactory");
        PluginCatalog catalog = start(store, VerificationPolicy.defaults(), List.of(new PluginPin("tempo", "0.9.0")));
        assertThat(location(catalog, "tempo")).isEqualTo("tempo-0.9.0");
        assertThat(catalog.statuses()).anyMatch(s -> s.location().equals("tempo") && s.reason().contains("no META-INF/services"));
    }

    @Test
    void spec6_1_rule5_hooksOfLoadedPluginsAreRegistered_andSkippedOnesReported() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.withHooks("audit",
                Candidates.hook(HookKind.TOOL_PRE_INVOKE, "com/acme/Pre.class"),
                Candidates.hook(HookKind.TOOL_POST_INVOKE, "../../escape.class")));
        store.skippedHookModules.put("audit", List.of("../../escape.class"));
        PluginCatalog catalog = start(store, VerificationPolicy.defaults(), List.of());
        assertThat(catalog.find("audit")).as("a skipped hook never fails the connector load").isPresent();
        assertThat(hooks.hooks(HookKind.TOOL_PRE_INVOKE)).hasSize(1);
        assertThat(hooks.hooks(HookKind.TOOL_POST_INVOKE)).isEmpty();
        ConnectorStatus audit = catalog.statuses().stream().filter(s -> s.name().equals("audit")).findFirst().orElseThrow();
        assertThat(audit.hooks()).anyMatch(h -> !h.registered() && h.reason().contains("escapes the plugin root"));
    }

    @Test
    void aHooksStatus_showsTheModeInForce_underOmcpHookMode_besideTheModeItsManifestDeclares() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.withHooks("audit",
                new dev.omcp.sdk.manifest.HookEntry(HookKind.TOOL_PRE_INVOKE, "com/acme/Pre.class", 100, Optional.of("permissive")),
                Candidates.hook(HookKind.TOOL_POST_INVOKE, "com/acme/Post.class")));
        PluginCatalog overridden = PluginCatalog.start(List.of(), store, List.of(), VerificationPolicy.defaults(), SERVER, hooks,
                Optional.of(dev.omcp.core.hooks.HookMode.DISABLED));
        PluginCatalog asDeclared = PluginCatalog.start(List.of(), store, List.of(), VerificationPolicy.defaults(), SERVER,
                new HookRegistry());

        assertThat(overridden.statuses()).singleElement().extracting(ConnectorStatus::hooks).asList()
                .extracting("kind", "mode", "manifestMode").containsExactly(
                        org.assertj.core.groups.Tuple.tuple("tool_pre_invoke", "disabled", "permissive"),
                        org.assertj.core.groups.Tuple.tuple("tool_post_invoke", "disabled", "enforce"));
        assertThat(asDeclared.statuses()).singleElement().extracting(ConnectorStatus::hooks).asList()
                .extracting("kind", "mode", "manifestMode").containsExactly(
                        org.assertj.core.groups.Tuple.tuple("tool_pre_invoke", "permissive", "permissive"),
                        org.assertj.core.groups.Tuple.tuple("tool_post_invoke", "enforce", "enforce"));
    }

    @Test
    void spec6_1_rule5_twoHooksOfOneKindInAManifest_onlyTheLaterRuns_andTheEarlierIsShownReplaced_andWarnedOnceAtLoad() {
        Hook earlier = (ctx, payload) -> HookResult.deny("earlier");
        Hook later = (ctx, payload) -> HookResult.deny("later");
        FakePluginStore store = new FakePluginStore(KEY, Candidates.withHooks("audit",
                Candidates.hook(HookKind.TOOL_PRE_INVOKE, "com/acme/Earlier.class"),
                Candidates.hook(HookKind.TOOL_POST_INVOKE, "com/acme/Post.class"),
                Candidates.hook(HookKind.TOOL_PRE_INVOKE, "com/acme/Later.class")));
        store.hookInstances.put("com/acme/Earlier.class", earlier);
        store.hookInstances.put("com/acme/Later.class", later);
        PluginCatalog catalog = start(store, VerificationPolicy.defaults(), List.of());

        assertThat(hooks.hooks(HookKind.TOOL_PRE_INVOKE)).singleElement().extracting(r -> r.hook()).isSameAs(later);
        ConnectorStatus audit = catalog.statuses().stream().filter(s -> s.name().equals("audit")).findFirst().orElseThrow();
        assertThat(audit.hooks()).filteredOn(h -> h.kind().equals("tool_pre_invoke")).extracting(
                ConnectorStatus.HookStatus::module, ConnectorStatus.HookStatus::registered, ConnectorStatus.HookStatus::reason)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("com/acme/Later.class", true, ""),
                        org.assertj.core.groups.Tuple.tuple("com/acme/Earlier.class", false, "replaced by module 'com/acme/Later.class' "
                                + "(a tool_pre_invoke hook registered later in the manifest; a plugin runs one hook of each kind)"));
        assertThat(audit.hooks()).filteredOn(h -> h.kind().equals("tool_post_invoke")).singleElement()
                .satisfies(h -> assertThat(h.registered()).isTrue());
        assertThat(log.messages(Level.WARN)).singleElement().asString()
                .startsWith("event=hook-skipped plugin=audit kind=tool_pre_invoke module=\"com/acme/Earlier.class\" reason=\"replaced by");

        catalog.rescan();
        assertThat(log.messages(Level.WARN)).as("a re-scan that keeps the plugin does not say it again").hasSize(1);
    }

    @Test
    void spec6_1_rule3_aHookEntryWithoutModeIsEnforced_andItsOwnModeIsKept() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.withHooks("audit",
                Candidates.hook(HookKind.TOOL_PRE_INVOKE, "com/acme/Pre.class"),
                new dev.omcp.sdk.manifest.HookEntry(HookKind.TOOL_POST_INVOKE, "com/acme/Post.class", 7, Optional.of("permissive"))));
        start(store, VerificationPolicy.defaults(), List.of());
        assertThat(hooks.hooks(HookKind.TOOL_PRE_INVOKE)).singleElement().satisfies(h -> {
            assertThat(h.mode()).isEqualTo(dev.omcp.core.hooks.HookMode.ENFORCE);
            assertThat(h.priority()).isEqualTo(100);
        });
        assertThat(hooks.hooks(HookKind.TOOL_POST_INVOKE)).singleElement().satisfies(h -> {
            assertThat(h.mode()).isEqualTo(dev.omcp.core.hooks.HookMode.PERMISSIVE);
            assertThat(h.priority()).isEqualTo(7);
        });
    }

    @Test
    void rescan_picksUpANewPluginAndItsHooks_keepsUnchangedPluginsLoadedOnce() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo"));
        PluginCatalog catalog = start(store, VerificationPolicy.defaults(), List.of());
        store.directory.add(Candidates.withHooks("audit", Candidates.hook(HookKind.RESOURCE_PRE_FETCH, "com/acme/Res.class")));
        assertThat(catalog.rescan()).isInstanceOf(PluginCatalog.Rescan.Applied.class);
        assertThat(catalog.find("audit")).isPresent();
        assertThat(hooks.hooks(HookKind.RESOURCE_PRE_FETCH)).hasSize(1);
        assertThat(store.loads).containsExactly("tempo", "audit");
    }

    @Test
    void rescan_dropsHooksOfAPluginThatDisappeared() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.withHooks("audit", Candidates.hook(HookKind.TOOL_PRE_INVOKE, "com/acme/Pre.class")));
        PluginCatalog catalog = start(store, VerificationPolicy.defaults(), List.of());
        assertThat(hooks.hooks(HookKind.TOOL_PRE_INVOKE)).hasSize(1);
        store.directory.clear();
        catalog.rescan();
        assertThat(hooks.hooks(HookKind.TOOL_PRE_INVOKE)).isEmpty();
        assertThat(catalog.find("audit")).isEmpty();
    }

    @Test
    void spec7_4_aRescanThatTripsStrictMode_isRefusedAndTheOldSnapshotStays() {
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo"));
        PluginCatalog catalog = start(store, new VerificationPolicy(true, true), List.of());
        store.directory.add(Candidates.tamperedJar("zipkin"));
        PluginCatalog.Rescan rescan = catalog.rescan();
        assertThat(rescan).isInstanceOf(PluginCatalog.Rescan.Refused.class);
        assertThat(((PluginCatalog.Rescan.Refused) rescan).reasons()).anyMatch(r -> r.contains("'zipkin' is unverifiable"));
        assertThat(catalog.find("tempo")).isPresent();
    }

    @Test
    void spec7_4_strictModeRefusals_quoteAPluginsDirectoryAndProblemsOnOneBoundedLine_andOnlyTheFirstFewPlugins() {
        // the reasons of a refused re-scan are shown whole by the install and removal answers (and a refused start);
        // a directory's name and a check's problems are the plugin author's text
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo"));
        PluginCatalog catalog = start(store, new VerificationPolicy(true, true), List.of());
        String directory = "evil\n event=forged \u202e" + "d".repeat(100_000);
        store.directory.add(new PluginCandidate(directory, ConnectorType.Origin.FILESYSTEM, "evil", Optional.empty(),
                dev.omcp.ports.plugins.CheckResult.failed("manifest.json: " + "v".repeat(100_000)),
                dev.omcp.ports.plugins.CheckResult.notChecked("no valid manifest"),
                dev.omcp.ports.plugins.CheckResult.notChecked("no valid manifest"), "fp-evil"));
        for (int i = 0; i < 50; i++) {
            store.directory.add(Candidates.unsigned("plugin" + i));
        }

        PluginCatalog.Rescan rescan = catalog.rescan();

        List<String> reasons = ((PluginCatalog.Rescan.Refused) rescan).reasons();
        assertThat(reasons).hasSize(PluginCatalog.MAX_REFUSALS + 1).allSatisfy(r -> assertThat(r)
                .hasSizeLessThanOrEqualTo(ConnectorStatus.MAX_REASON_CHARS + 1).doesNotContain("\n", "\u202e"));
        assertThat(reasons.getFirst()).startsWith("plugin 'evil  event=forged  ddd").endsWith("…");
        assertThat(reasons.getLast()).isEqualTo("and " + (51 - PluginCatalog.MAX_REFUSALS) + " more plugins are refused the same way; "
                + "fix the ones above and the next check lists the rest");
        assertThat(catalog.find("tempo")).isPresent();
    }

    @Test
    void logLines_quoteAPluginsOwnTextEscapedAndCut_soNoManifestDirectoryOrExceptionMessageForgesALineOrAField() {
        // a signed manifest's hook module, a directory name and a plugin's exception message are the plugin author's text
        String forging = "\n event=forged outcome=\"ok\u202e\u0007";
        FakePluginStore store = new FakePluginStore(KEY, Candidates.withHooks("audit",
                Candidates.hook(HookKind.TOOL_PRE_INVOKE, "com/acme/Pre.class" + forging + "m".repeat(480))),
                Candidates.verified("tempo" + forging, "tempo", ConnectorType.Origin.FILESYSTEM, Candidates.manifest("tempo")),
                Candidates.tamperedJar("zipkin" + forging));
        store.skippedHookModules.put("audit", List.of("com/acme/Pre.class" + forging + "m".repeat(480)));
        store.loadFailures.put("tempo" + forging, "the factory failed: " + forging + "x".repeat(100_000));

        start(store, VerificationPolicy.defaults(), List.of());

        List<String> lines = log.messages(Level.WARN);
        assertThat(lines).hasSize(3).allSatisfy(line -> {
            assertThat(line).doesNotContain("\n", "\u202e", "\u0007", "outcome=\"ok").hasSizeLessThan(2_500);
            assertThat(line).contains("\\u000a event=forged outcome=\\\"ok\\u202e\\u0007");
        });
        assertThat(lines).anyMatch(line -> line.startsWith("event=hook-skipped ") && line.contains("...(")).anyMatch(
                line -> line.startsWith("event=plugin-skipped ") && line.contains("(100") && line.contains(" chars)\""));
    }

    @Test
    void aPluginsOwnTextInItsStatus_isOneBoundedPrintableLine_forGetApiConnectors() {
        String forging = "\r\n event=forged \u001b[2J\u202e\u0007";
        FakePluginStore store = new FakePluginStore(KEY, Candidates.verified("tempo"));
        store.loadFailures.put("tempo", "the factory failed: " + forging + "x".repeat(1 << 20));

        PluginCatalog catalog = start(store, VerificationPolicy.defaults(), List.of());

        assertThat(catalog.statuses()).filteredOn(s -> s.name().equals("tempo")).singleElement().satisfies(s -> {
            assertThat(s.state()).isEqualTo(ConnectorStatus.State.SKIPPED);
            assertThat(s.reason()).startsWith("the factory failed: ").contains("event=forged ", "[2J").endsWith("…")
                    .hasSizeLessThanOrEqualTo(ConnectorStatus.MAX_REASON_CHARS + 1).doesNotContain("\r", "\n", "\u001b", "\u202e");
        });
    }
}
