package dev.omcp.adapters.storage.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.sources.SourceDefinition;
import dev.omcp.ports.sources.SourcesDocument;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A source's settings given as {@code ${VAR}}: the environment holds text only, so a setting the connector's configSchema
 * declares a number or a boolean takes the type declared, from the file as read on a real file system.
 */
class SettingsFromVariablesIT {
    @TempDir
    Path dir;

    /** A plugin's configSchema as a manifest declares it (the tempo reference plugin's fetchConcurrency among them). */
    private static final JsonObject SCHEMA = json("""
            {"type": "object",
             "properties": {
               "url": {"type": "string"},
               "fetchConcurrency": {"type": "integer", "minimum": 1, "maximum": 32},
               "ratio": {"type": "number"},
               "verbose": {"type": "boolean"},
               "password": {"type": "string"},
               "limits": {"type": "object", "properties": {"max": {"type": "integer"}}},
               "ports": {"type": "array", "items": {"type": "integer"}},
               "retries": {"type": ["integer", "null"]},
               "free": {"description": "no type to go by"}
             },
             "additionalProperties": true}""");

    private static final SettingsSchemas TEMPO = type -> type.equals("tempo") ? Optional.of(SCHEMA) : Optional.empty();

    private static final Map<String, String> ENV = Map.ofEntries(Map.entry("CONC", "8"), Map.entry("RATIO", " .5 "),
            Map.entry("VERBOSE", "Yes"), Map.entry("PASS", "1234"), Map.entry("MAX", "5e2"), Map.entry("PORT", "9090"),
            Map.entry("RETRIES", "3"), Map.entry("FREE", "42"), Map.entry("CONC_WORDS", "eight-threads"),
            Map.entry("MAX_FRACTION", "2.5"), Map.entry("RATIO_EMPTY", ""), Map.entry("VERBOSE_ONE", "1"));

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    private Path write(String yaml) throws Exception {
        return Files.writeString(dir.resolve("sources.yaml"), yaml);
    }

    private YamlSourceStore store(Path file) {
        YamlSourceStore store = new YamlSourceStore(Optional.of(file), dir, ENV, List.of());
        store.useSettingsSchemas(TEMPO);
        return store;
    }

    private static final String TYPED = """
            sources:
              - name: traces
                type: tempo
                url: https://tempo.example.com
                fetchConcurrency: ${CONC}
                ratio: ${RATIO}
                verbose: ${VERBOSE}
                password: ${PASS}
                limits: {max: "${MAX}"}
                ports: ["${PORT}", 7]
                retries: ${RETRIES}
                free: ${FREE}
                quoted: "8"
            """;

    @Test
    void aVariable_takesTheTypeTheConnectorsSchemaDeclares_andStaysTextWhereItDeclaresTextOrNothing() throws Exception {
        SourcesDocument document = store(write(TYPED)).load();

        assertThat(document.problems()).isEmpty();
        JsonObject settings = document.sources().getFirst().config().settings();
        assertThat(settings.getJsonNumber("fetchConcurrency").intValueExact()).isEqualTo(8);
        assertThat(settings.getJsonNumber("ratio").doubleValue()).isEqualTo(0.5);
        assertThat(settings.get("verbose")).isEqualTo(JsonValue.TRUE);
        assertThat(settings.getString("password")).as("declared a string: digits stay text").isEqualTo("1234");
        assertThat(settings.getJsonObject("limits").getJsonNumber("max").intValueExact()).isEqualTo(500);
        assertThat(settings.getJsonArray("ports").getJsonNumber(0).intValueExact()).isEqualTo(9090);
        assertThat(settings.getJsonNumber("retries").intValueExact()).isEqualTo(3);
        assertThat(settings.getString("free")).as("no type declared: text, as before").isEqualTo("42");
        assertThat(settings.getString("quoted")).as("no variable: YAML's type is kept").isEqualTo("8");
    }

    @Test
    void withoutASchemaForTheType_aVariableStaysText() throws Exception {
        YamlSourceStore store = new YamlSourceStore(Optional.of(write(TYPED.replace("type: tempo", "type: jaeger"))), dir, ENV,
                List.of());
        store.useSettingsSchemas(TEMPO);

        JsonObject settings = store.load().sources().getFirst().config().settings();

        assertThat(settings.getString("fetchConcurrency")).isEqualTo("8");
        assertThat(settings.getString("verbose")).isEqualTo("Yes");
    }

    @Test
    void aTypedSettingFromAVariable_isWrittenBackAsTheVariable_whileItHoldsWhatTheVariableGives() throws Exception {
        Path file = write(TYPED);
        YamlSourceStore store = store(file);
        SourceDefinition loaded = store.load().sources().getFirst();

        store.save(List.of(loaded));

        assertThat(Files.readString(file)).contains("fetchConcurrency: ${CONC}", "ratio: ${RATIO}", "verbose: ${VERBOSE}",
                "max: ${MAX}", "- ${PORT}", "retries: ${RETRIES}", "password: ${PASS}").doesNotContain("9090", "1234");
        assertThat(store(file).load().sources().getFirst().config().settings()).isEqualTo(loaded.config().settings());
    }

    @Test
    void aVariableThatDoesNotFitTheDeclaredType_skipsTheEntryNamingTheKeyAndTheVariable_andNothingIsLost() throws Exception {
        String text = """
                sources:
                  - {name: good, type: tempo, url: https://a.example.com, fetchConcurrency: "${CONC}"}
                  - {name: words, type: tempo, url: https://b.example.com, fetchConcurrency: "${CONC_WORDS}"}
                  - {name: unset, type: tempo, url: https://c.example.com, verbose: "${VERBOSE_UNSET}"}
                  - {name: one, type: tempo, url: https://d.example.com, verbose: "${VERBOSE_ONE}"}
                  - {name: fraction, type: tempo, url: https://e.example.com, limits: {max: "${MAX_FRACTION}"}}
                  - {name: empty, type: tempo, url: https://f.example.com, ratio: "${RATIO_EMPTY}"}
                """;
        Path file = write(text);
        YamlSourceStore store = store(file);

        SourcesDocument document = store.load();

        assertThat(document.sources()).extracting(SourceDefinition::name).containsExactly("good");
        assertThat(document.problems()).containsExactly(
                "sources entry 2: 'fetchConcurrency': ${CONC_WORDS} gives 13 characters that are not a whole number; set CONC_WORDS"
                        + " to a whole number (for example 8); the tempo connector's configSchema declares 'fetchConcurrency' as"
                        + " integer",
                "sources entry 3: 'verbose': ${VERBOSE_UNSET} gives neither true nor false: VERBOSE_UNSET is not set; set it to true"
                        + " or false (yes/no and on/off work too), or give a default: ${VERBOSE_UNSET:-true}; the tempo connector's"
                        + " configSchema declares 'verbose' as boolean",
                "sources entry 4: 'verbose': ${VERBOSE_ONE} gives 1 character that is neither true nor false; set VERBOSE_ONE to"
                        + " true or false (yes/no and on/off work too); the tempo connector's configSchema declares 'verbose' as"
                        + " boolean",
                "sources entry 5: 'limits.max': ${MAX_FRACTION} gives 3 characters that are not a whole number; set MAX_FRACTION"
                        + " to a whole number (for example 8); the tempo connector's configSchema declares 'limits.max' as integer",
                "sources entry 6: 'ratio': ${RATIO_EMPTY} gives an empty value; set RATIO_EMPTY to a number (for example 0.9, 500"
                        + " or 5e2; no unit); the tempo connector's configSchema declares 'ratio' as number");
        assertThat(String.join("\n", document.problems())).doesNotContain("eight-threads");
        // reading changed nothing; a write-back (an API change of the good source) keeps every skipped entry as written
        assertThat(Files.readString(file)).isEqualTo(text);
        store.save(document.sources());
        SourcesDocument reread = store(file).load();
        assertThat(reread.sources()).extracting(SourceDefinition::name).containsExactly("good");
        assertThat(reread.problems()).isEqualTo(document.problems());
    }
}
