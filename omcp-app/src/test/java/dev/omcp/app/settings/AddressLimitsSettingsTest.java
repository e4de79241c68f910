package dev.omcp.app.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * spec 8 "IP-level limit of other endpoints": OMCP_API_RATE_PER_IP_PER_MIN (default 600) and
 * OMCP_AUTH_FAILURES_PER_IP_PER_MIN (default 30), per client address per minute; 0 or off disables.
 */
class AddressLimitsSettingsTest {
    private static final String API = "OMCP_API_RATE_PER_IP_PER_MIN";
    private static final String FAILURES = "OMCP_AUTH_FAILURES_PER_IP_PER_MIN";

    private static Settings.AddressLimits read(Map<String, String> env) throws InvalidSettingsException {
        return SettingsReader.read(env).server().addressLimits();
    }

    private static List<String> problems(Map<String, String> env) {
        InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class, () -> SettingsReader.read(env));
        assertThat(e).as(env + " refuses the start").isNotNull();
        return e.problems();
    }

    @Test
    void unsetOrEmpty_isTheDefault_600RequestsToApiAnd30FailedCredentialsAMinute() throws Exception {
        Settings.AddressLimits defaults = new Settings.AddressLimits(OptionalInt.of(600), OptionalInt.of(30));
        assertThat(read(Map.of())).isEqualTo(defaults);
        assertThat(read(Map.of(API, "", FAILURES, "  "))).isEqualTo(defaults);
        assertThat(Variables.API_RATE_PER_IP_PER_MIN.defaultValue()).isEqualTo("600");
        assertThat(Variables.AUTH_FAILURES_PER_IP_PER_MIN.defaultValue()).isEqualTo("30");
    }

    @Test
    void aWholeNumber_replacesTheDefault() throws Exception {
        assertThat(read(Map.of(API, " 1200 ", FAILURES, "5")))
                .isEqualTo(new Settings.AddressLimits(OptionalInt.of(1200), OptionalInt.of(5)));
        assertThat(read(Map.of(API, "1", FAILURES, "1000000")))
                .isEqualTo(new Settings.AddressLimits(OptionalInt.of(1), OptionalInt.of(1_000_000)));
    }

    @Test
    void zeroOrAWordThatDisablesTheMcpRate_disablesTheLimit() throws Exception {
        for (String off : List.of("0", "off", "OFF", "none", "unlimited", "Disabled", "false")) {
            assertThat(read(Map.of(API, off, FAILURES, off))).as(off)
                    .isEqualTo(new Settings.AddressLimits(OptionalInt.empty(), OptionalInt.empty()));
        }
    }

    @Test
    void anythingElse_refusesTheStart_namingTheVariableTheFormAndTheValue() {
        for (String bad : List.of("-1", "10k", "1e3", "1.5", "1_000", "1000001", "9999999999999999999999", "on", "true")) {
            assertThat(problems(Map.of(API, bad))).as(bad).singleElement().isEqualTo(API + " must be a whole number of requests to"
                    + " /api per client address per minute from 1 to 1000000, or 0 or off to disable the limit (unset: 600); got '"
                    + bad + "'");
            assertThat(problems(Map.of(FAILURES, bad))).as(bad).singleElement().isEqualTo(FAILURES + " must be a whole number of"
                    + " missing or wrong credentials per client address per minute from 1 to 1000000, or 0 or off to disable the"
                    + " limit (unset: 30); got '" + bad + "'");
        }
    }

    @Test
    void aLongOrHostileValue_isShownShortenedAndEscaped() {
        assertThat(problems(Map.of(API, "1".repeat(100)))).singleElement().asString().endsWith("got '" + "1".repeat(40) + "…'");
        String escape = String.valueOf((char) 27);
        assertThat(problems(Map.of(FAILURES, "3" + escape + "[31m0"))).singleElement().asString()
                .doesNotContain(escape).endsWith("got '3?[31m0'");
    }

    @Test
    void bothInvalid_areReportedTogether_withTheOtherProblems() {
        assertThat(problems(Map.of(API, "lots", FAILURES, "-3", "PORT", "http")))
                .anySatisfy(p -> assertThat(p).startsWith(API + " must be a whole number"))
                .anySatisfy(p -> assertThat(p).startsWith(FAILURES + " must be a whole number"))
                .anySatisfy(p -> assertThat(p).startsWith("PORT must be an integer"));
    }

    @Test
    void theRecord_refusesALimitBelowOne_soADisabledLimitIsAlwaysEmpty() {
        assertThat(catchThrowableOfType(IllegalArgumentException.class,
                () -> new Settings.AddressLimits(OptionalInt.of(0), OptionalInt.empty()))).hasMessageContaining("leave it empty");
    }
}
