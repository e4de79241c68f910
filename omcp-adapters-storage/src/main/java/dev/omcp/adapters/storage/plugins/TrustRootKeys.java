package dev.omcp.adapters.storage.plugins;

import dev.omcp.adapters.storage.files.OperatorTextFile;
import dev.omcp.ports.plugins.TrustRoot;
import dev.omcp.sdk.text.BackendText;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.PublicKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
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
 * private key is refused, so a signing key never ends up on gateway machines by mistake. A
 * certificate outside its validity when the file is read is not used.
 *
 * <p>Keys the revocation list ({@code OMCP_PLUGIN_REVOKED_KEYS}, {@link RevokedKeys}) names are kept
 * apart: a signature one of them makes never verifies, and is reported as made by a revoked key. A
 * revocation list that cannot be read leaves no key trusted (fail closed), as does revoking every key.
 */
final class TrustRootKeys {
    private final TrustRoot state;
    private final List<PublicKey> keys;
    private final List<PublicKey> revoked;
    /** {@code ; not used, outside their validity: …} naming the certificates left out, or empty. */
    private final String notUsed;

    private TrustRootKeys(TrustRoot state, List<PublicKey> keys, List<PublicKey> revoked, String notUsed) {
        this.state = state;
        this.keys = List.copyOf(keys);
        this.revoked = List.copyOf(revoked);
        this.notUsed = notUsed;
    }

    private TrustRootKeys(TrustRoot state, List<PublicKey> keys) {
        this(state, keys, List.of(), "");
    }

    static TrustRootKeys absent() {
        return new TrustRootKeys(TrustRoot.absent(), List.of());
    }

    /**
     * Reads the PEM file, then takes out the keys {@code revokedList} names; never throws. An unusable
     * revocation list makes the whole trust root {@link TrustRoot.State#INVALID}: a list meant to refuse
     * keys must not be skipped because it did not read.
     */
    static TrustRootKeys load(Optional<Path> pemFile, Optional<Path> revokedList) {
        TrustRootKeys all = load(pemFile);
        if (revokedList.isEmpty() || !all.state.isLoaded()) {
            return all;
        }
        return switch (RevokedKeys.load(revokedList)) {
            case RevokedKeys.Loaded.Unusable unusable -> invalid("the key revocation list OMCP_PLUGIN_REVOKED_KEYS " + revokedList.get()
                    + " " + unusable.reason() + "; until it reads, no key is trusted");
            case RevokedKeys.Loaded.Keys list -> all.without(list.keys());
        };
    }

    /** These keys with the ones {@code list} revokes kept apart. */
    TrustRootKeys without(RevokedKeys list) {
        List<PublicKey> trusted = keys.stream().filter(k -> !list.revokes(k)).toList();
        List<PublicKey> out = keys.stream().filter(list::revokes).toList();
        if (out.isEmpty()) {
            return this;
        }
        String revokedText = String.join(", ", out.stream().map(TrustRootKeys::describe).toList());
        if (trusted.isEmpty()) {
            return new TrustRootKeys(TrustRoot.invalid("every key it holds is revoked by OMCP_PLUGIN_REVOKED_KEYS (" + revokedText
                    + "); add the current signing key's public key"), List.of(), out, notUsed);
        }
        return new TrustRootKeys(TrustRoot.loaded(String.join(", ", trusted.stream().map(TrustRootKeys::describe).toList())
                + notUsed + "; revoked by OMCP_PLUGIN_REVOKED_KEYS: " + revokedText), trusted, out, notUsed);
    }

    /** Reads the PEM file; never throws, an unusable file is an {@link TrustRoot.State#INVALID} state. */
    static TrustRootKeys load(Optional<Path> pemFile) {
        if (pemFile.isEmpty()) {
            return absent();
        }
        // the shared reader: a FIFO or a device is refused unopened, and a byte-order mark (which would make
        // BouncyCastle skip the first BEGIN line, and so the first key) is dropped
        return switch (OperatorTextFile.read(pemFile.get(), PluginLimits.MAX_TRUST_ROOT_BYTES)) {
            case OperatorTextFile.Read.Text text -> parse(text.text());
            case OperatorTextFile.Read.Unusable unusable -> invalid("the file " + unusable.reason());
        };
    }

    /** Parses PEM text. */
    static TrustRootKeys parse(String pem) {
        return parse(pem, Instant.now());
    }

    /**
     * Parses PEM text; a certificate outside its validity at {@code now} is left out, with the reason in
     * the state's detail: a certificate says until when its key vouches for anything, and a trust root
     * deployed once would otherwise trust that key for as long as the file stays.
     */
    static TrustRootKeys parse(String pem, Instant now) {
        List<PublicKey> keys = new ArrayList<>();
        List<String> outdated = new ArrayList<>();
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        try (Reader reader = new StringReader(pem); PEMParser parser = new PEMParser(reader)) {
            Object item;
            while ((item = parser.readObject()) != null) {
                SubjectPublicKeyInfo info;
                if (item instanceof SubjectPublicKeyInfo spki) {
                    info = spki;
                } else if (item instanceof X509CertificateHolder certificate) {
                    info = certificate.getSubjectPublicKeyInfo();
                    if (!certificate.isValidOn(Date.from(now))) {
                        outdated.add(outsideValidity(certificate, converter.getPublicKey(info), now));
                        continue;
                    }
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
        if (keys.isEmpty() && !outdated.isEmpty()) {
            return invalid("every certificate it holds is outside its validity (" + String.join(", ", outdated)
                    + "); add a current certificate or the signing key's public key");
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
        String unused = outdated.isEmpty() ? "" : "; not used, outside their validity: " + String.join(", ", outdated);
        return new TrustRootKeys(TrustRoot.loaded(String.join(", ", described) + unused), keys, List.of(), unused);
    }

    /** {@code certificate CN=build (Ed25519 key sha256:…) expired on 2025-03-01T00:00:00Z}, or {@code is valid only from …}. */
    private static String outsideValidity(X509CertificateHolder certificate, PublicKey key, Instant now) {
        String which = "certificate " + BackendText.quoted(certificate.getSubject(), 200) + " (" + describe(key) + ")";
        Instant notAfter = certificate.getNotAfter().toInstant();
        return now.isAfter(notAfter) ? which + " expired on " + notAfter
                : which + " is valid only from " + certificate.getNotBefore().toInstant();
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

    /**
     * Whether {@code signature} verifies {@code data} against a trusted key.
     *
     * @return empty when it does; else why not, naming the key when a revoked one made the signature
     */
    Optional<String> verify(byte[] data, byte[] signature) {
        Optional<String> problem = Signatures.verify(keys, data, signature);
        if (problem.isEmpty()) {
            return problem;
        }
        for (PublicKey key : revoked) {
            if (Signatures.verify(List.of(key), data, signature).isEmpty()) {
                return Optional.of(revokedSignature(key));
            }
        }
        return problem;
    }

    /** The reason a signature by a revoked key is refused; starts with {@link #REVOKED}. */
    static String revokedSignature(PublicKey key) {
        return REVOKED + " (" + describe(key) + "), which OMCP_PLUGIN_REVOKED_KEYS revokes; install a version signed with a current key";
    }

    /** How every refusal of a signature by a revoked key begins, so logs and statuses can be searched for it. */
    static final String REVOKED = "signed by a revoked key";

    static Reader utf8(InputStream in) {
        return new InputStreamReader(in, StandardCharsets.UTF_8);
    }
}
