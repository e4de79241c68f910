package dev.omcp.app.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Every variable the gateway reads has a row in docs/configuration.md (Variables' promise). */
class ConfigurationPageIT {

    @Test
    void everyVariableIsDocumented() throws Exception {
        String page = Files.readString(Path.of("../docs/configuration.md"));
        for (Variable variable : Variables.ALL) {
            assertThat(page).as("docs/configuration.md documents " + variable.name()).contains("| `" + variable.name() + "` |");
        }
    }
}
