package dev.omcp.adapters.storage.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How a {@code ${VAR}} setting finds its declared type in a configSchema, and what it becomes. */
class TypedReferenceTest {
    private static final JsonObject SCHEMA = Json.createReader(new StringReader("""
            {"type": "object",
             "properties": {
               "flagOrCount": {"type": ["boolean", "integer"]},
               "textOrNumber": {"type": ["string", "number"]},
               "nested": {"type": "object", "additionalProperties": {"type": "integer"}},
               "referenced": {"$ref": "#/$defs/count"},
               "referencedObject": {"$ref": "#/$defs/limits"},
               "looping": {"$ref": "#/$defs/loop"},
               "nowhere": {"$ref": "#/$defs/missing"},
               "anyOf": {"anyOf": [{"type": "integer"}]},
               "listOfObjects": {"type": "array", "items": {"type": "object", "properties": {"port": {"type": "integer"}}}},
               "notAnObject": true
             },
             "additionalProperties": {"type": "boolean"},
             "$defs": {
               "count": {"type": "integer"},
               "limits": {"$ref": "#/$defs/limitsObject"},
               "limitsObject": {"type": "object", "properties": {"max": {"$ref": "#/$defs/count"}}},
               "loop": {"$ref": "#/$defs/loop"}
             }}""")).readObject();

    private final TypedReference typed = new TypedReference(new Substitution(Map.of("YES", "YES", "NUM", "12", "BIG",
            "1e30", "WORD", "many"), name -> { }));

    private Optional<JsonValue> read(String written, SchemaPlace place) {
        return typed.read(written, place, "key", "demo");
    }

    @Test
    void aPlaceIsFoundThroughPropertiesAdditionalPropertiesItemsAndReferences() {
        SchemaPlace root = SchemaPlace.of(Optional.of(SCHEMA));

        assertThat(root.property("flagOrCount").types()).containsExactly("boolean", "integer");
        assertThat(root.property("nested").property("anything").types()).containsExactly("integer");
        assertThat(root.property("listOfObjects").items().property("port").types()).containsExactly("integer");
        assertThat(root.property("undeclared").types()).as("additionalProperties").containsExactly("boolean");
        assertThat(root.property("notAnObject").types()).as("declared, but by a boolean schema: no type, and no fallback")
                .isEmpty();
        assertThat(root.property("referenced").types()).as("a $ref into the schema is followed").containsExactly("integer");
        assertThat(root.property("referencedObject").property("max").types()).containsExactly("integer");
        assertThat(root.property("looping").types()).as("a cycle ends").isEmpty();
        assertThat(root.property("nowhere").types()).isEmpty();
        assertThat(root.property("anyOf").types()).as("composition is not followed").isEmpty();
        assertThat(SchemaPlace.NONE.property("x").items().types()).isEmpty();
    }

    @Test
    void aBooleanOrANumber_takesWhicheverTheVariableGives() {
        SchemaPlace either = SchemaPlace.of(Optional.of(SCHEMA)).property("flagOrCount");

        assertThat(read("${YES}", either)).contains(JsonValue.TRUE);
        assertThat(read("${NUM}", either)).contains(Json.createValue(12L));
        assertThatThrownBy(() -> read("${WORD}", either)).hasMessage("'key': ${WORD} gives 4 characters that are of neither type;"
                + " set WORD to true or false (yes/no and on/off work too), or a whole number (for example 8); the demo connector's"
                + " configSchema declares 'key' as boolean or integer");
    }

    @Test
    void aPlaceThatAlsoTakesText_orDeclaresNoType_keepsTheText() {
        SchemaPlace root = SchemaPlace.of(Optional.of(SCHEMA));

        assertThat(read("${NUM}", root.property("textOrNumber"))).isEmpty();
        assertThat(read("${NUM}", root.property("anyOf"))).isEmpty();
        assertThat(read("${NUM}", SchemaPlace.NONE)).isEmpty();
    }

    @Test
    void aWholeNumberBeyondWhatTheGatewayHolds_isRefused_namingWhatToWrite() {
        SchemaPlace count = SchemaPlace.of(Optional.of(SCHEMA)).property("nested").property("n");

        assertThatThrownBy(() -> read("${BIG}", count)).hasMessage("'key': ${BIG} gives 4 characters that are not a whole number;"
                + " set BIG to a whole number (for example 8); the demo connector's configSchema declares 'key' as integer");
    }

    @Test
    void anEscapedText_namesNoVariable_andStaysTheTextTheFileSpellsOut() {
        assertThat(read("$${NUM}", SchemaPlace.of(Optional.of(SCHEMA)).property("nested").property("n"))).isEmpty();
    }
}
