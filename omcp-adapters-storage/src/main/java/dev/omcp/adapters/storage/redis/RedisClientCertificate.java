package dev.omcp.adapters.storage.redis;

import dev.omcp.adapters.storage.files.OperatorTextFile;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * The certificate the gateway presents to a {@code rediss://} server that asks for one, read from
 * {@code OMCP_REDIS_CERT_FILE} (the certificate, then any intermediates) and
 * {@code OMCP_REDIS_KEY_FILE} (its private key: PKCS#8, PKCS#1 RSA or SEC1 EC, unencrypted). Both may
 * name the same file. redis-server asks for a client certificate whenever it speaks TLS unless told
 * otherwise ({@code tls-auth-clients yes} is its default), so without one such a server closes every
 * connection.
 *
 * <p>What can be checked before connecting is checked here, so a start fails with the reason instead
 * of a TLS alert: the files parse, the key is not encrypted, the key belongs to the certificate and
 * the certificate has not expired. Messages name the setting and the file, never their content.
 */
final class RedisClientCertificate {
    static final String CERT_SETTING = "OMCP_REDIS_CERT_FILE";
    static final String KEY_SETTING = "OMCP_REDIS_KEY_FILE";
    /** A certificate chain or a key is a few kilobytes; 1 MiB keeps a wrong path from filling memory. */
    private static final int MAX_BYTES = 1 << 20;
    /** The in-memory key store's password: it never leaves this process, but the JDK wants one. */
    private static final char[] STORE_PASSWORD = "omcp-redis-client".toCharArray();

    private RedisClientCertificate() {}

    /**
     * Reads both files and builds the key managers that present the certificate.
     *
     * @throws IllegalArgumentException naming the setting, the file and what is wrong with it
     */
    static KeyManager[] keyManagers(Path certFile, Path keyFile, Instant now) {
        List<X509Certificate> chain = chain(certFile);
        PrivateKey key = privateKey(keyFile);
        X509Certificate leaf = chain.getFirst();
        if (!belongTogether(key, leaf.getPublicKey())) {
            throw new IllegalArgumentException(KEY_SETTING + " " + keyFile + " holds a key that does not belong to the first certificate"
                    + " in " + CERT_SETTING + " " + certFile + "; give the key the certificate was issued for, and put the client"
                    + " certificate first in its file");
        }
        if (leaf.getNotAfter().toInstant().isBefore(now)) {
            throw new IllegalArgumentException(CERT_SETTING + " " + certFile + " holds a certificate that expired on "
                    + leaf.getNotAfter().toInstant() + "; the server would refuse it: renew it");
        }
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("omcp-redis-client", key, STORE_PASSWORD, chain.toArray(X509Certificate[]::new));
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(store, STORE_PASSWORD);
            return factory.getKeyManagers();
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException(CERT_SETTING + " " + certFile + " and " + KEY_SETTING + " " + keyFile
                    + " cannot be used as a client identity (" + e.getClass().getSimpleName() + ")", e);
        }
    }

    private static List<X509Certificate> chain(Path certFile) {
        List<X509Certificate> chain = new ArrayList<>();
        JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
        for (Object block : blocks(CERT_SETTING, certFile)) {
            if (block instanceof X509CertificateHolder holder) {
                try {
                    chain.add(converter.getCertificate(holder));
                } catch (CertificateException e) {
                    throw new IllegalArgumentException(CERT_SETTING + " " + certFile + " holds a certificate that cannot be read ("
                            + e.getClass().getSimpleName() + ")", e);
                }
            }
        }
        if (chain.isEmpty()) {
            throw new IllegalArgumentException(CERT_SETTING + " " + certFile + " holds no PEM certificate (a block starting with"
                    + " -----BEGIN CERTIFICATE-----); give the client certificate the Redis server's CA issued");
        }
        return chain;
    }

    private static PrivateKey privateKey(Path keyFile) {
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        List<PrivateKey> keys = new ArrayList<>();
        for (Object block : blocks(KEY_SETTING, keyFile)) {
            try {
                switch (block) {
                    case PrivateKeyInfo info -> keys.add(converter.getPrivateKey(info));
                    case PEMKeyPair pair -> keys.add(converter.getKeyPair(pair).getPrivate());
                    case PKCS8EncryptedPrivateKeyInfo ignored -> throw encrypted(keyFile);
                    case PEMEncryptedKeyPair ignored -> throw encrypted(keyFile);
                    default -> {
                        // certificates and EC PARAMETERS may share the file with the key
                    }
                }
            } catch (IOException e) {
                throw new IllegalArgumentException(KEY_SETTING + " " + keyFile + " holds a private key of an unsupported algorithm or"
                        + " a damaged key (" + e.getClass().getSimpleName() + ")", e);
            }
        }
        if (keys.size() != 1) {
            throw new IllegalArgumentException(KEY_SETTING + " " + keyFile + (keys.isEmpty()
                    ? " holds no PEM private key (PKCS#8, PKCS#1 RSA or SEC1 EC); give the key of the client certificate"
                    : " holds " + keys.size() + " private keys; keep only the client certificate's key in it"));
        }
        return keys.getFirst();
    }

    private static IllegalArgumentException encrypted(Path keyFile) {
        return new IllegalArgumentException(KEY_SETTING + " " + keyFile + " holds an encrypted key, and the gateway has no"
                + " passphrase for it; decrypt it (openssl pkey -in key.pem -out plain.pem) and keep the file readable by the"
                + " gateway alone");
    }

    /** The PEM blocks of a file, parsed by BouncyCastle; any parse failure names the file, never its content. */
    private static List<Object> blocks(String setting, Path file) {
        String text = switch (OperatorTextFile.read(file, MAX_BYTES)) {
            case OperatorTextFile.Read.Text t -> t.text();
            case OperatorTextFile.Read.Unusable unusable -> throw new IllegalArgumentException(setting + " " + file + " " + unusable.reason());
        };
        List<Object> blocks = new ArrayList<>();
        try (PEMParser parser = new PEMParser(new StringReader(text))) {
            for (Object block = parser.readObject(); block != null; block = parser.readObject()) {
                blocks.add(block);
            }
        } catch (IOException | RuntimeException e) {
            // BouncyCastle reports bad base64 or DER with unchecked exceptions as well; none of them is shown
            throw new IllegalArgumentException(setting + " " + file + " is not a readable PEM file (" + e.getClass().getSimpleName()
                    + "); check that each block is whole, from -----BEGIN to -----END", e);
        }
        return blocks;
    }

    /** Whether {@code key} signs what {@code publicKey} verifies: the only test that works for every algorithm. */
    private static boolean belongTogether(PrivateKey key, PublicKey publicKey) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "EdDSA" -> "Ed25519";
            case "Ed448" -> "Ed448";
            default -> throw new IllegalArgumentException(KEY_SETTING + " holds a " + key.getAlgorithm() + " key; use an RSA, EC or"
                    + " Ed25519 key");
        };
        byte[] probe = "omcp redis client key check".getBytes(StandardCharsets.US_ASCII);
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(publicKey);
            verifier.update(probe);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            // a key of one algorithm and a certificate of another: they do not belong together
            return false;
        }
    }
}
