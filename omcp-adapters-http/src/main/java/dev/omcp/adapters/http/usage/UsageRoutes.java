package dev.omcp.adapters.http.usage;

import dev.omcp.adapters.http.api.ApiCaller;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.JsonResponses;
import dev.omcp.adapters.http.api.QueryString;
import dev.omcp.adapters.http.server.HttpModule;
import dev.omcp.ports.budget.CredentialTokenUsage;
import dev.omcp.ports.budget.ReadTokenUsage;
import dev.omcp.ports.budget.TokenUsageSnapshot;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.ratelimit.RateUsage;
import dev.omcp.ports.ratelimit.RequestRateLimit;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * {@code GET /api/usage} (spec 2.9, 4.3): for every configured agent credential, also one that sent
 * nothing yet, the requests it sent to {@code /mcp} and {@code /mcp/ws} within the rate limit's
 * window and its limit, sorted by actor, and, while a token budget is in force, the tokens its
 * answers were charged in the budget's window; and the defaults. Needs {@code audit:read}, as spec
 * 4.3 says: it shows credential names and counts, which the readers of the audit log see already.
 * {@code ?actor=} narrows the answer to one identity, named {@code key:<name>} or {@code <name>};
 * an identity never seen answers with a count of 0 (spec 4.3), so the answer does not tell which
 * names exist.
 *
 * <p>A caller bound to a tenant sees only the credentials bound to that tenant, as it sees only its
 * tenant's audit entries; a caller without a tenant sees every credential. The counts are this
 * process's: each replica limits, charges and counts on its own.
 */
public final class UsageRoutes implements HttpModule {
    /** The permission this route needs (spec 4.3). */
    public static final String PERMISSION = "audit:read";
    private static final String ACTOR_PREFIX = "key:";
    /** Longer than any principal id a key name makes; a longer {@code actor} is refused rather than echoed. */
    private static final int MAX_ACTOR_CHARS = 256;

    private final RequestRateLimit requestRate;
    private final ReadTokenUsage tokenUsage;

    /**
     * @param requestRate the request counts and limits of the agent credentials
     * @param tokenUsage the token budget's usage; a snapshot without limit when no budget is in force
     */
    public UsageRoutes(RequestRateLimit requestRate, ReadTokenUsage tokenUsage) {
        this.requestRate = Objects.requireNonNull(requestRate, "requestRate");
        this.tokenUsage = Objects.requireNonNull(tokenUsage, "tokenUsage");
    }

    @Override
    public void register(ApiRoutes routes) {
        routes.route(HandlerType.GET, "/api/usage").permission("audit", "read").tag("usage").queryParameters("actor")
                .summary("Requests each agent credential sent to /mcp and /mcp/ws within the rate limit's window (this replica's"
                        + " count), sorted by actor, with its limit, and the tokens its answers were charged while a token budget"
                        + " is in force; a caller with a tenant sees that tenant's credentials only. ?actor=<name> or key:<name>"
                        + " narrows it to one identity (count 0 when never seen). Permission audit:read")
                .response(200, "identities (each: actor, the credential's principal id key:<name>; count, requests admitted in"
                        + " the last windowMs; limit, null when disabled; windowMs; tokens {used, limit, windowMs} while a token"
                        + " budget is in force), defaultLimit (null when disabled), windowMs, tokens {defaultLimit (null when"
                        + " uncapped), windowMs}")
                .response(400, "OMCP_INVALID_PARAMETERS: actor is empty, repeated or longer than " + MAX_ACTOR_CHARS + " characters")
                .handle(this::usage);
    }

    private void usage(Context ctx) {
        List<String> actors = QueryString.values(ctx, "actor");
        Optional<String> onlyActor = Optional.empty();
        if (!actors.isEmpty()) {
            String actor = actors.get(0).strip();
            if (actors.size() > 1 || actor.isEmpty() || actor.length() > MAX_ACTOR_CHARS) {
                JsonResponses.error(ctx, 400, "OMCP_INVALID_PARAMETERS", "actor must be given once, as a credential name or"
                        + " key:<name> of at most " + MAX_ACTOR_CHARS + " characters; leave it out to list every credential");
                return;
            }
            onlyActor = Optional.of(actor.startsWith(ACTOR_PREFIX) ? actor : ACTOR_PREFIX + actor);
        }
        String tenant = ApiCaller.principal(ctx).map(Principal::tenant).orElse("");
        RateUsage usage = requestRate.usage();
        TokenUsageSnapshot tokens = tokenUsage.snapshot();
        Map<String, CredentialTokenUsage> tokensByActor = new HashMap<>();
        tokens.credentials().forEach(credential -> tokensByActor.put(credential.actor(), credential));
        List<RateUsage.Identity> visible = usage.identities().stream()
                // a caller bound to a tenant reads its tenant's credentials only; one without a tenant operates the whole gateway
                .filter(identity -> tenant.isEmpty() || identity.tenant().equals(tenant))
                .toList();
        List<Map<String, Object>> identities;
        if (onlyActor.isPresent()) {
            String actor = onlyActor.get();
            Map<String, Object> one = visible.stream().filter(identity -> identity.actor().equals(actor)).findFirst()
                    .map(identity -> identity(identity, tokens, tokensByActor))
                    .orElseGet(() -> unseen(actor, usage, tokens));
            identities = List.of(one);
        } else {
            identities = visible.stream().map(identity -> identity(identity, tokens, tokensByActor)).toList();
        }
        JsonResponses.json(ctx, 200, body(identities, usage, tokens));
    }

    private static Map<String, Object> identity(
            RateUsage.Identity identity, TokenUsageSnapshot tokens, Map<String, CredentialTokenUsage> tokensByActor) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("actor", identity.actor());
        json.put("count", identity.count());
        json.put("limit", orNull(identity.limit()));
        json.put("windowMs", identity.windowMs());
        if (tokens.active()) {
            // a credential the ledger does not list has nothing charged in the window
            CredentialTokenUsage charged = tokensByActor.get(identity.actor());
            json.put("tokens", tokens(charged == null ? 0 : charged.used(), tokens.defaultLimit().getAsLong(), tokens.windowMs()));
        }
        return json;
    }

    /** spec 4.3: an identity never seen (or not the caller's to see) reads as one that sent nothing. */
    private static Map<String, Object> unseen(String actor, RateUsage usage, TokenUsageSnapshot tokens) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("actor", actor);
        json.put("count", 0);
        json.put("limit", orNull(usage.defaultLimit()));
        json.put("windowMs", usage.windowMs());
        if (tokens.active()) {
            json.put("tokens", tokens(0, tokens.defaultLimit().getAsLong(), tokens.windowMs()));
        }
        return json;
    }

    private static Map<String, Object> tokens(long used, long limit, long windowMs) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("used", used);
        json.put("limit", limit);
        json.put("windowMs", windowMs);
        return json;
    }

    private static Map<String, Object> body(List<Map<String, Object>> identities, RateUsage usage, TokenUsageSnapshot tokens) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("identities", identities);
        body.put("defaultLimit", orNull(usage.defaultLimit()));
        body.put("windowMs", usage.windowMs());
        Map<String, Object> tokenDefaults = new LinkedHashMap<>();
        tokenDefaults.put("defaultLimit", orNull(tokens.defaultLimit()));
        tokenDefaults.put("windowMs", tokens.windowMs());
        body.put("tokens", tokenDefaults);
        return body;
    }

    private static Integer orNull(OptionalInt value) {
        return value.isPresent() ? value.getAsInt() : null;
    }

    private static Long orNull(OptionalLong value) {
        return value.isPresent() ? value.getAsLong() : null;
    }
}
