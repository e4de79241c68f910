package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.adapters.storage.plugins.fixture.EchoConnectorFactory;
import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.plugins.CheckResult;
import dev.omcp.ports.plugins.LoadedPlugin;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginLoadException;
import dev.omcp.ports.plugins.PluginScan;
import dev.omcp.ports.plugins.TrustRoot;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.hook.HookKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** spec 2.2, 5.8: checks of a plugin directory against real files, keys and class loaders. */
class PluginVerificationIT {
    private static final KeyPair KEY = Keys.ed25519();

    @TempDir
    Path tmp;
    private Path plugins;
    private Path trustRoot;

    @BeforeEach
    void setUp() throws IOException {
        plugins = Files.createDirectories(tmp.resolve("plugins"));
        trustRoot = Files.writeString(tmp.resolve("trust-root.pem"), Keys.publicPem(KEY));
    }

    private FilesystemPluginStore store() {
        return new FilesystemPluginStore(plugins, Optional.of(trustRoot));
    }

    private PluginCandidate only(FilesystemPluginStore store) {
        PluginScan scan = store.scan(List.of());
        assertThat(scan.candidates()).hasSize(1);
        return scan.candidates().getFirst();
    }

    @Test
    void aSignedPluginWithMatchingIntegrity_passesEveryCheck_andLoads() throws Exception {
        PluginFixture.named("echo").signedBy(KEY).writeInto(plugins);
        FilesystemPluginStore store = store();
        PluginCandidate candidate = only(store);
        assertThat(candidate.fullyVerified()).as(candidate.problems().toString()).isTrue();
        assertThat(candidate.origin()).isEqualTo(ConnectorType.Origin.FILESYSTEM);
        assertThat(candidate.manifest().orElseThrow().capabilities().queryTraces()).isTrue();
        LoadedPlugin loaded = store.load(candidate);
        assertThat(loaded.factory().manifest().name()).isEqualTo("echo");
    }

    @Test
    void signaturesInBase64_RSA_andEC_allVerify() throws IOException {
        for (KeyPair key : List.of(Keys.ed25519(), Keys.rsa(), Keys.ec())) {
            Path dir = Files.createTempDirectory(tmp, "p");
            PluginFixture.named("echo").signedBy(key).base64Signature().writeInto(dir);
            Path pem = Files.writeString(dir.resolve("root.pem"), Keys.publicPem(key));
            PluginCandidate candidate = new FilesystemPluginStore(dir, Optional.of(pem)).scan(List.of()).candidates().getFirst();
            assertThat(candidate.signature().ok()).as(key.getPublic().getAlgorithm() + ": " + candidate.signature()).isTrue();
            PluginFixture.named("raw").signedBy(key).writeInto(dir);
            assertThat(new FilesystemPluginStore(dir, Optional.of(pem)).scan(List.of()).candidates())
                    .allSatisfy(c -> assertThat(c.signature().ok()).as(key.getPublic().getAlgorithm() + " raw").isTrue());
        }
    }

    @Test
    void aTrustRootWithSeveralKeys_acceptsASignatureOfAnyOfThem() throws IOException {
        KeyPair other = Keys.rsa();
        Files.writeString(trustRoot, Keys.publicPem(other) + Keys.publicPem(KEY));
        PluginFixture.named("echo").signedBy(KEY).writeInto(plugins);
        FilesystemPluginStore store = store();
        assertThat(store.trustRoot().detail()).contains("RSA key").contains("Ed25519 key");
        assertThat(only(store).signature().ok()).isTrue();
    }

    @Test
    void aTamperedJar_failsIntegrityWithBothDigests() throws IOException {
        Path root = PluginFixture.named("echo").signedBy(KEY).writeInto(plugins);
        Files.write(root.resolve("echo-connector.jar"), "evil".getBytes(StandardCharsets.UTF_8), java.nio.file.StandardOpenOption.APPEND);
        PluginCandidate candidate = only(store());
        assertThat(candidate.integrity().status()).isEqualTo(CheckResult.Status.FAILED);
        assertThat(candidate.integrity().summary()).startsWith("integrity mismatch: the manifest says sha256-").contains("hashes to sha256-");
        assertThat(candidate.signature().ok()).as("the manifest itself is untouched").isTrue();
    }

    @Test
    void aTamperedManifest_failsTheSignature() throws IOException {
        Path root = PluginFixture.named("echo").signedBy(KEY).writeInto(plugins);
        String manifest = Files.readString(root.resolve("manifest.json"));
        Files.writeString(root.resolve("manifest.json"), manifest.replace("a test connector", "a trusted connector"));
        PluginCandidate candidate = only(store());
        assertThat(candidate.signature().status()).isEqualTo(CheckResult.Status.FAILED);
        assertThat(candidate.signature().summary()).contains("does not verify against the trust root").contains("changed after signing");
    }

    @Test
    void aSignatureByAnotherKey_fails() {
        PluginFixture.named("echo").signedBy(Keys.ed25519()).writeInto(plugins);
        assertThat(only(store()).signature().summary()).contains("does not verify");
    }

    @Test
    void aMissingSignature_isReportedAsUnsigned() {
        PluginFixture.named("echo").writeInto(plugins);
        PluginCandidate candidate = only(store());
        assertThat(candidate.signature().status()).isEqualTo(CheckResult.Status.FAILED);
        assertThat(candidate.signature().summary()).isEqualTo("unsigned: manifest.json.sig is missing beside the manifest");
    }

    @Test
    void withoutTrustRoot_theSignatureIsNotChecked() {
        PluginFixture.named("echo").signedBy(KEY).writeInto(plugins);
        FilesystemPluginStore store = new FilesystemPluginStore(plugins, Optional.empty());
        assertThat(store.trustRoot().state()).isEqualTo(TrustRoot.State.ABSENT);
        PluginCandidate candidate = only(store);
        assertThat(candidate.signature().status()).isEqualTo(CheckResult.Status.NOT_CHECKED);
        assertThat(candidate.integrity().ok()).isTrue();
    }

    @Test
    void trustRootProblems_makeItInvalidWithTheReason() throws IOException {
        assertThat(new FilesystemPluginStore(plugins, Optional.of(tmp.resolve("missing.pem"))).trustRoot())
                .isEqualTo(TrustRoot.invalid("the file does not exist"));
        Files.writeString(trustRoot, Keys.privatePem(KEY));
        assertThat(store().trustRoot().detail()).contains("private key");
        Files.writeString(trustRoot, "not a key at all");
        assertThat(store().trustRoot().detail()).contains("no PEM public key");
        Files.writeString(trustRoot, "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n");
        assertThat(store().trustRoot().state()).isEqualTo(TrustRoot.State.INVALID);
    }

    @Test
    void anInvalidManifest_reportsEveryViolationAtOnce() {
        PluginFixture.named("echo").signedBy(KEY).editManifest(m -> {
            m.remove("version");
            m.putArray("signalTypes").add("events").add("logs");
            m.put("schemaVersion", 2);
            m.put("integrity", "md5-abc");
            m.putObject("configSchema").put("type", 12);
        }).writeInto(plugins);
        PluginCandidate candidate = only(store());
        assertThat(candidate.manifestCheck().status()).isEqualTo(CheckResult.Status.FAILED);
        assertThat(candidate.manifest()).isEmpty();
        List<String> problems = candidate.manifestCheck().problems();
        assertThat(problems).hasSizeGreaterThanOrEqualTo(5);
        assertThat(String.join("\n", problems))
                .contains("manifest.json: required property 'version' not found")
                .contains("manifest.json /signalTypes/0: does not have a value in the enumeration")
                .contains("/schemaVersion")
                .contains("/integrity")
                .contains("/configSchema/type");
        assertThat(candidate.integrity().status()).isEqualTo(CheckResult.Status.NOT_CHECKED);
    }

    @Test
    void theManifestNameMustEqualTheMarkerName() {
        PluginFixture.named("echo").signedBy(KEY).editManifest(m -> m.put("name", "other")).writeInto(plugins);
        assertThat(only(store()).manifestCheck().summary()).contains("/name 'other' differs from the package marker name 'echo'");
    }

    @Test
    void theAllowedSignalTypesAreMetricsLogsTracesTopology() {
        PluginFixture.named("echo").signedBy(KEY).editManifest(m -> m.putArray("signalTypes").add("metrics").add("logs").add("traces").add("topology"))
                .writeInto(plugins);
        assertThat(only(store()).manifestCheck().ok()).isTrue();
    }

    @Test
    void aManifestWithoutIntegrity_failsIntegrity() {
        PluginFixture.named("echo").signedBy(KEY).editManifest(m -> m.remove("integrity")).writeInto(plugins);
        PluginCandidate candidate = only(store());
        assertThat(candidate.manifestCheck().ok()).as("integrity is optional in the schema: unverified loading needs none").isTrue();
        assertThat(candidate.integrity().summary()).contains("has no integrity");
    }

    @Test
    void aSymlinkedEntryJar_isRefused() throws IOException {
        Path root = PluginFixture.named("echo").signedBy(KEY).writeInto(plugins);
        Path outside = Files.move(root.resolve("echo-connector.jar"), tmp.resolve("outside.jar"));
        Files.createSymbolicLink(root.resolve("echo-connector.jar"), outside);
        assertThat(only(store()).manifestCheck().summary()).contains("symbolic link");
    }

    @Test
    void aDirectoryWithoutMarkerIsNoPlugin_andAMissingPluginsDirMeansNone() throws IOException {
        Files.createDirectories(plugins.resolve("notes"));
        Files.writeString(plugins.resolve("notes/package.json"), "{\"name\":\"notes\"}");
        Files.createDirectories(plugins.resolve(".staging-123"));
        PluginFixture.named("hidden").signedBy(KEY).directory(".staging-123/x").writeInto(plugins);
        assertThat(store().scan(List.of()).candidates()).isEmpty();
        PluginScan missing = new FilesystemPluginStore(tmp.resolve("nope"), Optional.of(trustRoot)).scan(List.of());
        assertThat(missing.directoryPresent()).isFalse();
        assertThat(missing.candidates()).isEmpty();
    }

    @Test
    void eachPluginHasItsOwnClassLoader_exposingOnlyTheSdkJakartaJsonAndSlf4j() throws Exception {
        PluginFixture.named("echo").signedBy(KEY).writeInto(plugins);
        FilesystemPluginStore store = store();
        ConnectorFactory factory = store.load(only(store)).factory();
        ClassLoader loader = factory.getClass().getClassLoader();
        assertThat(factory.getClass()).isNotSameAs(EchoConnectorFactory.class);
        assertThat(factory.getClass().getName()).isEqualTo(EchoConnectorFactory.class.getName());
        assertThat(loader.loadClass("dev.omcp.sdk.connector.ConnectorFactory")).isSameAs(ConnectorFactory.class);
        assertThat(loader.loadClass("jakarta.json.Json")).isSameAs(jakarta.json.Json.class);
        Class<?> probe = loader.loadClass("dev.omcp.adapters.storage.plugins.fixture.GatewayProbe");
        java.lang.reflect.Method canSee = probe.getMethod("canSee", String.class);
        assertThat(canSee.invoke(null, "dev.omcp.sdk.hook.Hook")).isEqualTo(true);
        assertThat(canSee.invoke(null, "org.slf4j.LoggerFactory")).isEqualTo(true);
        assertThat(canSee.invoke(null, "java.net.http.HttpClient")).isEqualTo(true);
        assertThat(canSee.invoke(null, "com.fasterxml.jackson.databind.ObjectMapper")).isEqualTo(false);
        assertThat(canSee.invoke(null, "dev.omcp.ports.connectors.ConnectorCatalog")).isEqualTo(false);
        assertThat(canSee.invoke(null, "dev.omcp.adapters.storage.plugins.FilesystemPluginStore")).isEqualTo(false);
        assertThat(canSee.invoke(null, "org.bouncycastle.openssl.PEMParser")).isEqualTo(false);
        assertThat(loader.getResources("META-INF/services/dev.omcp.ports.plugins.PluginInspector").hasMoreElements())
                .as("gateway resources are invisible").isFalse();

        PluginFixture.named("other").signedBy(KEY).writeInto(plugins);
        List<PluginCandidate> both = store.scan(List.of()).candidates();
        assertThat(store.load(both.get(1)).factory().getClass().getClassLoader()).isNotSameAs(store.load(both.get(0)).factory().getClass().getClassLoader());
    }

    @Test
    void aJarChangedAfterTheScan_isNotLoaded() throws IOException {
        Path root = PluginFixture.named("echo").signedBy(KEY).writeInto(plugins);
        FilesystemPluginStore store = store();
        PluginCandidate candidate = only(store);
        Files.write(root.resolve("echo-connector.jar"), new byte[] {1, 2, 3}, java.nio.file.StandardOpenOption.APPEND);
        assertThatThrownBy(() -> store.load(candidate)).isInstanceOf(PluginLoadException.class).hasMessageContaining("changed since they were checked");
    }

    @Test
    void aJarWithoutServicesEntry_orWithTwoFactories_doesNotLoad() {
        PluginFixture.named("none").signedBy(KEY).services(null).writeInto(plugins);
        PluginFixture.named("two").signedBy(KEY)
                .services(EchoConnectorFactory.class.getName() + "\n" + dev.omcp.adapters.storage.plugins.fixture.TwinConnectorFactory.class.getName() + "\n")
                .writeInto(plugins);
        FilesystemPluginStore store = store();
        List<PluginCandidate> candidates = store.scan(List.of()).candidates();
        assertThatThrownBy(() -> store.load(candidates.get(0))).hasMessageContaining("registers no factory");
        assertThatThrownBy(() -> store.load(candidates.get(1))).hasMessageContaining("registers 2 factories");
    }

    @Test
    void aFactoryFailingWithAnError_isALoadFailureNamingIt_notAnErrorThatStopsTheScan() {
        PluginFixture.named("asserting").signedBy(KEY)
                .services(dev.omcp.adapters.storage.plugins.fixture.AssertingConnectorFactory.class.getName() + "\n").writeInto(plugins);
        FilesystemPluginStore store = store();
        PluginCandidate candidate = only(store);
        assertThat(candidate.fullyVerified()).as(candidate.problems().toString()).isTrue();
        // an Error escaping the load ended the whole start, or left an upgrade installed without taking it back
        assertThatThrownBy(() -> store.load(candidate)).isInstanceOf(PluginLoadException.class)
                .hasMessage("the factory of 'asserting' failed to describe itself: AssertionError: manifest not configured");
    }

    @Test
    void aHookWhoseStaticInitializerFailsWithAnError_isSkipped_andTheConnectorStillLoads() throws Exception {
        PluginFixture.named("echo").signedBy(KEY)
                .hook("tool_pre_invoke", "dev.omcp.adapters.storage.plugins.fixture.AssertingHook")
                .writeInto(plugins);
        FilesystemPluginStore store = store();
        LoadedPlugin loaded = store.load(only(store));
        assertThat(loaded.hooks()).isEmpty();
        assertThat(loaded.skippedHooks()).extracting(LoadedPlugin.SkippedHook::reason).containsExactly(
                "module 'dev.omcp.adapters.storage.plugins.fixture.AssertingHook' cannot be loaded: "
                        + "AssertionError: hook table not initialized");
    }

    @Test
    void aFactoryDeclaringAnotherNameThanTheManifest_doesNotLoad() throws IOException {
        Path root = PluginFixture.named("echo").signedBy(KEY).writeInto(plugins);
        // plugin-name.txt inside the JAR says "echo"; a plugin "renamed" from its directory would say otherwise.
        Path renamed = plugins.resolve("renamed");
        PluginFixture fixture = PluginFixture.named("renamed").signedBy(KEY);
        fixture.writeInto(plugins);
        Files.copy(root.resolve("echo-connector.jar"), renamed.resolve("renamed-connector.jar"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(renamed.resolve("manifest.json"), Files.readString(renamed.resolve("manifest.json"))
                .replaceAll("sha256-[A-Za-z0-9+/]{43}=", PluginFiles.integrity(Files.readAllBytes(renamed.resolve("renamed-connector.jar")))));
        Files.write(renamed.resolve("manifest.json.sig"), Keys.sign(KEY, Files.readAllBytes(renamed.resolve("manifest.json"))));
        FilesystemPluginStore store = store();
        PluginCandidate candidate = store.scan(List.of()).candidates().stream().filter(c -> c.name().equals("renamed")).findFirst().orElseThrow();
        assertThat(candidate.fullyVerified()).isTrue();
        assertThatThrownBy(() -> store.load(candidate)).hasMessageContaining("the factory declares connector 'echo' but manifest.json names 'renamed'");
    }

    @Test
    void spec6_1_rule5_hookModules_escapingMissingOrInvalidAreSkipped_neverFailingTheLoad() throws Exception {
        PluginFixture.named("echo").signedBy(KEY)
                .hook("tool_pre_invoke", "dev/omcp/adapters/storage/plugins/fixture/AuditHook.class")
                .hook("tool_post_invoke", "../../../etc/passwd.class")
                .hook("resource_pre_fetch", "/abs/Evil.class")
                .hook("resource_post_fetch", "dev.omcp.adapters.storage.plugins.fixture.Missing")
                .hook("prompt_pre_fetch", "dev.omcp.adapters.storage.plugins.fixture.NotAHook")
                .hook("prompt_post_fetch", "dev.omcp.adapters.storage.plugins.fixture.BrokenHook")
                .writeInto(plugins);
        FilesystemPluginStore store = store();
        LoadedPlugin loaded = store.load(only(store));
        assertThat(loaded.hooks()).singleElement().satisfies(h -> {
            assertThat(h.entry().kind()).isEqualTo(HookKind.TOOL_PRE_INVOKE);
            assertThat(h.hook().getClass().getClassLoader()).isSameAs(loaded.factory().getClass().getClassLoader());
            assertThat(h.hook().handle(new dev.omcp.sdk.hook.HookContext("p", "", HookKind.TOOL_PRE_INVOKE, "forbidden_tool"),
                    jakarta.json.JsonValue.EMPTY_JSON_OBJECT).allow()).isFalse();
        });
        assertThat(loaded.skippedHooks()).extracting(LoadedPlugin.SkippedHook::reason).containsExactly(
                "module '../../../etc/passwd.class' escapes the plugin root",
                "module '/abs/Evil.class' escapes the plugin root: it must be a relative path inside the plugin",
                "module 'dev.omcp.adapters.storage.plugins.fixture.Missing' is missing: the plugin JAR has no class dev.omcp.adapters.storage.plugins.fixture.Missing",
                "module 'dev.omcp.adapters.storage.plugins.fixture.NotAHook' is not a hook: dev.omcp.adapters.storage.plugins.fixture.NotAHook does not implement dev.omcp.sdk.hook.Hook",
                "module 'dev.omcp.adapters.storage.plugins.fixture.BrokenHook' failed in its constructor: IllegalStateException: hook configuration missing");
    }

    @Test
    void spec6_1_rule5_twoHooksOfOneKind_theLaterIsTheOneLoaded_andTheEarlierIsSkippedAsReplaced() throws Exception {
        String pathModule = "dev/omcp/adapters/storage/plugins/fixture/AuditHook.class";
        String classModule = "dev.omcp.adapters.storage.plugins.fixture.AuditHook";
        PluginFixture.named("echo").signedBy(KEY)
                .hook("tool_pre_invoke", pathModule)
                .hook("tool_pre_invoke", classModule)
                .writeInto(plugins);
        FilesystemPluginStore store = store();
        LoadedPlugin loaded = store.load(only(store));
        assertThat(loaded.hooks()).singleElement().satisfies(h -> assertThat(h.entry().module()).isEqualTo(classModule));
        assertThat(loaded.skippedHooks()).singleElement().satisfies(skipped -> {
            assertThat(skipped.entry().module()).isEqualTo(pathModule);
            assertThat(skipped.reason()).isEqualTo("replaced by module '" + classModule
                    + "' (a tool_pre_invoke hook registered later in the manifest; a plugin runs one hook of each kind)");
        });
    }

    @Test
    void spec6_1_rule5_anEarlierHookStaysWhenTheLaterOneOfItsKindCannotBeLoaded() throws Exception {
        PluginFixture.named("echo").signedBy(KEY)
                .hook("tool_pre_invoke", "dev/omcp/adapters/storage/plugins/fixture/AuditHook.class")
                .hook("tool_pre_invoke", "dev.omcp.adapters.storage.plugins.fixture.Missing")
                .writeInto(plugins);
        FilesystemPluginStore store = store();
        LoadedPlugin loaded = store.load(only(store));
        assertThat(loaded.hooks()).singleElement()
                .satisfies(h -> assertThat(h.entry().module()).isEqualTo("dev/omcp/adapters/storage/plugins/fixture/AuditHook.class"));
        assertThat(loaded.skippedHooks()).singleElement().satisfies(skipped -> assertThat(skipped.reason()).contains("is missing"));
    }
}
