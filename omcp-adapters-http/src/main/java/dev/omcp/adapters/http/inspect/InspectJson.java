package dev.omcp.adapters.http.inspect;

import dev.omcp.ports.inspect.Deviation;
import dev.omcp.ports.inspect.DeviationReport;
import dev.omcp.ports.inspect.Flows;
import dev.omcp.ports.inspect.InspectStatus;
import dev.omcp.ports.inspect.Rule;
import dev.omcp.ports.inspect.RuleStatus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The answers of the Inspect routes as JSON-ready maps, in one place so that a rule, a deviation or a node reads the
 * same on every route (a rule in the profile, in a derivation and in a review's answer).
 */
final class InspectJson {
    private InspectJson() {}

    /** {@code GET /api/inspect/mode}. */
    static Map<String, Object> status(InspectStatus status) {
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("observed", status.observed());
        counts.put("dropped", status.dropped());
        counts.put("wouldBlock", status.wouldBlock());
        counts.put("blocked", status.blocked());
        Map<String, Object> profile = new LinkedHashMap<>();
        profile.put("accepted", status.acceptedRules());
        profile.put("suggested", status.suggestedRules());
        profile.put("storage", status.profileStorage());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("mode", status.mode().wireName());
        body.put("counts", counts);
        body.put("storage", status.storage());
        body.put("windowSeconds", status.window().toSeconds());
        body.put("profile", profile);
        return body;
    }

    /** One rule: {@code {id, subject, tool, resources, args, provenance: {learnedFrom, window: {from, to}, confidence}, status}}. */
    static Map<String, Object> rule(Rule rule) {
        return rule.wireFields();
    }

    static List<Map<String, Object>> rules(List<Rule> rules) {
        return rules.stream().map(InspectJson::rule).toList();
    }

    /** {@code GET /api/inspect/profile}: every rule and how many there are in each state. */
    static Map<String, Object> profile(List<Rule> rules) {
        Map<String, Object> counts = new LinkedHashMap<>();
        for (RuleStatus status : List.of(RuleStatus.ACCEPTED, RuleStatus.SUGGESTED, RuleStatus.REJECTED)) {
            counts.put(status.wireName(), rules.stream().filter(rule -> rule.status() == status).count());
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("rules", rules(rules));
        body.put("counts", counts);
        return body;
    }

    /** {@code GET /api/inspect/deviations}: every kind counted, zero included, so a client needs no default. */
    static Map<String, Object> deviations(DeviationReport report) {
        Map<String, Object> byKind = new LinkedHashMap<>();
        for (Deviation.Kind kind : Deviation.Kind.values()) {
            byKind.put(kind.wireName(), report.byKind().getOrDefault(kind, 0L));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("deviations", report.deviations().stream().map(InspectJson::deviation).toList());
        body.put("total", report.total());
        body.put("byKind", byKind);
        body.put("observations", report.observations());
        body.put("acceptedRules", report.acceptedRules());
        body.put("windowSeconds", report.window().toSeconds());
        return body;
    }

    private static Map<String, Object> deviation(Deviation deviation) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("kind", deviation.kind().wireName());
        json.put("detail", deviation.detail());
        json.put("event", deviation.observation().wireFields());
        return json;
    }

    /** {@code GET /api/inspect/flows}. */
    static Map<String, Object> flows(Flows flows) {
        List<Map<String, Object>> nodes = flows.nodes().stream().map(node -> {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("id", node.id());
            json.put("kind", node.kind());
            json.put("label", node.label());
            json.put("calls", node.calls());
            return json;
        }).toList();
        List<Map<String, Object>> edges = flows.edges().stream().map(edge -> {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("from", edge.from());
            json.put("to", edge.to());
            json.put("calls", edge.calls());
            json.put("errors", edge.errors());
            json.put("wouldBlock", edge.wouldBlock());
            json.put("blocked", edge.blocked());
            return json;
        }).toList();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("nodes", nodes);
        body.put("edges", edges);
        body.put("observations", flows.observations());
        body.put("windowSeconds", flows.window().toSeconds());
        return body;
    }
}
