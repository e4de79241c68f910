package dev.omcp.adapters.storage.redis;

import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * The TLS material of a {@code rediss://} store beyond the JVM's defaults: the CAs the server's
 * certificate must chain to ({@code OMCP_REDIS_CA_FILE}, {@link RedisTrust}) and the certificate
 * the gateway presents when the server asks for one ({@code OMCP_REDIS_CERT_FILE} with
 * {@code OMCP_REDIS_KEY_FILE}). Without a CA file the JVM's trust store applies; the host name is
 * checked against the server's certificate either way (Jedis applies the {@code HTTPS} endpoint
 * identification to a socket factory given this way).
 */
public final class RedisTls {
    private final SSLSocketFactory socketFactory;
    private final boolean privateCa;
    private final boolean clientCertificate;

    private RedisTls(SSLSocketFactory socketFactory, boolean privateCa, boolean clientCertificate) {
        this.socketFactory = socketFactory;
        this.privateCa = privateCa;
        this.clientCertificate = clientCertificate;
    }

    /**
     * Reads the files that are given; empty when none is, as the JVM's defaults then apply.
     *
     * @param caFile the CA certificates to trust instead of the JVM's
     * @param certFile the client certificate chain; needs {@code keyFile}
     * @param keyFile the client certificate's private key; needs {@code certFile}
     * @throws IllegalArgumentException naming the setting and file that cannot be used, and why
     */
    public static Optional<RedisTls> fromFiles(Optional<Path> caFile, Optional<Path> certFile, Optional<Path> keyFile) {
        Objects.requireNonNull(caFile, "caFile");
        if (certFile.isPresent() != keyFile.isPresent()) {
            throw new IllegalArgumentException((certFile.isPresent() ? RedisClientCertificate.CERT_SETTING + " is set without "
                    + RedisClientCertificate.KEY_SETTING : RedisClientCertificate.KEY_SETTING + " is set without "
                    + RedisClientCertificate.CERT_SETTING) + "; a client certificate needs its private key: set both or neither");
        }
        if (caFile.isEmpty() && certFile.isEmpty()) {
            return Optional.empty();
        }
        TrustManager[] trust = caFile.map(RedisTrust::trustManagers).orElse(null);
        KeyManager[] keys = certFile.isPresent()
                ? RedisClientCertificate.keyManagers(certFile.get(), keyFile.get(), Instant.now())
                : null;
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            // null trust managers are the JVM's trust store, null key managers present no certificate
            context.init(keys, trust, null);
            return Optional.of(new RedisTls(context.getSocketFactory(), caFile.isPresent(), certFile.isPresent()));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("the TLS settings of OMCP_REDIS_URL cannot be used (" + e.getClass().getSimpleName() + ")", e);
        }
    }

    SSLSocketFactory socketFactory() {
        return socketFactory;
    }

    /** Whether the server's certificate must chain to the CAs of {@code OMCP_REDIS_CA_FILE} instead of the JVM's. */
    public boolean privateCa() {
        return privateCa;
    }

    /** Whether the gateway presents a client certificate. */
    public boolean clientCertificate() {
        return clientCertificate;
    }

    /** The names of the settings this material came from, for messages. */
    String settings() {
        List<String> names = new ArrayList<>();
        if (privateCa) {
            names.add(RedisTrust.SETTING);
        }
        if (clientCertificate) {
            names.add(RedisClientCertificate.CERT_SETTING);
            names.add(RedisClientCertificate.KEY_SETTING);
        }
        return String.join(", ", names);
    }
}
