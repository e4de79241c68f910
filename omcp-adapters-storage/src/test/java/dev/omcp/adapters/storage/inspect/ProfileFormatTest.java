package dev.omcp.adapters.storage.inspect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.inspect.ProfileStore.ProfileStoreException;
import dev.omcp.ports.inspect.Provenance;
import dev.omcp.ports.inspect.Rule;
import dev.omcp.ports.inspect.RuleStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/** The profile file's shape (design "Profile file"), read and written in both formats; no file is touched. */
class ProfileFormatTest {
    private static final String SOURCE = "/etc/omcp/profile";
    private static final int MAX = ProfileFile.MAX_BYTES;
    private static final Provenance LEARNED = new Provenance(12, Instant.parse("2026-03-01T00:00:00Z"),
            Instant.parse("2026-03-01T12:30:00.250Z"), 0.71);
    static final Rule ACCEPTED = new Rule("r-0a1b2c3d4e5f", "key:ci-bot", "query_logs",
            Map.of("service", List.of("checkout", "cart"), "source", List.of("loki")), Map.of("limit", List.of("num:<=100")), LEARNED,
            RuleStatus.ACCEPTED);
    // values a YAML writer must quote to read them back as the same strings
    static final Rule AWKWARD = new Rule("r-ffffffffffff", "*", "get_topology",
            Map.of("namespace", List.of("yes", "123", "null", "2026-03-01", "~", " leading space", "a: b", "#hash", "café", "'q'")),
            Map.of("filter", List.of("text:len<=64:lower,digit,space,punct", "true")),
            new Provenance(0, Instant.parse("2026-03-02T00:00:00Z"), Instant.parse("2026-03-02T00:00:00Z"), 1.0),
            RuleStatus.REJECTED);
    static final Rule SUGGESTED = new Rule("r-000000000001", "role:sre", "query_metrics", Map.of(), Map.of(),
            new Provenance(3, Instant.parse("2026-03-03T00:00:00Z"), Instant.parse("2026-03-03T01:00:00Z"), 0.19), RuleStatus.SUGGESTED);

    @Test
    void yaml_roundTripsRulesInTheirOrder_inBlockStyleAPersonCanRead() {
        List<Rule> rules = List.of(SUGGESTED, ACCEPTED, AWKWARD);
        String text = ProfileFormat.YAML.write(rules);

        assertThat(ProfileFormat.YAML.read(text, SOURCE, MAX)).containsExactlyElementsOf(rules);
        assertThat(text).startsWith("# Inspect profile").contains("version: 1\nrules:\n  - id: r-000000000001\n    subject: role:sre\n")
                .contains("    resources:\n      service:\n        - cart\n        - checkout\n      source:\n        - loki\n")
                .contains("      confidence: 0.71\n    status: accepted\n")
                .doesNotContain("{id").doesNotContain("!!");
    }

    @Test
    void json_roundTripsRulesInTheirOrder() {
        List<Rule> rules = List.of(AWKWARD, ACCEPTED, SUGGESTED);
        String text = ProfileFormat.JSON.write(rules);

        assertThat(ProfileFormat.JSON.read(text, SOURCE, MAX)).containsExactlyElementsOf(rules);
        assertThat(text).contains("\"version\" : 1").contains("\"from\" : \"2026-03-01T00:00:00Z\"");
    }

    @Test
    void aHandWrittenYamlProfile_withFlowListsUnquotedDatesAndNoResources_reads() {
        String text = """
                # reviewed by hand
                version: 1
                rules:
                  - id: r-hand
                    subject: product:payments
                    tool: query_logs
                    resources: {service: [checkout]}
                    provenance: {learnedFrom: 0, window: {from: 2026-03-01T00:00:00Z, to: 2026-03-01T00:00:00Z}, confidence: 1}
                    status: accepted
                """;

        assertThat(ProfileFormat.YAML.read(text, SOURCE, MAX)).containsExactly(new Rule("r-hand", "product:payments", "query_logs",
                Map.of("service", List.of("checkout")), Map.of(), new Provenance(0, Instant.parse("2026-03-01T00:00:00Z"),
                        Instant.parse("2026-03-01T00:00:00Z"), 1.0), RuleStatus.ACCEPTED));
    }

    @Test
    void aBlankFileOrAnEmptyRuleList_isAnEmptyProfile() {
        assertThat(ProfileFormat.YAML.read("# nothing yet\n", SOURCE, MAX)).isEmpty();
        assertThat(ProfileFormat.YAML.read("rules: []\n", SOURCE, MAX)).isEmpty();
        assertThat(ProfileFormat.JSON.read("  \n", SOURCE, MAX)).isEmpty();
        assertThat(ProfileFormat.JSON.read("{\"version\": 1, \"rules\": []}", SOURCE, MAX)).isEmpty();
    }

    @Test
    void badYamlSyntax_isRefusedWithItsLineAndColumn_withoutQuotingTheFile() {
        refusedYaml("rules:\n  - id: r-1\n    subject: [unclosed\n    secret: s3cr3t-value\n")
                .hasMessageContaining(SOURCE + " is not valid YAML at line ").hasMessageContaining("column")
                .hasMessageNotContaining("s3cr3t-value");
    }

    @Test
    void badJsonSyntax_isRefusedWithItsLineAndColumn_withoutQuotingTheFile() {
        refusedJson("{\"rules\": [\n  {\"id\": \"s3cr3t-value\",,}\n]}")
                .hasMessageContaining(SOURCE + " is not valid JSON (line 2, column ").hasMessageNotContaining("s3cr3t-value");
        refusedJson("{\"rules\": []} {\"rules\": []}").hasMessageContaining("line 1, column 15: the file holds more after its one");
    }

    @Test
    void anUnknownField_isRefusedNamingTheFieldTheRuleAndItsLine() {
        String text = valid("r-1").replace("    status: accepted\n", "    status: accepted\n    colour: red\n");

        refusedYaml(text).hasMessageContaining(SOURCE + " line 15, column 5: rules[0] (rule 'r-1'): unknown field 'colour'; a rule holds"
                + " id, subject, tool, resources, args, provenance and status");
        refusedYaml("verison: 1\nrules: []\n").hasMessageContaining("line 1, column 1: the file: unknown field 'verison'");
        refusedYaml(valid("r-1").replace("      confidence: 0.71\n", "      confidence: 0.71\n      note: x\n"))
                .hasMessageContaining("line 14, column 7: rules[0].provenance (rule 'r-1'): unknown field 'note'");
        refusedJson("{\"rules\": [{\"id\": \"r-9\", \"colour\": \"red\"}]}")
                .hasMessageContaining("line 1, column 26: rules[0] (rule 'r-9'): unknown field 'colour'");
    }

    @Test
    void aRuleIdUsedTwice_isRefusedNamingBothRules() {
        String text = valid("r-1") + valid("r-1").substring("version: 1\nrules:\n".length());

        refusedYaml(text).hasMessageContaining("line 15, column 9: rules[1].id (rule 'r-1'): is also the id of rules[0] (line 3,"
                + " column 9); ids must be unique");
    }

    @Test
    void aKeyWrittenTwice_isRefused() {
        refusedYaml(valid("r-1").replace("    tool: query_logs\n", "    tool: query_logs\n    tool: query_metrics\n"))
                .hasMessageContaining("line 6, column 5: rules[0] (rule 'r-1'): 'tool' is written twice (first at line 5, column 5)");
        refusedJson("{\"rules\": [], \"rules\": []}").hasMessageContaining("the file: 'rules' is written twice");
    }

    @Test
    void aValueOfTheWrongType_isRefusedWithItsPath() {
        refusedYaml(valid("r-1").replace("service: [cart, checkout]", "service: checkout"))
                .hasMessageContaining("line 7, column 16: rules[0].resources.service (rule 'r-1'): must be a list of strings");
        refusedYaml(valid("r-1").replace("service: [cart, checkout]", "service: [cart, 42]"))
                .hasMessageContaining("rules[0].resources.service[1] (rule 'r-1'): must be a string; found a number (quote it");
        refusedYaml(valid("r-1").replace("tool: query_logs", "tool: 12"))
                .hasMessageContaining("line 5, column 11: rules[0].tool (rule 'r-1'): must be a string, such as tool: query_logs;"
                        + " found a number");
        refusedYaml(valid("r-1").replace("learnedFrom: 12", "learnedFrom: 1.5"))
                .hasMessageContaining("rules[0].provenance.learnedFrom (rule 'r-1'): must be a whole number");
        refusedYaml(valid("r-1").replace("learnedFrom: 12", "learnedFrom: 0x1f"))
                .hasMessageContaining("rules[0].provenance.learnedFrom (rule 'r-1'): must be a plain decimal number");
        refusedYaml(valid("r-1").replace("learnedFrom: 12", "learnedFrom: " + "9".repeat(200)))
                .hasMessageContaining("rules[0].provenance.learnedFrom (rule 'r-1'): must be a plain decimal number, such as"
                        + " learnedFrom: 12; found '9999");
        refusedYaml(valid("r-1").replace("confidence: 0.71", "confidence: 1.5"))
                .hasMessageContaining("rules[0].provenance.confidence (rule 'r-1'): must be 0 to 1");
        refusedYaml(valid("r-1").replace("from: 2026-03-01T00:00:00Z", "from: 'yesterday'"))
                .hasMessageContaining("rules[0].provenance.window.from (rule 'r-1'): must be an ISO-8601 instant");
        refusedYaml(valid("r-1").replace("status: accepted", "status: approved"))
                .hasMessageContaining("rules[0].status (rule 'r-1'): must be suggested, accepted or rejected, got 'approved'");
        refusedYaml("rules: {r-1: {}}\n").hasMessageContaining("line 1, column 8: rules: must be a list of rules; found a mapping");
        refusedYaml("rules:\n  - just text\n").hasMessageContaining("line 2, column 5: rules[0]: must be a rule, a mapping such as");
        refusedYaml("version: 2\nrules: []\n").hasMessageContaining("version: must be 1");
        refusedYaml("- a\n- b\n").hasMessageContaining("the file: must be a mapping with a 'rules' list");
        refusedJson("{\"rules\": [{\"id\": 7}]}").hasMessageContaining("line 1, column 19: rules[0].id: must be a string");
    }

    @Test
    void aMissingField_isRefusedSayingWhatToAdd() {
        refusedYaml(valid("r-1").replace("    subject: key:ci-bot\n", ""))
                .hasMessageContaining("line 3, column 5: rules[0] (rule 'r-1'): has no 'subject'; add one, such as subject: key:ci-bot");
        refusedYaml("version: 1\n").hasMessageContaining("the file: has no 'rules'; add one, such as rules: []");
    }

    @Test
    void anInvalidSubject_isRefusedByTheRulesOwnCheck() {
        refusedYaml(valid("r-1").replace("subject: key:ci-bot", "subject: 'role:'"))
                .hasMessageContaining("line 4, column 14: rules[0].subject (rule 'r-1'): must be a principal id");
        refusedYaml(valid("bad id!")).hasMessageContaining("rules[0] (rule 'bad id!'): a rule id is 1-64 letters, digits");
        refusedYaml(valid("r-1").replace("service: [cart, checkout]", "service: []"))
                .hasMessageContaining("rules[0] (rule 'r-1'): a rule's resources.service must list 1-256 values, got 0");
        refusedYaml(valid("r-1").replace("from: 2026-03-01T00:00:00Z", "from: 2026-03-02T00:00:00Z"))
                .hasMessageContaining("rules[0].provenance (rule 'r-1'): the provenance window ends");
    }

    @Test
    void everyInvalidRule_isReportedAtOnce() {
        String text = valid("r-1").replace("tool: query_logs", "tool: 1")
                + valid("r-2").substring("version: 1\nrules:\n".length())
                + valid("r-3").substring("version: 1\nrules:\n".length()).replace("status: accepted", "status: maybe");

        refusedYaml(text).hasMessageContaining("line 5, column 11: rules[0].tool (rule 'r-1')")
                .hasMessageContaining("line 38, column 13: rules[2].status (rule 'r-3')")
                .hasMessageNotContaining("rule 'r-2'");
    }

    @Test
    void moreThanTenThousandRules_areRefused() {
        StringBuilder text = new StringBuilder("rules:\n");
        for (int i = 0; i <= ProfileShape.MAX_RULES; i++) {
            text.append("  - {}\n");
        }

        refusedYaml(text.toString()).hasMessageContaining("rules: holds 10001 rules, more than the 10000 a profile may hold");
    }

    @Test
    void yamlTagsAndAliasBombs_areRefused() {
        // SnakeYAML's composer refuses a global tag itself; a local or a standard one that is not plain data is refused here
        refusedYaml("rules: !!python/object:os.system [rm]\n").hasMessageContaining("at line 1, column 8: Global tag is not allowed");
        refusedYaml("rules: !custom [rm]\n").hasMessageContaining("line 1, column 8: the tag '!custom' is not allowed");
        refusedYaml("rules:\n  - id: !!binary aGVsbG8=\n").hasMessageContaining("the tag 'tag:yaml.org,2002:binary' is not allowed");
        refusedYaml("rules: &a [*a]\n").hasMessageContaining("nested deeper than 16 levels");
        StringBuilder bomb = new StringBuilder("a0: &a0 \"" + "x".repeat(100_000) + "\"\n");
        bomb.append("rules: [");
        for (int i = 0; i < 200; i++) {
            bomb.append("*a0, ");
        }
        bomb.append("]\n");
        refusedYaml(bomb.toString()).hasMessageContaining("expands to more than 16 MiB through its aliases");
    }

    @Test
    void messages_showValuesQuotedOnOneLine() {
        refusedYaml("rules:\n  - \"col\\eour\": 1\n    id: \"r\\n1\"\n").hasMessageContaining("unknown field 'col?our'")
                .hasMessageContaining("(rule 'r?1')").hasMessageNotContaining(String.valueOf((char) 27));
    }

    @Test
    void aFileWithManyProblems_listsFiftyAndCountsTheRest() {
        StringBuilder text = new StringBuilder("rules:\n");
        for (int i = 0; i < 80; i++) {
            text.append("  - 1\n");
        }

        refusedYaml(text.toString()).hasMessageContaining("rules[49]").hasMessageNotContaining("rules[50]")
                .hasMessageContaining("and 30 more problems of the same file");
    }

    @Test
    void theRefusal_startsWithTheSetting() {
        refusedYaml("rules: 1\n").hasMessageStartingWith("OMCP_INSPECT_PROFILE_FILE is invalid");
    }

    /** A valid one-rule YAML profile whose rule has {@code id}; 14 lines, the rule on lines 3 to 14. */
    private static String valid(String id) {
        return """
                version: 1
                rules:
                  - id: %s
                    subject: key:ci-bot
                    tool: query_logs
                    resources:
                      service: [cart, checkout]
                    args:
                      limit: ["num:<=100"]
                    provenance:
                      learnedFrom: 12
                      window: {from: 2026-03-01T00:00:00Z, to: 2026-03-01T12:00:00Z}
                      confidence: 0.71
                    status: accepted
                """.formatted(id.contains(" ") ? "'" + id + "'" : id);
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> refusedYaml(String text) {
        return assertThatThrownBy(() -> ProfileFormat.YAML.read(text, SOURCE, MAX)).isInstanceOf(ProfileStoreException.class);
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> refusedJson(String text) {
        return assertThatThrownBy(() -> ProfileFormat.JSON.read(text, SOURCE, MAX)).isInstanceOf(ProfileStoreException.class);
    }

    static List<Rule> manyRules(int count) {
        List<Rule> rules = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rules.add(new Rule("r-" + i, "key:ci-bot", "query_logs", Map.of(), Map.of(), LEARNED, RuleStatus.SUGGESTED));
        }
        return rules;
    }
}
