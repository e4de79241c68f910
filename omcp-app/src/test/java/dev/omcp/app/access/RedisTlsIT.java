package dev.omcp.app.access;

import static dev.omcp.app.access.RedisTestPki.pem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.adapters.storage.redis.RedisConnection;
import dev.omcp.adapters.storage.redis.RedisRevocationStore;
import dev.omcp.adapters.storage.redis.RedisTls;
import dev.omcp.app.access.RedisTestPki.Issued;
import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.testkit.redis.RedisServerProcess;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.asn1.x509.GeneralName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rediss://} against a real redis-server speaking TLS with a certificate from a private CA:
 * trusted through {@code OMCP_REDIS_CA_FILE}, refused without it, refused when the certificate
 * names another host, and CA files that are not what they should be refused with what to do. A
 * server that asks for client certificates (redis-server's default) takes the one of
 * {@code OMCP_REDIS_CERT_FILE} and {@code OMCP_REDIS_KEY_FILE}, and the errors without one, or with
 * one from another CA, say which settings to look at.
 */
@Tag("backend")
class RedisTlsIT {
    private static final String PASSWORD = "tls-s3cret";
    private static final GeneralName LOOPBACK = new GeneralName(GeneralName.iPAddress, "127.0.0.1");

    @TempDir
    Path dir;

    @Test
    void aServerCertifiedByAPrivateCa_isTrustedThroughTheCaFile_andServesTheSharedState() throws Exception {
        RedisTestPki pki = new RedisTestPki();
        try (TlsRedis server = TlsRedis.start(dir, pki, pki.server(LOOPBACK), false);
                RedisConnection redis = RedisConnection.connect(server.url(), trusting(pki))) {
            assertThat(redis.description()).isEqualTo("rediss://127.0.0.1:" + server.tlsPort);
            assertServesTheSharedState(redis);
        }
    }

    @Test
    void withoutTheCaFile_thePrivateCaIsNotTrusted_andTheErrorSaysWhichSettingToSet() throws Exception {
        RedisTestPki pki = new RedisTestPki();
        try (TlsRedis server = TlsRedis.start(dir, pki, pki.server(LOOPBACK), false)) {
            assertThatThrownBy(() -> RedisConnection.connect(server.url(), Optional.empty()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("rediss://127.0.0.1:" + server.tlsPort)
                    .hasMessageContaining("OMCP_REDIS_CA_FILE")
                    .hasMessageNotContaining(PASSWORD);
        }
    }

    @Test
    void aCertificateFromTheTrustedCaForAnotherHost_isRefused() throws Exception {
        RedisTestPki pki = new RedisTestPki();
        try (TlsRedis server = TlsRedis.start(dir, pki, pki.server(new GeneralName(GeneralName.dNSName, "redis.other.example")), false)) {
            assertThatThrownBy(() -> RedisConnection.connect(server.url(), trusting(pki)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("name that host")
                    .hasMessageNotContaining(PASSWORD);
        }
    }

    @Test
    void anIpv6LiteralHost_connectsOverTls_andIsCheckedAgainstTheCertificatesIpAddresses() throws Exception {
        RedisTestPki pki = new RedisTestPki();
        try (TlsRedis server = TlsRedis.start(dir, pki, pki.server(new GeneralName(GeneralName.iPAddress, "::1")), false, "127.0.0.1 ::1");
                RedisConnection redis = RedisConnection.connect("rediss://:" + PASSWORD + "@[::1]:" + server.tlsPort, trusting(pki))) {
            assertThat(redis.description()).isEqualTo("rediss://[::1]:" + server.tlsPort);
            assertServesTheSharedState(redis);
        }
        try (TlsRedis server = TlsRedis.start(dir, pki, pki.server(LOOPBACK), false, "127.0.0.1 ::1")) {
            assertThatThrownBy(() -> RedisConnection.connect("rediss://:" + PASSWORD + "@[::1]:" + server.tlsPort, trusting(pki)))
                    .as("a certificate for 127.0.0.1 does not name ::1")
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("rediss://[::1]:" + server.tlsPort)
                    .hasMessageContaining("name that host")
                    .hasMessageNotContaining(PASSWORD);
        }
    }

    @Test
    void aCaFileWithoutACertificate_orWithAPrivateKey_orADirectory_isRefusedNamingTheFile() throws Exception {
        RedisTestPki pki = new RedisTestPki();
        Path notPem = Files.writeString(dir.resolve("ca.txt"), "not a certificate\n");
        assertThatThrownBy(() -> caOnly(notPem))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("OMCP_REDIS_CA_FILE " + notPem)
                .hasMessageContaining("no PEM certificate");
        Path withKey = Files.writeString(dir.resolve("bundle.pem"), Files.readString(pki.caFile(dir)) + pem(pki.caKeys));
        assertThatThrownBy(() -> caOnly(withKey))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("private key")
                .hasMessageNotContaining("BEGIN");
        Path broken = Files.writeString(dir.resolve("broken.pem"), "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
        assertThatThrownBy(() -> caOnly(broken))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot be read");
        assertThatThrownBy(() -> caOnly(dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is a directory");
    }

    @Test
    void aCaFileWithAPlainRedisUrl_isRefused_ratherThanIgnored() throws Exception {
        RedisTestPki pki = new RedisTestPki();
        try (RedisServerProcess plain = RedisServerProcess.start()) {
            assertThatThrownBy(() -> RedisConnection.connect(plain.url(), trusting(pki)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not a rediss:// URL")
                    .hasMessageContaining("OMCP_REDIS_CA_FILE");
        }
    }

    @Test
    void aServerThatAsksForClientCertificates_takesTheOneOfTheCertAndKeyFiles() throws Exception {
        RedisTestPki pki = new RedisTestPki();
        Issued client = pki.client();
        Path cert = Files.writeString(dir.resolve("client.crt"), pem(client.certificate()));
        Path key = Files.writeString(dir.resolve("client.key"), pem(client.keys()));
        try (TlsRedis server = TlsRedis.start(dir, pki, pki.server(LOOPBACK), true);
                RedisConnection redis = RedisConnection.connect(server.url(),
                        RedisTls.fromFiles(Optional.of(pki.caFile(dir)), Optional.of(cert), Optional.of(key)))) {
            assertServesTheSharedState(redis);
        }
    }

    @Test
    void aServerThatAsksForClientCertificates_refusesAGatewayWithoutOne_andTheErrorNamesTheSettings() throws Exception {
        RedisTestPki pki = new RedisTestPki();
        try (TlsRedis server = TlsRedis.start(dir, pki, pki.server(LOOPBACK), true)) {
            assertThatThrownBy(() -> RedisConnection.connect(server.url(), trusting(pki)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("asks for a client certificate")
                    .hasMessageContaining("OMCP_REDIS_CERT_FILE")
                    .hasMessageContaining("OMCP_REDIS_KEY_FILE")
                    .hasMessageNotContaining(PASSWORD);
        }
    }

    @Test
    void aClientCertificateFromAnotherCa_isRefusedByTheServer_andTheErrorSaysWhatItMustBe() throws Exception {
        RedisTestPki pki = new RedisTestPki();
        Issued stranger = new RedisTestPki("another CA").client();
        Path both = Files.writeString(dir.resolve("stranger.pem"), pem(stranger.certificate()) + pem(stranger.keys()));
        try (TlsRedis server = TlsRedis.start(dir, pki, pki.server(LOOPBACK), true)) {
            assertThatThrownBy(() -> RedisConnection.connect(server.url(),
                    RedisTls.fromFiles(Optional.of(pki.caFile(dir)), Optional.of(both), Optional.of(both))))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("refused the client certificate of OMCP_REDIS_CERT_FILE")
                    .hasMessageContaining("tls-ca-cert-file")
                    .hasMessageNotContaining(PASSWORD);
        }
    }

    private static void assertServesTheSharedState(RedisConnection redis) {
        RedisRevocationStore store = new RedisRevocationStore(redis, Duration.ofHours(12), 1000, Clock.systemUTC());
        store.add(new Revocation(RevocationTarget.SID, "s1", "", Instant.now(), "root"));
        assertThat(store.lookup("s1", "alice").sessionRevoked()).isTrue();
    }

    private Optional<RedisTls> trusting(RedisTestPki pki) throws IOException {
        return caOnly(pki.caFile(dir));
    }

    private static Optional<RedisTls> caOnly(Path caFile) {
        return RedisTls.fromFiles(Optional.of(caFile), Optional.empty(), Optional.empty());
    }

    /** A redis-server with a plain port (for the testkit's own PING) and a TLS port that asks for client certificates or not. */
    private record TlsRedis(RedisServerProcess process, int tlsPort) implements AutoCloseable {
        static TlsRedis start(Path dir, RedisTestPki pki, Issued server, boolean authClients) throws Exception {
            return start(dir, pki, server, authClients, "127.0.0.1");
        }

        /** {@code bind} lists the addresses to listen on, for example {@code 127.0.0.1 ::1}. */
        static TlsRedis start(Path dir, RedisTestPki pki, Issued server, boolean authClients, String bind) throws Exception {
            Path cert = Files.writeString(dir.resolve("server.crt"), pem(server.certificate()));
            Path key = Files.writeString(dir.resolve("server.key"), pem(server.keys()));
            int tlsPort = freePort();
            RedisServerProcess process = RedisServerProcess.start(List.of("--tls-port", Integer.toString(tlsPort),
                    "--tls-cert-file", cert.toString(), "--tls-key-file", key.toString(),
                    "--tls-ca-cert-file", pki.caFile(dir).toString(), "--tls-auth-clients", authClients ? "yes" : "no",
                    "--requirepass", PASSWORD, "--bind", bind), Optional.of(PASSWORD));
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

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
