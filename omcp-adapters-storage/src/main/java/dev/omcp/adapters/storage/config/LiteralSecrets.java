package dev.omcp.adapters.storage.config;

import dev.omcp.ports.sources.SourceSecrets;
import java.util.List;
import java.util.Map;

/**
 * Whether the sources file about to be written spells out a secret: a value the management API
 * would mask ({@link SourceSecrets}) written as text rather than as a {@code ${VAR}} reference,
 * for example a password typed into the UI. Such a file must not stay readable by other users.
 */
final class LiteralSecrets {
    private static final String HEADERS = "headers";

    private LiteralSecrets() {}

    /** Whether any entry of the {@code sources} list of {@code document} (as it is written) holds a literal secret. */
    static boolean in(Map<String, Object> document) {
        if (!(document.get("sources") instanceof List<?> entries)) {
            return false;
        }
        for (Object entry : entries) {
            if (holds(entry, false, false)) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param secret whether {@code value} sits below a secret key
     * @param headers whether {@code value} is the mapping of a {@code headers} setting
     */
    private static boolean holds(Object value, boolean secret, boolean headers) {
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                String key = String.valueOf(e.getKey());
                boolean secretHere = secret || SourceSecrets.isSecretKey(key) || headers && SourceSecrets.isSecretHeader(key);
                if (holds(e.getValue(), secretHere, !headers && key.equalsIgnoreCase(HEADERS))) {
                    return true;
                }
            }
            return false;
        }
        if (value instanceof List<?> list) {
            for (Object item : list) {
                if (holds(item, secret, false)) {
                    return true;
                }
            }
            return false;
        }
        if (value instanceof String text) {
            return !text.isBlank() && (secret || SourceSecrets.looksLikeCredential(text)) && Substitution.spellsOutValue(text);
        }
        // a numeric PIN under a secret key is a secret spelled out; a flag such as useToken: true is not
        return secret && value instanceof Number;
    }
}
