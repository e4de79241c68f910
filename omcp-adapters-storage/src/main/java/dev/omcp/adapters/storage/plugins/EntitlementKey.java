package dev.omcp.adapters.storage.plugins;

import dev.omcp.adapters.storage.files.OperatorTextFile;
import dev.omcp.ports.entitlements.SignatureCheck;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.List;

/**
 * The entitlement issuer's public key ({@code OMCP_ENTITLEMENT_PUBKEY}: PEM text, or {@code @path} of a
 * PEM file), read by the same PEM parser and checked by the same signature verifier as the plugin
 * trust root, so the gateway holds one implementation of each. Only an Ed25519 key is accepted:
 * entitlement tokens are Ed25519-signed (DECISIONS.md "Entitlements").
 */
public final class EntitlementKey {
    /** The largest key file read. */
    static final int MAX_FILE_BYTES = 64 * 1024;

    private EntitlementKey() {}

    /** The outcome of {@link #read}. */
    public sealed interface Read {
        /** The key, as a signature check. */
        record Key(SignatureCheck check, String description) implements Read {}

        /** Why the setting gives no usable key; never quotes the key. */
        record Unusable(String reason) implements Read {}
    }

    /** Reads the setting's value; never throws. */
    public static Read read(String setting) {
        String pem;
        if (setting.startsWith("@")) {
            Path file;
            try {
                file = Path.of(setting.substring(1));
            } catch (InvalidPathException e) {
                return new Read.Unusable("OMCP_ENTITLEMENT_PUBKEY names a file path that is not valid");
            }
            switch (OperatorTextFile.read(file, MAX_FILE_BYTES)) {
                case OperatorTextFile.Read.Text text -> pem = text.text();
                case OperatorTextFile.Read.Unusable unusable -> {
                    return new Read.Unusable("OMCP_ENTITLEMENT_PUBKEY file " + file + " " + unusable.reason());
                }
            }
        } else {
            // an environment variable often carries the PEM's line breaks as the two characters backslash n
            pem = setting.replace("\\n", "\n");
        }
        TrustRootKeys keys = TrustRootKeys.parse(pem);
        if (!keys.state().isLoaded()) {
            return new Read.Unusable("OMCP_ENTITLEMENT_PUBKEY is not usable: " + keys.state().detail());
        }
        List<PublicKey> ed25519 = keys.keys().stream().filter(k -> TrustRootKeys.normalizedAlgorithm(k).equals("Ed25519")).toList();
        if (ed25519.size() != keys.keys().size()) {
            return new Read.Unusable("OMCP_ENTITLEMENT_PUBKEY holds a key that is not Ed25519; entitlement tokens are signed with"
                    + " Ed25519");
        }
        TrustRootKeys trusted = keys;
        return new Read.Key((data, signature) -> trusted.verify(data, signature).isEmpty(), keys.state().detail());
    }
}
