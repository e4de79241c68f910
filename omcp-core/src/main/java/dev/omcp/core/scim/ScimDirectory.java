package dev.omcp.core.scim;

import dev.omcp.ports.scim.ScimError;
import dev.omcp.ports.scim.ScimOutcome;
import dev.omcp.ports.scim.ScimResourceType;

import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.ports.auth.SessionRevocations;
import dev.omcp.ports.auth.SharedStateUnavailableException;
import dev.omcp.ports.identity.AuthKind;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.scim.ScimProvisioning;
import dev.omcp.ports.scim.ScimSnapshot;
import dev.omcp.ports.scim.ScimSnapshotTooLargeException;
import dev.omcp.ports.scim.ScimStore;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.text.LogField;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The provisioned directory (spec 4.5): create, read, list, patch and delete Users and Groups,
 * with uniqueness of {@code userName} and of a group's {@code displayName} (409 {@code uniqueness}),
 * {@code meta} ({@code resourceType}, {@code created}, {@code lastModified}, {@code location},
 * {@code version}), and deprovisioning: deleting a user, or setting {@code active} to false, voids
 * every session of the subject named like its {@code userName} through the session blocklist, before
 * the change is saved. Changes are serialized and each is saved whole before it is answered.
 *
 * <p>The directory holds no copy of its own: every request reads the store, so several replicas sharing
 * one store (Redis) answer alike, and a user deprovisioned through one is refused at login on the
 * others. Each change is a compare-and-set on the store ({@link ScimStore#replace}): when another
 * replica changed the directory since it was read, the change is computed again on what is stored
 * now (at most {@link #MAX_ATTEMPTS} times), so neither write is lost. A store that cannot be used
 * answers 503 in the SCIM error shape, with nothing changed; a login that cannot read it is refused
 * ({@link SharedStateUnavailableException} reaches the login path, which fails closed).
 *
 * <p>Logins ask it whom the identity provider deprovisioned ({@link #deprovisioned}): a user kept with
 * {@code active} false, or one it deleted. A delete removes the record, so the directory keeps the
 * deleted {@code userName} as a tombstone (at most {@link #MAX_TOMBSTONES}, the oldest dropped first)
 * until a user of that name is provisioned again.
 *
 * <p>Taking a member out of a group that grants roles (removing it from {@code members}, renaming or
 * deleting the group) voids the member's sessions the same way: roles are fixed in the session at
 * login, so a demotion takes effect at once only if the sessions holding the old roles end.
 */
public final class ScimDirectory implements ScimProvisioning {
    private static final Logger LOG = LoggerFactory.getLogger(ScimDirectory.class);
    private static final long LOG_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** Reads and recomputations of one change before it gives up to writers on other replicas (503, retried by the provider). */
    public static final int MAX_ATTEMPTS = 10;
    /** Most resources one page lists (ServiceProviderConfig {@code filter.maxResults}). */
    public static final int MAX_PAGE = 200;
    /** The schema URN of a list answer. */
    public static final String LIST_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
    /** Where the resources are served; {@code meta.location} is this plus the endpoint and id. */
    public static final String BASE_PATH = "/scim/v2";
    /** Deleted userNames remembered at most; beyond, the oldest is forgotten (and could log in again). */
    public static final int MAX_TOMBSTONES = 100_000;
    /** Who acts for the identity provider: the audit actor and the revoker of deprovisioned users' sessions (spec 5.6). */
    public static final Principal ACTOR = new Principal("scim:scim", "SCIM provisioning", AuthKind.API_KEY, "",
            java.util.Set.of(), Optional.empty());

    private final ScimStore store;
    private final Clock clock;
    private final Supplier<String> ids;
    private final SessionRevocations revocations;
    private final Predicate<String> grantsRoles;
    private final AtomicLong lastLogged = new AtomicLong(System.nanoTime() - LOG_EVERY_NANOS);
    /** Requests refused for the store since the last line logged about it. */
    private final AtomicInteger refusedSinceLogged = new AtomicInteger();
    /** One change of this replica at a time: they would only conflict with each other in the store. */
    private final ReentrantLock changing = new ReentrantLock();

    /**
     * @param ids new resource ids (random UUIDs in production)
     * @param revocations the session blocklist deprovisioning writes to
     */
    public ScimDirectory(ScimStore store, Clock clock, Supplier<String> ids, SessionRevocations revocations) {
        this(store, clock, ids, revocations, group -> false);
    }

    /**
     * @param ids new resource ids (random UUIDs in production)
     * @param revocations the session blocklist deprovisioning writes to
     * @param grantsRoles whether the group of this display name grants roles ({@code OMCP_SCIM_GROUP_ROLE_MAP}):
     *     taking a member out of such a group voids the member's sessions
     */
    public ScimDirectory(ScimStore store, Clock clock, Supplier<String> ids, SessionRevocations revocations,
            Predicate<String> grantsRoles) {
        this.grantsRoles = Objects.requireNonNull(grantsRoles, "grantsRoles");
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ids = Objects.requireNonNull(ids, "ids");
        this.revocations = Objects.requireNonNull(revocations, "revocations");
    }

    /** Creates a resource from a POST body. */
    @Override
    public ScimOutcome create(ScimResourceType type, JsonObject body) {
        if (!(body.get("schemas") instanceof jakarta.json.JsonArray schemas) || !schemas.contains(Jsonp.value(type.schema()))) {
            return refused(ScimError.invalidSyntax("a " + type.resourceName() + " body declares schemas [\"" + type.schema() + "\"]"));
        }
        Map<String, JsonValue> attributes = ScimAttributes.accepted(type, body);
        Optional<ScimError> problem = ScimAttributes.normalize(type, attributes);
        if (problem.isPresent()) {
            return refused(problem.get());
        }
        return change(type.resourceName() + ".create", stored -> {
            List<JsonObject> resources = resources(stored, type);
            Optional<ScimError> taken = uniqueness(type, resources, attributes, "");
            if (taken.isPresent()) {
                return Change.refused(taken.get());
            }
            String id = ids.get();
            Instant now = clock.instant();
            JsonObject created = resource(type, id, attributes, now, now, 1);
            List<JsonObject> next = new ArrayList<>(resources);
            next.add(created);
            return new Change(new ScimOutcome.Done(201, Optional.of(created), Optional.of(id)), Optional.of(next(stored, type, next)));
        });
    }

    /** One resource. */
    @Override
    public ScimOutcome get(ScimResourceType type, String id) {
        Optional<ScimSnapshot> stored = readForRequest(type.resourceName() + ".get");
        if (stored.isEmpty()) {
            return refused(unavailable());
        }
        return find(stored.get(), type, id).<ScimOutcome>map(found -> new ScimOutcome.Done(200, Optional.of(found), Optional.of(id)))
                .orElseGet(() -> refused(ScimError.notFound(type, id)));
    }

    /**
     * A page of the resources matching {@code filter} (RFC 7644 3.4.2.4): {@code startIndex} from 1
     * (a smaller one reads as 1), {@code count} at most {@link #MAX_PAGE} (a negative one reads as 0).
     */
    @Override
    public ScimOutcome list(ScimResourceType type, Optional<String> filter, int startIndex, int count) {
        Optional<ScimFilter> accepted = Optional.empty();
        if (filter.isPresent()) {
            switch (ScimFilter.parse(filter.get(), type)) {
                case ScimFilter.Parsed.Refused refusedFilter -> {
                    return refused(refusedFilter.error());
                }
                case ScimFilter.Parsed.Accepted ok -> accepted = Optional.of(ok.filter());
            }
        }
        Optional<ScimFilter> matching = accepted;
        Optional<ScimSnapshot> stored = readForRequest(type.resourceName() + ".list");
        if (stored.isEmpty()) {
            return refused(unavailable());
        }
        List<JsonObject> all = resources(stored.get(), type).stream().filter(r -> matching.map(f -> f.matches(r)).orElse(true)).toList();
        int start = Math.max(1, startIndex);
        int size = Math.min(Math.max(0, count), MAX_PAGE);
        List<JsonObject> page = start > all.size() ? List.of() : all.subList(start - 1, Math.min(all.size(), start - 1 + size));
        JsonArrayBuilder listed = Jsonp.array();
        page.forEach(listed::add);
        JsonObject body = Jsonp.object()
                .add("schemas", Jsonp.array().add(LIST_SCHEMA))
                .add("totalResults", all.size())
                .add("itemsPerPage", page.size())
                .add("startIndex", start)
                .add("Resources", listed)
                .build();
        return new ScimOutcome.Done(200, Optional.of(body), Optional.empty());
    }

    /** Applies a PatchOp body; a user left inactive is deprovisioned. */
    @Override
    public ScimOutcome patch(ScimResourceType type, String id, JsonObject body) {
        return change(type.resourceName() + ".update", stored -> {
            Optional<JsonObject> found = find(stored, type, id);
            if (found.isEmpty()) {
                return Change.refused(ScimError.notFound(type, id));
            }
            JsonObject before = found.get();
            Map<String, JsonValue> attributes = attributesOf(type, before);
            Optional<ScimError> problem = ScimPatch.apply(type, attributes, body)
                    .or(() -> ScimAttributes.normalize(type, attributes));
            if (problem.isPresent()) {
                return Change.refused(problem.get());
            }
            List<JsonObject> resources = resources(stored, type);
            Optional<ScimError> taken = uniqueness(type, resources, attributes, id);
            if (taken.isPresent()) {
                return Change.refused(taken.get());
            }
            if (type == ScimResourceType.USER && active(before) && attributes.get("active") == JsonValue.FALSE) {
                deprovision(before, "deactivated");
            }
            if (type == ScimResourceType.GROUP) {
                demote(stored, before, attributes);
            }
            JsonObject meta = before.getJsonObject("meta");
            JsonObject after = resource(type, id, attributes, Instant.parse(meta.getString("created")), clock.instant(),
                    versionOf(meta) + 1);
            ScimSnapshot next = next(stored, type, resources.stream().map(r -> id.equals(r.getString("id")) ? after : r).toList());
            return new Change(new ScimOutcome.Done(200, Optional.of(after), Optional.of(id)), Optional.of(next));
        });
    }

    /** Deletes a resource; a user's sessions are voided first, and a group loses it as a member. */
    @Override
    public ScimOutcome delete(ScimResourceType type, String id) {
        return change(type.resourceName() + ".delete", stored -> {
            Optional<JsonObject> found = find(stored, type, id);
            if (found.isEmpty()) {
                return Change.refused(ScimError.notFound(type, id));
            }
            List<String> deleted = stored.deleted();
            if (type == ScimResourceType.USER) {
                deprovision(found.get(), "deleted");
                deleted = withTombstone(deleted, found.get().getString("userName"));
            } else {
                demote(stored, found.get(), Map.of());
            }
            ScimSnapshot next = next(stored, type, resources(stored, type).stream().filter(r -> !id.equals(r.getString("id"))).toList(),
                    deleted);
            return new Change(new ScimOutcome.Done(204, Optional.empty(), Optional.of(id)), Optional.of(next));
        });
    }

    /** What a change answers, and the snapshot to store for it (none when it is refused). */
    private record Change(ScimOutcome outcome, Optional<ScimSnapshot> next) {
        static Change refused(ScimError error) {
            return new Change(new ScimOutcome.Refused(error), Optional.empty());
        }
    }

    /**
     * Reads the store, computes the change on what it holds and stores the result if no one else
     * changed it meanwhile; otherwise computes it again on the newer snapshot. A change that is
     * recomputed repeats its revocations: revoking a subject again is harmless, and each attempt
     * revokes before its snapshot can be stored.
     */
    private ScimOutcome change(String operation, Function<ScimSnapshot, Change> computation) {
        changing.lock();
        try {
            for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
                ScimStore.Stored stored = store.read();
                Change change = computation.apply(stored.snapshot());
                if (change.next().isEmpty() || store.replace(stored.revision(), change.next().get())) {
                    return change.outcome();
                }
            }
            LOG.warn("event=scim-change-contended operation={} attempts={} outcome=refused effect=\"answered 503; the identity"
                    + " provider retries\"", operation, MAX_ATTEMPTS);
            return refused(ScimError.unavailable("the SCIM directory was changed by other gateway replicas " + MAX_ATTEMPTS
                    + " times while this request was being applied; nothing was changed by it: send it again"));
        } catch (SharedStateUnavailableException | UncheckedIOException e) {
            storeUnavailable(operation, e);
            return refused(unavailable());
        } catch (ScimSnapshotTooLargeException e) {
            LOG.error("event=scim-store-full operation={} outcome=refused reason=\"{}\"", operation, LogField.of(e.getMessage()));
            return refused(new ScimError(507, "", e.getMessage() + "; nothing was changed: delete resources (or deprovisioned users"
                    + " no longer needed) before adding more"));
        } finally {
            changing.unlock();
        }
    }

    /** The stored snapshot, or empty (logged) when the store cannot be read: the request is answered 503. */
    private Optional<ScimSnapshot> readForRequest(String operation) {
        try {
            return Optional.of(store.read().snapshot());
        } catch (SharedStateUnavailableException e) {
            storeUnavailable(operation, e);
            return Optional.empty();
        }
    }

    /**
     * Logs why the store could not be used: at most one line every 10 s, counting the requests refused
     * since, so an identity provider's full sync during an outage does not flood the log.
     */
    private void storeUnavailable(String operation, RuntimeException e) {
        int refused = refusedSinceLogged.incrementAndGet();
        long now = System.nanoTime();
        long last = lastLogged.get();
        if (now - last >= LOG_EVERY_NANOS && lastLogged.compareAndSet(last, now)) {
            refusedSinceLogged.addAndGet(-refused);
            // the reason names the store (host and port, or the file), never a password; the answer does not
            LOG.error("event=scim-store-unavailable operation={} outcome=refused refused={} reason=\"{}\"", operation, refused,
                    LogField.of(e.getMessage()));
        }
    }

    private static ScimError unavailable() {
        return ScimError.unavailable("the store of the SCIM directory cannot be used now (it does not answer, or refused the"
                + " request); nothing was changed: retry later, and tell the gateway's operator (the gateway log says why:"
                + " event=scim-store-unavailable)");
    }

    /**
     * The display names of the groups whose members include the user named {@code userName} (case-insensitive).
     *
     * @throws SharedStateUnavailableException when a shared store cannot be read: the login asking must be refused
     */
    public List<String> groupsOf(String userName) {
        ScimSnapshot now = store.read().snapshot();
        List<String> userIds = now.users().stream().filter(u -> u.getString("userName", "").equalsIgnoreCase(userName))
                .map(u -> u.getString("id")).toList();
        return now.groups().stream().filter(g -> g.getJsonArray("members") != null && g.getJsonArray("members").stream()
                        .anyMatch(m -> m instanceof JsonObject o && userIds.contains(o.getString("value", ""))))
                .map(g -> g.getString("displayName")).toList();
    }

    /**
     * How the user named {@code userName} (case-insensitive) was deprovisioned: {@code "deactivated"}
     * when its record has {@code active} false, {@code "deleted"} when there is no record and a
     * tombstone remembers the name; empty when it is not deprovisioned (or was never provisioned).
     *
     * @throws SharedStateUnavailableException when a shared store cannot be read: the login asking must be refused
     */
    public Optional<String> deprovisioned(String userName) {
        ScimSnapshot now = store.read().snapshot();
        Optional<JsonObject> user = now.users().stream().filter(u -> u.getString("userName", "").equalsIgnoreCase(userName)).findFirst();
        if (user.isPresent()) {
            return active(user.get()) ? Optional.empty() : Optional.of("deactivated");
        }
        return now.deleted().stream().anyMatch(name -> name.equalsIgnoreCase(userName)) ? Optional.of("deleted") : Optional.empty();
    }

    /**
     * Voids the sessions of the users a change takes out of a group that grants roles: members no
     * longer listed, or every member when the group is deleted ({@code after} empty) or renamed.
     */
    private void demote(ScimSnapshot stored, JsonObject group, Map<String, JsonValue> after) {
        String name = group.getString("displayName", "");
        if (!grantsRoles.test(name)) {
            return;
        }
        List<String> kept = after.get("displayName") instanceof JsonString renamed && renamed.getString().equals(name)
                ? memberIds(after.get("members")) : List.of();
        Set<String> removed = memberIds(group.get("members")).stream().filter(m -> !kept.contains(m))
                .collect(Collectors.toUnmodifiableSet());
        stored.users().stream().filter(u -> removed.contains(u.getString("id")))
                .forEach(u -> revocations.revoke(RevocationTarget.SUB, u.getString("userName"),
                        "SCIM: removed from the group " + name + ", which grants roles", ACTOR));
    }

    private static List<String> memberIds(JsonValue members) {
        if (!(members instanceof jakarta.json.JsonArray array)) {
            return List.of();
        }
        return array.stream().filter(m -> m instanceof JsonObject).map(m -> ((JsonObject) m).getString("value", "")).toList();
    }

    /** The tombstones with {@code userName} added last (once, case-insensitively), the oldest dropped beyond the bound. */
    private static List<String> withTombstone(List<String> deleted, String userName) {
        List<String> next = new ArrayList<>(deleted.stream().filter(name -> !name.equalsIgnoreCase(userName)).toList());
        next.add(userName);
        return next.size() > MAX_TOMBSTONES ? next.subList(next.size() - MAX_TOMBSTONES, next.size()) : next;
    }

    private void deprovision(JsonObject user, String how) {
        // before the change is saved: a failure leaves the user as it was, and the identity provider retries
        revocations.revoke(RevocationTarget.SUB, user.getString("userName"), "SCIM: user " + how + " by the identity provider", ACTOR);
    }

    private static boolean active(JsonObject user) {
        return user.get("active") != JsonValue.FALSE;
    }

    private static Optional<JsonObject> find(ScimSnapshot stored, ScimResourceType type, String id) {
        return resources(stored, type).stream().filter(r -> id.equals(r.getString("id"))).findFirst();
    }

    private static List<JsonObject> resources(ScimSnapshot stored, ScimResourceType type) {
        return type == ScimResourceType.USER ? stored.users() : stored.groups();
    }

    private static ScimSnapshot next(ScimSnapshot stored, ScimResourceType type, List<JsonObject> resources) {
        return next(stored, type, resources, stored.deleted());
    }

    /** {@code stored} with the resources of {@code type} and the tombstones replaced. */
    private static ScimSnapshot next(ScimSnapshot stored, ScimResourceType type, List<JsonObject> resources, List<String> deleted) {
        ScimSnapshot next = type == ScimResourceType.USER
                ? new ScimSnapshot(resources, stored.groups()) : new ScimSnapshot(stored.users(), resources);
        if (type == ScimResourceType.USER && resources.size() < stored.users().size()) {
            next = new ScimSnapshot(resources, withoutDeletedMembers(next));
        }
        // a name provisioned again (POST, or a rename) is governed by its record, not by an old delete
        Set<String> held = next.users().stream().map(u -> u.getString("userName", "").toLowerCase(Locale.ROOT))
                .collect(Collectors.toUnmodifiableSet());
        return new ScimSnapshot(next.users(), next.groups(),
                deleted.stream().filter(name -> !held.contains(name.toLowerCase(Locale.ROOT))).toList());
    }

    private static List<JsonObject> withoutDeletedMembers(ScimSnapshot next) {
        List<String> ids = next.users().stream().map(u -> u.getString("id")).toList();
        List<String> groupIds = next.groups().stream().map(g -> g.getString("id")).toList();
        return next.groups().stream().map(group -> {
            if (group.getJsonArray("members") == null) {
                return group;
            }
            JsonArrayBuilder kept = Jsonp.array();
            group.getJsonArray("members").stream()
                    .filter(m -> m instanceof JsonObject o && (ids.contains(o.getString("value", ""))
                            || groupIds.contains(o.getString("value", ""))))
                    .forEach(kept::add);
            return Jsonp.provider().createObjectBuilder(group).add("members", kept).build();
        }).toList();
    }

    private static Optional<ScimError> uniqueness(ScimResourceType type, List<JsonObject> resources, Map<String, JsonValue> attributes,
            String exceptId) {
        String unique = type.uniqueAttribute();
        String wanted = ((JsonString) attributes.get(unique)).getString().toLowerCase(Locale.ROOT);
        boolean taken = resources.stream().anyMatch(r -> !exceptId.equals(r.getString("id"))
                && r.getString(unique, "").toLowerCase(Locale.ROOT).equals(wanted));
        return taken ? Optional.of(new ScimError(409, "uniqueness", "a " + type.resourceName() + " with this " + unique
                + " exists already")) : Optional.empty();
    }

    private static Map<String, JsonValue> attributesOf(ScimResourceType type, JsonObject resource) {
        Map<String, JsonValue> attributes = new LinkedHashMap<>();
        type.attributes().forEach(name -> {
            if (resource.containsKey(name)) {
                attributes.put(name, resource.get(name));
            }
        });
        return attributes;
    }

    private static JsonObject resource(ScimResourceType type, String id, Map<String, JsonValue> attributes, Instant created,
            Instant modified, long version) {
        JsonObjectBuilder out = Jsonp.object()
                .add("schemas", Jsonp.array().add(type.schema()))
                .add("id", id);
        type.attributes().forEach(name -> {
            if (attributes.containsKey(name)) {
                out.add(name, attributes.get(name));
            }
        });
        if (type == ScimResourceType.USER && !attributes.containsKey("active")) {
            out.add("active", true);
        }
        out.add("meta", Jsonp.object()
                .add("resourceType", type.resourceName())
                .add("created", created.toString())
                .add("lastModified", modified.toString())
                .add("location", BASE_PATH + "/" + type.endpoint() + "/" + id)
                .add("version", "W/\"" + version + "\""));
        return out.build();
    }

    private static long versionOf(JsonObject meta) {
        String version = meta.getString("version", "W/\"0\"");
        try {
            return Long.parseLong(version.replaceAll("[^0-9]", ""));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static ScimOutcome refused(ScimError error) {
        return new ScimOutcome.Refused(error);
    }
}
