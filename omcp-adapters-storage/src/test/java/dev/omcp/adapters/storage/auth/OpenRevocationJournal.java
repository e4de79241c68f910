package dev.omcp.adapters.storage.auth;

import dev.omcp.ports.auth.Revocation;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.stream.Collectors;

/**
 * Opens a revocation journal in a JVM of its own, so a test can give the start a heap smaller than
 * the file; prints the values it replayed, comma separated. Arguments: file, now, retention.
 */
public final class OpenRevocationJournal {
    private OpenRevocationJournal() {}

    public static void main(String[] args) throws Exception {
        JsonlRevocationJournalIT.ListStore store = new JsonlRevocationJournalIT.ListStore();
        JsonlRevocationJournal.open(Path.of(args[0]), store, Clock.fixed(Instant.parse(args[1]), ZoneOffset.UTC), Duration.parse(args[2]));
        System.out.println(store.entries.stream().map(Revocation::value).collect(Collectors.joining(",")));
    }
}
