package dev.omcp.adapters.http.ui;

/**
 * {@code If-None-Match} against a file's entity tag (RFC 9110 13.1.2): a browser that holds the current version gets
 * 304 and no body. The comparison is weak, as the RFC prescribes for this header, so {@code W/"x"} matches {@code "x"}.
 */
final class Revalidation {
    private Revalidation() {}

    /**
     * Whether {@code ifNoneMatch} (the header's value, or null when absent) names {@code entityTag} (without quotes) or
     * is {@code *}. A value that is not a list of entity tags names nothing, so the file is sent in full.
     */
    static boolean notModified(String ifNoneMatch, String entityTag) {
        if (ifNoneMatch == null) {
            return false;
        }
        if (ifNoneMatch.strip().equals("*")) {
            return true;
        }
        for (String element : ifNoneMatch.split(",", -1)) {
            String tag = element.strip();
            if (tag.startsWith("W/")) {
                tag = tag.substring(2);
            }
            if (tag.length() >= 2 && tag.startsWith("\"") && tag.endsWith("\"")
                    && tag.substring(1, tag.length() - 1).equals(entityTag)) {
                return true;
            }
        }
        return false;
    }
}
