package dev.omcp.adapters.http.api;

import dev.omcp.ports.access.AccessDecision;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.auth.SharedStateUnavailableException;
import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.text.LogField;
import dev.omcp.sdk.text.LogPace;
import io.javalin.http.Context;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one shape of an access refusal on the management API: 403 {@code OMCP_PERMISSION_DENIED}
 * with {@code required} and {@code have} (spec 7.1), or 503 {@code OMCP_POLICY_UNAVAILABLE} when
 * the policy engine cannot decide (fail closed). Used by the guard for a route's declared
 * permission, and by handlers whose request needs a further permission (a settings change that
 * touches the health thresholds also needs {@code health:write}). Also 503
 * {@code OMCP_SHARED_STATE_UNAVAILABLE} when the store shared by replicas does not answer, so a
 * session's blocklist entry or an account's lock cannot be read (fail closed).
 *
 * <p>Every policy-unavailable refusal, the guard's and a handler's further check alike, writes the
 * operator's {@code event=policy-unavailable} line here, paced by one {@link LogPace}: the guard's,
 * which it hands to the request ({@link #paceOutageLinesWith}), so an outage writes one line a minute
 * whichever check met it.
 */
public final class AccessRefusals {
    private static final Logger LOG = LoggerFactory.getLogger(AccessRefusals.class);
    private static final long LOG_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final AtomicLong LAST_LOGGED = new AtomicLong(System.nanoTime() - LOG_EVERY_NANOS);
    private static final String OUTAGE_LINES = "omcp.access.outage-lines";
    /** Paces a refusal in a request the guard did not hand its pacing to (none is expected): never unpaced, never silent. */
    private static final LogPace UNGUARDED_OUTAGE_LINES = new LogPace(Clock.systemUTC(), Duration.ofMinutes(1));

    private AccessRefusals() {}

    /**
     * Asks {@code policy}; when the answer is not "allowed" writes the refusal and returns false.
     */
    public static boolean allowed(Context ctx, AccessPolicy policy, Principal principal, Permission permission) {
        AccessDecision decision = policy.decide(principal, permission);
        return switch (decision) {
            case AccessDecision.Allowed allowed -> true;
            case AccessDecision.Denied denied -> {
                permissionDenied(ctx, permission, denied.have());
                yield false;
            }
            case AccessDecision.Unavailable unavailable -> {
                policyUnavailable(ctx, principal, permission, unavailable.reason());
                yield false;
            }
        };
    }

    /** 403 {@code {code: OMCP_PERMISSION_DENIED, error, required: {resource, action}, have}} (spec 7.1). */
    public static void permissionDenied(Context ctx, Permission permission, List<Permission> have) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", "OMCP_PERMISSION_DENIED");
        // not "your roles": with OPA a policy decides, on whatever it reads; what to do holds for every policy source
        body.put("error", "this needs the permission " + permission + ", which you do not hold (what you hold is listed in "
                + "'have'); ask an administrator to grant you " + permission);
        // spec 7.1 names the resource first; a LinkedHashMap keeps that order on the wire
        Map<String, String> required = new LinkedHashMap<>();
        required.put("resource", permission.resource());
        required.put("action", permission.action());
        body.put("required", required);
        body.put("have", have.stream().map(Permission::toString).toList());
        JsonResponses.json(ctx, 403, body);
    }

    /** Makes the policy-unavailable lines of this request count toward {@code lines}, the guard's pacing of them. */
    public static void paceOutageLinesWith(Context ctx, LogPace lines) {
        ctx.attribute(OUTAGE_LINES, lines);
    }

    /**
     * 503 {@code OMCP_POLICY_UNAVAILABLE}: the policy engine could not decide, so nothing is allowed.
     * The operator's log says which request was refused and why (the engine's reason names neither
     * its address nor a token): the first refusal of an outage at once, then at most one line a minute.
     */
    public static void policyUnavailable(Context ctx, Principal principal, Permission permission, String reason) {
        LogPace paced = ctx.attribute(OUTAGE_LINES);
        long refused = (paced == null ? UNGUARDED_OUTAGE_LINES : paced).occurred();
        if (refused > 0) {
            // the request that wrote the line; refused counts the others
            LOG.error("event=policy-unavailable method={} path=\"{}\" principal=\"{}\" permission={} reason=\"{}\" refused={} "
                    + "note=\"at most one line a minute; refused counts the requests since the previous line\"",
                    ctx.method(), LogField.of(ctx.path()), IdentityText.of(principal.id()), permission, LogField.of(reason), refused);
        }
        ctx.header("Retry-After", "5");
        JsonResponses.error(ctx, 503, "OMCP_POLICY_UNAVAILABLE", reason);
    }

    /**
     * 503 {@code OMCP_SHARED_STATE_UNAVAILABLE} + {@code Retry-After}: the shared store did not answer
     * (or this replica's clock disagrees with it), so the request is refused rather than run without its
     * revocation, lockout or SCIM deprovisioning check. The store's
     * address stays in the operator's log (one line every 10 s at most during an outage).
     */
    public static void sharedStateUnavailable(Context ctx, SharedStateUnavailableException e) {
        long now = System.nanoTime();
        long last = LAST_LOGGED.get();
        if (now - last >= LOG_EVERY_NANOS && LAST_LOGGED.compareAndSet(last, now)) {
            LOG.error("event=shared-state-unavailable method={} path=\"{}\" outcome=refused reason=\"{}\" cause=\"{}\"",
                    ctx.method(), LogField.of(ctx.path()), LogField.of(e.getMessage()),
                    e.getCause() == null ? "" : e.getCause().getClass().getSimpleName());
        }
        ctx.header("Retry-After", "5");
        JsonResponses.error(ctx, 503, "OMCP_SHARED_STATE_UNAVAILABLE", "the store the gateway's replicas share (the sessions'"
                + " blocklist, the login locks, the SCIM directory) cannot be used (it does not answer, or this replica's clock"
                + " disagrees with it), so sessions and logins are refused for now; retry after the Retry-After seconds, and tell an"
                + " operator (the gateway log says why: event=shared-state-unavailable)");
    }
}
