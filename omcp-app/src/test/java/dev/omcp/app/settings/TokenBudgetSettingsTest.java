package dev.omcp.app.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** spec 8: OMCP_TOOL_DAILY_TOKENS (0 = uncapped, the default) and OMCP_TOKEN_BUDGET_FILE. */
class TokenBudgetSettingsTest {

    private static Settings.TokenBudget read(Map<String, String> env) throws InvalidSettingsException {
        return SettingsReader.read(env).agent().tokenBudget();
    }

    private static List<String> problems(Map<String, String> env) {
        InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class, () -> SettingsReader.read(env));
        assertThat(e).as(env + " refuses the start").isNotNull();
        return e.problems();
    }

    @Test
    void unset_isUncapped_inMemory() throws Exception {
        assertThat(read(Map.of())).isEqualTo(new Settings.TokenBudget(0, Optional.empty()));
    }

    @Test
    void aWholeNumber_isTheDailyCap_andTheFileIsRead() throws Exception {
        assertThat(read(Map.of("OMCP_TOOL_DAILY_TOKENS", " 200000 ", "OMCP_TOKEN_BUDGET_FILE", "/var/lib/omcp/budget.json")))
                .isEqualTo(new Settings.TokenBudget(200_000, Optional.of(Path.of("/var/lib/omcp/budget.json"))));
        assertThat(read(Map.of("OMCP_TOOL_DAILY_TOKENS", "0"))).isEqualTo(new Settings.TokenBudget(0, Optional.empty()));
        assertThat(read(Map.of("OMCP_TOOL_DAILY_TOKENS", "2147483647")).dailyTokens()).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void anythingButAWholeNumber_refusesTheStart_ratherThanRunningUncapped() {
        for (String typo : List.of("-1", "10k", "1e6", "1_000", "1.5", "off", "unlimited", "2147483648")) {
            assertThat(problems(Map.of("OMCP_TOOL_DAILY_TOKENS", typo))).as(typo).singleElement().isEqualTo(
                    "OMCP_TOOL_DAILY_TOKENS must be an integer from 0 to 2147483647 (tokens per API key per 24 h, 0 for no cap), got '"
                            + typo + "'");
        }
    }

    @Test
    void aBudgetFileWithoutACap_refusesTheStart_namingBoth() {
        assertThat(problems(Map.of("OMCP_TOKEN_BUDGET_FILE", "/var/lib/omcp/budget.json"))).singleElement().isEqualTo(
                "OMCP_TOKEN_BUDGET_FILE is set but OMCP_TOOL_DAILY_TOKENS is not, and it applies only with a budget; set "
                        + "OMCP_TOOL_DAILY_TOKENS to the daily tokens of each API key or unset OMCP_TOKEN_BUDGET_FILE");
        assertThat(problems(Map.of("OMCP_TOKEN_BUDGET_FILE", "/var/lib/omcp/budget.json", "OMCP_TOOL_DAILY_TOKENS", "0")))
                .singleElement().asString().contains("OMCP_TOOL_DAILY_TOKENS is 0 (uncapped)");
    }

    @Test
    void anInvalidCap_isReportedWithTheOtherProblems() {
        assertThat(problems(Map.of("OMCP_TOOL_DAILY_TOKENS", "lots", "PORT", "http")))
                .anySatisfy(p -> assertThat(p).startsWith("OMCP_TOOL_DAILY_TOKENS must be an integer"))
                .anySatisfy(p -> assertThat(p).startsWith("PORT must be an integer"))
                .hasSize(2);
    }
}
