package dev.omcp.adapters.storage.inspect;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.omcp.ports.inspect.Rule;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.representer.Representer;

/** How a profile file is written, told by its name: {@code .yaml} or {@code .yml} is YAML, {@code .json} is JSON. */
enum ProfileFormat {
    YAML, JSON;

    /** What the name of a profile file may end in, for the refusal of any other. */
    static final String EXTENSIONS = ".yaml, .yml or .json";
    private static final ObjectMapper JSON_WRITER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final String YAML_HEADER = """
            # Inspect profile (OMCP_INSPECT_PROFILE_FILE), written by the gateway after every derivation and review.
            # Edit it while the gateway is stopped: the next save through the API rewrites the whole file, comments too.
            """;

    /** The format of {@code file}'s name (case does not matter), or empty when it has none of the {@link #EXTENSIONS}. */
    static Optional<ProfileFormat> of(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".yaml") || name.endsWith(".yml")) {
            return Optional.of(YAML);
        }
        return name.endsWith(".json") ? Optional.of(JSON) : Optional.empty();
    }

    /**
     * The rules of a file's text, checked whole; none for a blank file.
     *
     * @param source names the file in messages
     * @param maxBytes the file's bound, which also bounds what YAML aliases expand to
     * @throws dev.omcp.ports.inspect.ProfileStore.ProfileStoreException listing every problem with its line
     */
    List<Rule> read(String text, String source, int maxBytes) {
        if (text.isBlank()) {
            return List.of();
        }
        Placed root = switch (this) {
            case YAML -> PlacedYaml.read(text, source, maxBytes);
            case JSON -> PlacedJson.read(text, source);
        };
        return ProfileShape.rules(root, source);
    }

    /** The text of a file holding {@code rules}, in their order: YAML in block style under a short header, or indented JSON. */
    String write(List<Rule> rules) {
        Object document = ProfileShape.document(rules);
        return switch (this) {
            case YAML -> {
                DumperOptions options = new DumperOptions();
                options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
                options.setIndicatorIndent(2);
                options.setIndentWithIndicator(true);
                yield YAML_HEADER + new Yaml(new Representer(options), options).dump(document);
            }
            case JSON -> {
                try {
                    yield JSON_WRITER.writeValueAsString(document) + "\n";
                } catch (JsonProcessingException e) {
                    throw new IllegalStateException("a profile of strings and numbers cannot fail to serialize", e);
                }
            }
        };
    }
}
