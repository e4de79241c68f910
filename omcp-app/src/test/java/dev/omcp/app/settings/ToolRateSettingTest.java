package dev.omcp.app.settings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.ratelimit.RateLimit;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** spec 8 "MCP rate": how OMCP_TOOL_RATE_PER_MIN is read; a value it cannot use falls back to 60 and never stops the start. */
class ToolRateSettingTest {

    private static Settings.ToolRate read(String value) throws InvalidSettingsException {
        return SettingsReader.read(value == null ? Map.of() : Map.of("OMCP_TOOL_RATE_PER_MIN", value)).agent().toolRate();
    }

    @Test
    void unset_isSixtyAMinute_withoutAWarning() throws Exception {
        // spec 8: 60 requests per minute per named bearer credential
        assertThat(read(null)).isEqualTo(new Settings.ToolRate(RateLimit.of(60), java.util.Optional.empty()));
        assertThat(Variables.TOOL_RATE_PER_MIN.defaultValue()).isEqualTo("60");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   "})
    void empty_fallsBackToSixty_withoutAWarning(String value) throws Exception {
        assertThat(read(value)).isEqualTo(new Settings.ToolRate(RateLimit.of(60), java.util.Optional.empty()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "120", " 30 ", "+45", "2147483647"})
    void aPositiveInteger_replacesTheDefault(String value) throws Exception {
        Settings.ToolRate rate = read(value);
        assertThat(rate.limit()).isEqualTo(RateLimit.of(Integer.parseInt(value.trim())));
        assertThat(rate.fallback()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"off", "none", "unlimited", "disabled", "false", "OFF", "None", "UNLIMITED", "Disabled", "False", " off "})
    void theDisableWords_inAnyCase_disableTheLimit(String value) throws Exception {
        Settings.ToolRate rate = read(value);
        assertThat(rate.limit().isDisabled()).isTrue();
        assertThat(rate.fallback()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "-60"})
    void zeroOrNegative_fallsBackToSixty_andSaysWhy(String value) throws Exception {
        Settings.ToolRate rate = read(value);
        assertThat(rate.limit()).isEqualTo(RateLimit.of(60));
        assertThat(rate.fallback()).hasValueSatisfying(reason -> assertThat(reason)
                .startsWith("OMCP_TOOL_RATE_PER_MIN='" + value + "' is not positive")
                .contains("the default of 60 requests a minute applies"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "1.5", "60/min", "sixty", "no", "0x10"})
    void aValueThatIsNoWholeNumber_fallsBackToSixty_andSaysWhy(String value) throws Exception {
        Settings.ToolRate rate = read(value);
        assertThat(rate.limit()).isEqualTo(RateLimit.of(60));
        assertThat(rate.fallback()).hasValueSatisfying(reason -> assertThat(reason)
                .startsWith("OMCP_TOOL_RATE_PER_MIN='" + value + "' is not a whole number")
                .contains("off to disable"));
    }

    @Test
    void aNumberBeyondAnInt_fallsBackToSixty_andSaysWhy() throws Exception {
        Settings.ToolRate rate = read("99999999999");
        assertThat(rate.limit()).isEqualTo(RateLimit.of(60));
        assertThat(rate.fallback()).hasValueSatisfying(reason -> assertThat(reason).contains("is larger than 2147483647"));
    }

    @Test
    void aValueThatFallsBack_neverStopsTheStart_besideOtherInvalidSettings() {
        // the other settings' problems are still reported; the rate is not among them
        Throwable refused = org.assertj.core.api.Assertions.catchThrowable(
                () -> SettingsReader.read(Map.of("OMCP_TOOL_RATE_PER_MIN", "lots", "PORT", "seventy")));
        assertThat(refused).isInstanceOf(InvalidSettingsException.class).hasMessageContaining("PORT")
                .hasMessageNotContaining("OMCP_TOOL_RATE_PER_MIN");
    }

    @Test
    void aControlCharacterInTheValue_isEscapedInTheWarning() throws Exception {
        String escape = String.valueOf((char) 27);
        assertThat(read("6" + escape + "[2J0").fallback()).hasValueSatisfying(reason -> assertThat(reason).doesNotContain(escape));
    }

    @Test
    void aRateOrABudget_setWithoutAnyApiKey_isWarnedAbout_sinceOnlyKeysAreLimited() throws Exception {
        Settings.Agent keyless = SettingsReader.read(Map.of("OMCP_TOOL_RATE_PER_MIN", "30", "OMCP_TOOL_DAILY_TOKENS", "5000")).agent();
        assertThat(keyless.warnings()).hasSize(2).allSatisfy(line -> assertThat(line).startsWith("event=limit-without-credentials")
                .contains("limits nothing", "OMCP_API_KEYS"));
        assertThat(keyless.warnings().get(0)).contains("variable=OMCP_TOOL_RATE_PER_MIN");

        Settings.Agent keyed = SettingsReader.read(Map.of("OMCP_TOOL_RATE_PER_MIN", "30", "OMCP_API_KEYS",
                "ci:ci-token-0123456789abcdef")).agent();
        assertThat(keyed.warnings()).isEmpty();
        assertThat(SettingsReader.read(Map.of()).agent().warnings()).as("nothing set, nothing said").isEmpty();
    }
}
