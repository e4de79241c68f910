package dev.omcp.adapters.storage.plugins;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Verifies a detached signature (spec 5.8): Ed25519, RSA (SHA-256, PKCS#1 v1.5) or EC (SHA-256,
 * ECDSA), the signature file holding the raw signature bytes (DER for ECDSA) or the same in base64.
 * Verification uses the JDK providers; BouncyCastle only parses the PEM.
 */
final class Signatures {
    private static final Pattern BASE64_TEXT = Pattern.compile("[A-Za-z0-9+/=\\r\\n\\t ]+");

    private Signatures() {}

    /** The JCA algorithm for a key, or empty when the key type is not supported. */
    static Optional<String> algorithmFor(PublicKey key) {
        return switch (TrustRootKeys.normalizedAlgorithm(key)) {
            case "Ed25519" -> Optional.of("Ed25519");
            case "RSA" -> Optional.of("SHA256withRSA");
            case "EC" -> Optional.of("SHA256withECDSA");
            default -> Optional.empty();
        };
    }

    /**
     * Whether {@code signatureFile} verifies {@code data} against any of {@code keys}.
     *
     * @return empty when it verifies, else why not
     */
    static Optional<String> verify(List<PublicKey> keys, byte[] data, byte[] signatureFile) {
        List<byte[]> forms = new ArrayList<>();
        String text = new String(signatureFile, StandardCharsets.ISO_8859_1);
        if (!text.isBlank() && BASE64_TEXT.matcher(text).matches()) {
            try {
                forms.add(Base64.getMimeDecoder().decode(text.replaceAll("\\s", "")));
            } catch (IllegalArgumentException e) {
                // not base64 after all; the raw form is tried below
            }
        }
        forms.add(signatureFile);
        for (PublicKey key : keys) {
            Optional<String> algorithm = algorithmFor(key);
            if (algorithm.isEmpty()) {
                continue;
            }
            for (byte[] form : forms) {
                if (verifies(algorithm.get(), key, data, form)) {
                    return Optional.empty();
                }
            }
        }
        return Optional.of("the signature does not verify against the trust root ("
                + String.join(", ", keys.stream().map(TrustRootKeys::describe).toList())
                + "); the file was changed after signing or was signed with another key");
    }

    private static boolean verifies(String algorithm, PublicKey key, byte[] data, byte[] signature) {
        try {
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(key);
            verifier.update(data);
            return verifier.verify(signature);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            // a malformed signature (wrong length, bad DER) is simply one that does not verify
            return false;
        }
    }
}
