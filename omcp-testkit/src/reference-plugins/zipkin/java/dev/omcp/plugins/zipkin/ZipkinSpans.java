package dev.omcp.plugins.zipkin;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The spans of one Zipkin trace read as Zipkin's own model reads them ({@code zipkin2.internal.Trace}
 * merges them for its UI; its API answers every report as it was stored):
 *
 * <ul>
 *   <li>A span reported in fragments (once when it started, again when it finished) is one span: the
 *       reports of one span id on one side of the RPC from one service (a report without a service
 *       is a fragment of any).</li>
 *   <li>The client and server halves of one RPC sharing a span id (B3) are two spans: the server half
 *       is the one marked {@code shared}, or a {@code SERVER} span beside a {@code CLIENT} of its id,
 *       as Zipkin backfills an instrumentation that leaves the flag out.</li>
 *   <li>The root is a span without a parent; a server half whose client is in the trace is none
 *       (its caller is that client, even when its instrumentation lost the parent id). Without one,
 *       the root span has not arrived and the top of what did stands in: a span whose parent is not in
 *       the trace. Clocks decide only among equals: a service whose clock runs early makes its spans
 *       seem to start before their parents'. Parent links are only looked up, never followed, so
 *       links that form a cycle loop nothing.</li>
 * </ul>
 */
final class ZipkinSpans {
    /** What the summary needs of one span report. */
    record Span(String id, String parentId, String kind, boolean shared, String service, String name, long start) {
        /** Whether the span says it has no parent. */
        boolean parentless() {
            return parentId.isEmpty();
        }
    }

    private ZipkinSpans() {}

    /** How many spans the reports are, fragments of one span counted once. */
    static int count(List<Span> reports) {
        Set<String> clients = clientIds(reports);
        Map<String, Set<String>> servicesBySpan = new HashMap<>();
        for (Span span : reports) {
            servicesBySpan.computeIfAbsent(span.id() + (serverHalf(span, clients) ? "/server" : "/client"), k -> new HashSet<>())
                    .add(span.service());
        }
        int count = 0;
        for (Set<String> services : servicesBySpan.values()) {
            services.remove("");
            count += Math.max(1, services.size());
        }
        return count;
    }

    /** The root report: the earliest root, else the earliest top of what arrived, else the earliest report. */
    static Span root(List<Span> reports) {
        Set<String> clients = clientIds(reports);
        Set<String> ids = new HashSet<>();
        reports.forEach(span -> ids.add(span.id()));
        Span root = null;
        int rootRank = Integer.MAX_VALUE;
        for (Span span : reports) {
            int rank = rank(span, clients, ids);
            if (rank < rootRank || (rank == rootRank && span.start() < root.start())) {
                root = span;
                rootRank = rank;
            }
        }
        return root;
    }

    /** 0 a root, 1 the top of a trace whose root has not arrived, 2 any other span. */
    private static int rank(Span span, Set<String> clients, Set<String> ids) {
        boolean calledFromTheTrace = serverHalf(span, clients) && clients.contains(span.id());
        if (span.parentless()) {
            return calledFromTheTrace ? 2 : 0;
        }
        return ids.contains(span.parentId()) || calledFromTheTrace ? 2 : 1;
    }

    private static boolean serverHalf(Span span, Set<String> clients) {
        return span.shared() || ("SERVER".equals(span.kind()) && clients.contains(span.id()));
    }

    private static Set<String> clientIds(List<Span> reports) {
        Set<String> clients = new HashSet<>();
        for (Span span : reports) {
            if ("CLIENT".equals(span.kind()) && !span.shared()) {
                clients.add(span.id());
            }
        }
        return clients;
    }
}
