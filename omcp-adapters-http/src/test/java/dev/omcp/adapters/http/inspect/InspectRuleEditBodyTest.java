package dev.omcp.adapters.http.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.inspect.Provenance;
import dev.omcp.ports.inspect.Rule;
import dev.omcp.ports.inspect.RuleEdit;
import dev.omcp.ports.inspect.RuleStatus;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The PATCH body of an Inspect rule ({@link RuleEditBody}), the window of the Inspect routes ({@link InspectWindow})
 * and the rule id a path may name ({@link InspectRoutes#RULE_ID}): what each accepts, and what each refusal says.
 */
class InspectRuleEditBodyTest {

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    private static List<String> problems(String body) {
        RuleEditBody.Result result = RuleEditBody.parse(json(body));
        assertThat(result).as(body).isInstanceOf(RuleEditBody.Invalid.class);
        return ((RuleEditBody.Invalid) result).problems();
    }

    @Test
    void aStatusAlone_isAReview() {
        assertThat(RuleEditBody.parse(json("{\"status\": \"accepted\"}")))
                .isEqualTo(new RuleEditBody.Valid(new RuleEdit.Review(RuleStatus.ACCEPTED)));
        assertThat(RuleEditBody.parse(json("{\"status\": \"rejected\"}")))
                .isEqualTo(new RuleEditBody.Valid(new RuleEdit.Review(RuleStatus.REJECTED)));
        assertThat(RuleEditBody.parse(json("{\"status\": \"suggested\"}")))
                .isEqualTo(new RuleEditBody.Valid(new RuleEdit.Review(RuleStatus.SUGGESTED)));
    }

    @Test
    void anyOfSubjectResourcesAndArgs_isAnEdit_whatIsLeftOutStaysEmpty() {
        RuleEditBody.Result result = RuleEditBody.parse(json("{\"resources\": {\"service\": [\"cart\", \"checkout\"]},"
                + " \"args\": {\"limit\": [\"num:<=100\"]}}"));

        assertThat(result).isEqualTo(new RuleEditBody.Valid(new RuleEdit.Change(Optional.empty(),
                Optional.of(Map.of("service", List.of("cart", "checkout"))), Optional.of(Map.of("limit", List.of("num:<=100"))))));
        assertThat(RuleEditBody.parse(json("{\"subject\": \"role:sre\"}")))
                .isEqualTo(new RuleEditBody.Valid(new RuleEdit.Change(Optional.of("role:sre"), Optional.empty(), Optional.empty())));
    }

    @Test
    void anEmptyObject_isToldWhatToSend() {
        assertThat(problems("{}")).singleElement().asString().startsWith("the body is empty").contains("\"status\"", "subject");
    }

    @Test
    void aStatusWithAnEdit_isRefused_sayingTheyDoNotMix() {
        assertThat(problems("{\"status\": \"accepted\", \"subject\": \"*\"}")).singleElement().asString()
                .contains("status cannot be sent with subject, resources or args", "two requests");
    }

    @Test
    void anUnknownMember_isNamed_alongsideTheOtherProblems() {
        assertThat(problems("{\"state\": \"accepted\", \"subject\": 7}")).containsExactly(
                "unknown field 'state'; allowed are [args, resources, status, subject]",
                "subject: must be a string: a principal id (key:ci-bot, user:alice), role:<role>, product:<id> or *");
    }

    @Test
    void aStatusOutsideTheThree_orNotAString_isRefusedWithWhatItMayBe() {
        assertThat(problems("{\"status\": \"approved\"}")).containsExactly(
                "status: must be \"suggested\", \"accepted\" or \"rejected\", got 'approved'");
        assertThat(problems("{\"status\": true}")).containsExactly(
                "status: must be \"suggested\", \"accepted\" or \"rejected\", a string");
    }

    @Test
    void resourcesAndArgs_ofTheWrongShape_nameThePlaceThatIsWrong() {
        assertThat(problems("{\"resources\": [\"cart\"]}")).singleElement().asString()
                .startsWith("resources: must be an object of dimension to an array of strings");
        assertThat(problems("{\"resources\": {\"service\": \"cart\"}}")).containsExactly("resources.service: must be an array of strings");
        assertThat(problems("{\"args\": {\"limit\": [\"num:<=100\", 5, null]}}"))
                .containsExactly("args.limit[1]: must be a string", "args.limit[2]: must be a string");
    }

    @Test
    void thousandsOfProblems_nameTenAndCountTheRest() {
        String values = String.join(",", java.util.Collections.nCopies(5000, "1"));

        List<String> problems = problems("{\"args\": {\"limit\": [" + values + "]}}");

        assertThat(problems).hasSize(11);
        assertThat(problems.get(10)).isEqualTo("and 4990 more problems");
    }

    @Test
    void aWindow_isANumberAndAUnit_atMostTheInspectWindow() {
        Duration day = Duration.ofHours(24);
        assertThat(InspectWindow.parse("30s", day)).isEqualTo(new InspectWindow.Valid(Duration.ofSeconds(30)));
        assertThat(InspectWindow.parse("15m", day)).isEqualTo(new InspectWindow.Valid(Duration.ofMinutes(15)));
        assertThat(InspectWindow.parse("24h", day)).isEqualTo(new InspectWindow.Valid(day));
        assertThat(InspectWindow.parse("1d", day)).isEqualTo(new InspectWindow.Valid(day));
        assertThat(InspectWindow.parse("7d", Duration.ofDays(7))).isEqualTo(new InspectWindow.Valid(Duration.ofDays(7)));

        for (String bad : List.of("", "0h", "1w", "1.5h", "h", "-1h", "PT1H", "123456s", "1H")) {
            assertThat(InspectWindow.parse(bad, day)).as(bad).isInstanceOf(InspectWindow.Invalid.class);
            assertThat(((InspectWindow.Invalid) InspectWindow.parse(bad, day)).problem()).as(bad)
                    .startsWith("must be a number and a unit s, m, h or d, like 30s, 15m, 1h or 7d");
        }
    }

    @Test
    void aWindowLongerThanTheInspectWindow_isRefusedNamingTheMaximum() {
        assertThat(InspectWindow.parse("25h", Duration.ofHours(24))).isEqualTo(new InspectWindow.Invalid("is 25h, longer than"
                + " the Inspect window (OMCP_INSPECT_WINDOW) of 24h, before which no observation is read; ask for at most 24h, or"
                + " leave it out to use the whole Inspect window"));
        assertThat(((InspectWindow.Invalid) InspectWindow.parse("8d", Duration.ofDays(7))).problem()).contains("at most 7d");
        assertThat(((InspectWindow.Invalid) InspectWindow.parse("2h", Duration.ofMinutes(90))).problem()).contains("at most 90m");
    }

    @Test
    void theRuleIdsAPathMayName_areExactlyTheIdsARuleMayHave() {
        Provenance provenance = new Provenance(1, Instant.EPOCH, Instant.EPOCH, 0.17);
        for (String id : List.of("r-0123456789ab", "A.b_c-9", "x".repeat(64), "", "x".repeat(65), "r 1", "r/1", "r%1", "é")) {
            boolean ruleTakesIt;
            try {
                new Rule(id, "*", "query_logs", Map.of(), Map.of(), provenance, RuleStatus.SUGGESTED);
                ruleTakesIt = true;
            } catch (IllegalArgumentException e) {
                ruleTakesIt = false;
            }
            assertThat(InspectRoutes.RULE_ID.matcher(id).matches()).as(id).isEqualTo(ruleTakesIt);
        }
    }
}
