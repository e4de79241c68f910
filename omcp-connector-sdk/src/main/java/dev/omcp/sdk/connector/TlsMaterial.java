package dev.omcp.sdk.connector;

import java.util.Objects;
import java.util.Optional;

/**
 * TLS material a connector found by itself (for example in a kubeconfig or an in-cluster service
 * account) rather than in its source entry. Handed to {@link ConnectorContext#httpClient(TlsMaterial)}
 * to get a client that trusts that CA and presents that certificate, still under every rule of the
 * gateway (egress guard, timeouts, no redirects).
 *
 * @param caPem PEM of one or more CA certificates to trust instead of the JDK's trust store
 * @param clientCertificatePem PEM of the client certificate chain, for mutual TLS
 * @param clientKeyPem PEM of the client's private key (PKCS#8, PKCS#1 RSA or SEC1 EC)
 * @param insecureSkipVerify trust any server certificate and host name; only for test clusters
 */
public record TlsMaterial(
        Optional<String> caPem, Optional<String> clientCertificatePem, Optional<String> clientKeyPem, boolean insecureSkipVerify) {
    public TlsMaterial {
        Objects.requireNonNull(caPem, "caPem");
        Objects.requireNonNull(clientCertificatePem, "clientCertificatePem");
        Objects.requireNonNull(clientKeyPem, "clientKeyPem");
        if (clientCertificatePem.isPresent() != clientKeyPem.isPresent()) {
            throw new IllegalArgumentException("a client certificate needs its private key and the other way round");
        }
    }

    /** No material: the JDK's trust store, no client certificate. */
    public static TlsMaterial none() {
        return new TlsMaterial(Optional.empty(), Optional.empty(), Optional.empty(), false);
    }

    /** Hides the private key from logs. */
    @Override
    public String toString() {
        return "TlsMaterial[ca=" + caPem.isPresent() + ", clientCertificate=" + clientCertificatePem.isPresent()
                + ", insecureSkipVerify=" + insecureSkipVerify + "]";
    }
}
