package dev.omcp.app.access;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The header fields of a raw HTTP/1.1 answer, by name as sent. */
final class RawHttpHead {
    private RawHttpHead() {}

    static Map<String, List<String>> headers(String answer) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        String head = answer.contains("\r\n\r\n") ? answer.substring(0, answer.indexOf("\r\n\r\n")) : answer;
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("HTTP/")) {
                headers.computeIfAbsent(line.substring(0, colon), name -> new ArrayList<>()).add(line.substring(colon + 1).trim());
            }
        }
        return headers;
    }
}
