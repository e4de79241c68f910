package dev.omcp.app.access;

import static dev.omcp.app.access.RedisTestPki.pem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.adapters.storage.redis.RedisTls;
import dev.omcp.app.access.RedisTestPki.Issued;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client certificate files of a {@code rediss://} store ({@code OMCP_REDIS_CERT_FILE},
 * {@code OMCP_REDIS_KEY_FILE}) are checked before any connection: the usual key forms are read,
 * and a missing half, an encrypted key, a key of another certificate, an expired certificate or a
 * damaged file refuse the start with the setting, the file and what to do, never their content.
 */
class RedisClientCertificateFilesTest {
    @TempDir
    Path dir;

    private RedisTestPki pki;
    private Issued client;
    private Path cert;
    private Path key;

    @BeforeEach
    void issue() throws Exception {
        pki = new RedisTestPki();
        client = pki.client();
        cert = Files.writeString(dir.resolve("client.crt"), pem(client.certificate()));
        key = Files.writeString(dir.resolve("client.key"), pem(client.keys()));
    }

    @Test
    void anEcKeyInPkcs8_withItsCertificate_makesAClientIdentity_andTheJvmTrustStoreStaysWithoutACaFile() {
        RedisTls tls = RedisTls.fromFiles(Optional.empty(), Optional.of(cert), Optional.of(key)).orElseThrow();
        assertThat(tls.clientCertificate()).isTrue();
        assertThat(tls.privateCa()).isFalse();
    }

    @Test
    void anRsaKeyInPkcs1_andTheCertificateAndKeyInOneFile_areRead() throws Exception {
        Issued rsa = pki.client("RSA", Instant.now().plus(Duration.ofDays(1)));
        String pkcs1 = pem(rsa.keys().getPrivate());
        assertThat(pkcs1).startsWith("-----BEGIN RSA PRIVATE KEY-----");
        Path both = Files.writeString(dir.resolve("rsa.pem"), pem(rsa.certificate()) + pkcs1);
        RedisTls tls = RedisTls.fromFiles(Optional.of(pki.caFile(dir)), Optional.of(both), Optional.of(both)).orElseThrow();
        assertThat(tls.clientCertificate()).isTrue();
        assertThat(tls.privateCa()).isTrue();
    }

    @Test
    void noFile_meansTheJvmDefaults() {
        assertThat(RedisTls.fromFiles(Optional.empty(), Optional.empty(), Optional.empty())).isEmpty();
    }

    @Test
    void aCertificateWithoutItsKey_orAKeyWithoutItsCertificate_isRefused() {
        assertThatThrownBy(() -> RedisTls.fromFiles(Optional.empty(), Optional.of(cert), Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("OMCP_REDIS_CERT_FILE is set without OMCP_REDIS_KEY_FILE; a client certificate needs its private key:"
                        + " set both or neither");
        assertThatThrownBy(() -> RedisTls.fromFiles(Optional.empty(), Optional.empty(), Optional.of(key)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("OMCP_REDIS_KEY_FILE is set without OMCP_REDIS_CERT_FILE");
    }

    @Test
    void aKeyOfAnotherCertificate_isRefused_namingBothFiles() throws Exception {
        Path otherKey = Files.writeString(dir.resolve("other.key"), pem(pki.client().keys()));
        assertThatThrownBy(() -> RedisTls.fromFiles(Optional.empty(), Optional.of(cert), Optional.of(otherKey)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("OMCP_REDIS_KEY_FILE " + otherKey)
                .hasMessageContaining("does not belong to the first certificate in OMCP_REDIS_CERT_FILE " + cert);
    }

    @Test
    void anRsaKeyForAnEcCertificate_isRefusedAsNotBelonging() throws Exception {
        Path rsaKey = Files.writeString(dir.resolve("rsa.key"),
                pem(pki.client("RSA", Instant.now().plus(Duration.ofDays(1))).keys()));
        assertThatThrownBy(() -> RedisTls.fromFiles(Optional.empty(), Optional.of(cert), Optional.of(rsaKey)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not belong");
    }

    @Test
    void anExpiredCertificate_isRefusedWithItsDate() throws Exception {
        Instant expired = Instant.now().minus(Duration.ofDays(1));
        Issued old = pki.client("EC", expired);
        Path oldCert = Files.writeString(dir.resolve("old.crt"), pem(old.certificate()));
        Path oldKey = Files.writeString(dir.resolve("old.key"), pem(old.keys()));
        assertThatThrownBy(() -> RedisTls.fromFiles(Optional.empty(), Optional.of(oldCert), Optional.of(oldKey)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("OMCP_REDIS_CERT_FILE " + oldCert + " holds a certificate that expired on")
                .hasMessageContaining("renew it");
    }

    @Test
    void anEncryptedKey_isRefused_withHowToDecryptIt() throws Exception {
        String encrypted = pem(new JcaPKCS8Generator(client.keys().getPrivate(),
                new JceOpenSSLPKCS8EncryptorBuilder(JcaPKCS8Generator.AES_256_CBC).setProvider(new BouncyCastleProvider())
                        .setPassword("pass".toCharArray()).build()));
        assertThat(encrypted).contains("ENCRYPTED PRIVATE KEY");
        Path encryptedKey = Files.writeString(dir.resolve("encrypted.key"), encrypted);
        assertThatThrownBy(() -> RedisTls.fromFiles(Optional.empty(), Optional.of(cert), Optional.of(encryptedKey)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("OMCP_REDIS_KEY_FILE " + encryptedKey + " holds an encrypted key")
                .hasMessageContaining("openssl pkey");
    }

    @Test
    void filesWithoutTheirBlocks_twoKeys_orADamagedBlock_areRefused_withoutShowingTheirContent() throws Exception {
        Path keyOnly = Files.writeString(dir.resolve("key-only.pem"), pem(client.keys()));
        assertThatThrownBy(() -> RedisTls.fromFiles(Optional.empty(), Optional.of(keyOnly), Optional.of(key)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("OMCP_REDIS_CERT_FILE " + keyOnly + " holds no PEM certificate");
        assertThatThrownBy(() -> RedisTls.fromFiles(Optional.empty(), Optional.of(cert), Optional.of(cert)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("OMCP_REDIS_KEY_FILE " + cert + " holds no PEM private key");
        Path twoKeys = Files.writeString(dir.resolve("two.key"), pem(client.keys()) + pem(pki.client().keys()));
        assertThatThrownBy(() -> RedisTls.fromFiles(Optional.empty(), Optional.of(cert), Optional.of(twoKeys)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("holds 2 private keys");
        String secretLooking = "MIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEA";
        Path damaged = Files.writeString(dir.resolve("damaged.key"),
                "-----BEGIN PRIVATE KEY-----\n" + secretLooking + "\n-----END PRIVATE KEY-----\n");
        assertThatThrownBy(() -> RedisTls.fromFiles(Optional.empty(), Optional.of(cert), Optional.of(damaged)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("OMCP_REDIS_KEY_FILE " + damaged)
                .hasMessageNotContaining(secretLooking)
                .hasMessageNotContaining("BEGIN PRIVATE KEY");
        Path missing = dir.resolve("missing.key");
        assertThatThrownBy(() -> RedisTls.fromFiles(Optional.empty(), Optional.of(cert), Optional.of(missing)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("OMCP_REDIS_KEY_FILE " + missing + " does not exist");
    }
}
