package dev.omcp.adapters.storage.files;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;

/**
 * Where in a file a JSON parser stopped, for a refusal that names the file: only the line and
 * column, never the parser's message, which may quote the file's content (a secret, or text made to
 * forge a log line).
 */
public final class JsonSyntaxLocation {
    private JsonSyntaxLocation() {}

    /** {@code " (line L, column C)"}, or the empty string when the parser knew no location. */
    public static String of(JsonProcessingException e) {
        JsonLocation location = e.getLocation();
        return location == null ? "" : " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    }
}
