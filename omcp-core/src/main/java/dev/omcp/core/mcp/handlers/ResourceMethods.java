package dev.omcp.core.mcp.handlers;

import dev.omcp.sdk.json.Jsonp;

import dev.omcp.core.mcp.JsonRpc;
import dev.omcp.core.mcp.McpCall;
import dev.omcp.core.mcp.McpResult;
import dev.omcp.ports.resources.ResourceDefinition;
import dev.omcp.ports.resources.ResourceProvider;
import dev.omcp.ports.resources.ResourceTemplateDefinition;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/** {@code resources/list}, {@code resources/templates/list}, {@code resources/read}, subscriptions. */
public final class ResourceMethods {
    private static final int MAX_URI_LENGTH = 2048;
    private static final int MAX_SUBSCRIPTIONS_PER_SESSION = 256;

    /** Sessions with subscriptions held before the first sweep for ended ones. */
    static final int SWEEP_FLOOR = 1_024;

    private final List<ResourceProvider> providers;
    private final Map<String, Set<String>> subscriptions = new ConcurrentHashMap<>();
    private final Predicate<String> liveSession;
    /** How many sessions may hold subscriptions before the next sweep for ended ones. */
    private final AtomicInteger sweepAt = new AtomicInteger(SWEEP_FLOOR);

    /**
     * @param liveSession whether a session id names a session that still exists: a session that
     *     expired (most clients never send DELETE) ends without {@link #forget}, so its subscriptions
     *     are found and dropped by asking this
     */
    public ResourceMethods(List<ResourceProvider> providers, Predicate<String> liveSession) {
        this.providers = List.copyOf(providers);
        this.liveSession = liveSession;
    }

    public McpResult list(McpCall call) {
        Optional<McpResult> refused = UnpagedLists.refuseCursor(call, "resources/list");
        if (refused.isPresent()) {
            return refused.get();
        }
        JsonArrayBuilder resources = Jsonp.array();
        for (ResourceProvider provider : providers) {
            for (ResourceDefinition resource : provider.resources()) {
                JsonObjectBuilder entry = Jsonp.object().add("uri", resource.uri()).add("name", resource.name());
                if (call.revision().titles()) {
                    entry.add("title", resource.title());
                }
                resources.add(entry.add("description", resource.description()).add("mimeType", resource.mimeType()));
            }
        }
        return McpResult.Success.of(Jsonp.object().add("resources", resources).build());
    }

    public McpResult listTemplates(McpCall call) {
        Optional<McpResult> refused = UnpagedLists.refuseCursor(call, "resources/templates/list");
        if (refused.isPresent()) {
            return refused.get();
        }
        JsonArrayBuilder templates = Jsonp.array();
        for (ResourceProvider provider : providers) {
            for (ResourceTemplateDefinition template : provider.templates()) {
                JsonObjectBuilder entry = Jsonp.object()
                        .add("uriTemplate", template.uriTemplate())
                        .add("name", template.name());
                if (call.revision().titles()) {
                    entry.add("title", template.title());
                }
                templates.add(entry.add("description", template.description()).add("mimeType", template.mimeType()));
            }
        }
        return McpResult.Success.of(Jsonp.object().add("resourceTemplates", templates).build());
    }

    public McpResult read(McpCall call) {
        Optional<String> uri = uri(call);
        if (uri.isEmpty()) {
            return McpResult.Failure.of(JsonRpc.INVALID_PARAMS, "resources/read needs params.uri, a URI from resources/list (at most 2048 characters)");
        }
        for (ResourceProvider provider : providers) {
            Optional<List<JsonObject>> contents = provider.read(uri.get(), call.principal());
            if (contents.isPresent()) {
                JsonArrayBuilder array = Jsonp.array();
                contents.get().forEach(array::add);
                return McpResult.Success.of(Jsonp.object().add("contents", array).build());
            }
        }
        return notFound(uri.get());
    }

    private static McpResult notFound(String uri) {
        return new McpResult.Failure(
                JsonRpc.RESOURCE_NOT_FOUND,
                "Resource not found: " + ToolMethods.abbreviate(uri) + "; call resources/list for readable URIs",
                Jsonp.object().add("uri", uri).build());
    }

    public McpResult subscribe(McpCall call) {
        Optional<String> uri = uri(call);
        if (uri.isEmpty()) {
            return McpResult.Failure.of(JsonRpc.INVALID_PARAMS, "resources/subscribe needs params.uri");
        }
        // a subscription to a URI no provider serves would never be notified: say so now, as read would
        if (providers.stream().noneMatch(p -> p.read(uri.get(), call.principal()).isPresent())) {
            return notFound(uri.get());
        }
        if (!subscriptions.containsKey(call.sessionId()) && subscriptions.size() >= sweepAt.get()) {
            sweepEndedSessions();
        }
        Set<String> uris = subscriptions.computeIfAbsent(call.sessionId(), id -> ConcurrentHashMap.newKeySet());
        if (uris.size() >= MAX_SUBSCRIPTIONS_PER_SESSION && !uris.contains(uri.get())) {
            return McpResult.Failure.of(JsonRpc.INVALID_PARAMS, "a session may hold at most " + MAX_SUBSCRIPTIONS_PER_SESSION + " subscriptions; unsubscribe first");
        }
        uris.add(uri.get());
        return McpResult.Success.of(JsonObject.EMPTY_JSON_OBJECT);
    }

    public McpResult unsubscribe(McpCall call) {
        Optional<String> uri = uri(call);
        if (uri.isEmpty()) {
            return McpResult.Failure.of(JsonRpc.INVALID_PARAMS, "resources/unsubscribe needs params.uri");
        }
        Set<String> uris = subscriptions.get(call.sessionId());
        if (uris != null) {
            uris.remove(uri.get());
        }
        return McpResult.Success.of(JsonObject.EMPTY_JSON_OBJECT);
    }

    /** Whether the session subscribed to {@code uri}. */
    public boolean isSubscribed(String sessionId, String uri) {
        Set<String> uris = subscriptions.get(sessionId);
        return uris != null && uris.contains(uri);
    }

    /** Forgets the subscriptions of a session that ended. */
    public void forget(String sessionId) {
        subscriptions.remove(sessionId);
    }

    /**
     * Drops the subscriptions of sessions that ended without {@link #forget} (expired while idle).
     * Run when the table has doubled since the last sweep, so its cost per subscription stays
     * constant and the table holds at most twice the sessions that still exist (or the floor).
     */
    private void sweepEndedSessions() {
        subscriptions.keySet().removeIf(sessionId -> !liveSession.test(sessionId));
        sweepAt.set(Math.max(SWEEP_FLOOR, subscriptions.size() * 2));
    }

    /** How many sessions hold subscriptions. */
    int sessionsWithSubscriptions() {
        return subscriptions.size();
    }

    /** Suggestions for a template variable. */
    List<String> complete(String uriTemplate, String variable, String prefix) {
        for (ResourceProvider provider : providers) {
            List<String> values = provider.complete(uriTemplate, variable, prefix);
            if (!values.isEmpty()) {
                return values;
            }
        }
        return List.of();
    }

    private static Optional<String> uri(McpCall call) {
        String uri = call.params().getString("uri", "");
        return uri.isEmpty() || uri.length() > MAX_URI_LENGTH ? Optional.empty() : Optional.of(uri);
    }
}
