package dev.omcp.adapters.storage.redis;

import dev.omcp.adapters.storage.scim.ScimSnapshotJson;
import dev.omcp.ports.auth.SharedStateUnavailableException;
import dev.omcp.ports.scim.ScimSnapshot;
import dev.omcp.ports.scim.ScimStore;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The SCIM directory shared by every replica ({@code OMCP_SCIM_BACKEND=redis}, {@code OMCP_SCIM_REDIS_URL};
 * spec 5.6). One hash, {@value #KEY}, holds the document of {@link ScimSnapshotJson} ({@code snapshot}),
 * its {@code revision} and the {@code epoch} of the directory: a random id set when the first replica
 * creates it. Reading and replacing are each one Lua script, so a replace is an atomic compare-and-set
 * on the revision: a replica that read an older revision than the one stored writes nothing and reads
 * again ({@link ScimStore#replace}), and no replica ever overwrites another's change.
 *
 * <p>Every read asks the server: the script answers the document only when its revision differs from
 * the one this replica holds, so a read that finds nothing new costs one short round trip, and what a
 * replica answers is never older than the last change any replica stored before the read began.
 *
 * <p>A server that does not answer, or refuses, throws {@link SharedStateUnavailableException}: a SCIM
 * request is answered 503 with nothing changed, and a login is refused. So does a directory that went
 * back: a replica remembers the epoch and the highest revision it saw, and a directory that is gone,
 * has another epoch or a lower revision means the server lost writes (a restart without persistence,
 * a restore of an older snapshot, a failover to a lagging replica, an eviction); users deprovisioned
 * since could log in again, so the replica refuses until an operator restores the directory or
 * restarts the replicas to accept it as it is. The key has no expiry, and the operator documentation
 * asks for {@code maxmemory-policy noeviction}.
 *
 * <p>Documents larger than the file store's limit ({@link ScimSnapshotJson#MAX_BYTES}) are neither
 * read (the script reports the size instead) nor written.
 */
public final class RedisScimStore implements ScimStore {
    /** The hash of the directory: {@code epoch}, {@code revision}, {@code snapshot}. */
    public static final String KEY = RedisKeys.PREFIX + "scim:directory";
    /**
     * ARGV[1] and ARGV[2] the epoch and revision this replica holds, ARGV[3] the largest document read.
     * Returns nothing when there is no directory; its epoch and revision, then the document when the
     * revision is not the one held, or the document's size when it is larger than ARGV[3].
     */
    private static final String READ = """
            local held = redis.call('HMGET', KEYS[1], 'epoch', 'revision')
            if not held[1] then
              return {}
            end
            if not held[2] or (held[1] == ARGV[1] and held[2] == ARGV[2]) then
              return {held[1], held[2]}
            end
            local size = redis.call('HSTRLEN', KEYS[1], 'snapshot')
            if size > tonumber(ARGV[3]) then
              return {held[1], held[2], size}
            end
            return {held[1], held[2], redis.call('HGET', KEYS[1], 'snapshot')}
            """;
    /**
     * ARGV[1] and ARGV[2] the epoch and revision read (an empty epoch: there was no directory), ARGV[3]
     * the epoch of a directory created now, ARGV[4] the new revision, ARGV[5] the document. Returns 1
     * when stored, 0 when the directory is no longer the one read (nothing written).
     *
     * <p>The same replace sent twice (the connection dropped before its answer, and {@link RedisConnection}
     * sent it again) finds its own write and answers 1 again, rather than a conflict that would make the
     * directory redo a change that is already stored (and answer a create with 409 for its own user).
     */
    private static final String REPLACE = """
            local held = redis.call('HMGET', KEYS[1], 'epoch', 'revision')
            if held[1] == ARGV[3] and held[2] == ARGV[4] and redis.call('HGET', KEYS[1], 'snapshot') == ARGV[5] then
              return 1
            end
            if ARGV[1] == '' then
              if held[1] then
                return 0
              end
              redis.call('HSET', KEYS[1], 'epoch', ARGV[3], 'revision', ARGV[4], 'snapshot', ARGV[5])
              return 1
            end
            if held[1] ~= ARGV[1] or held[2] ~= ARGV[2] then
              return 0
            end
            redis.call('HSET', KEYS[1], 'revision', ARGV[4], 'snapshot', ARGV[5])
            return 1
            """;

    private final RedisConnection redis;
    private final int maxBytes;
    /** What this replica last saw: the epoch (empty before any directory existed), the highest revision and its snapshot. */
    private final AtomicReference<Seen> seen = new AtomicReference<>(new Seen("", 0, ScimSnapshot.empty()));

    private record Seen(String epoch, long revision, ScimSnapshot snapshot) {
        /** The later of two sightings of one directory; a first sighting replaces "none yet". */
        Seen later(Seen other) {
            return epoch.isEmpty() || other.revision > revision ? other : this;
        }
    }

    /** The directory in the server of {@code redis}, with the file store's size limit. */
    public RedisScimStore(RedisConnection redis) {
        this(redis, ScimSnapshotJson.MAX_BYTES);
    }

    /**
     * The directory in the server of {@code redis}, whose documents may take at most {@code maxBytes}.
     *
     * @throws IllegalArgumentException when {@code maxBytes} is not positive
     */
    public RedisScimStore(RedisConnection redis, int maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive, got " + maxBytes);
        }
        this.redis = redis;
        this.maxBytes = maxBytes;
    }

    @Override
    public Stored read() {
        Seen held = seen.get();
        List<?> reply = (List<?>) redis.execute(c -> c.eval(READ, List.of(KEY),
                List.of(held.epoch(), Long.toString(held.revision()), Integer.toString(maxBytes))));
        if (reply.isEmpty()) {
            if (!held.epoch().isEmpty()) {
                throw lost(held, "is gone");
            }
            return new Stored(ScimSnapshot.empty(), 0);
        }
        if (reply.size() < 2 || !(reply.get(0) instanceof String epoch) || !(reply.get(1) instanceof String revisionText)) {
            throw redis.unexpectedValue(KEY);
        }
        long revision = revision(revisionText);
        if (!held.epoch().isEmpty() && !held.epoch().equals(epoch)) {
            throw lost(held, "is another one (revision " + revision + " of a directory created since)");
        }
        if (revision < held.revision()) {
            throw lost(held, "is back at revision " + revision);
        }
        if (reply.size() == 2) {
            if (epoch.equals(held.epoch()) && revision == held.revision()) {
                return new Stored(held.snapshot(), revision);
            }
            // a revision without its document
            throw redis.unexpectedValue(KEY);
        }
        if (reply.get(2) instanceof Long size) {
            throw new SharedStateUnavailableException(where() + " takes " + size + " bytes, more than the " + maxBytes
                    + " bytes the gateway reads; it is not read, and SCIM requests and logins are refused: another program wrote"
                    + " it, or it was written without this limit");
        }
        if (!(reply.get(2) instanceof String text)) {
            throw redis.unexpectedValue(KEY);
        }
        ScimSnapshot snapshot = switch (ScimSnapshotJson.parse(text)) {
            case ScimSnapshotJson.Parsed.Snapshot parsed -> parsed.snapshot();
            case ScimSnapshotJson.Parsed.Unusable unusable -> throw new SharedStateUnavailableException(where() + " "
                    + unusable.reason() + "; SCIM requests and logins are refused: another program writes this key (give the"
                    + " gateway its own database), or restore the directory");
        };
        Seen now = new Seen(epoch, revision, snapshot);
        seen.accumulateAndGet(now, Seen::later);
        return new Stored(snapshot, revision);
    }

    @Override
    public boolean replace(long revision, ScimSnapshot next) {
        byte[] json = ScimSnapshotJson.bytes(next, redis.setting() + " (" + redis.description() + ")", maxBytes);
        Seen held = seen.get();
        // the directory read at that revision is the one this replica knows: none yet, or the epoch it saw
        String epochRead = revision == 0 && held.epoch().isEmpty() ? "" : held.epoch();
        String created = epochRead.isEmpty() ? UUID.randomUUID().toString() : epochRead;
        long stored = revision + 1;
        Object reply = redis.execute(c -> c.eval(REPLACE, List.of(KEY), List.of(epochRead, Long.toString(revision), created,
                Long.toString(stored), new String(json, StandardCharsets.UTF_8))));
        if (!(reply instanceof Long written)) {
            throw redis.unexpectedValue(KEY);
        }
        if (written == 0) {
            return false;
        }
        seen.accumulateAndGet(new Seen(created, stored, next), Seen::later);
        return true;
    }

    /** The store and key, without credentials. */
    private String where() {
        return "the SCIM directory in the shared store " + redis.description() + " (" + redis.setting() + ", key " + KEY + ")";
    }

    private long revision(String text) {
        try {
            long revision = Long.parseLong(text);
            if (revision >= 0) {
                return revision;
            }
        } catch (NumberFormatException e) {
            // reported below, as any value the gateway does not write
        }
        throw redis.unexpectedValue(KEY);
    }

    /**
     * The directory went back: what was stored since may be lost, and with it who was deprovisioned.
     * Refused until an operator decides, never taken as the truth.
     */
    private SharedStateUnavailableException lost(Seen held, String now) {
        return new SharedStateUnavailableException(where() + " " + now + ", but this replica saw revision " + held.revision()
                + ": the server lost writes (a restart without persistence, a restore of an older snapshot, a failover to a lagging"
                + " replica, an eviction, or the key was deleted), and users deprovisioned since may be missing."
                + " SCIM requests and logins are refused"
                + " until an operator restores the directory, or restarts the gateway's replicas to accept it as it is now and"
                + " lets the identity provider run a full sync");
    }
}
