package dev.omcp.core.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TextParametersTest {
    private static final JsonObject SCHEMA = Jsonp.object().add("type", "object").add("properties", Jsonp.object()
            .add("limit", Jsonp.object().add("type", "integer"))
            .add("ratio", Jsonp.object().add("type", "number"))
            .add("errorsOnly", Jsonp.object().add("type", "boolean"))
            .add("namespace", Jsonp.object().add("type", Jsonp.array().add("null").add("string")))
            .add("kinds", Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "string")))
            .add("ports", Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "integer"))))
            .build();

    private static Map<String, List<String>> params(Object... pairs) {
        Map<String, List<String>> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            @SuppressWarnings("unchecked")
            List<String> values = (List<String>) pairs[i + 1];
            map.put((String) pairs[i], values);
        }
        return map;
    }

    @Test
    void eachValueGetsTheTypeItsPropertyDeclares() {
        TextParameters.Converted converted = TextParameters.convert(SCHEMA, params(
                "limit", List.of("25"), "ratio", List.of("0.5"), "errorsOnly", List.of("TRUE"), "namespace", List.of("shop"),
                "kinds", List.of("Pod", "Service"), "ports", List.of("80", "443")));

        assertThat(converted.errors()).isEmpty();
        assertThat(converted.arguments().toString()).isEqualTo(
                "{\"limit\":25,\"ratio\":0.5,\"errorsOnly\":true,\"namespace\":\"shop\",\"kinds\":[\"Pod\",\"Service\"],\"ports\":[80,443]}");
    }

    @Test
    void anUndescribedParameterStaysText_soTheSchemaCheckCanNameIt() {
        assertThat(TextParameters.convert(SCHEMA, params("colour", List.of("red"))).arguments().toString())
                .isEqualTo("{\"colour\":\"red\"}");
    }

    @Test
    void valuesThatDoNotConvert_areAllReportedWithTheirPath() {
        TextParameters.Converted converted = TextParameters.convert(SCHEMA, params(
                "limit", List.of("ten"), "ratio", List.of("half"), "errorsOnly", List.of("yes"), "ports", List.of("80", "http"),
                "namespace", List.of("a", "b")));

        assertThat(converted.errors()).containsExactly(
                "arguments.limit: 'ten' is not an integer",
                "arguments.ratio: 'half' is not a number",
                "arguments.errorsOnly: 'yes' is not true or false",
                "arguments.ports[1]: 'http' is not an integer",
                "arguments.namespace: given 2 times; it takes one value");
    }

    @Test
    void aValueOrNameWithControlOrBidiCharacters_isQuotedPrintable() {
        // found by ManagementApiFuzzIT: GET /api/services?limit=a%01%1B%5B31m echoed the escape sequence
        String hostile = "a" + (char) 1 + (char) 0x1b + "[31m" + (char) 0x202e;
        TextParameters.Converted converted = TextParameters.convert(SCHEMA, params("limit", List.of(hostile),
                "ports", List.of("80", hostile)));

        assertThat(converted.errors()).containsExactly("arguments.limit: 'a??[31m?' is not an integer",
                "arguments.ports[1]: 'a??[31m?' is not an integer");
    }

    @Test
    void tooManyParameters_areRefusedBeforeAnyIsConverted() {
        Map<String, List<String>> many = new HashMap<>();
        for (int i = 0; i <= TextParameters.MAX_PARAMETERS; i++) {
            many.put("p" + i, List.of("x"));
        }
        TextParameters.Converted converted = TextParameters.convert(SCHEMA, many);
        assertThat(converted.errors()).singleElement().asString().contains("at most 64 parameters");
        assertThat(converted.arguments()).isEmpty();
    }
}
