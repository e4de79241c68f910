package dev.omcp.core.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.sdk.json.Jsonp;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class JsonSchemaValidatorTest {
    private final JsonSchemaValidator validator = new JsonSchemaValidator();

    private static JsonValue json(String text) {
        return Json.createReader(new StringReader(text)).readValue();
    }

    private static JsonObject schema(String text) {
        return json(text).asJsonObject();
    }

    @Test
    void typesAreChecked_integerAcceptsWholeNumbersOnly() {
        JsonObject s = schema("{\"type\":\"integer\"}");
        assertThat(validator.validate(s, json("3"), "x")).isEmpty();
        assertThat(validator.validate(s, json("3.0"), "x")).isEmpty();
        assertThat(validator.validate(s, json("3.5"), "x")).containsExactly("x: must be an integer, got a number");
        assertThat(validator.validate(s, json("\"3\""), "x")).containsExactly("x: must be an integer, got a string");
    }

    @Test
    void stringBoundsAndPatterns() {
        JsonObject s = schema("{\"type\":\"string\",\"minLength\":2,\"maxLength\":4,\"pattern\":\"^[0-9]+[smhd]$\"}");
        assertThat(validator.validate(s, json("\"15m\""), "d")).isEmpty();
        assertThat(validator.validate(s, json("\"x\""), "d")).hasSize(2);
        assertThat(validator.validate(s, json("\"15min\""), "d")).containsExactly("d: must be at most 4 characters", "d: must match ^[0-9]+[smhd]$");
    }

    @Test
    void aRefusedPattern_isAnsweredWithTheDescriptionOfTheAllowedForm() {
        JsonObject s = schema("{\"type\":\"string\",\"pattern\":\"^[a-z_]+$\",\"description\":\"A metric name, not a query. \"}");
        assertThat(validator.validate(s, json("\"rate(x[5m])\""), "metric"))
                .containsExactly("metric: must match ^[a-z_]+$. A metric name, not a query.");
        // the description is an annotation: it refuses nothing, and other failures do not quote it
        assertThat(validator.validate(s, json("\"up\""), "metric")).isEmpty();
        assertThat(validator.validate(s, json("5"), "metric")).containsExactly("metric: must be a string, got a number");
    }

    @Test
    void numberBounds() {
        JsonObject s = schema("{\"type\":\"number\",\"minimum\":1,\"exclusiveMaximum\":10,\"multipleOf\":0.5}");
        assertThat(validator.validate(s, json("9.5"), "n")).isEmpty();
        assertThat(validator.validate(s, json("10"), "n")).containsExactly("n: must be < 10");
        assertThat(validator.validate(s, json("0.75"), "n")).containsExactly("n: must be >= 1", "n: must be a multiple of 0.5");
    }

    @Test
    void objectsRequiredAdditionalAndNested() {
        JsonObject s = schema("""
                {"type":"object","required":["a"],"additionalProperties":false,
                 "properties":{"a":{"type":"string"},"b":{"type":"object","properties":{"c":{"enum":["x","y"]}}}}}""");
        assertThat(validator.validate(s, json("{\"a\":\"1\",\"b\":{\"c\":\"x\"}}"), "args")).isEmpty();
        assertThat(validator.validate(s, json("{\"b\":{\"c\":\"z\"},\"d\":1}"), "args"))
                .containsExactlyInAnyOrder("args.a: is required", "args.b.c: must be one of [\"x\",\"y\"]",
                        "args.d: is not a known argument; allowed: [a, b]");
    }

    @Test
    void arraysItemsBoundsAndUniqueness() {
        JsonObject s = schema("{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"minItems\":1,\"maxItems\":3,\"uniqueItems\":true}");
        assertThat(validator.validate(s, json("[\"a\",\"b\"]"), "l")).isEmpty();
        assertThat(validator.validate(s, json("[]"), "l")).containsExactly("l: must have at least 1 item, got 0");
        assertThat(validator.validate(s, json("[\"a\",\"b\",\"c\",\"d\"]"), "l")).containsExactly("l: must have at most 3 items, got 4");
        assertThat(validator.validate(s, json("[\"a\",1,\"a\"]"), "l")).containsExactly("l[1]: must be a string, got a number", "l: items must be unique; l[2] repeats l[0]");
    }

    @Test
    void lengthLimitsOfOne_readAsEnglish() {
        JsonObject s = schema("{\"type\":\"string\",\"minLength\":1,\"maxLength\":1}");
        assertThat(validator.validate(s, json("\"\""), "f")).containsExactly("f: must be at least 1 character");
        assertThat(validator.validate(s, json("\"ab\""), "f")).containsExactly("f: must be at most 1 character");
        JsonObject wider = schema("{\"type\":\"string\",\"maxLength\":2}");
        assertThat(validator.validate(wider, json("\"abc\""), "f")).containsExactly("f: must be at most 2 characters");
    }

    @Test
    void refsIntoDefsAreResolved() {
        JsonObject s = schema("""
                {"$defs":{"addr":{"type":"object","required":["city"],"properties":{"city":{"type":"string"}}}},
                 "type":"object","properties":{"home":{"$ref":"#/$defs/addr"}}}""");
        assertThat(validator.validate(s, json("{\"home\":{\"city\":\"Oslo\"}}"), "a")).isEmpty();
        assertThat(validator.validate(s, json("{\"home\":{}}"), "a")).containsExactly("a.home.city: is required");
        assertThat(validator.validate(schema("{\"$ref\":\"#/$defs/none\"}"), json("1"), "a"))
                .containsExactly("a: schema reference #/$defs/none cannot be resolved");
    }

    @Test
    void combinators() {
        JsonObject s = schema("{\"oneOf\":[{\"type\":\"string\"},{\"type\":\"integer\"}],\"not\":{\"const\":\"forbidden\"}}");
        assertThat(validator.validate(s, json("\"ok\""), "v")).isEmpty();
        assertThat(validator.validate(s, json("true"), "v")).containsExactly("v: must match exactly one of the allowed forms, matched 0");
        assertThat(validator.validate(s, json("\"forbidden\""), "v")).containsExactly("v: must not match the excluded form");
        JsonObject any = schema("{\"anyOf\":[{\"minimum\":10},{\"maximum\":0}]}");
        assertThat(validator.validate(any, json("5"), "v")).containsExactly("v: must match at least one of the allowed forms");
    }

    @Test
    void propertyNames_refusesAMemberWhoseNameDoesNotMatch_andSaysItIsTheName() {
        JsonObject labels = schema("""
                {"type":"object","propertyNames":{"pattern":"^[A-Za-z_][A-Za-z0-9_]{0,127}$"},
                 "additionalProperties":{"type":"string"}}""");
        assertThat(validator.validate(labels, json("{\"namespace\":\"shop\",\"pod_name\":\"a\"}"), "labels")).isEmpty();
        assertThat(validator.validate(labels, json("{\"bad-name\":\"x\",\"9lives\":\"y\"}"), "labels")).containsExactly(
                "labels.bad-name (the name): must match ^[A-Za-z_][A-Za-z0-9_]{0,127}$",
                "labels.9lives (the name): must match ^[A-Za-z_][A-Za-z0-9_]{0,127}$");
        // every assertion applies to names, not just a pattern
        assertThat(validator.validate(schema("{\"propertyNames\":{\"maxLength\":3}}"), json("{\"abcd\":1}"), "o"))
                .containsExactly("o.abcd (the name): must be at most 3 characters");
        assertThat(validator.validate(schema("{\"propertyNames\":false}"), json("{\"a\":1}"), "o"))
                .containsExactly("o.a (the name): is not allowed");
        assertThat(validator.validate(schema("{\"propertyNames\":false}"), json("{}"), "o")).isEmpty();
    }

    @Test
    void patternProperties_applyToMatchingNames_andCountAsKnownForAdditionalProperties() {
        JsonObject s = schema("""
                {"type":"object","properties":{"name":{"type":"string"}},
                 "patternProperties":{"^x-":{"type":"integer"}},"additionalProperties":false}""");
        assertThat(validator.validate(s, json("{\"name\":\"a\",\"x-retries\":3}"), "a")).isEmpty();
        assertThat(validator.validate(s, json("{\"x-retries\":\"3\",\"other\":1}"), "a")).containsExactly(
                "a.x-retries: must be an integer, got a string",
                "a.other: is not a known argument; allowed: [name] and names matching [^x-]");
    }

    @Test
    void dependentRequired_needsTheNamedMembersOnlyWhenTheTriggerIsPresent() {
        JsonObject s = schema("{\"type\":\"object\",\"dependentRequired\":{\"k\":[\"aggregate\",\"by\"]}}");
        assertThat(validator.validate(s, json("{}"), "a")).isEmpty();
        assertThat(validator.validate(s, json("{\"k\":3,\"aggregate\":\"topk\",\"by\":[\"x\"]}"), "a")).isEmpty();
        assertThat(validator.validate(s, json("{\"k\":3}"), "a"))
                .containsExactly("a.aggregate: is required when k is given", "a.by: is required when k is given");
    }

    @Test
    void prefixItems_checkPositions_andItemsCoversOnlyTheRest() {
        JsonObject s = schema("{\"type\":\"array\",\"prefixItems\":[{\"type\":\"string\"},{\"type\":\"integer\"}],\"items\":false}");
        assertThat(validator.validate(s, json("[\"a\",1]"), "t")).isEmpty();
        assertThat(validator.validate(s, json("[\"a\"]"), "t")).isEmpty();
        assertThat(validator.validate(s, json("[1,\"a\",true]"), "t")).containsExactly(
                "t[0]: must be a string, got a number", "t[1]: must be an integer, got a string", "t[2]: is not allowed");
    }

    @Test
    void contains_withMinAndMaxContains() {
        JsonObject one = schema("{\"contains\":{\"const\":\"error\"}}");
        assertThat(validator.validate(one, json("[\"info\",\"error\"]"), "l")).isEmpty();
        assertThat(validator.validate(one, json("[\"info\"]"), "l"))
                .containsExactly("l: must contain at least 1 item of the required form, found 0");
        JsonObject bounded = schema("{\"contains\":{\"type\":\"integer\"},\"minContains\":2,\"maxContains\":3}");
        assertThat(validator.validate(bounded, json("[1,\"a\",2]"), "l")).isEmpty();
        assertThat(validator.validate(bounded, json("[1,\"a\"]"), "l"))
                .containsExactly("l: must contain at least 2 items of the required form, found 1");
        assertThat(validator.validate(bounded, json("[1,2,3,4]"), "l"))
                .containsExactly("l: must contain at most 3 items of the required form, found 4");
        assertThat(validator.validate(schema("{\"contains\":{\"type\":\"integer\"},\"minContains\":0}"), json("[]"), "l")).isEmpty();
    }

    @Test
    void ifThenElse_appliesTheBranchTheConditionChooses_andTheConditionItselfNeverFails() {
        JsonObject s = schema("""
                {"type":"object",
                 "if":{"properties":{"aggregate":{"const":"topk"}},"required":["aggregate"]},
                 "then":{"required":["by"]},
                 "else":{"not":{"required":["k"]}}}""");
        assertThat(validator.validate(s, json("{}"), "a")).isEmpty();
        assertThat(validator.validate(s, json("{\"aggregate\":\"topk\",\"by\":[\"x\"]}"), "a")).isEmpty();
        assertThat(validator.validate(s, json("{\"aggregate\":\"topk\"}"), "a")).containsExactly("a.by: is required");
        assertThat(validator.validate(s, json("{\"aggregate\":\"sum\",\"k\":3}"), "a")).containsExactly("a: must not match the excluded form");
    }

    @Test
    void deeplyNestedSelfReference_stopsInsteadOfOverflowing() {
        JsonObject s = schema("{\"$defs\":{\"loop\":{\"$ref\":\"#/$defs/loop\"}},\"$ref\":\"#/$defs/loop\"}");
        assertThat(validator.validate(s, json("1"), "v")).containsExactly("v: schema nesting is too deep");
    }

    @Test
    void aPatternsEndAnchor_matchesOnlyAtTheEndOfTheInput_asInEcmaScript_notBeforeAFinalNewline() {
        JsonObject s = schema("{\"type\":\"string\",\"pattern\":\"^[A-Za-z0-9_.:/-]{1,128}$\"}");
        assertThat(validator.validate(s, json("\"payments\""), "service")).isEmpty();
        assertThat(validator.validate(s, json("\"payments\\n\""), "service"))
                .containsExactly("service: must match ^[A-Za-z0-9_.:/-]{1,128}$");
        assertThat(validator.validate(s, json("\"payments\\r\\n\""), "service")).hasSize(1);
    }

    @Test
    void onlyAnchorDollarsBecomeEndOfInput_notEscapedOnesOrClassMembers() {
        assertThat(JsonSchemaValidator.endOfInputAnchors("^a$")).isEqualTo("^a\\z");
        assertThat(JsonSchemaValidator.endOfInputAnchors("^\\$[$]x$")).isEqualTo("^\\$[$]x\\z");
        assertThat(JsonSchemaValidator.endOfInputAnchors("[]$]$|b$")).isEqualTo("[]$]\\z|b\\z");
        assertThat(JsonSchemaValidator.endOfInputAnchors("[^]$]$")).isEqualTo("[^]$]\\z");
        JsonObject price = schema("{\"type\":\"string\",\"pattern\":\"^\\\\$[0-9]+$\"}");
        assertThat(validator.validate(price, json("\"$12\""), "p")).isEmpty();
        assertThat(validator.validate(price, json("\"$12\\n\""), "p")).hasSize(1);
    }

    @Test
    void aValueWithThousandsOfViolations_isAnsweredWithTheFirstTwentyAndACount_notAMessageManyTimesItsSize() {
        // a 1 MiB tools/call body of numbers where strings belong made a 30 MB error text, one line per item
        JsonObject s = schema("{\"type\":\"array\",\"items\":{\"type\":\"string\"}}");
        String many = "[" + "1,".repeat(4999) + "1]";
        List<String> violations = validator.validate(s, json(many), "x");
        assertThat(violations).hasSize(21);
        assertThat(violations.getFirst()).isEqualTo("x[0]: must be a string, got a number");
        assertThat(violations.get(19)).isEqualTo("x[19]: must be a string, got a number");
        assertThat(violations.getLast()).isEqualTo("x: 4980 more problems not listed; correct the ones above and send it again");
        assertThat(String.join("; ", violations).length()).isLessThan(1000);
    }

    @Test
    void exactlyTwentyViolations_areAllListed_withoutACount() {
        JsonObject s = schema("{\"type\":\"array\",\"items\":{\"type\":\"string\"}}");
        assertThat(validator.validate(s, json("[" + "1,".repeat(19) + "1]"), "x")).hasSize(20).last()
                .isEqualTo("x[19]: must be a string, got a number");
    }

    @Test
    void aMemberNameWithControlOrBidiCharacters_isQuotedPrintable() {
        // found by ManagementApiFuzzIT: GET /api/services?%E2%80%AEx=1 answered the override itself,
        // reordering the rest of the message where it was shown
        JsonObject s = schema("{\"type\":\"object\",\"properties\":{\"service\":{}},\"additionalProperties\":false}");
        String name = "a" + (char) 0x1b + "[31m" + (char) 0x202e + "b" + (char) 0;
        List<String> violations = validator.validate(s, Jsonp.object().add(name, 1).build(), "arguments");
        assertThat(violations).containsExactly("arguments.a?[31m?b?: is not a known argument; allowed: [service]");
    }

    @Test
    void aVeryLongMemberName_isShortenedInTheMessage_notEchoedWhole() {
        JsonObject s = schema("{\"type\":\"object\",\"properties\":{\"service\":{}},\"additionalProperties\":false,"
                + "\"propertyNames\":{\"maxLength\":32}}");
        String name = "k".repeat(100_000);
        List<String> violations = validator.validate(s, json("{\"" + name + "\":1}"), "arguments");
        assertThat(violations).containsExactly(
                "arguments." + "k".repeat(64) + "... (the name): must be at most 32 characters",
                "arguments." + "k".repeat(64) + "...: is not a known argument; allowed: [service]");
    }

    @Test
    @Timeout(30) // a guard against the hang this test is about, not a speed limit: the old check ran for minutes
    void aNumberWithAHugeExponent_isRefusedForMultipleOf_insteadOfDividingItOut() {
        JsonObject s = schema("{\"type\":\"number\",\"multipleOf\":0.5}");
        assertThat(validator.validate(s, json("1e999999999"), "n")).containsExactly(
                "n: is too large or has too many decimal places to check as a multiple of 0.5; send a number of at most 1000 digits");
        assertThat(validator.validate(s, json("1e-999999999"), "n")).hasSize(1);
        assertThat(validator.validate(s, json("1e900"), "n")).isEmpty();
        assertThat(validator.validate(s, json("1.25"), "n")).containsExactly("n: must be a multiple of 0.5");
    }

    // A tool's input schema may come from a plugin, and its patterns run on the agent's arguments:
    // java.util.regex backtracks, and recurses once per repetition of a group with alternatives.

    @Test
    void aPatternThatBacktracksCatastrophically_refusesTheValue_insteadOfHangingTheCall() {
        JsonObject s = schema("{\"type\":\"string\",\"pattern\":\"^(.*a){12}$\"}");
        List<String> violations = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(30),
                () -> validator.validate(s, Jsonp.value("a".repeat(40) + "b"), "name"));
        assertThat(violations).containsExactly("name: could not be checked against ^(.*a){12}$: the pattern backtracks too much "
                + "on this value; send a shorter or simpler value");
        // within the budget the same pattern still decides
        assertThat(validator.validate(s, Jsonp.value("a".repeat(12)), "name")).isEmpty();
        assertThat(validator.validate(s, Jsonp.value("a".repeat(11)), "name")).containsExactly("name: must match ^(.*a){12}$");
    }

    @Test
    void aPatternThatRecursesPastTheStackOnALongValue_refusesTheValue_insteadOfThrowing() {
        JsonObject s = schema("{\"type\":\"string\",\"pattern\":\"^(a|b)*$\"}");
        List<String> violations = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(30),
                () -> validator.validate(s, Jsonp.value("ab".repeat(50_000)), "name"));
        assertThat(violations).containsExactly("name: could not be checked against ^(a|b)*$: the value is too long for this "
                + "pattern; send a shorter value");
        assertThat(validator.validate(s, Jsonp.value("abba"), "name")).isEmpty();
        assertThat(validator.validate(s, Jsonp.value("abc"), "name")).containsExactly("name: must match ^(a|b)*$");
    }

    @Test
    void aPatternPropertyThatRecursesPastTheStackOnALongName_refusesTheMember() {
        JsonObject s = schema("{\"type\":\"object\",\"patternProperties\":{\"^(a|b)*$\":{\"type\":\"string\"}},"
                + "\"additionalProperties\":false}");
        String name = "ab".repeat(50_000);
        JsonObject value = Jsonp.object().add(name, "x").build();
        List<String> violations = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(30),
                () -> validator.validate(s, value, "labels"));
        assertThat(violations).singleElement().asString()
                .endsWith(": could not be checked against ^(a|b)*$: the value is too long for this pattern; send a shorter value");
        assertThat(validator.validate(s, Jsonp.object().add("ab", "x").build(), "labels")).isEmpty();
    }

    @Test
    @Timeout(30) // a guard against the hang this test is about: the old check wrote out every digit of 10^999999999
    void numbersWithHugeExponents_areComparedWithoutWritingOutTheirDigits() {
        // A client's number of eleven characters: uniqueItems and enum compare items by a text form of
        // each, which must stay as short as the number was sent, not grow to a billion digits.
        JsonObject unique = schema("{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"uniqueItems\":true}");
        assertThat(validator.validate(unique, json("[1e999999999, 10e999999998]"), "services"))
                .contains("services: items must be unique; services[1] repeats services[0]");
        JsonObject choice = schema("{\"enum\":[\"p50\",\"p99\",1e999999998]}");
        assertThat(validator.validate(choice, json("1e999999999"), "q")).singleElement().asString().startsWith("q: must be one of");
        assertThat(validator.validate(choice, json("10e999999997"), "q")).isEmpty();
        // equal values still compare equal whatever their notation, and different ones do not
        JsonObject numbers = schema("{\"type\":\"array\",\"uniqueItems\":true}");
        assertThat(validator.validate(numbers, json("[100, 1e2]"), "n")).hasSize(1);
        assertThat(validator.validate(numbers, json("[0, 0.000, -0]"), "n")).hasSize(1);
        assertThat(validator.validate(numbers, json("[1e5, 1e-5, \"1e5\"]"), "n")).isEmpty();
        // stripping the zeros of 100e2147483647 would take its exponent beyond what a BigDecimal holds
        assertThat(validator.validate(numbers, json("[100e2147483647, 1]"), "n")).isEmpty();
        assertThat(validator.validate(numbers, json("[100e2147483647, 100e2147483647]"), "n")).hasSize(1);
    }
}
