package dev.omcp.adapters.http.api;

import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.List;

/**
 * Refuses a query parameter a route does not take, before its handler runs. Left unchecked, a
 * parameter the caller believes in ({@code ?dryRun=true}, {@code ?tenant=acme}, a misspelt
 * {@code ?allowdowngrade=true}) was dropped without a word: a change meant as a trial was made, a
 * filter that does not exist answered everything. So the route says which parameters it reads
 * ({@link ApiRoutes.RouteBuilder#queryParameters}), and any other is 400
 * {@code OMCP_INVALID_PARAMETERS} naming it, and nothing is done.
 */
final class QueryParameters {
    /** How many unknown parameters a refusal names; the rest are counted. */
    private static final int MAX_NAMED = 10;

    private QueryParameters() {}

    /**
     * Answers 400 and returns false when the request carries a query parameter outside
     * {@code accepted}; returns true, writing nothing, otherwise.
     */
    static boolean onlyAccepted(Context ctx, ApiRoutes.Route route, List<String> accepted, BodyRefusal refusal) {
        List<String> unknown = QueryString.parameters(ctx).keySet().stream().filter(name -> !accepted.contains(name)).sorted().toList();
        if (unknown.isEmpty()) {
            return true;
        }
        String takes = accepted.isEmpty() ? "it takes none" : "it takes only " + String.join(", ", accepted);
        String remedy = route.mutating() ? "nothing was done: send the request again without it" : "send the request again without it";
        List<String> problems = new ArrayList<>();
        unknown.stream().limit(MAX_NAMED).forEach(name -> problems.add("'" + JsonpExchange.printable(name) + "' is not a query "
                + "parameter of " + route.method() + " " + OpenApiDocument.documentedPath(route.path()) + " (" + takes + "); " + remedy));
        if (unknown.size() > MAX_NAMED) {
            problems.add("and " + (unknown.size() - MAX_NAMED) + " more query parameters it does not take");
        }
        refuse(ctx, route, refusal, problems);
        return false;
    }

    /**
     * Answers 400 and returns false when the query string does not decode ({@link QueryString}):
     * read leniently, such a parameter was dropped without a word, or the request failed with a 500.
     */
    static boolean decodes(Context ctx, ApiRoutes.Route route, BodyRefusal refusal) {
        if (!(QueryString.decoded(ctx) instanceof QueryString.Invalid invalid)) {
            return true;
        }
        refuse(ctx, route, refusal, List.of(invalid.problem() + (route.mutating() ? "; nothing was done" : "")));
        return false;
    }

    private static void refuse(Context ctx, ApiRoutes.Route route, BodyRefusal refusal, List<String> problems) {
        if (route.mutating()) {
            // a body the refusal leaves unread would reach the client as a reset instead of this answer
            RequestBodies.drainOrClose(ctx);
        }
        refusal.invalid(ctx, "OMCP_INVALID_PARAMETERS", problems);
    }
}
