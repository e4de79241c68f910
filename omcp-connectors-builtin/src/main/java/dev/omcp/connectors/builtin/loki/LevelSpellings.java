package dev.omcp.connectors.builtin.loki;

import java.util.List;
import java.util.Locale;

/**
 * The spellings one log level goes by. Loggers disagree (Go's slog and logrus write {@code warn} or
 * {@code warning}, syslog-style ones {@code err} and {@code crit}), and an agent asking for
 * {@code warning} lines of a service that writes {@code warn} found none, with nothing to say why.
 */
final class LevelSpellings {
    private static final List<List<String>> GROUPS = List.of(
            List.of("warn", "warning"),
            List.of("err", "error"),
            List.of("crit", "critical"),
            List.of("info", "information", "informational"),
            List.of("debug", "dbg"),
            List.of("fatal", "panic"),
            List.of("trace", "trc"));

    private LevelSpellings() {}

    /** Every spelling of {@code level}, lower case, {@code level} itself first; just {@code level} when it has no others. */
    static List<String> of(String level) {
        String asked = level.toLowerCase(Locale.ROOT);
        for (List<String> group : GROUPS) {
            if (group.contains(asked)) {
                return java.util.stream.Stream.concat(java.util.stream.Stream.of(asked), group.stream().filter(s -> !s.equals(asked)))
                        .toList();
            }
        }
        return List.of(asked);
    }
}
