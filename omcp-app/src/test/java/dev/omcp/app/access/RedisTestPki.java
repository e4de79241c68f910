package dev.omcp.app.access;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** A throwaway CA for the Redis TLS tests: it issues server certificates for one name and client certificates. */
final class RedisTestPki {
    private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());
    private final X500Name caName;
    final KeyPair caKeys;
    final X509Certificate ca;

    /** A certificate and the key pair it was issued for. */
    record Issued(X509Certificate certificate, KeyPair keys) {}

    RedisTestPki() throws Exception {
        this("omcp redis test CA");
    }

    RedisTestPki(String commonName) throws Exception {
        caName = new X500Name("CN=" + commonName);
        caKeys = keys("EC");
        JcaX509v3CertificateBuilder builder = builder(caName, caKeys, Instant.now().plus(Duration.ofDays(1)));
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        ca = sign(builder);
    }

    Issued server(GeneralName subjectAlternativeName) throws Exception {
        KeyPair keys = keys("EC");
        JcaX509v3CertificateBuilder builder = builder(new X500Name("CN=redis"), keys, Instant.now().plus(Duration.ofDays(1)));
        builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(subjectAlternativeName));
        return new Issued(sign(builder), keys);
    }

    /** A client certificate for a key of {@code algorithm} (EC or RSA), valid until {@code notAfter}. */
    Issued client(String algorithm, Instant notAfter) throws Exception {
        KeyPair keys = keys(algorithm);
        JcaX509v3CertificateBuilder builder = builder(new X500Name("CN=omcp-gateway"), keys, notAfter);
        builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
        return new Issued(sign(builder), keys);
    }

    Issued client() throws Exception {
        return client("EC", Instant.now().plus(Duration.ofDays(1)));
    }

    Path caFile(Path dir) throws IOException {
        Path file = dir.resolve(caName.toString().replaceAll("[^A-Za-z0-9]", "_") + ".pem");
        if (!Files.exists(file)) {
            Files.writeString(file, pem(ca));
        }
        return file;
    }

    private JcaX509v3CertificateBuilder builder(X500Name subject, KeyPair keys, Instant notAfter) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(caName, BigInteger.valueOf(SERIAL.incrementAndGet()),
                Date.from(now.minus(Duration.ofDays(2))), Date.from(notAfter), subject, keys.getPublic());
    }

    private X509Certificate sign(JcaX509v3CertificateBuilder builder) throws Exception {
        return new JcaX509CertificateConverter().getCertificate(
                builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(caKeys.getPrivate())));
    }

    private static KeyPair keys(String algorithm) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
        if (algorithm.equals("EC")) {
            generator.initialize(new ECGenParameterSpec("secp256r1"));
        } else {
            generator.initialize(2048);
        }
        return generator.generateKeyPair();
    }

    /** PKCS#8 for a key pair (as the JDK encodes it, which OpenSSL reads), BouncyCastle's PEM for anything else. */
    static String pem(Object object) throws IOException {
        if (object instanceof KeyPair keys) {
            return "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(
                    keys.getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n";
        }
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(object);
        }
        return out.toString();
    }
}
