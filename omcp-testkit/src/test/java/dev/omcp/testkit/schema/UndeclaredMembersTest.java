package dev.omcp.testkit.schema;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

class UndeclaredMembersTest {
    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    @Test
    void membersTheSchemaNames_atAnyDepth_areDeclared_andOthersAreReportedByPath() {
        JsonObject schema = json("""
                {"type":"object","properties":{
                  "results":{"type":"array","items":{"type":"object","properties":{"input":{},"status":{}}}},
                  "summary":{"type":"object","properties":{"found":{}}}}}""");
        JsonObject answer = json("""
                {"results":[{"input":"a","status":"found"},{"input":"b","status":"invalid","reason":"no"}],
                 "summary":{"found":1,"invalid":1},"metrics":["cpu"]}""");

        assertThat(UndeclaredMembers.in(answer, schema)).containsExactly("metrics", "results[].reason", "summary.invalid");
    }

    @Test
    void anObjectSchemaWithoutProperties_declaresNothing_andAnArrayWithoutItems_declaresNoMemberOfItsObjects() {
        JsonObject schema = json("""
                {"type":"object","properties":{"focus":{"type":"object"},"resolutions":{"type":"array"},"names":{"type":"array"}}}""");
        JsonObject answer = json("""
                {"focus":{"depth":2},"resolutions":[{"source":"prom"}],"names":["a","b"]}""");

        assertThat(UndeclaredMembers.in(answer, schema)).containsExactly("focus.depth", "resolutions[].source");
    }

    @Test
    void anOpenObject_isNotLookedInto_andAMapsValuesAreWalkedAgainstItsValueSchema() {
        JsonObject schema = json("""
                {"type":"object","properties":{
                  "catalog":{"type":"object","additionalProperties":true},
                  "labels":{"type":"object","additionalProperties":{"type":"string"}},
                  "byHost":{"type":"object","additionalProperties":{"type":"object","properties":{"count":{}}}}}}""");
        JsonObject answer = json("""
                {"catalog":{"owner":"team","runbook":{"url":"x"}},"labels":{"pod":"a","job":"b"},
                 "byHost":{"node/a":{"count":1},"node/b":{"count":2,"pods":[]}}}""");

        assertThat(UndeclaredMembers.in(answer, schema)).containsExactly("byHost{}.pods");
    }

    @Test
    void aMemberDeclaredInACombinatorBranch_isDeclared() {
        JsonObject schema = json("""
                {"type":"object","properties":{"a":{}},"anyOf":[{"properties":{"b":{}}},{"properties":{"c":{}}}]}""");

        assertThat(UndeclaredMembers.in(json("{\"a\":1,\"b\":2,\"c\":3,\"d\":4}"), schema)).containsExactly("d");
    }
}
