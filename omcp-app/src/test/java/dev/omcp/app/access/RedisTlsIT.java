package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.adapters.storage.redis.RedisConnection;
import dev.omcp.adapters.storage.redis.RedisRevocationStore;
import dev.omcp.adapters.storage.redis.RedisTrust;
import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.testkit.redis.RedisServerProcess;
import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rediss://} against a real redis-server speaking TLS with a certificate from a private CA:
 * trusted through {@code OMCP_REDIS_CA_FILE} ({@link RedisTrust}), refused without it, refused when
 * the certificate names another host, and CA files that are not what they should be refused with
 * what to do.
 */
@Tag("backend")
class RedisTlsIT {
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    private static final String PASSWORD = "tls-s3cret";

    @TempDir
    Path dir;

    @Test
    void aServerCertifiedByAPrivateCa_isTrustedThroughTheCaFile_andServesTheSharedState() throws Exception {
        Pki pki = new Pki();
        try (TlsRedis server = TlsRedis.start(dir, pki, pki.server(new GeneralName(GeneralName.iPAddress, "127.0.0.1")));
                RedisConnection redis = RedisConnection.connect(server.url(), Optional.of(RedisTrust.fromPemFile(pki.caFile(dir))))) {
            assertThat(redis.description()).isEqualTo("rediss://127.0.0.1:" + server.tlsPort);
            RedisRevocationStore store = new RedisRevocationStore(redis, Duration.ofHours(12), 1000, Clock.fixed(T0, ZoneOffset.UTC));
            store.add(new Revocation(RevocationTarget.SID, "s1", "", T0, "root"));
            assertThat(store.lookup("s1", "alice").sessionRevoked()).isTrue();
        }
    }

    @Test
    void withoutTheCaFile_thePrivateCaIsNotTrusted_andTheErrorSaysWhichSettingToSet() throws Exception {
        Pki pki = new Pki();
        try (TlsRedis server = TlsRedis.start(dir, pki, pki.server(new GeneralName(GeneralName.iPAddress, "127.0.0.1")))) {
            assertThatThrownBy(() -> RedisConnection.connect(server.url(), Optional.empty()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("rediss://127.0.0.1:" + server.tlsPort)
                    .hasMessageContaining("OMCP_REDIS_CA_FILE")
                    .hasMessageNotContaining(PASSWORD);
        }
    }

    @Test
    void aCertificateFromTheTrustedCaForAnotherHost_isRefused() throws Exception {
        Pki pki = new Pki();
        try (TlsRedis server = TlsRedis.start(dir, pki, pki.server(new GeneralName(GeneralName.dNSName, "redis.other.example")))) {
            assertThatThrownBy(() -> RedisConnection.connect(server.url(), Optional.of(RedisTrust.fromPemFile(pki.caFile(dir)))))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("name that host")
                    .hasMessageNotContaining(PASSWORD);
        }
    }

    @Test
    void aCaFileWithoutACertificate_orWithAPrivateKey_orADirectory_isRefusedNamingTheFile() throws Exception {
        Pki pki = new Pki();
        Path notPem = Files.writeString(dir.resolve("ca.txt"), "not a certificate\n");
        assertThatThrownBy(() -> RedisTrust.fromPemFile(notPem))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("OMCP_REDIS_CA_FILE " + notPem)
                .hasMessageContaining("no PEM certificate");
        Path withKey = Files.writeString(dir.resolve("bundle.pem"), Files.readString(pki.caFile(dir)) + pem(pki.caKeys));
        assertThatThrownBy(() -> RedisTrust.fromPemFile(withKey))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("private key")
                .hasMessageNotContaining("BEGIN");
        Path broken = Files.writeString(dir.resolve("broken.pem"), "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
        assertThatThrownBy(() -> RedisTrust.fromPemFile(broken))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot be read");
        assertThatThrownBy(() -> RedisTrust.fromPemFile(dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is a directory");
    }

    @Test
    void aCaFileWithAPlainRedisUrl_isRefused_ratherThanIgnored() throws Exception {
        Pki pki = new Pki();
        try (RedisServerProcess plain = RedisServerProcess.start()) {
            assertThatThrownBy(() -> RedisConnection.connect(plain.url(), Optional.of(RedisTrust.fromPemFile(pki.caFile(dir)))))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not a rediss:// URL");
        }
    }

    /** A redis-server with a plain port (for the testkit's own PING) and a TLS port that does not ask for client certificates. */
    private record TlsRedis(RedisServerProcess process, int tlsPort) implements AutoCloseable {
        static TlsRedis start(Path dir, Pki pki, Issued server) throws Exception {
            Path cert = Files.writeString(dir.resolve("server.crt"), pem(server.certificate()));
            Path key = Files.writeString(dir.resolve("server.key"), pem(server.keys()));
            int tlsPort = freePort();
            RedisServerProcess process = RedisServerProcess.start(List.of("--tls-port", Integer.toString(tlsPort),
                    "--tls-cert-file", cert.toString(), "--tls-key-file", key.toString(),
                    "--tls-ca-cert-file", pki.caFile(dir).toString(), "--tls-auth-clients", "no",
                    "--requirepass", PASSWORD), Optional.of(PASSWORD));
            return new TlsRedis(process, tlsPort);
        }

        String url() {
            return "rediss://:" + PASSWORD + "@127.0.0.1:" + tlsPort;
        }

        @Override
        public void close() {
            process.close();
        }
    }

    private record Issued(X509Certificate certificate, KeyPair keys) {}

    /** A throwaway CA that signs server certificates for one subject alternative name. */
    private static final class Pki {
        private static final X500Name CA_NAME = new X500Name("CN=omcp redis test CA");
        final KeyPair caKeys;
        final X509Certificate ca;

        Pki() throws Exception {
            caKeys = ecKeys();
            JcaX509v3CertificateBuilder builder = builder(CA_NAME, caKeys);
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            ca = sign(builder);
        }

        Issued server(GeneralName subjectAlternativeName) throws Exception {
            KeyPair keys = ecKeys();
            JcaX509v3CertificateBuilder builder = builder(new X500Name("CN=redis"), keys);
            builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(subjectAlternativeName));
            return new Issued(sign(builder), keys);
        }

        Path caFile(Path dir) throws IOException {
            Path file = dir.resolve("ca.pem");
            if (!Files.exists(file)) {
                Files.writeString(file, pem(ca));
            }
            return file;
        }

        private static JcaX509v3CertificateBuilder builder(X500Name subject, KeyPair keys) {
            Instant now = Instant.now();
            return new JcaX509v3CertificateBuilder(CA_NAME, BigInteger.valueOf(now.toEpochMilli() ^ subject.hashCode()),
                    Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))), subject, keys.getPublic());
        }

        private X509Certificate sign(JcaX509v3CertificateBuilder builder) throws Exception {
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(caKeys.getPrivate())));
        }

        private static KeyPair ecKeys() throws Exception {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        }
    }

    private static String pem(Object object) throws IOException {
        if (object instanceof KeyPair keys) {
            // PKCS#8 as the JDK encodes it, which OpenSSL reads (BouncyCastle's SEC1 form of a JDK key lacks the curve)
            return "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(
                    keys.getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n";
        }
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(object);
        }
        return out.toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
