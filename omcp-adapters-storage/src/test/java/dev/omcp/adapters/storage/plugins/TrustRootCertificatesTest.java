package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.plugins.TrustRoot;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.Test;

/**
 * A trust root of certificates: a certificate outside its validity vouches for nothing, as a revoked key does not. Its key
 * would otherwise verify plugins for as long as the file is deployed, whatever the certificate says about its end.
 */
class TrustRootCertificatesTest {
    private static final KeyPair CURRENT = Keys.ed25519();
    private static final KeyPair EXPIRED = Keys.ed25519();
    private static final KeyPair FUTURE = Keys.ed25519();
    private static final Instant NOW = Instant.now();
    private static final byte[] DATA = "{\"name\": \"tempo\"}".getBytes(StandardCharsets.UTF_8);

    private static String certificate(KeyPair key, String subject, Instant from, Instant to) {
        X500Name name = new X500Name("CN=" + subject);
        try {
            byte[] der = new JcaX509v3CertificateBuilder(name, BigInteger.ONE, Date.from(from), Date.from(to), name, key.getPublic())
                    .build(new JcaContentSignerBuilder("Ed25519").build(key.getPrivate()))
                    .getEncoded();
            return Keys.pem("CERTIFICATE", der);
        } catch (OperatorCreationException | java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String expired() {
        return certificate(EXPIRED, "old signer", NOW.minus(Duration.ofDays(400)), NOW.minus(Duration.ofDays(35)));
    }

    private static String notYetValid() {
        return certificate(FUTURE, "next signer", NOW.plus(Duration.ofDays(30)), NOW.plus(Duration.ofDays(400)));
    }

    private static String current() {
        return certificate(CURRENT, "signer", NOW.minus(Duration.ofDays(1)), NOW.plus(Duration.ofDays(365)));
    }

    @Test
    void aCurrentCertificate_vouchesForItsKey() {
        TrustRootKeys keys = TrustRootKeys.parse(current());
        assertThat(keys.state().isLoaded()).as(keys.state().detail()).isTrue();
        assertThat(keys.verify(DATA, Keys.sign(CURRENT, DATA))).isEmpty();
    }

    @Test
    void anExpiredOrNotYetValidCertificate_isNotUsed_theOthersAre_andTheStartSaysWhich() {
        TrustRootKeys keys = TrustRootKeys.parse(expired() + current() + notYetValid());
        assertThat(keys.state().isLoaded()).isTrue();
        assertThat(keys.verify(DATA, Keys.sign(CURRENT, DATA))).isEmpty();
        assertThat(keys.verify(DATA, Keys.sign(EXPIRED, DATA)).orElseThrow())
                .startsWith("the signature does not verify against the trust root");
        assertThat(keys.verify(DATA, Keys.sign(FUTURE, DATA))).isPresent();
        assertThat(keys.state().detail())
                .startsWith(TrustRootKeys.describe(CURRENT.getPublic()) + "; not used, outside their validity: ")
                .contains("certificate CN=old signer (" + TrustRootKeys.describe(EXPIRED.getPublic()) + ") expired on ")
                .contains("certificate CN=next signer (" + TrustRootKeys.describe(FUTURE.getPublic()) + ") is valid only from ");
    }

    @Test
    void revokingAnotherKey_keepsSayingWhichCertificatesAreNotUsed() {
        KeyPair revoked = Keys.ed25519();
        TrustRootKeys all = TrustRootKeys.parse(expired() + current() + Keys.publicPem(revoked));
        String fingerprint = PluginFiles.hex(PluginFiles.sha256(revoked.getPublic().getEncoded()));
        RevokedKeys list = ((RevokedKeys.Loaded.Keys) RevokedKeys.parse("sha256:" + fingerprint + "\n")).keys();
        TrustRootKeys keys = all.without(list);
        assertThat(keys.state().detail())
                .startsWith(TrustRootKeys.describe(CURRENT.getPublic()) + "; not used, outside their validity: certificate CN=old signer")
                .endsWith("; revoked by OMCP_PLUGIN_REVOKED_KEYS: " + TrustRootKeys.describe(revoked.getPublic()));
    }

    @Test
    void aTrustRootOfOnlyExpiredCertificates_isUnusable_failingClosed_andSaysWhatToDo() {
        TrustRootKeys keys = TrustRootKeys.parse(expired());
        assertThat(keys.state().state()).isEqualTo(TrustRoot.State.INVALID);
        assertThat(keys.keys()).isEmpty();
        assertThat(keys.verify(DATA, Keys.sign(EXPIRED, DATA))).isPresent();
        assertThat(keys.state().detail())
                .startsWith("every certificate it holds is outside its validity (certificate CN=old signer (")
                .endsWith("); add a current certificate or the signing key's public key");
    }
}
