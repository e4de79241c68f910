package dev.omcp.ports.tools;

import java.util.Locale;
import java.util.Optional;

/** MCP log levels (RFC 5424 severities), least severe first. */
public enum LogLevel {
    DEBUG,
    INFO,
    NOTICE,
    WARNING,
    ERROR,
    CRITICAL,
    ALERT,
    EMERGENCY;

    /** The wire spelling, for example {@code warning}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a wire spelling; empty when it names no level. */
    public static Optional<LogLevel> fromWireName(String name) {
        for (LogLevel level : values()) {
            if (level.wireName().equals(name)) {
                return Optional.of(level);
            }
        }
        return Optional.empty();
    }
}
