package dev.omcp.core.audit;

import dev.omcp.ports.audit.AuditEvent;

/**
 * The fields of an event, bounded and made valid Unicode before they are hashed: events carry
 * request data (paths, user names), which is hostile until proven otherwise.
 */
record AuditEventFields(String actor, String tenant, String resource, String action, String method, String path,
        int status, String ip, String target) {

    static final int MAX_NAME = 256;
    static final int MAX_WORD = 64;
    static final int MAX_PATH = 2048;
    static final String TRUNCATED = "…";

    static AuditEventFields of(AuditEvent event) {
        String actor = bounded(event.actor(), MAX_NAME);
        String resource = bounded(event.resource(), MAX_WORD);
        String action = bounded(event.action(), MAX_WORD);
        int status = event.status() < 0 || event.status() > 999 ? 0 : event.status();
        return new AuditEventFields(
                actor == null || actor.isEmpty() ? "unknown" : actor,
                emptyToNull(bounded(event.tenant(), MAX_NAME)),
                resource == null || resource.isEmpty() ? "unknown" : resource,
                action == null || action.isEmpty() ? "unknown" : action,
                emptyToNull(bounded(event.method(), 16)),
                emptyToNull(bounded(event.path(), MAX_PATH)),
                status,
                emptyToNull(bounded(event.ip(), MAX_WORD)),
                emptyToNull(bounded(event.target(), MAX_NAME)));
    }

    private static String emptyToNull(String text) {
        return text == null || text.isEmpty() ? null : text;
    }

    /**
     * At most {@code max} characters (a longer value is cut and ends with an ellipsis), with lone
     * surrogates replaced by U+FFFD so the canonical form exists, and with the characters a viewer
     * of the file would act on replaced by U+FFFD too: C1 controls (RFC 8785 writes them literally,
     * and a terminal may take U+009B as the start of an escape sequence) and bidirectional
     * overrides (they make {@code cat} show a line's text in another order than it has). C0
     * controls need nothing: the canonical form escapes them ({@code \u001b}).
     */
    static String bounded(String text, int max) {
        if (text == null) {
            return null;
        }
        String cut = text.length() > max ? text.substring(0, max - 1) + TRUNCATED : text;
        StringBuilder valid = null;
        for (int i = 0; i < cut.length(); i++) {
            char c = cut.charAt(i);
            boolean lone = Character.isHighSurrogate(c)
                    ? i + 1 >= cut.length() || !Character.isLowSurrogate(cut.charAt(i + 1))
                    : Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(cut.charAt(i - 1)));
            lone = lone || actsOnViewers(c);
            if (lone && valid == null) {
                valid = new StringBuilder(cut.length());
                valid.append(cut, 0, i);
            }
            if (valid != null) {
                valid.append(lone ? '\uFFFD' : c);
            }
        }
        return valid == null ? cut : valid.toString();
    }

    private static boolean actsOnViewers(char c) {
        return (c >= '\u0080' && c <= '\u009f') // C1 controls
                || (c >= '\u202a' && c <= '\u202e') // bidi embeddings and overrides
                || (c >= '\u2066' && c <= '\u2069'); // bidi isolates
    }
}
