package dev.omcp.core.guidance;

import dev.omcp.core.tools.observability.Durations;
import dev.omcp.core.tools.observability.Schemas;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.prompts.Prompt;
import dev.omcp.ports.prompts.PromptArgument;
import dev.omcp.ports.prompts.PromptDefinition;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.text.BackendText;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.regex.Pattern;

/**
 * The incident prompts: {@code triage-incident} (argument {@code service}, optional) walks the
 * incident recipe of the {@linkplain AgentGuide usage guide}; {@code write-postmortem} (arguments
 * {@code service}, required, and {@code duration}, optional, default {@code 1h}) drafts a
 * post-mortem and has the agent check it against traces and logs.
 *
 * <p>Arguments are validated as the tools validate them (service names of spec 1.9, durations such
 * as {@code 30m}); a bad or unknown argument is refused with {@link IllegalArgumentException}
 * saying what is allowed, which {@code prompts/get} answers as invalid params.
 */
public final class IncidentPrompts {
    static final String TRIAGE = "triage-incident";
    static final String POSTMORTEM = "write-postmortem";
    static final String DEFAULT_POSTMORTEM_WINDOW = "1h";
    private static final Pattern SERVICE = Pattern.compile(Schemas.SERVICE_PATTERN);
    private static final List<String> WINDOW_SUGGESTIONS = List.of("15m", "30m", "1h", "3h", "6h", "12h", "1d");

    private IncidentPrompts() {}

    /** Both prompts, in the order {@code prompts/list} shows them, with no service-name suggestions. */
    public static List<Prompt> all() {
        return all((typed, principal) -> List.of());
    }

    /**
     * Both prompts; {@code completion/complete} of their {@code service} argument asks
     * {@code serviceNames} (the typed text and the caller) for the names to suggest.
     */
    public static List<Prompt> all(BiFunction<String, Principal, List<String>> serviceNames) {
        return List.of(triage(serviceNames), postmortem(serviceNames));
    }

    static Prompt triage() {
        return triage((typed, principal) -> List.of());
    }

    static Prompt postmortem() {
        return postmortem((typed, principal) -> List.of());
    }

    static Prompt triage(BiFunction<String, Principal, List<String>> serviceNames) {
        PromptDefinition definition = new PromptDefinition(TRIAGE, "Triage an incident",
                "Investigate a reported problem end to end with the observability tools: health, anomalies and the likely "
                        + "root cause, blast radius, then traces and logs as evidence. Leave service empty to start from every "
                        + "service.",
                List.of(new PromptArgument("service", "The service the problem was reported for (may contain slashes); "
                        + "leave empty to look at every service.", false)));
        return new TextPrompt(definition, (args, principal) -> {
            Optional<String> service = service(args, false);
            String scope = service.map(s -> "The problem was reported for the service `" + s + "`.")
                    .orElse("No service was named: start from every service.");
            String start = service.map(s -> "2. `get_service_health` with service `" + s + "`: its status and the signals that drive it.")
                    .orElse("2. `get_service_health` for the few services that matter most (or that `detect_anomalies` flags next).");
            return """
                    Triage an ongoing incident with the OMCP tools. %s

                    Follow the incident recipe of the usage guide (resource %s):
                    1. `list_services` (and `list_sources` when a backend seems to be missing).
                    %s
                    3. `detect_anomalies` across services: its root-cause ranking names the most likely origin.
                    4. `get_blast_radius` from the top candidate: callers, co-located workloads, owners.
                    5. Evidence: `query_traces` with errorsOnly for the failing requests, then `query_logs` for the same \
                    service and time range (`duration`): aggregate first, then a few lines.

                    Ask narrow questions and let the server filter and aggregate. Treat `partial: true`, failed sources and \
                    notes as gaps in what you know, never as zero or healthy.

                    Report: what is broken and since when; the most likely root cause with its evidence (numbers, trace ids, \
                    log counts); the blast radius; who owns the affected services (`.catalog`, when present); what you could \
                    not see; and the next step. Offer to draft a post-mortem with `generate_postmortem`."""
                    .formatted(scope, AgentGuide.URI, start);
        }, Set.of("service"), serviceNames);
    }

    static Prompt postmortem(BiFunction<String, Principal, List<String>> serviceNames) {
        PromptDefinition definition = new PromptDefinition(POSTMORTEM, "Write a post-mortem",
                "Draft a post-mortem for an incident around a service with generate_postmortem, then check its claims against "
                        + "traces and logs and fill in what the tools cannot know.",
                List.of(new PromptArgument("service", "The suspected root-cause service (may contain slashes).", true),
                        new PromptArgument("duration", "The window the incident falls in, ending now: a number and a unit "
                                + "(s, m, h, d), for example 30m or 6h. Default " + DEFAULT_POSTMORTEM_WINDOW + ".", false)));
        return new TextPrompt(definition, (args, principal) -> {
            String service = service(args, true).orElseThrow();
            String window = window(args);
            return """
                    Write a post-mortem for the incident around the service `%s` in the last %s.

                    1. Call `detect_anomalies` without arguments. It judges every service over its default window, finds \
                    when each anomaly began (also before that window), and records the scores the draft's timeline is \
                    built from; a gateway that has not judged the services yet would otherwise draft an empty timeline.
                    2. Call `generate_postmortem` with service `%s`, duration `%s` and format `markdown`. It builds the \
                    synopsis, anomaly timeline, blast radius, contributing signals, related traces, log highlights and \
                    follow-ups from what the gateway recorded; sections it could not fill carry a note saying why.
                    3. Check the draft: confirm the failing requests with `query_traces` (errorsOnly) and the errors with \
                    `query_logs` (aggregate first) for the same service and time range (`duration` `%s`); correct anything \
                    the evidence contradicts.
                    4. Keep the section order of the draft. Add what the tools cannot know (customer impact, the timeline of \
                    the human response) as clearly marked placeholders, not as facts.
                    5. Name the owners from `.catalog` when present, and list the gaps: failed sources, notes, and missing \
                    anomaly history (the note says which setting records it).

                    The usage guide (resource %s) explains the tools if you need more than this."""
                    .formatted(service, window, service, window, window, AgentGuide.URI);
        }, Set.of("service", "duration"), serviceNames);
    }

    private static Optional<String> service(Map<String, String> args, boolean required) {
        String value = args.getOrDefault("service", "").strip();
        if (value.isEmpty()) {
            if (required) {
                throw new IllegalArgumentException("argument service is required: the suspected root-cause service");
            }
            return Optional.empty();
        }
        if (!SERVICE.matcher(value).matches()) {
            throw new IllegalArgumentException("argument service " + shown(value) + " is not a service name: use 1 to 128 of "
                    + "letters, digits, '_', '.', ':', '/' and '-' (call list_services for the names)");
        }
        return Optional.of(value);
    }

    private static String window(Map<String, String> args) {
        String value = args.getOrDefault("duration", "").strip();
        if (value.isEmpty()) {
            return DEFAULT_POSTMORTEM_WINDOW;
        }
        if (Durations.parse(value).isEmpty()) {
            throw new IllegalArgumentException("argument duration " + shown(value) + " must be a number and a unit (s, m, h or d), "
                    + "for example 30m or 6h, and at most " + Durations.format(Durations.MAX));
        }
        return value;
    }

    /** The start of a refused value, quoted, with control and format characters replaced: enough to spot the typo. */
    private static String shown(String value) {
        return "'" + BackendText.quoted(value, 40) + "'";
    }

    /** A prompt that renders one user message of text. */
    private static final class TextPrompt implements Prompt {
        private final PromptDefinition definition;
        private final BiFunction<Map<String, String>, Principal, String> text;
        private final Set<String> accepted;
        private final BiFunction<String, Principal, List<String>> serviceNames;

        TextPrompt(PromptDefinition definition, BiFunction<Map<String, String>, Principal, String> text, Set<String> accepted,
                BiFunction<String, Principal, List<String>> serviceNames) {
            this.definition = definition;
            this.text = text;
            this.accepted = Set.copyOf(accepted);
            this.serviceNames = serviceNames;
        }

        @Override
        public PromptDefinition definition() {
            return definition;
        }

        @Override
        public List<JsonObject> render(Map<String, String> arguments, Principal principal) {
            List<String> unknown = new ArrayList<>(new TreeSet<>(arguments.keySet()));
            unknown.removeAll(accepted);
            if (!unknown.isEmpty()) {
                // prompts/get names the prompt before this message: saying it again read "prompt 'x': prompt 'x' takes..."
                throw new IllegalArgumentException("unknown argument" + (unknown.size() == 1 ? " " : "s ")
                        + String.join(", ", unknown.stream().map(IncidentPrompts::shown).toList()) + "; it takes only "
                        + new TreeSet<>(accepted));
            }
            return List.of(Jsonp.object().add("role", "user").add("content", ToolResult.textBlock(text.apply(arguments, principal))).build());
        }

        @Override
        public List<String> complete(String argument, String prefix) {
            if (!argument.equals("duration") || !accepted.contains("duration")) {
                return List.of();
            }
            return WINDOW_SUGGESTIONS.stream().filter(w -> w.startsWith(prefix)).toList();
        }

        @Override
        public List<String> complete(String argument, String prefix, Principal principal) {
            if (argument.equals("service") && accepted.contains("service")) {
                return serviceNames.apply(prefix, principal);
            }
            return complete(argument, prefix);
        }
    }
}
