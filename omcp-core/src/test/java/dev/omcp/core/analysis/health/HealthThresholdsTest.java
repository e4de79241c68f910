package dev.omcp.core.analysis.health;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

class HealthThresholdsTest {
    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    @Test
    void defaults_coverEverySignalWithCriticalAboveDegraded() {
        HealthThresholds d = HealthThresholds.defaults();
        assertThat(d.bySignal()).containsOnlyKeys(HealthSignal.values());
        d.bySignal().values().forEach(t -> assertThat(t.critical()).isGreaterThan(t.degraded()));
        assertThat(d.of(HealthSignal.LATENCY_P99).orElseThrow().critical()).isEqualTo(2000);
    }

    @Test
    void partialOverride_changesOnlyTheNamedFields() {
        HealthThresholds.Parsed p = HealthThresholds.parse(json("{\"latency_p99\": {\"degraded\": 300}, \"cpu\": {\"weight\": 4}}"));
        HealthThresholds t = ((HealthThresholds.Valid) p).thresholds();
        assertThat(t.of(HealthSignal.LATENCY_P99).orElseThrow()).isEqualTo(new SignalThreshold(300, 2000, 2));
        assertThat(t.of(HealthSignal.CPU).orElseThrow()).isEqualTo(new SignalThreshold(0.8, 0.95, 4));
        assertThat(t.of(HealthSignal.ERROR_RATE)).isEqualTo(HealthThresholds.defaults().of(HealthSignal.ERROR_RATE));
    }

    @Test
    void everyProblem_isReportedAtOnceWithItsPathAndTheAllowedForm() {
        HealthThresholds.Parsed p = HealthThresholds.parse(json("""
                {"latency": {"degraded": 1},
                 "error_rate": {"degraded": 0.1, "critical": 0.05},
                 "cpu": {"critical": 1.5, "weight": 0},
                 "memory": {"degraded": "high", "colour": "red"},
                 "latency_p99": {"degraded": 5000000, "enabled": "yes"},
                 "request_rate_drop": 3}
                """));
        assertThat(p).isInstanceOf(HealthThresholds.Invalid.class);
        assertThat(((HealthThresholds.Invalid) p).errors()).containsExactlyInAnyOrder(
                "thresholds.latency: unknown signal; known signals are error_rate, latency_p99, cpu, memory, request_rate_drop",
                "thresholds.error_rate.critical: 0.05 must be greater than degraded (0.1)",
                "thresholds.cpu.critical: 1.5 is out of range (a fraction, 0 < x <= 1)",
                "thresholds.cpu.weight: 0 must be greater than 0 and at most 100",
                "thresholds.memory.degraded: must be a number",
                "thresholds.memory.colour: unknown field; allowed are degraded, critical, weight, enabled",
                "thresholds.latency_p99.enabled: must be true or false",
                "thresholds.request_rate_drop: must be an object with degraded, critical, weight or enabled");
    }

    @Test
    void latencyInSecondsByMistake_isCaughtAsOutOfRangeOrInverted() {
        HealthThresholds.Parsed p = HealthThresholds.parse(json("{\"latency_p99\": {\"degraded\": 0.5, \"critical\": 2}}"));
        assertThat(p).isInstanceOf(HealthThresholds.Valid.class); // 0.5 ms .. 2 ms is odd but valid
        HealthThresholds.Parsed inverted = HealthThresholds.parse(json("{\"latency_p99\": {\"critical\": 0.3}}"));
        assertThat(((HealthThresholds.Invalid) inverted).errors()).containsExactly(
                "thresholds.latency_p99.critical: 0.3 must be greater than degraded (500)");
    }

    @Test
    void invalidOverride_leavesTheCurrentModelUntouched() {
        HealthThresholds current = HealthThresholds.defaults();
        HealthThresholds.Parsed p = current.withOverrides(json("{\"cpu\": {\"critical\": 0.1}}"), "sources.prom.health");
        assertThat(((HealthThresholds.Invalid) p).errors()).singleElement().asString().startsWith("sources.prom.health.cpu.critical");
        assertThat(current).isEqualTo(HealthThresholds.defaults());
    }

    @Test
    void toJson_roundTripsThroughParse() {
        HealthThresholds t = ((HealthThresholds.Valid) HealthThresholds.parse(
                json("{\"memory\": {\"enabled\": false}, \"error_rate\": {\"critical\": 0.2}}"))).thresholds();
        JsonObject out = t.toJson();
        assertThat(out.getJsonObject("memory").getBoolean("enabled")).isFalse();
        assertThat(out.getJsonObject("latency_p99").getString("unit")).isEqualTo("ms");
        HealthThresholds.Parsed back = HealthThresholds.parse(out);
        assertThat(back).isEqualTo(new HealthThresholds.Valid(t));
        HealthThresholds.Parsed wrongUnit = HealthThresholds.parse(json("{\"latency_p99\": {\"unit\": \"s\"}}"));
        assertThat(((HealthThresholds.Invalid) wrongUnit).errors()).containsExactly("thresholds.latency_p99.unit: the unit of latency_p99 is fixed: ms");
    }

    @Test
    void toJson_namesTheMetricEachSignalReads_andParseRefusesAnotherOne() {
        HealthThresholds t = ((HealthThresholds.Valid) HealthThresholds.parse(json("{\"memory\": {\"enabled\": false}}"))).thresholds();
        JsonObject out = t.toJson();

        // cpu and memory are shares of the limit: query_metrics' cpu and memory (cores, bytes) are other metrics
        assertThat(out.getJsonObject("cpu").getString("metric")).isEqualTo("cpu_utilization");
        assertThat(out.getJsonObject("memory").getString("metric")).as("disabled signals too").isEqualTo("memory_utilization");
        assertThat(out.getJsonObject("request_rate_drop").getString("metric")).isEqualTo("request_rate");
        HealthThresholds.Parsed wrongMetric = HealthThresholds.parse(json("{\"cpu\": {\"metric\": \"cpu\", \"critical\": 0.99}}"));
        assertThat(((HealthThresholds.Invalid) wrongMetric).errors())
                .containsExactly("thresholds.cpu.metric: cpu is always read from the metric cpu_utilization");
        HealthThresholds.Parsed notAString = HealthThresholds.parse(json("{\"cpu\": {\"metric\": 1}}"));
        assertThat(notAString).isInstanceOf(HealthThresholds.Invalid.class);
    }

    @Test
    void overridesOfDefaults_holdOnlyWhatDiffers_andParseBackToTheSameModel() {
        HealthThresholds t = ((HealthThresholds.Valid) HealthThresholds.parse(json("""
                {"memory": {"enabled": false}, "error_rate": {"critical": 0.2},
                 "latency_p99": {"degraded": 300, "critical": 1200, "weight": 2}, "cpu": {"degraded": 0.8}}"""))).thresholds();

        JsonObject overrides = t.overridesOfDefaults();

        // cpu equals its default and latency's weight too: neither is written
        assertThat(overrides).isEqualTo(json("""
                {"error_rate": {"critical": 0.2}, "latency_p99": {"degraded": 300, "critical": 1200}, "memory": {"enabled": false}}"""));
        assertThat(overrides.getJsonObject("latency_p99").getJsonNumber("critical").isIntegral()).isTrue();
        assertThat(HealthThresholds.parse(overrides)).isEqualTo(new HealthThresholds.Valid(t));
        assertThat(HealthThresholds.defaults().overridesOfDefaults()).isEmpty();
    }

    @Test
    void unknownKeys_areQuotedOnOneLine_andCut() {
        JsonObject body = Json.createObjectBuilder()
                .add("disk\nevent=forged", Json.createObjectBuilder())
                .add("cpu", Json.createObjectBuilder().add("x".repeat(5000), 1))
                .build();

        HealthThresholds.Parsed p = HealthThresholds.parse(body);

        assertThat(((HealthThresholds.Invalid) p).errors()).containsExactlyInAnyOrder(
                "thresholds.disk?event=forged: unknown signal; known signals are error_rate, latency_p99, cpu, memory, request_rate_drop",
                "thresholds.cpu." + "x".repeat(64) + "…: unknown field; allowed are degraded, critical, weight, enabled");
    }

    @Test
    void manyUnknownKeys_nameTenAndCountTheRest_soTheAnswerStaysSmall() {
        JsonObjectBuilder body = Json.createObjectBuilder();
        JsonObjectBuilder cpu = Json.createObjectBuilder();
        for (int i = 0; i < 5000; i++) {
            body.add("signal" + i, Json.createObjectBuilder());
            cpu.add("field" + i, 1);
        }
        body.add("cpu", cpu);

        HealthThresholds.Parsed p = HealthThresholds.parse(body.build());

        var errors = ((HealthThresholds.Invalid) p).errors();
        assertThat(errors).hasSize(2 * HealthThresholds.MAX_NAMED_UNKNOWN + 2)
                .contains("thresholds.signal0: unknown signal; known signals are error_rate, latency_p99, cpu, memory, request_rate_drop",
                        "thresholds: and 4990 more unknown signals; known signals are error_rate, latency_p99, cpu, memory, "
                                + "request_rate_drop",
                        "thresholds.cpu.field0: unknown field; allowed are degraded, critical, weight, enabled",
                        "thresholds.cpu: and 4990 more unknown fields; allowed are degraded, critical, weight, enabled");
    }

    @Test
    void overridesKeepingWhatWasWritten_keepFieldsThatStillHold_andParseBackToTheSameModel() {
        HealthThresholds t = ((HealthThresholds.Valid) HealthThresholds.parse(json("""
                {"latency_p99": {"critical": 1500}, "error_rate": {"enabled": false}}"""))).thresholds();
        JsonObject written = json("""
                {"latency_p99": {"degraded": 500, "critical": 1200, "weight": 2},
                 "cpu": {"degraded": 0.5},
                 "error_rate": {"enabled": false, "weight": 5}}""");

        JsonObject overrides = t.overridesOfDefaultsKeeping(written);

        // latency's degraded and weight equal the defaults but still hold; its critical and cpu's degraded no longer do
        assertThat(overrides).isEqualTo(json("""
                {"error_rate": {"enabled": false, "weight": 5}, "latency_p99": {"degraded": 500, "critical": 1500, "weight": 2}}"""));
        assertThat(HealthThresholds.parse(overrides)).isEqualTo(new HealthThresholds.Valid(t));
        assertThat(t.overridesOfDefaultsKeeping(JsonObject.EMPTY_JSON_OBJECT)).isEqualTo(t.overridesOfDefaults());
    }

    @Test
    void overridesKeepingWhatWasWritten_keepAnEnabledTrueWhileTheSignalIsOn_soTheVariableBehindItStillSwitchesIt() {
        // the file's cpu: {enabled: ${CPU_ON:-yes}} reads as true: dropped as the default, the variable would no longer apply
        HealthThresholds t = ((HealthThresholds.Valid) HealthThresholds.parse(json("""
                {"cpu": {"critical": 0.97}, "memory": {"enabled": false}}"""))).thresholds();
        JsonObject written = json("""
                {"cpu": {"enabled": true, "critical": 0.9}, "memory": {"enabled": true}, "error_rate": {"enabled": true}}""");

        JsonObject overrides = t.overridesOfDefaultsKeeping(written);

        // memory was switched off since: its state is written out
        assertThat(overrides).isEqualTo(json("""
                {"error_rate": {"enabled": true}, "cpu": {"enabled": true, "critical": 0.97}, "memory": {"enabled": false}}"""));
        assertThat(HealthThresholds.parse(overrides)).isEqualTo(new HealthThresholds.Valid(t));
    }

    @Test
    void everySignalDisabled_isRefused_becauseEveryServiceWouldReadUnknown() {
        HealthThresholds.Parsed none = HealthThresholds.parse(json("""
                {"error_rate": {"enabled": false}, "latency_p99": {"enabled": false}, "cpu": {"enabled": false},
                 "memory": {"enabled": false}, "request_rate_drop": {"enabled": false}}"""));

        assertThat(((HealthThresholds.Invalid) none).errors()).containsExactly("thresholds: every signal is disabled, so "
                + "get_service_health could only answer unknown for every service; keep at least one of error_rate, latency_p99, "
                + "cpu, memory, request_rate_drop enabled");
        HealthThresholds.Parsed one = HealthThresholds.parse(json("""
                {"error_rate": {"enabled": false}, "latency_p99": {"enabled": false}, "cpu": {"enabled": false},
                 "memory": {"enabled": false}}"""));
        assertThat(one).isInstanceOf(HealthThresholds.Valid.class);
    }

    @Test
    void aNumberBeyondWhatADoubleHolds_isNamedAsWritten_notAsNoNumberOrZero() {
        HealthThresholds.Parsed p = HealthThresholds.parse(json("""
                {"latency_p99": {"degraded": 1e400}, "cpu": {"degraded": 1e-400}}"""));

        assertThat(((HealthThresholds.Invalid) p).errors()).containsExactlyInAnyOrder(
                "thresholds.latency_p99.degraded: 1E+400 is too large for a threshold",
                "thresholds.cpu.degraded: 1E-400 is too small for a threshold");
    }
}
