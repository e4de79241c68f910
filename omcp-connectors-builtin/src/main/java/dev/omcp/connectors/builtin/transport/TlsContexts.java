package dev.omcp.connectors.builtin.transport;

import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.TlsMaterial;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/** Builds the {@link SSLContext} of one source from its TLS material. */
final class TlsContexts {
    private TlsContexts() {}

    /** The context, or empty when the JDK defaults apply (no CA, no client certificate, verification on). */
    static Optional<SSLContext> build(TlsMaterial tls) throws ConnectorException {
        if (tls.caPem().isEmpty() && tls.clientCertificatePem().isEmpty() && !tls.insecureSkipVerify()) {
            return Optional.empty();
        }
        try {
            TrustManager[] trust = tls.insecureSkipVerify()
                    ? new TrustManager[] {new TrustEverything()}
                    : tls.caPem().isPresent() ? trustOnly(PemMaterial.certificates(tls.caPem().get(), "tls.ca")) : null;
            KeyManager[] keys = null;
            if (tls.clientCertificatePem().isPresent()) {
                List<Certificate> chain = PemMaterial.certificates(tls.clientCertificatePem().get(), "tls.cert");
                PrivateKey key = PemMaterial.privateKey(tls.clientKeyPem().orElseThrow(), "tls.key");
                KeyStore store = KeyStore.getInstance("PKCS12");
                store.load(null, null);
                char[] password = new char[0];
                store.setKeyEntry("client", key, password, chain.toArray(Certificate[]::new));
                KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                factory.init(store, password);
                keys = factory.getKeyManagers();
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys, trust, new SecureRandom());
            return Optional.of(context);
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new ConnectorException(ConnectorException.Kind.BAD_QUERY,
                    "the TLS settings cannot be used: " + e.getClass().getSimpleName() + " " + e.getMessage());
        }
    }

    private static TrustManager[] trustOnly(List<Certificate> cas) throws GeneralSecurityException, java.io.IOException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        for (int i = 0; i < cas.size(); i++) {
            store.setCertificateEntry("ca-" + i, cas.get(i));
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(store);
        return factory.getTrustManagers();
    }

    /**
     * {@code insecureSkipVerify}: accepts any certificate and, being an extended trust manager that
     * checks nothing, also skips the host name check for this client only.
     */
    private static final class TrustEverything extends X509ExtendedTrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
