package dev.omcp.adapters.storage.budget;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.adapters.storage.files.FileOwner;
import dev.omcp.adapters.storage.files.JsonSyntaxLocation;
import dev.omcp.adapters.storage.files.OperatorTextFile;
import dev.omcp.adapters.storage.files.PrivateFiles;
import dev.omcp.ports.budget.SavedTokenUsage;
import dev.omcp.ports.budget.TokenBucket;
import dev.omcp.ports.budget.TokenUsageStore;
import dev.omcp.sdk.text.LogField;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The token ledger in a JSON file ({@code OMCP_TOKEN_BUDGET_FILE}, spec 8), mode 0600:
 * {@code {"version": 1, "credentials": {"key:ci": [[bucketStartEpochMs, tokens], ...]}}}, buckets
 * oldest first.
 *
 * <p>Read once, at {@link #open}: a file that cannot be read or is not such a file stops the start
 * (the message names the file and what to do) instead of starting empty, since a budget that
 * silently resets hands every credential a fresh day. A missing file is created at once, so a
 * directory the gateway cannot write into stops the start too rather than every write later.
 *
 * <p>Writes are debounced (spec 8: at most one a second) and atomic (temp file, fsync, rename): a
 * change only marks the file dirty and, the first time, schedules a write a second later on the
 * writer thread; the request's thread does no I/O. A write that fails is logged (once until one
 * succeeds again) and retried a second later. {@link #close} writes what is unwritten a last time.
 */
public final class JsonTokenUsageFile implements TokenUsageStore, AutoCloseable {
    /** spec 8: writes debounced 1 s. */
    static final Duration DEBOUNCE = Duration.ofSeconds(1);
    /**
     * The largest file read: a credential holds at most 1,441 buckets of at most about 30
     * characters, so even 1,000 credentials all charged every minute stay near 45 MB.
     */
    static final int MAX_FILE_BYTES = 64 * 1024 * 1024;
    private static final int VERSION = 1;
    private static final String SETTING = "OMCP_TOKEN_BUDGET_FILE";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Logger LOG = LoggerFactory.getLogger(JsonTokenUsageFile.class);

    private final Path file;
    private final SavedTokenUsage kept;
    private final Later later;
    private final AtomicBoolean dirty = new AtomicBoolean();
    private final ReentrantLock writing = new ReentrantLock();
    private volatile Supplier<SavedTokenUsage> current;
    private volatile boolean closed;
    /** Whether the last write failed; guarded by {@link #writing}. */
    private boolean failing;

    private JsonTokenUsageFile(Path file, SavedTokenUsage kept, Later later) {
        this.file = file;
        this.kept = kept;
        this.later = later;
    }

    /**
     * Reads {@code file}, or creates it (and its directories) holding no usage when it does not exist.
     *
     * @throws IOException when it cannot be read, created or is not a token usage file; the message
     *     names the setting, the file and what to do. Nothing in the file was changed
     */
    public static JsonTokenUsageFile open(Path file) throws IOException {
        SavedTokenUsage kept = readOrCreate(file);
        return new JsonTokenUsageFile(file, kept, Later.daemonThread("omcp-token-budget-writer"));
    }

    /** {@link #open(Path)} with the writer thread of a test. */
    static JsonTokenUsageFile open(Path file, Later later) throws IOException {
        return new JsonTokenUsageFile(file, readOrCreate(file), later);
    }

    @Override
    public SavedTokenUsage load(long keepFromEpochMs) {
        return kept.startingFrom(keepFromEpochMs);
    }

    @Override
    public void track(Supplier<SavedTokenUsage> current) {
        this.current = Objects.requireNonNull(current, "current");
    }

    @Override
    public void changed() {
        // only the first change after a write schedules one: the next comes at least a second later
        if (dirty.compareAndSet(false, true)) {
            schedule();
        }
    }

    /** Writes what changed since the last write, then stops the writer thread; later changes are not written. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        later.close();
        if (dirty.getAndSet(false)) {
            write();
        }
    }

    private void schedule() {
        if (closed) {
            return; // close writes it
        }
        try {
            later.after(DEBOUNCE, this::writeScheduled);
        } catch (RejectedExecutionException e) {
            // the writer thread stopped: close is under way and writes it
        }
    }

    private void writeScheduled() {
        if (!dirty.getAndSet(false)) {
            return;
        }
        if (!write()) {
            dirty.set(true);
            schedule();
        }
    }

    /** Writes the tracked usage; false when it could not be written. */
    private boolean write() {
        Supplier<SavedTokenUsage> source = current;
        if (source == null) {
            return true;
        }
        writing.lock();
        try {
            // read under the lock: of two writes, the later one also holds the later usage
            PrivateFiles.replace(file, serialize(source.get()));
            if (failing) {
                failing = false;
                LOG.info("event=token-budget-write-recovered file=\"{}\"", LogField.of(file));
            }
            return true;
        } catch (IOException e) {
            if (!failing) {
                failing = true;
                LOG.error("event=token-budget-write-failed file=\"{}\" reason=\"{}\" effect=\"the usage since the last write is lost if the"
                        + " gateway stops before a write succeeds; retried every second\"", LogField.of(file), LogField.of(e.toString()));
            }
            return false;
        } finally {
            writing.unlock();
        }
    }

    static byte[] serialize(SavedTokenUsage usage) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator json = MAPPER.getFactory().createGenerator(out)) {
            json.writeStartObject();
            json.writeNumberField("version", VERSION);
            json.writeObjectFieldStart("credentials");
            for (Map.Entry<String, List<TokenBucket>> credential : new TreeMap<>(usage.byActor()).entrySet()) {
                json.writeArrayFieldStart(credential.getKey());
                for (TokenBucket bucket : credential.getValue()) {
                    json.writeStartArray();
                    json.writeNumber(bucket.startEpochMs());
                    json.writeNumber(bucket.tokens());
                    json.writeEndArray();
                }
                json.writeEndArray();
            }
            json.writeEndObject();
            json.writeEndObject();
        }
        out.write('\n');
        return out.toByteArray();
    }

    private static SavedTokenUsage readOrCreate(Path file) throws IOException {
        PrivateFiles.refuseLink(file);
        if (!PrivateFiles.exists(file)) {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try {
                PrivateFiles.replace(file, serialize(SavedTokenUsage.empty()));
            } catch (IOException e) {
                throw new IOException(SETTING + " " + file + " does not exist and cannot be created (" + e.getClass().getSimpleName()
                        + "); let the gateway's user write into its directory, or point " + SETTING + " elsewhere", e);
            }
            return SavedTokenUsage.empty();
        }
        OptionalInt owner = FileOwner.uid(file);
        OptionalInt self = FileOwner.processUid();
        if (owner.isPresent() && self.isPresent() && owner.getAsInt() != self.getAsInt()) {
            throw refused(file, "is owned by another user (uid " + owner.getAsInt() + "), who could rewrite the usage it holds; "
                    + "nothing in it was changed: point " + SETTING + " at a file of the gateway's user");
        }
        String text = switch (OperatorTextFile.read(file, MAX_FILE_BYTES)) {
            case OperatorTextFile.Read.Text read -> read.text();
            case OperatorTextFile.Read.Unusable unusable -> throw refused(file, unusable.reason() + "; nothing in it was changed");
        };
        SavedTokenUsage usage = parse(file, text);
        PrivateFiles.restrict(file);
        return usage;
    }

    private static SavedTokenUsage parse(Path file, String text) throws IOException {
        String remedy = "; the gateway does not start on it, since starting without the usage it holds would give every credential a "
                + "fresh daily budget: restore the file from a backup, or move it away to start every credential from zero";
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            // only the location: the parser's message may quote the file's content
            String where = JsonSyntaxLocation.of(e);
            throw refused(file, "is not valid JSON" + where + remedy);
        }
        if (root == null || !root.isObject() || !root.path("credentials").isObject()) {
            throw refused(file, "is not a token usage file ({\"version\": 1, \"credentials\": {...}})" + remedy);
        }
        if (!root.path("version").isIntegralNumber() || root.path("version").asLong() != VERSION) {
            throw refused(file, "is of another version (" + root.path("version") + ", this gateway reads " + VERSION + ")" + remedy);
        }
        Map<String, List<TokenBucket>> byActor = new HashMap<>();
        int credentialIndex = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("credentials").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> credential = it.next();
            credentialIndex++;
            if (!credential.getValue().isArray()) {
                throw refused(file, "holds credential number " + credentialIndex + " without a list of buckets" + remedy);
            }
            List<TokenBucket> buckets = new ArrayList<>();
            int bucketIndex = 0;
            for (JsonNode bucket : credential.getValue()) {
                bucketIndex++;
                if (!bucket.isArray() || bucket.size() != 2 || !whole(bucket.get(0), 0) || !whole(bucket.get(1), 1)) {
                    throw refused(file, "holds an invalid bucket (number " + bucketIndex + " of credential number " + credentialIndex
                            + "): each is [start in epoch milliseconds, tokens of at least 1]" + remedy);
                }
                buckets.add(new TokenBucket(bucket.get(0).asLong(), bucket.get(1).asLong()));
            }
            byActor.put(credential.getKey(), buckets);
        }
        return new SavedTokenUsage(byActor);
    }

    /** Whether {@code node} is a whole number of at least {@code min} that fits a long (not text, not a fraction). */
    private static boolean whole(JsonNode node, long min) {
        return node.canConvertToExactIntegral() && node.canConvertToLong() && node.asLong() >= min;
    }

    private static IOException refused(Path file, String reason) {
        return new IOException(SETTING + " " + file + " " + reason);
    }
}
