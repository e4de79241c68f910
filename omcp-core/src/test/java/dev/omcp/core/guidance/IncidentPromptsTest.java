package dev.omcp.core.guidance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.prompts.Prompt;
import dev.omcp.ports.prompts.PromptArgument;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IncidentPromptsTest {
    private final Prompt triage = IncidentPrompts.triage();
    private final Prompt postmortem = IncidentPrompts.postmortem();

    private static String text(List<JsonObject> messages) {
        assertThat(messages).singleElement().satisfies(m -> {
            assertThat(m.getString("role")).isEqualTo("user");
            assertThat(m.getJsonObject("content").getString("type")).isEqualTo("text");
        });
        return messages.get(0).getJsonObject("content").getString("text");
    }

    @Test
    void bothPrompts_areListedWithTheirArguments() {
        assertThat(IncidentPrompts.all()).extracting(p -> p.definition().name()).containsExactly("triage-incident", "write-postmortem");
        assertThat(triage.definition().arguments()).extracting(PromptArgument::name, PromptArgument::required)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("service", false));
        assertThat(postmortem.definition().arguments()).extracting(PromptArgument::name, PromptArgument::required)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("service", true), org.assertj.core.groups.Tuple.tuple("duration", false));
    }

    @Test
    void triage_forAService_walksTheRecipeFromThatServicesHealth() {
        String text = text(triage.render(Map.of("service", "shop/checkout"), Principal.anonymous()));

        assertThat(text).contains("`shop/checkout`", "get_service_health", "detect_anomalies", "get_blast_radius", "query_traces",
                "query_logs", AgentGuide.URI);
        assertThat(text.indexOf("detect_anomalies")).isLessThan(text.indexOf("get_blast_radius"));
    }

    @Test
    void triage_withoutAService_startsFromEveryService() {
        assertThat(text(triage.render(Map.of(), Principal.anonymous()))).contains("No service was named: start from every service.");
        assertThat(text(triage.render(Map.of("service", "  "), Principal.anonymous()))).contains("No service was named");
    }

    @Test
    void writePostmortem_callsGeneratePostmortemWithTheServiceAndTheDefaultWindowOfOneHour() {
        String text = text(postmortem.render(Map.of("service", "payments-db"), Principal.anonymous()));

        assertThat(text).contains("generate_postmortem` with service `payments-db`, duration `1h` and format `markdown`");
    }

    @Test
    void writePostmortem_recordsAnomalyScoresFirst_soTheTimelineIsNotEmptyOnAFreshGateway() {
        String text = text(postmortem.render(Map.of("service", "payments-db", "duration", "6h"), Principal.anonymous()));

        assertThat(text).contains("1. Call `detect_anomalies` without arguments.");
        assertThat(text.indexOf("detect_anomalies")).isLessThan(text.indexOf("generate_postmortem` with"));
    }

    @Test
    void bothPrompts_askForTheLogsOfTheSameServiceAndTimeRange_namingTheArgument() {
        assertThat(text(triage.render(Map.of("service", "api"), Principal.anonymous())).replace("\n", " "))
                .contains("for the same service and time range (`duration`)").doesNotContain("service and window");
        assertThat(text(postmortem.render(Map.of("service", "api", "duration", "6h"), Principal.anonymous())).replace("\n", " "))
                .contains("for the same service and time range (`duration` `6h`)").doesNotContain("service and window");
    }

    @Test
    void writePostmortem_usesTheGivenWindow() {
        assertThat(text(postmortem.render(Map.of("service", "payments-db", "duration", "6h"), Principal.anonymous())))
                .contains("in the last 6h", "duration `6h`");
    }

    @Test
    void aMalformedServiceName_isRefusedWithTheAllowedForm() {
        // spec 1.9: slashes are valid, spaces and quotes are not
        assertThatThrownBy(() -> triage.render(Map.of("service", "shop checkout`; drop"), Principal.anonymous()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("argument service 'shop checkout`; drop' is not a service name: use 1 to 128 of letters, digits, "
                        + "'_', '.', ':', '/' and '-' (call list_services for the names)");
    }

    @Test
    void aMissingServiceForThePostmortem_isRefused() {
        assertThatThrownBy(() -> postmortem.render(Map.of("service", ""), Principal.anonymous()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("argument service is required: the suspected root-cause service");
    }

    @Test
    void aMalformedOrTooLongWindow_isRefused() {
        assertThatThrownBy(() -> postmortem.render(Map.of("service", "api", "duration", "an hour"), Principal.anonymous()))
                .hasMessage("argument duration 'an hour' must be a number and a unit (s, m, h or d), for example 30m or 6h, and at most 30d");
        assertThatThrownBy(() -> postmortem.render(Map.of("service", "api", "duration", "400d"), Principal.anonymous()))
                .hasMessageStartingWith("argument duration '400d' must be");
    }

    @Test
    void anUnknownArgument_isRefusedNamingTheAcceptedOnes() {
        assertThatThrownBy(() -> triage.render(Map.of("service", "api", "window", "1h"), Principal.anonymous()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown argument 'window'; it takes only [service]");
        assertThatThrownBy(() -> postmortem.render(Map.of("service", "api", "window", "1h", "since", "2h"), Principal.anonymous()))
                .hasMessage("unknown arguments 'since', 'window'; it takes only [duration, service]");
    }

    @Test
    void aHostileValue_isShownCutAndWithoutControlCharacters() {
        assertThatThrownBy(() -> triage.render(Map.of("service", "a\nb" + "x".repeat(100)), Principal.anonymous()))
                .hasMessageStartingWith("argument service 'a?b" + "x".repeat(37) + "…'");
        // a bidi override is no control character, but would reorder what the agent or operator reads
        assertThatThrownBy(() -> triage.render(Map.of("service", "a\u202eb"), Principal.anonymous()))
                .hasMessageStartingWith("argument service 'a?b'");
    }

    @Test
    void theWindowArgument_isCompletedWithCommonWindows() {
        assertThat(postmortem.complete("duration", "1")).containsExactly("15m", "1h", "12h", "1d");
        assertThat(postmortem.complete("service", "")).isEmpty();
        assertThat(triage.complete("duration", "")).isEmpty();
    }

    @Test
    void theServiceArgument_isCompletedFromTheCallersServiceNames() {
        List<String> asked = new ArrayList<>();
        List<Prompt> prompts = IncidentPrompts.all((typed, principal) -> {
            asked.add(typed + "@" + principal.tenant());
            return List.of("payments", "payments-db");
        });
        Principal acme = Principal.apiKey("bot", "acme");
        for (Prompt prompt : prompts) {
            assertThat(prompt.complete("service", "pay", acme)).containsExactly("payments", "payments-db");
        }
        assertThat(asked).containsExactly("pay@acme", "pay@acme");
        // other arguments keep their own suggestions, and unknown ones have none
        assertThat(prompts.get(1).complete("duration", "3", acme)).containsExactly("30m", "3h");
        assertThat(prompts.get(0).complete("nope", "", acme)).isEmpty();
        assertThat(asked).hasSize(2);
    }
}
