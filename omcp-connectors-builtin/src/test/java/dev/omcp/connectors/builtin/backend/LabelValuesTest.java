package dev.omcp.connectors.builtin.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.memory.AnswerBudget;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Label-values answers read token by token, with their caps. */
class LabelValuesTest {

    private static Set<String> read(String json) throws ConnectorException {
        return answer(json).result();
    }

    private static BackendJson.Answer<Set<String>> answer(String json) throws ConnectorException {
        return LabelValues.read(json.getBytes(StandardCharsets.UTF_8), "Prometheus", "job");
    }

    private static String values(int count, String prefix) {
        StringBuilder json = new StringBuilder("{\"status\":\"success\",\"data\":[");
        for (int i = 0; i < count; i++) {
            json.append(i == 0 ? "" : ",").append('"').append(prefix).append(i).append('"');
        }
        return json.append("]}").toString();
    }

    @Test
    void theStringValues_areRead_whateverTheMembersOrder() throws ConnectorException {
        assertThat(read("{\"data\":[\"api\",\"web\",\"api\"],\"status\":\"success\",\"warnings\":[\"w\"]}"))
                .containsExactlyInAnyOrder("api", "web");
    }

    @Test
    void theAnswersWarningsAndInfos_areKept_asAQuerysAre_andAnAnswerWithoutThemHasNone() throws ConnectorException {
        // a query frontend (Thanos, a Loki frontend) says beside the values that some stores did not answer
        assertThat(answer("{\"status\":\"success\",\"data\":[\"api\"],\"warnings\":[\"store b did not answer\",7],"
                + "\"infos\":[\"line one\\nline two\"]}").warnings())
                .containsExactly("store b did not answer", "info: line one line two");
        assertThat(answer("{\"status\":\"success\",\"data\":[\"api\"],\"warnings\":\"not a list\"}").warnings()).isEmpty();
    }

    @Test
    void aValueThatIsNotAString_isABadResponse_namingTheLabelAndTheType_notAValueSkippedWithoutAWord() {
        // Prometheus and Loki write every label value as a string: skipped, a service or metric would go unlisted unsaid
        for (String other : new String[] {"7", "{\"x\":[1]}", "null", "true", "[\"api\"]"}) {
            assertThatThrownBy(() -> read("{\"status\":\"success\",\"data\":[\"api\"," + other + ",\"web\"]}"))
                    .as(other).isInstanceOfSatisfying(ConnectorException.class,
                            e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE))
                    .hasMessageStartingWith("Prometheus answered a value of the label 'job' that is not a string (")
                    .hasMessageEndingWith("); Prometheus writes every label value as a string: check what answers at the source URL");
        }
    }

    @Test
    void manyShortValues_areChargedForTheHeapTheyTake_andRefusedWhenTheBudgetCannotHoldThem() {
        // 50 000 values of about nine bytes each: 450 KB of answer, about 5 MB of strings and set entries
        byte[] body = values(50_000, "v").getBytes(StandardCharsets.UTF_8);
        AnswerBudget budget = AnswerBudget.ofBytes(2 << 20);
        try (ValuesCharge charge = new ValuesCharge(budget, body.length, () -> 3L * body.length, "Prometheus", "narrow the query")) {
            assertThatThrownBy(() -> LabelValues.read(body, charge, "Prometheus", "job")).isInstanceOfSatisfying(ConnectorException.class,
                    e -> {
                        assertThat(e.kind()).isEqualTo(ConnectorException.Kind.UNAVAILABLE);
                        assertThat(e.getMessage()).startsWith("Prometheus answered more than the gateway's memory budget for backend "
                                + "answers in flight (2 MiB) can hold");
                    });
        }
        assertThat(budget.inFlight()).isZero();
    }

    @Test
    void aLabelOfAFewHundredValues_passesASmallBudget_andGivesItBack() throws ConnectorException {
        byte[] body = values(500, "payments-").getBytes(StandardCharsets.UTF_8);
        AnswerBudget budget = AnswerBudget.ofBytes(1 << 20);
        try (ValuesCharge charge = new ValuesCharge(budget, body.length, () -> 3L * body.length, "Prometheus", "narrow the query")) {
            assertThat(LabelValues.read(body, charge, "Prometheus", "job").result()).hasSize(500);
        }
        assertThat(budget.inFlight()).isZero();
    }

    @Test
    void exactlyTheCap_isRead() throws ConnectorException {
        assertThat(read(values(LabelValues.MAX_VALUES, "v"))).hasSize(LabelValues.MAX_VALUES);
    }

    @Test
    void oneValueMoreThanTheCap_isRefused_withTheLabelAndWhatToDo() {
        assertThatThrownBy(() -> read(values(LabelValues.MAX_VALUES + 1, "v")))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE))
                .hasMessage("Prometheus has more than 100000 values for the label 'job'; the gateway reads at most 100000 values of one "
                        + "label. A label with that many values does not name services: leave it out of the service labels (the "
                        + "source's serviceLabels, or PROMETHEUS_SERVICE_LABELS / LOKI_SERVICE_LABELS)");
    }

    @Test
    void aValueLongerThanAnyServiceOrMetricName_isSkipped_andTheOthersKept() throws ConnectorException {
        String tooLong = "x".repeat(LabelValues.MAX_VALUE_CHARS + 1);
        String longest = "y".repeat(LabelValues.MAX_VALUE_CHARS);
        var answer = answer("{\"status\":\"success\",\"data\":[\"api\",\"" + tooLong + "\",\"" + longest + "\"]}");
        assertThat(answer.result()).containsExactlyInAnyOrder("api", longest);
        // a listing then lacks it, and says so
        assertThat(answer.warnings()).containsExactly("Prometheus answered values longer than 1024 characters (1); they were left out: "
                + "no service or metric name is that long");
    }

    @Test
    void anAnswerWithoutTheList_orNotJson_orCutShort_isABadResponse() {
        for (String json : new String[] {"{\"status\":\"success\",\"data\":{}}", "{\"status\":\"success\"}", "[\"api\"]", "<html>",
                "{\"data\":[\"api\",", ""}) {
            assertThatThrownBy(() -> read(json)).as(json)
                    .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE))
                    .hasMessageStartingWith("Prometheus answered");
        }
    }

    @Test
    void textAfterTheAnswersObject_isABadResponse_andAnHtmlPageIsNamedAsOne_withoutQuotingIt() throws ConnectorException {
        // a cut or concatenated answer is not the one asked for: the values of a second answer were read as none
        assertThatThrownBy(() -> read(values(2, "a") + "{\"data\":[\"b\"]}"))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE))
                .hasMessageContaining("Prometheus answered more after its JSON object");
        assertThat(read(values(2, "a") + "\n")).containsExactlyInAnyOrder("a0", "a1");
        // Prometheus and Loki answer "success" or "error" on their label endpoints; another word, or none, is not their answer
        assertThatThrownBy(() -> read("{\"status\":\"weird\",\"data\":[\"a\"]}"))
                .hasMessageStartingWith("Prometheus answered the status 'weird', which is neither success nor error");
        assertThatThrownBy(() -> read("{\"data\":[\"a\"]}")).hasMessageStartingWith("Prometheus answered without a 'status'");
        assertThatThrownBy(() -> read("\n<html><title>Corp SSO</title>"))
                .hasMessage("Prometheus answered something that is not a JSON object: an HTML page: a login page or proxy in front of "
                        + "the backend? check the source URL and its credentials");
    }

    @Test
    void anErrorEnvelopeWithStatus200_passesOnTheBackendsWords() {
        assertThatThrownBy(() -> read("{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid label name \\\"1job\\\"\"}"))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY))
                .hasMessage("Prometheus rejected the query (bad_data): invalid label name \"1job\"");
    }
}
