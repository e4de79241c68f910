package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.plugins.PluginCandidate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Values of a plugin's files as its refusals quote them: {@code package.json} is never signed and is read before any
 * signature, and a manifest is read unsigned with verification off. What the gateway logs and {@code GET /api/connectors}
 * shows stays one short line per problem, and a few problems, whatever the files hold.
 */
class HostilePluginValuesIT {
    private static final KeyPair KEY = Keys.ed25519();
    /** More than any one reason needs, far less than what a hostile file can hold. */
    private static final int SHORT = 1000;

    @TempDir
    Path tmp;
    private Path plugins;
    private Path trustRoot;

    @BeforeEach
    void setUp() throws IOException {
        plugins = Files.createDirectories(tmp.resolve("plugins"));
        trustRoot = Files.writeString(tmp.resolve("trust-root.pem"), Keys.publicPem(KEY));
    }

    private PluginCandidate only() {
        List<PluginCandidate> candidates = new FilesystemPluginStore(plugins, Optional.of(trustRoot), Optional.empty(), true)
                .scan(List.of()).candidates();
        assertThat(candidates).hasSize(1);
        return candidates.getFirst();
    }

    private void packageJson(String directory, String main, String kind, String name, String manifest) throws IOException {
        Path root = Files.createDirectories(plugins.resolve(directory));
        Files.writeString(root.resolve("package.json"), "{\"main\": \"" + main + "\", \"observabilityMcp\": {\"kind\": \"" + kind
                + "\", \"name\": \"" + name + "\", \"manifest\": \"" + manifest + "\"}}");
    }

    private static void assertShortSingleLines(List<String> problems) {
        assertThat(problems).isNotEmpty().allSatisfy(problem -> assertThat(problem)
                .hasSizeLessThan(SHORT)
                .doesNotContain("\n", "\r", "\u2028", "\u202e"));
    }

    @Test
    void aMarkerNameThatIsNoConnectorName_isNotTheCandidatesName_andIsQuotedOnOneShortLine() throws IOException {
        packageJson("tempo", "x.jar", "connector", "ev\\nil\\u202e" + "z".repeat(60_000), "manifest.json");
        PluginCandidate candidate = only();
        assertThat(candidate.name()).as("the name the log and the API list it under").isEqualTo("tempo");
        assertShortSingleLines(candidate.problems());
        assertThat(candidate.problems().getFirst()).startsWith("package.json: observabilityMcp.name 'ev?il?zzz").contains("…' must be");
    }

    @Test
    void aMarkerNameThatIsNoJsonString_isRefused_notReadAsTheTextOfTheNumber() throws IOException {
        // {"name": 5} was the connector "5", {"name": true} the connector "true": a name is a string, never guessed from another type
        for (String name : List.of("5", "true", "1.0")) {
            Path root = Files.createDirectories(plugins.resolve("tempo"));
            Files.writeString(root.resolve("package.json"), "{\"main\": \"x.jar\", \"observabilityMcp\": {\"kind\": \"connector\","
                    + " \"name\": " + name + ", \"manifest\": \"manifest.json\"}}");
            PluginCandidate candidate = only();
            assertThat(candidate.name()).as(name).isEqualTo("tempo");
            assertThat(candidate.problems().getFirst()).as(name)
                    .startsWith("package.json: observabilityMcp.name must be a string");
        }
    }

    @Test
    void aHugeOrMultiLineMainOrManifestPath_isRefusedQuotedOnOneShortLine() throws IOException {
        packageJson("tempo", "../x\\n" + "z".repeat(30_000) + ".jar", "connector", "tempo", "../m\\n" + "q".repeat(30_000));
        PluginCandidate candidate = only();
        assertShortSingleLines(candidate.problems());
        assertThat(String.join("; ", candidate.problems()))
                .contains("package.json: main '../x?zzz")
                .contains("observabilityMcp.manifest '../m?qqq");
    }

    @Test
    void aHugeManifestPathInsideThePlugin_isRefusedFromThePackageDescriptor_notEchoedByEveryLaterCheck() throws IOException {
        packageJson("tempo", "x.jar", "connector", "tempo", "m" + "k".repeat(60_000) + ".json");
        PluginCandidate candidate = only();
        assertShortSingleLines(candidate.problems());
        assertThat(candidate.problems().getFirst()).startsWith("package.json: observabilityMcp.manifest 'mkkk")
                .contains("is longer than 1024 characters");
    }

    @Test
    void aMarkerKindThatIsNotConnector_isQuotedOnOneShortLine_whenAPinAsksForThePlugin() throws IOException {
        packageJson("tempo-1.0.0", "x.jar", "conn\\nector" + "k".repeat(60_000), "tempo", "manifest.json");
        List<PluginCandidate> candidates = new FilesystemPluginStore(plugins, Optional.of(trustRoot), Optional.empty(), true)
                .scan(List.of(new dev.omcp.ports.plugins.PluginPin("tempo", "1.0.0"))).candidates();
        assertThat(candidates).hasSize(1);
        assertShortSingleLines(candidates.getFirst().problems());
        assertThat(candidates.getFirst().problems().getFirst()).startsWith("observabilityMcp.kind is 'conn?ectorkkk");
    }

    @Test
    void aManifestOfThousandsOfViolations_reportsTheFirstOnes_andHowManyMore() {
        PluginFixture.named("echo").signedBy(KEY).editManifest(m -> {
            for (int i = 0; i < 20_000; i++) {
                m.put("k" + i, 1);
            }
        }).writeInto(plugins);
        List<String> problems = only().manifestCheck().problems();
        assertShortSingleLines(problems);
        assertThat(problems).hasSize(ManifestSchema.MAX_VIOLATIONS + 1);
        assertThat(problems.getFirst()).isEqualTo("manifest.json: property 'k0' is not defined in the schema and the schema does not allow"
                + " additional properties");
        assertThat(problems.getLast()).isEqualTo("manifest.json: and " + (20_000 - ManifestSchema.MAX_VIOLATIONS)
                + " more violations of the manifest schema; fix the ones above and check again");
    }

    @Test
    void aViolationQuotingAHugeOrMultiLinePropertyName_staysOneShortLine() {
        PluginFixture.named("echo").signedBy(KEY).editManifest(m -> m.put("k\n\u2028" + "y".repeat(40_000), 1)).writeInto(plugins);
        List<String> problems = only().manifestCheck().problems();
        assertShortSingleLines(problems);
        assertThat(problems.getFirst()).startsWith("manifest.json: property 'k??yyy");
    }

    @Test
    void aLongManifestPathWithinTheLimit_isQuotedShortByEveryCheckThatNamesIt() throws IOException {
        // up to 1024 characters are a valid path (PackageMarker.MAX_PATH_LENGTH), but a problem that repeated all of
        // it left little of a 2000-character reason to the problem itself; here about 1000, in directories the
        // file system allows
        String deep = String.join("/", "d".repeat(240), "e".repeat(240), "f".repeat(240), "g".repeat(240)) + "/manifest.json";
        for (boolean signed : List.of(true, false)) {
            PluginFixture fixture = PluginFixture.named("echo").editManifest(m -> m.put("unknown", 1));
            Path root = (signed ? fixture.signedBy(KEY) : fixture).writeInto(plugins);
            Path manifest = Files.createDirectories(root.resolve(deep).getParent()).resolve("manifest.json");
            Files.move(root.resolve("manifest.json"), manifest);
            if (signed) {
                Files.move(root.resolve("manifest.json.sig"), manifest.resolveSibling("manifest.json.sig"));
            }
            Files.writeString(root.resolve("package.json"), "{\"main\": \"echo-connector.jar\", \"observabilityMcp\": "
                    + "{\"kind\": \"connector\", \"name\": \"echo\", \"manifest\": \"" + deep + "\"}}");
            List<String> problems = only().problems();
            assertThat(problems).as("signed: " + signed).isNotEmpty().allSatisfy(problem -> assertThat(problem)
                    .hasSizeLessThan(PackageMarker.MAX_QUOTED + 200).doesNotContain(deep));
            assertThat(String.join("; ", problems)).as("signed: " + signed).contains("dddd");
            if (signed) {
                assertThat(problems).anySatisfy(p -> assertThat(p).contains("property 'unknown' is not defined"));
            }
            FilesystemStagedBundle.deleteTreeOrThrow(root);
        }
    }
}
