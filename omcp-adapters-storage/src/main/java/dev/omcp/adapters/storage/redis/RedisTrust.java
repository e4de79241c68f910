package dev.omcp.adapters.storage.redis;

import dev.omcp.adapters.storage.files.OperatorTextFile;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * The certificate authorities a {@code rediss://} server's certificate must chain to, read from the
 * PEM file {@code OMCP_REDIS_CA_FILE} names, for a server whose certificate a private CA signed.
 * Only those CAs are trusted for the store (not the JVM's as well), and the host name is still
 * checked against the certificate ({@link RedisTls}).
 */
final class RedisTrust {
    /** A CA bundle is a few certificates; 1 MiB leaves room for long chains and keeps a wrong path from filling memory. */
    static final int MAX_BYTES = 1 << 20;
    static final String SETTING = "OMCP_REDIS_CA_FILE";

    private RedisTrust() {}

    /**
     * The trust managers that trust only the CA certificates in {@code pemFile}.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it; never its content
     */
    static TrustManager[] trustManagers(Path pemFile) {
        String pem = switch (OperatorTextFile.read(pemFile, MAX_BYTES)) {
            case OperatorTextFile.Read.Text text -> text.text();
            case OperatorTextFile.Read.Unusable unusable -> throw new IllegalArgumentException(SETTING + " " + pemFile + " " + unusable.reason());
        };
        List<X509Certificate> authorities = certificates(pem, pemFile);
        try {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            for (int i = 0; i < authorities.size(); i++) {
                store.setCertificateEntry("omcp-redis-ca-" + i, authorities.get(i));
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            return trust.getTrustManagers();
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException(SETTING + " " + pemFile + " cannot be used as a trust store ("
                    + e.getClass().getSimpleName() + ")", e);
        }
    }

    private static List<X509Certificate> certificates(String pem, Path pemFile) {
        if (!pem.contains("-----BEGIN CERTIFICATE-----")) {
            throw new IllegalArgumentException(SETTING + " " + pemFile + " holds no PEM certificate (a block starting with"
                    + " -----BEGIN CERTIFICATE-----); give the CA certificate that signed the Redis server's certificate");
        }
        if (pem.contains("PRIVATE KEY-----")) {
            // a key pasted into a trust file is a leak waiting to happen; it is never needed here
            throw new IllegalArgumentException(SETTING + " " + pemFile + " holds a private key; it should hold only CA"
                    + " certificates: remove the key from the file (and consider it exposed)");
        }
        List<X509Certificate> out = new ArrayList<>();
        try {
            for (Certificate c : CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))) {
                if (c instanceof X509Certificate x509) {
                    out.add(x509);
                }
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(SETTING + " " + pemFile + " holds a certificate that cannot be read ("
                    + e.getClass().getSimpleName() + "); check that each block is a whole PEM certificate", e);
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(SETTING + " " + pemFile + " holds no X.509 certificate");
        }
        return out;
    }
}
