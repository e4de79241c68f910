package dev.omcp.app.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.omcp.ports.inspect.InspectMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InspectSettingsTest {

    @Test
    void defaults_observeInMemoryOver24Hours() throws Exception {
        // spec 8: OMCP_INSPECT default observe, OMCP_INSPECT_WINDOW default 24h, a memory ring when no file is set
        Settings.Inspect inspect = SettingsReader.read(Map.of()).management().inspect();
        assertThat(inspect.mode()).isEqualTo(InspectMode.OBSERVE);
        assertThat(inspect.file()).isEmpty();
        assertThat(inspect.window()).isEqualTo(Duration.ofHours(24));
    }

    @Test
    void offAFileAndAWindow_areRead() throws Exception {
        Settings.Inspect inspect = SettingsReader.read(Map.of("OMCP_INSPECT", "off", "OMCP_INSPECT_FILE", "/var/lib/omcp/inspect.jsonl",
                "OMCP_INSPECT_WINDOW", "90m")).management().inspect();
        assertThat(inspect.mode()).isEqualTo(InspectMode.OFF);
        assertThat(inspect.file()).contains(Path.of("/var/lib/omcp/inspect.jsonl"));
        assertThat(inspect.window()).isEqualTo(Duration.ofMinutes(90));
    }

    @Test
    void dryrunEnforceAndAProfileFile_areRead() throws Exception {
        Settings.Inspect dryrun = SettingsReader.read(Map.of("OMCP_INSPECT", "dryrun", "OMCP_INSPECT_PROFILE_FILE",
                "/var/lib/omcp/profile.yaml")).management().inspect();
        assertThat(dryrun.mode()).isEqualTo(InspectMode.DRYRUN);
        assertThat(dryrun.profileFile()).contains(Path.of("/var/lib/omcp/profile.yaml"));
        // whether enforce may start (entitlement, accepted rules) is decided with the profile loaded, not here
        assertThat(SettingsReader.read(Map.of("OMCP_INSPECT", "enforce")).management().inspect().mode()).isEqualTo(InspectMode.ENFORCE);
        assertThat(SettingsReader.read(Map.of()).management().inspect().profileFile()).isEmpty();
    }

    @Test
    void anUnknownMode_aBadWindow_andAProfileFileOfAnotherFormat_refuseTheStartSayingWhy() {
        InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class,
                () -> SettingsReader.read(Map.of("OMCP_INSPECT", "block", "OMCP_INSPECT_WINDOW", "1 day",
                        "OMCP_INSPECT_PROFILE_FILE", "/var/lib/omcp/profile.toml")));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("OMCP_INSPECT ").contains("observe"));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("OMCP_INSPECT_WINDOW").contains("like 24h"));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("OMCP_INSPECT_PROFILE_FILE").contains(".yaml, .yml or .json"));
    }
}
