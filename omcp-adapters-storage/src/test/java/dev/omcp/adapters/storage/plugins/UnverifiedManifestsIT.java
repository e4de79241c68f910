package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.omcp.adapters.storage.CapturedLog;
import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginInspector;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.KeyPair;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * spec 3.5, 5.8: wherever signatures are demanded, a manifest is read with its size bound and parsed
 * only once its signature verified over the raw bytes: by the scan, the listing of one installed
 * plugin ({@code installed}), the recovery of interrupted installs at start, {@code omcp plugin
 * verify}, and the re-check a load makes. Each is given hostile, unsigned manifests that a parse would
 * choke on or report on; the manifest check must say it was not parsed, not what a parser found.
 */
class UnverifiedManifestsIT {
    private static final KeyPair KEY = Keys.ed25519();
    private static final String NOT_PARSED = "manifest.json was not parsed: its signature did not verify (see the signature check), and an "
            + "unverified manifest is not read";

    @TempDir
    Path tmp;
    private Path plugins;
    private Path trustRoot;
    @RegisterExtension
    final CapturedLog log = new CapturedLog(InterruptedInstalls.class);

    /** What an attacker who can write into the plugins directory, but cannot sign, puts there. */
    enum Hostile {
        /** Nesting far past the parser's depth limit. */
        DEEPLY_NESTED,
        /** Not UTF-8 at all. */
        INVALID_UTF8,
        /** Just under the size bound: a parse would hold it all. */
        HUGE_WITHIN_THE_BOUND,
        /** Valid JSON and valid against the schema, with the right integrity: only its signature is missing. */
        WELL_FORMED;

        byte[] bytes(byte[] signedManifest) {
            return switch (this) {
                case DEEPLY_NESTED -> "[".repeat(200_000).getBytes(StandardCharsets.US_ASCII);
                case INVALID_UTF8 -> new byte[] {'{', '"', (byte) 0xc3, (byte) 0x28, (byte) 0xff, '"', ':', '1', '}'};
                case HUGE_WITHIN_THE_BOUND -> ("{\"x\":\"" + "a".repeat(PluginLimits.MAX_MANIFEST_BYTES - 16) + "\"}").getBytes(StandardCharsets.US_ASCII);
                case WELL_FORMED -> new String(signedManifest, StandardCharsets.UTF_8).replace("a test connector", "unsigned")
                        .getBytes(StandardCharsets.UTF_8);
            };
        }
    }

    @BeforeEach
    void setUp() throws IOException {
        plugins = Files.createDirectories(tmp.resolve("plugins"));
        trustRoot = Files.writeString(tmp.resolve("trust-root.pem"), Keys.publicPem(KEY));
    }

    private FilesystemPluginStore gated() {
        return new FilesystemPluginStore(plugins, Optional.of(trustRoot), Optional.empty(), true);
    }

    /** A signed plugin whose manifest is then replaced by {@code hostile}, its signature file removed. */
    private Path hostilePlugin(Path parent, String directory, Hostile hostile) throws IOException {
        Path root = PluginFixture.named("echo").directory(directory).signedBy(KEY).writeInto(parent);
        byte[] signed = Files.readAllBytes(root.resolve("manifest.json"));
        Files.write(root.resolve("manifest.json"), hostile.bytes(signed));
        Files.delete(root.resolve("manifest.json.sig"));
        return root;
    }

    private static void assertNotParsed(PluginCandidate candidate) {
        assertThat(candidate.manifest()).isEmpty();
        assertThat(candidate.signature().problems()).containsExactly("unsigned: manifest.json.sig is missing beside the manifest");
        assertThat(candidate.manifestCheck().problems()).containsExactly(NOT_PARSED);
    }

    @ParameterizedTest
    @EnumSource(Hostile.class)
    void theScan_doesNotParseAnUnsignedManifest(Hostile hostile) throws IOException {
        hostilePlugin(plugins, "echo", hostile);
        assertNotParsed(gated().scan(List.of()).candidates().getFirst());
    }

    @ParameterizedTest
    @EnumSource(Hostile.class)
    void theListingOfOneInstalledPlugin_doesNotParseAnUnsignedManifest(Hostile hostile) throws IOException {
        hostilePlugin(plugins, "echo", hostile);
        PluginCandidate installed = gated().installed("echo").orElseThrow();
        assertNotParsed(installed);
        assertThat(installed).as("as a scan reports it").isEqualTo(gated().scan(List.of()).candidates().getFirst());
    }

    @ParameterizedTest
    @EnumSource(Hostile.class)
    void verify_doesNotParseAnUnsignedManifest(Hostile hostile) throws IOException {
        Path root = hostilePlugin(tmp, "elsewhere", hostile);
        PluginInspector.Inspection inspection = new DirectoryPluginInspector().inspect(root, trustRoot);
        assertNotParsed(inspection.candidate());
    }

    @ParameterizedTest
    @EnumSource(Hostile.class)
    void theRecoveryAtStart_doesNotParseAnUnsignedManifest_andPutsTheSignedEarlierInstallBack(Hostile hostile) throws IOException {
        Path aside = PluginFixture.named("echo").version("0.9.0").directory(".replaced-echo-" + UUID.randomUUID()).signedBy(KEY).writeInto(plugins);
        Files.setLastModifiedTime(aside, FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));
        hostilePlugin(plugins, "echo", hostile);

        gated().recoverInterruptedInstalls();

        assertThat(log.messages(Level.WARN)).anySatisfy(line -> assertThat(line).startsWith("event=plugin-install-incomplete plugin=echo")
                .contains(NOT_PARSED));
        assertThat(gated().installed("echo").orElseThrow().manifest().orElseThrow().version())
                .as("the unsigned install in place counts as incomplete; the signed one kept aside is back").isEqualTo("0.9.0");
        try (Stream<Path> list = Files.list(plugins)) {
            assertThat(list.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith(InterruptedInstalls.INCOMPLETE_PREFIX + "echo-"));
        }
    }

    @Test
    void aHugeManifest_isRefusedFromItsSize_beforeAnyByteIsRead() throws IOException {
        Path root = PluginFixture.named("echo").writeInto(plugins);
        try (RandomAccessFile sparse = new RandomAccessFile(root.resolve("manifest.json").toFile(), "rw")) {
            sparse.setLength(4L << 30); // 4 GiB that take no disk: reading it whole would take the heap
        }
        for (PluginCandidate candidate : List.of(gated().scan(List.of()).candidates().getFirst(), gated().installed("echo").orElseThrow(),
                new DirectoryPluginInspector().inspect(root, trustRoot).candidate())) {
            assertThat(candidate.manifestCheck().problems()).containsExactly("manifest 'manifest.json' is larger than 1048576 bytes");
            assertThat(candidate.signature().problems()).containsExactly("signature not checked: the manifest could not be read");
        }
    }

    @Test
    void withVerificationOnButNoTrustRoot_noManifestIsParsed_andTheReasonSaysTheSignatureCouldNotBeChecked() throws IOException {
        hostilePlugin(plugins, "echo", Hostile.DEEPLY_NESTED);
        FilesystemPluginStore noTrustRoot = new FilesystemPluginStore(plugins, Optional.empty(), Optional.empty(), true);
        for (PluginCandidate candidate : List.of(noTrustRoot.scan(List.of()).candidates().getFirst(), noTrustRoot.installed("echo").orElseThrow())) {
            assertThat(candidate.manifestCheck().problems()).containsExactly("manifest.json was not parsed: its signature could not be checked "
                    + "(see the signature check), and an unverified manifest is not read");
            assertThat(candidate.signature().summary()).startsWith("signature not checked: no trust root");
        }
    }

    @Test
    void withVerificationOff_theListingAndTheRecoveryParseUnsignedManifests_asTheyLoadUnsigned() throws IOException {
        hostilePlugin(plugins, "echo", Hostile.WELL_FORMED);
        FilesystemPluginStore open = new FilesystemPluginStore(plugins, Optional.of(trustRoot), Optional.empty(), false);
        assertThat(open.installed("echo").orElseThrow().manifestCheck().ok()).isTrue();

        Path aside = PluginFixture.named("echo").version("0.9.0").directory(".replaced-echo-" + UUID.randomUUID()).signedBy(KEY).writeInto(plugins);
        open.recoverInterruptedInstalls();
        assertThat(aside).as("the unsigned install in place is complete: the earlier one is deleted").doesNotExist();
    }

    @Test
    void aLoad_parsesTheManifestAgainOnlyWhenItsBytesAreTheOnesThatWereChecked() throws IOException {
        Path root = PluginFixture.named("echo").signedBy(KEY).writeInto(plugins);
        PluginInspector.Inspection inspection = new DirectoryPluginInspector().inspect(root, trustRoot);
        assertThat(inspection.candidate().fullyVerified()).isTrue();
        Files.write(root.resolve("manifest.json"), Hostile.DEEPLY_NESTED.bytes(new byte[0]));

        PluginDirectoryCheck check = new PluginDirectoryCheck(new ManifestSchema());
        PluginCandidate recheck = check.check(root, root.toString(), ConnectorType.Origin.FILESYSTEM, Optional.empty(), TrustRootKeys.absent(),
                ManifestTrust.sameAs(inspection.candidate().fingerprint())).orElseThrow().candidate();
        assertThat(recheck.manifestCheck().problems()).containsExactly("manifest.json was not parsed: the plugin's files changed since they "
                + "were checked, and a manifest that was not checked is not read");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new DirectoryPluginInspector().load(inspection))
                .hasMessageContaining("changed since they were checked");
    }

    @Test
    void aSignedManifestThatIsNotUtf8_isRefused_notReadWithReplacementCharacters() throws IOException {
        Path root = PluginFixture.named("echo").signedBy(KEY).writeInto(plugins);
        byte[] signed = Files.readAllBytes(root.resolve("manifest.json"));
        byte[] latin1 = new String(signed, StandardCharsets.UTF_8).replace("a test connector", "caf\u00e9 connector")
                .getBytes(StandardCharsets.ISO_8859_1);
        Files.write(root.resolve("manifest.json"), latin1);
        Files.write(root.resolve("manifest.json.sig"), Keys.sign(KEY, latin1));

        PluginCandidate candidate = gated().scan(List.of()).candidates().getFirst();
        assertThat(candidate.signature().ok()).isTrue();
        assertThat(candidate.manifestCheck().problems()).containsExactly("manifest.json is not valid UTF-8 (JSON text must be, RFC 8259 "
                + "section 8.1); save it as UTF-8");
    }
}
