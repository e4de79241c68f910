package dev.omcp.adapters.storage.plugins;

import dev.omcp.ports.plugins.PluginPin;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads the {@code plugins:} block of the sources file (spec 5.8): entries {@code {name, version}}
 * pinning the plugin directory {@code <name>-<version>}. Safe YAML loading only; every invalid
 * entry is reported at once. The rest of the sources file is not this class's business.
 */
public final class PluginPinsReader {
    private static final int MAX_BYTES = 1024 * 1024;

    private PluginPinsReader() {}

    /**
     * The pins of {@code sourcesFile}; none when the file does not exist or has no {@code plugins:}.
     *
     * @throws IllegalArgumentException naming every invalid entry, or why the file is unreadable
     */
    public static List<PluginPin> read(Path sourcesFile) {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(sourcesFile)) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new IllegalArgumentException("the sources file " + sourcesFile + " cannot be read (" + e.getClass().getSimpleName() + ")");
        }
        if (bytes.length > MAX_BYTES) {
            throw new IllegalArgumentException("the sources file " + sourcesFile + " is larger than 1 MiB");
        }
        Object document;
        try {
            LoaderOptions options = new LoaderOptions();
            options.setMaxAliasesForCollections(16);
            document = new Yaml(new SafeConstructor(options)).load(new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
        } catch (YAMLException e) {
            throw new IllegalArgumentException("the sources file " + sourcesFile + " is not valid YAML: " + e.getMessage());
        }
        if (!(document instanceof Map<?, ?> root) || !root.containsKey("plugins") || root.get("plugins") == null) {
            return List.of();
        }
        if (!(root.get("plugins") instanceof List<?> entries)) {
            throw new IllegalArgumentException("the sources file's plugins: must be a list of {name, version}");
        }
        List<PluginPin> pins = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < entries.size(); i++) {
            String where = "plugins[" + i + "]";
            if (!(entries.get(i) instanceof Map<?, ?> entry) || !(entry.get("name") instanceof String name) || entry.get("version") == null) {
                problems.add(where + " must be {name: <connector>, version: <exact version>}");
                continue;
            }
            try {
                PluginPin pin = new PluginPin(name, String.valueOf(entry.get("version")));
                if (!names.add(pin.name())) {
                    problems.add(where + " pins '" + pin.name() + "' a second time; pin each connector once");
                    continue;
                }
                pins.add(pin);
            } catch (IllegalArgumentException e) {
                problems.add(where + ": " + e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid plugin pins in " + sourcesFile + ": " + String.join("; ", problems));
        }
        return List.copyOf(pins);
    }
}
