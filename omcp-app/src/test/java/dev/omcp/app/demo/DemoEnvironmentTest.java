package dev.omcp.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.testkit.demo.DemoBackends;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoEnvironmentTest {

    @Test
    void theDemosPostmortems_stayInItsDirectory_notInTheStoreAServeOnThisMachineReads(@TempDir Path work) throws Exception {
        try (DemoBackends backends = DemoBackends.startStandard()) {
            Map<String, String> env = DemoEnvironment.prepare(backends, work, Optional.empty());
            // the default, /tmp/postmortems.jsonl, is also what a later `omcp serve` lists: the simulated
            // shop's drafts showed up there as if they were about the operator's own services
            assertThat(env).containsEntry("OMCP_POSTMORTEMS_FILE", work.resolve("postmortems.jsonl").toString());
        }
    }
}
