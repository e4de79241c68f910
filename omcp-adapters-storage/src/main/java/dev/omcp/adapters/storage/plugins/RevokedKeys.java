package dev.omcp.adapters.storage.plugins;

import dev.omcp.adapters.storage.files.OperatorTextFile;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The key revocation list ({@code OMCP_PLUGIN_REVOKED_KEYS}): one key fingerprint a line,
 * {@code sha256:} and the hex SHA-256 of the key's SubjectPublicKeyInfo, whole (64 digits) or its
 * first 16 or more digits, as the gateway's logs show keys ({@code Ed25519 key sha256:1a2b3c4d5e6f7a8b}).
 * Anything after the fingerprint on its line is a note; blank lines and lines starting with {@code #}
 * are ignored. A prefix is enough because the list only refuses: a key that happens to share a
 * revoked prefix is refused too, never trusted by mistake.
 */
final class RevokedKeys {
    /** A list far larger than anyone keeps is a wrong file. */
    static final int MAX_BYTES = 64 * 1024;
    private static final Pattern FINGERPRINT = Pattern.compile("sha256:[0-9a-fA-F]{16,64}");

    private final List<String> prefixes;

    private RevokedKeys(List<String> prefixes) {
        this.prefixes = List.copyOf(prefixes);
    }

    static RevokedKeys none() {
        return new RevokedKeys(List.of());
    }

    /** The list, or why it cannot be used: a reason that follows the file's path. */
    sealed interface Loaded {
        record Keys(RevokedKeys keys) implements Loaded {}

        record Unusable(String reason) implements Loaded {}
    }

    static Loaded load(Optional<Path> file) {
        if (file.isEmpty()) {
            return new Loaded.Keys(none());
        }
        return switch (OperatorTextFile.read(file.get(), MAX_BYTES)) {
            case OperatorTextFile.Read.Text text -> parse(text.text());
            case OperatorTextFile.Read.Unusable unusable -> new Loaded.Unusable(unusable.reason());
        };
    }

    static Loaded parse(String text) {
        List<String> prefixes = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String first = line.split("\\s+", 2)[0];
            if (!FINGERPRINT.matcher(first).matches()) {
                return new Loaded.Unusable("line " + (i + 1) + " is not a key fingerprint: each line is sha256: and 16 to 64 hex digits"
                        + " of the key's SHA-256 (as the gateway logs keys: Ed25519 key sha256:1a2b3c4d5e6f7a8b), then an optional note");
            }
            prefixes.add(first.substring("sha256:".length()).toLowerCase(Locale.ROOT));
        }
        return new Loaded.Keys(new RevokedKeys(prefixes));
    }

    boolean revokes(PublicKey key) {
        String fingerprint = PluginFiles.hex(PluginFiles.sha256(key.getEncoded()));
        return prefixes.stream().anyMatch(fingerprint::startsWith);
    }

    int size() {
        return prefixes.size();
    }
}
