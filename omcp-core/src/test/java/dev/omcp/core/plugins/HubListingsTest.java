package dev.omcp.core.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.plugins.HubEntry;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HubListingsTest {
    private static final HubEntry TEMPO = new HubEntry("tempo", "Tempo", "Traces from Grafana Tempo", "2.0.0", List.of());

    private static boolean update(String installed) {
        return HubListings.newerInCatalog(TEMPO, Optional.of(installed));
    }

    @Test
    void anUpdateIsAvailable_onlyWhenTheCatalogsLatestIsNewer() {
        assertThat(update("1.9.3")).isTrue();
        assertThat(update("2.0.0-rc.1")).as("a pre-release precedes its release").isTrue();
        assertThat(update("2.0.0")).isFalse();
        assertThat(update("2.0.0+local.7")).as("build metadata does not count").isFalse();
        // before: any difference counted, so a newer build installed by upload was offered a "latest" that is a downgrade
        assertThat(update("2.1.0")).isFalse();
        assertThat(update("10.0.0")).as("numbers compare as numbers").isFalse();
    }

    @Test
    void nothingInstalled_hasNoUpdate_andAVersionThatIsNoSemanticVersionCountsAsOutdatedWhenItDiffers() {
        assertThat(HubListings.newerInCatalog(TEMPO, Optional.empty())).isFalse();
        assertThat(update("nightly")).isTrue();
    }
}
