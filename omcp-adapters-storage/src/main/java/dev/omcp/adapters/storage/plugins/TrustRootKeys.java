package dev.omcp.adapters.storage.plugins;

import dev.omcp.ports.plugins.TrustRoot;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * The trust root ({@code PLUGIN_TRUST_ROOT}): one or more PEM public keys (Ed25519, RSA or EC;
 * {@code PUBLIC KEY}, {@code RSA PUBLIC KEY} or a {@code CERTIFICATE}), parsed with BouncyCastle.
 * Several keys allow rotation: a signature verifies when any key accepts it. A file holding a
 * private key is refused, so a signing key never ends up on gateway machines by mistake.
 */
final class TrustRootKeys {
    private final TrustRoot state;
    private final List<PublicKey> keys;

    private TrustRootKeys(TrustRoot state, List<PublicKey> keys) {
        this.state = state;
        this.keys = List.copyOf(keys);
    }

    static TrustRootKeys absent() {
        return new TrustRootKeys(TrustRoot.absent(), List.of());
    }

    /** Reads the PEM file; never throws, an unusable file is an {@link TrustRoot.State#INVALID} state. */
    static TrustRootKeys load(Optional<Path> pemFile) {
        if (pemFile.isEmpty()) {
            return absent();
        }
        Path file = pemFile.get();
        byte[] bytes;
        try {
            if (!Files.isRegularFile(file)) {
                return invalid(Files.exists(file) ? "it is not a regular file" : "the file does not exist");
            }
            try (InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes(PluginLimits.MAX_TRUST_ROOT_BYTES + 1);
            }
        } catch (NoSuchFileException e) {
            return invalid("the file does not exist");
        } catch (IOException e) {
            return invalid("the file cannot be read (" + e.getClass().getSimpleName() + ")");
        }
        if (bytes.length > PluginLimits.MAX_TRUST_ROOT_BYTES) {
            return invalid("the file is larger than " + PluginLimits.MAX_TRUST_ROOT_BYTES + " bytes; it should hold PEM public keys");
        }
        return parse(new String(bytes, StandardCharsets.US_ASCII));
    }

    /** Parses PEM text. */
    static TrustRootKeys parse(String pem) {
        List<PublicKey> keys = new ArrayList<>();
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        try (Reader reader = new StringReader(pem); PEMParser parser = new PEMParser(reader)) {
            Object item;
            while ((item = parser.readObject()) != null) {
                SubjectPublicKeyInfo info;
                if (item instanceof SubjectPublicKeyInfo spki) {
                    info = spki;
                } else if (item instanceof X509CertificateHolder certificate) {
                    info = certificate.getSubjectPublicKeyInfo();
                } else if (item instanceof PEMKeyPair || item instanceof PrivateKeyInfo || item instanceof PEMEncryptedKeyPair
                        || item instanceof PKCS8EncryptedPrivateKeyInfo) {
                    return invalid("it holds a private key; give the gateway only the public key "
                            + "(openssl pkey -in signing-key.pem -pubout -out trust-root.pem)");
                } else {
                    return invalid("it holds a PEM block of type " + item.getClass().getSimpleName() + "; expected PUBLIC KEY or CERTIFICATE");
                }
                keys.add(converter.getPublicKey(info));
            }
        } catch (IOException | RuntimeException e) {
            return invalid("it is not valid PEM (" + e.getClass().getSimpleName() + ")");
        }
        if (keys.isEmpty()) {
            return invalid("it holds no PEM public key (-----BEGIN PUBLIC KEY-----)");
        }
        for (PublicKey key : keys) {
            if (Signatures.algorithmFor(key).isEmpty()) {
                return invalid("it holds a " + key.getAlgorithm() + " key; supported are Ed25519, RSA and EC");
            }
        }
        List<String> described = keys.stream().map(TrustRootKeys::describe).toList();
        return new TrustRootKeys(TrustRoot.loaded(String.join(", ", described)), keys);
    }

    private static TrustRootKeys invalid(String reason) {
        return new TrustRootKeys(TrustRoot.invalid(reason), List.of());
    }

    /** {@code Ed25519 key sha256:1a2b3c4d5e6f}: the type and the start of the SPKI fingerprint. */
    static String describe(PublicKey key) {
        return normalizedAlgorithm(key) + " key sha256:" + PluginFiles.hex(PluginFiles.sha256(key.getEncoded())).substring(0, 16);
    }

    static String normalizedAlgorithm(PublicKey key) {
        String algorithm = key.getAlgorithm();
        return algorithm.equalsIgnoreCase("EdDSA") ? "Ed25519" : algorithm.equals("ECDSA") ? "EC" : algorithm;
    }

    TrustRoot state() {
        return state;
    }

    List<PublicKey> keys() {
        return keys;
    }

    static Reader utf8(InputStream in) {
        return new InputStreamReader(in, StandardCharsets.UTF_8);
    }
}
