package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.omcp.adapters.storage.CapturedLog;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.TrustRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** OMCP_PLUGIN_REVOKED_KEYS: a plugin signed by a revoked key does not verify, and a list that does not read trusts no key. */
class RevokedKeysIT {
    private static final KeyPair OLD = Keys.ed25519();
    private static final KeyPair CURRENT = Keys.ed25519();

    @TempDir
    Path tmp;
    private Path plugins;
    private Path trustRoot;
    @RegisterExtension
    final CapturedLog log = new CapturedLog(PluginDirectoryCheck.class);

    @BeforeEach
    void setUp() throws IOException {
        plugins = Files.createDirectory(tmp.resolve("plugins"));
        trustRoot = Files.writeString(tmp.resolve("trust-root.pem"), Keys.publicPem(OLD) + Keys.publicPem(CURRENT));
    }

    private static String fingerprint(KeyPair key) {
        return HexFormat.of().formatHex(PluginFiles.sha256(key.getPublic().getEncoded()));
    }

    private FilesystemPluginStore storeRevoking(String list) throws IOException {
        return new FilesystemPluginStore(plugins, Optional.of(trustRoot), Optional.of(Files.writeString(tmp.resolve("revoked.txt"), list)));
    }

    private PluginCandidate candidate(FilesystemPluginStore store, String location) {
        return store.scan(List.of()).candidates().stream().filter(c -> c.location().equals(location)).findFirst().orElseThrow();
    }

    @Test
    void aPluginSignedByARevokedKey_failsItsSignatureCheck_namingTheKey_withAnErrorLog_andOthersStillVerify() throws Exception {
        PluginFixture.named("old").signedBy(OLD).writeInto(plugins);
        PluginFixture.named("fresh").signedBy(CURRENT).writeInto(plugins);

        FilesystemPluginStore store = storeRevoking("sha256:" + fingerprint(OLD).substring(0, 16) + " leaked\n");

        assertThat(store.trustRoot().isLoaded()).isTrue();
        assertThat(store.trustRoot().detail()).endsWith("; revoked by OMCP_PLUGIN_REVOKED_KEYS: " + TrustRootKeys.describe(OLD.getPublic()));
        PluginCandidate old = candidate(store, "old");
        assertThat(old.signature().ok()).isFalse();
        assertThat(old.signature().problems()).singleElement().asString()
                .isEqualTo("manifest.json.sig: signed by a revoked key (" + TrustRootKeys.describe(OLD.getPublic())
                        + "), which OMCP_PLUGIN_REVOKED_KEYS revokes; install a version signed with a current key");
        assertThat(candidate(store, "fresh").fullyVerified()).isTrue();
        assertThat(log.events()).filteredOn(e -> e.getLevel() == Level.ERROR).extracting(ILoggingEvent::getFormattedMessage)
                .anySatisfy(line -> assertThat(line).startsWith("event=plugin-key-revoked location=\"" + plugins.resolve("old") + "\"")
                        .contains("signed by a revoked key"));
    }

    private List<String> revokedKeyLines() {
        return log.events().stream().filter(e -> e.getLevel() == Level.ERROR).map(ILoggingEvent::getFormattedMessage)
                .filter(line -> line.startsWith("event=plugin-key-revoked")).toList();
    }

    @Test
    void theRevokedKeyErrorIsLoggedOncePerPluginAndKey_notAtEveryRescan_andAgainWhenThePluginChanges() throws Exception {
        PluginFixture.named("old").signedBy(OLD).writeInto(plugins);
        PluginFixture.named("older").signedBy(OLD).writeInto(plugins);
        FilesystemPluginStore store = storeRevoking("sha256:" + fingerprint(OLD) + "\n");

        for (int rescan = 0; rescan < 4; rescan++) {
            store.scan(List.of());
        }

        assertThat(revokedKeyLines()).as("one line per plugin over four scans").hasSize(2)
                .anySatisfy(line -> assertThat(line).startsWith("event=plugin-key-revoked location=\"" + plugins.resolve("old") + "\" "))
                .anySatisfy(line -> assertThat(line).startsWith("event=plugin-key-revoked location=\"" + plugins.resolve("older") + "\" "));
        assertThat(candidate(store, "old").signature().ok()).as("still refused at every scan").isFalse();

        PluginFixture.named("old").version("1.0.1").signedBy(OLD).writeInto(plugins);
        store.scan(List.of());
        store.scan(List.of());
        assertThat(revokedKeyLines()).as("a changed plugin signed by the revoked key is logged again, once").hasSize(3);

        FilesystemPluginStore restarted = storeRevoking("sha256:" + fingerprint(OLD) + " leaked\n");
        restarted.scan(List.of());
        assertThat(revokedKeyLines()).as("a new start (the list is read at start) logs each again").hasSize(5);
    }

    @Test
    void aBundleSignedByARevokedKey_isRefusedWhenStaged() throws Exception {
        FilesystemPluginStore store = storeRevoking("sha256:" + fingerprint(OLD) + "\n");
        byte[] bundle = PluginFixture.named("old").signedBy(OLD).bundle("");

        try (var staged = store.stage(bundle)) {
            assertThat(staged.candidate().signature().problems()).singleElement().asString().contains("signed by a revoked key");
        }
        try (var left = Files.list(plugins)) {
            assertThat(left).as("the staging directory is gone once closed").isEmpty();
        }
    }

    @Test
    void revokingEveryKey_leavesNoUsableTrustRoot() throws Exception {
        FilesystemPluginStore store = storeRevoking("sha256:" + fingerprint(OLD) + "\nsha256:" + fingerprint(CURRENT) + "\n");

        assertThat(store.trustRoot().state()).isEqualTo(TrustRoot.State.INVALID);
        assertThat(store.trustRoot().unavailableReason()).contains("every key it holds is revoked by OMCP_PLUGIN_REVOKED_KEYS");
    }

    @Test
    void aListThatDoesNotRead_trustsNoKey_andSaysWhy() throws Exception {
        FilesystemPluginStore bad = storeRevoking("sha256:" + fingerprint(OLD) + "\nnot a fingerprint\n");
        assertThat(bad.trustRoot().state()).isEqualTo(TrustRoot.State.INVALID);
        assertThat(bad.trustRoot().unavailableReason()).contains("the key revocation list OMCP_PLUGIN_REVOKED_KEYS " + tmp.resolve("revoked.txt")
                + " line 2 is not a key fingerprint").endsWith("; until it reads, no key is trusted");

        FilesystemPluginStore missing = new FilesystemPluginStore(plugins, Optional.of(trustRoot), Optional.of(tmp.resolve("absent.txt")));
        assertThat(missing.trustRoot().unavailableReason()).contains(tmp.resolve("absent.txt") + " does not exist");

        PluginFixture.named("fresh").signedBy(CURRENT).writeInto(plugins);
        assertThat(candidate(missing, "fresh").signature().ok()).as("not even a current key's plugin verifies").isFalse();
    }
}
