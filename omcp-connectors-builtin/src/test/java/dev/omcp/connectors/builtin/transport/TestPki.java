package dev.omcp.connectors.builtin.transport;

import java.io.StringWriter;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** A throwaway CA with server and client certificates, for TLS tests on loopback. */
public final class TestPki {
    private static final AtomicLong SERIAL = new AtomicLong(1);

    public record Issued(X509Certificate certificate, KeyPair keys) {
        public String certificatePem() {
            return pem("CERTIFICATE", encoded(certificate));
        }

        /** PKCS#8. */
        String keyPkcs8Pem() {
            return pem("PRIVATE KEY", keys.getPrivate().getEncoded());
        }

        /** The traditional OpenSSL form: PKCS#1 for RSA, SEC1 (with the curve) for EC. */
        String keyTraditionalPem() throws Exception {
            if (keys.getPrivate() instanceof java.security.interfaces.ECPrivateKey ecKey) {
                // as openssl writes it: SEC1 with the named curve in [0]
                var sec1 = new org.bouncycastle.asn1.sec.ECPrivateKey(256, ecKey.getS(),
                        new org.bouncycastle.asn1.ASN1ObjectIdentifier("1.2.840.10045.3.1.7"));
                return pem("EC PRIVATE KEY", sec1.getEncoded());
            }
            StringWriter out = new StringWriter();
            try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
                writer.writeObject(keys);
            }
            String text = out.toString();
            return text.substring(text.indexOf("-----BEGIN") , text.lastIndexOf("-----") + 5) + "\n";
        }
    }

    public final Issued ca;

    public TestPki() throws Exception {
        KeyPair keys = rsa();
        X500Name name = new X500Name("CN=omcp test CA");
        JcaX509v3CertificateBuilder builder = builder(name, name, keys);
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        ca = new Issued(sign(builder, keys.getPrivate(), "SHA256withRSA"), keys);
    }

    Issued server(String ipSan) throws Exception {
        KeyPair keys = rsa();
        JcaX509v3CertificateBuilder builder = builder(new X500Name("CN=omcp test CA"), new X500Name("CN=backend"), keys);
        builder.addExtension(Extension.subjectAlternativeName, false,
                new GeneralNames(new GeneralName(GeneralName.iPAddress, ipSan)));
        return new Issued(sign(builder, ca.keys().getPrivate(), "SHA256withRSA"), keys);
    }

    Issued client(String cn, boolean ec) throws Exception {
        KeyPair keys = ec ? ec() : rsa();
        JcaX509v3CertificateBuilder builder = builder(new X500Name("CN=omcp test CA"), new X500Name("CN=" + cn), keys);
        return new Issued(sign(builder, ca.keys().getPrivate(), "SHA256withRSA"), keys);
    }

    /** A server-side context presenting {@code server} and trusting this CA for client certificates. */
    SSLContext serverContext(Issued server) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("server", server.keys().getPrivate(), new char[0], new X509Certificate[] {server.certificate(), ca.certificate()});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, new char[0]);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", ca.certificate());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return context;
    }

    private static JcaX509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(SERIAL.getAndIncrement()),
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))), subject, keys.getPublic());
    }

    private static X509Certificate sign(JcaX509v3CertificateBuilder builder, PrivateKey key, String algorithm) throws Exception {
        return new JcaX509CertificateConverter().getCertificate(builder.build(new JcaContentSignerBuilder(algorithm).build(key)));
    }

    private static KeyPair rsa() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
    }

    private static KeyPair ec() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    private static byte[] encoded(X509Certificate c) {
        try {
            return c.getEncoded();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der) + "\n-----END " + type + "-----\n";
    }
}
