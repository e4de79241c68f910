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
import java.util.Arrays;
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
 *
 * <p>The key of the {@linkplain BuiltInHub built-in hub} joins a usable trust root
 * ({@link #load(Optional, Optional, Optional)}): it vouches only for the reference plugins the build
 * signed before dropping its private half. Descriptions name it {@value #BUILT_IN_LABEL}, so an
 * operator sees it among the keys and can revoke it like any other.
 */
final class TrustRootKeys {
    private final TrustRoot state;
    private final List<PublicKey> keys;
    private final List<PublicKey> revoked;
    /** {@code ; not used, outside their validity: …} naming the certificates left out, or empty. */
    private final String notUsed;
    /** The keys among {@link #keys} and {@link #revoked} that came from the launcher jar's built-in hub. */
    private final List<PublicKey> builtIn;
    /** What follows a key of the built-in hub in a description. */
    static final String BUILT_IN_LABEL = " (the built-in hub's)";

    private TrustRootKeys(TrustRoot state, List<PublicKey> keys, List<PublicKey> revoked, String notUsed, List<PublicKey> builtIn) {
        this.state = state;
        this.keys = List.copyOf(keys);
        this.revoked = List.copyOf(revoked);
        this.notUsed = notUsed;
        this.builtIn = List.copyOf(builtIn);
    }

    private TrustRootKeys(TrustRoot state, List<PublicKey> keys) {
        this(state, keys, List.of(), "", List.of());
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
        return revoking(load(pemFile), revokedList);
    }

    /**
     * Reads the PEM file, adds the built-in hub's keys {@code builtInHub} when the file gave a usable
     * trust root, then takes out the keys {@code revokedList} names; never throws. An absent or unusable
     * file stays so: the built-in hub's key makes no trust root of its own (spec 3.5, 7.4 are about
     * {@code PLUGIN_TRUST_ROOT}), it only verifies the plugins that hub holds wherever one is trusted.
     */
    static TrustRootKeys load(Optional<Path> pemFile, Optional<Path> revokedList, Optional<TrustRootKeys> builtInHub) {
        TrustRootKeys own = load(pemFile);
        return revoking(builtInHub.isPresent() && own.state.isLoaded() ? own.plus(builtInHub.get()) : own, revokedList);
    }

    /** {@code all} without the keys {@code revokedList} names; an unusable list trusts no key. */
    static TrustRootKeys revoking(TrustRootKeys all, Optional<Path> revokedList) {
        if (revokedList.isEmpty() || !all.state.isLoaded()) {
            return all;
        }
        return switch (RevokedKeys.load(revokedList)) {
            case RevokedKeys.Loaded.Unusable unusable -> invalid(unreadableRevocations(revokedList.get(), unusable.reason()));
            case RevokedKeys.Loaded.Keys list -> all.without(list.keys());
        };
    }

    /** Why no key is trusted while the revocation list {@code file} does not read. */
    static String unreadableRevocations(Path file, String reason) {
        return "the key revocation list OMCP_PLUGIN_REVOKED_KEYS " + file + " " + reason + "; until it reads, no key is trusted";
    }

    /**
     * The keys of the launcher jar's built-in hub, read from its PEM text: {@link #load(Optional, Optional, Optional)}
     * names them as the built-in hub's.
     */
    static TrustRootKeys builtInHub(String pem) {
        TrustRootKeys parsed = parse(pem);
        return new TrustRootKeys(parsed.state, parsed.keys, List.of(), parsed.notUsed, parsed.keys);
    }

    /** These keys and {@code other}'s (each key once), the latter still named as the built-in hub's. */
    private TrustRootKeys plus(TrustRootKeys other) {
        List<PublicKey> added = other.keys.stream().filter(key -> !contains(keys, key)).toList();
        if (added.isEmpty()) {
            return this;
        }
        List<PublicKey> all = new ArrayList<>(keys);
        all.addAll(added);
        List<PublicKey> fromTheJar = new ArrayList<>(builtIn);
        other.builtIn.stream().filter(key -> contains(added, key)).forEach(fromTheJar::add);
        return new TrustRootKeys(TrustRoot.loaded(described(all, fromTheJar) + notUsed), all, revoked, notUsed, fromTheJar);
    }

    private static boolean contains(List<PublicKey> keys, PublicKey key) {
        return keys.stream().anyMatch(k -> Arrays.equals(k.getEncoded(), key.getEncoded()));
    }

    /** {@code keys} described, those among {@code builtIn} named as the built-in hub's. */
    private static String described(List<PublicKey> keys, List<PublicKey> builtIn) {
        return String.join(", ", keys.stream().map(key -> describe(key) + (contains(builtIn, key) ? BUILT_IN_LABEL : "")).toList());
    }

    /** These keys with the ones {@code list} revokes kept apart. */
    TrustRootKeys without(RevokedKeys list) {
        List<PublicKey> trusted = keys.stream().filter(k -> !list.revokes(k)).toList();
        List<PublicKey> out = keys.stream().filter(list::revokes).toList();
        if (out.isEmpty()) {
            return this;
        }
        String revokedText = described(out, builtIn);
        if (trusted.isEmpty()) {
            return new TrustRootKeys(TrustRoot.invalid("every key it holds is revoked by OMCP_PLUGIN_REVOKED_KEYS (" + revokedText
                    + "); add the current signing key's public key"), List.of(), out, notUsed, builtIn);
        }
        String description = described(trusted, builtIn) + notUsed + "; revoked by OMCP_PLUGIN_REVOKED_KEYS: " + revokedText;
        return new TrustRootKeys(TrustRoot.loaded(description), trusted, out, notUsed, builtIn);
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
        return new TrustRootKeys(TrustRoot.loaded(String.join(", ", described) + unused), keys, List.of(), unused, List.of());
    }

    /** {@code certificate CN=build (Ed25519 key sha256:…) expired on 2025-03-01T00:00:00Z}, or {@code is valid only from …}. */
    private static String outsideValidity(X509CertificateHolder certificate, PublicKey key, Instant now) {
        String which = "certificate " + BackendText.quoted(certificate.getSubject(), 200) + " (" + describe(key) + ")";
        Instant notAfter = certificate.getNotAfter().toInstant();
        return now.isAfter(notAfter) ? which + " expired on " + notAfter
                : which + " is valid only from " + certificate.getNotBefore().toInstant();
    }

    static TrustRootKeys invalid(String reason) {
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
