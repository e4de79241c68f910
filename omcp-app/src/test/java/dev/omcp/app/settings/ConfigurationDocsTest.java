package dev.omcp.app.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/configuration.md documents every variable the settings reader knows. */
class ConfigurationDocsTest {
    private static final Pattern ROW = Pattern.compile("^\\| `([A-Z][A-Z0-9_]*)`", Pattern.MULTILINE);

    @Test
    void everyVariable_isDocumented() throws IOException {
        Path page = Path.of("..", "docs", "configuration.md");
        assertThat(page).as("docs/configuration.md, read from the omcp-app module directory").exists();
        Matcher matcher = ROW.matcher(Files.readString(page));
        Set<String> documented = new HashSet<>();
        while (matcher.find()) {
            documented.add(matcher.group(1));
        }
        List<String> missing = new ArrayList<>();
        for (Variable variable : Variables.ALL) {
            if (!documented.contains(variable.name())) {
                missing.add(variable.name());
            }
        }
        assertThat(missing).as("variables read by SettingsReader but not documented in docs/configuration.md").isEmpty();
    }
}
