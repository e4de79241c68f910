package dev.omcp.app.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.adapters.storage.plugins.BuiltInHub;
import dev.omcp.app.settings.Settings;
import dev.omcp.ports.plugins.HubUnavailableException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** spec 5.8: which hub HUB_CATALOG_URL selects, and what a gateway without one says. */
class HubSelectionTest {
    private static final BuiltInHub.Lookup NOT_IN_THE_JAR =
            new BuiltInHub.Lookup.Missing("the jar holds no dev/omcp/app/demo/hub/index.json");

    private static HubSelection.Selected select(Settings.HubSource source, BuiltInHub.Lookup builtIn) {
        return HubSelection.select(source, Optional.empty(), Optional.empty(), builtIn);
    }

    @Test
    void unsetInAJarBuiltWithoutTheHub_isNoHub_sayingWhatIsMissingAndHowToRebuild() {
        HubSelection.Selected selected = select(new Settings.HubSource.BuiltIn(), NOT_IN_THE_JAR);

        assertThat(selected).isInstanceOfSatisfying(HubSelection.Selected.None.class, none -> assertThat(none.reason())
                .startsWith("the built-in hub is not in this jar (the jar holds no dev/omcp/app/demo/hub/index.json)")
                .contains("-Dmaven.test.skip=true").contains("rebuild it with mvn package").contains("or set HUB_CATALOG_URL"));
    }

    @Test
    void off_isNoHub_namingTheSettingAsWritten_andHowToGetOneBack() {
        HubSelection.Selected selected = select(new Settings.HubSource.Off("Disabled"), NOT_IN_THE_JAR);

        assertThat(selected).isInstanceOfSatisfying(HubSelection.Selected.None.class, none -> assertThat(none.reason())
                .startsWith("the connector hub is off (HUB_CATALOG_URL=Disabled)")
                .contains("unset HUB_CATALOG_URL to use the built-in hub"));
    }

    @Test
    void aLocationOfTheOperators_isThatHub_whetherOrNotTheJarHasOne() {
        HubSelection.Selected selected = select(new Settings.HubSource.At("/srv/omcp-no-such-hub/index.json"), NOT_IN_THE_JAR);

        assertThat(selected).isInstanceOfSatisfying(HubSelection.Selected.Open.class, open -> assertThatThrownBy(open.hub()::catalog)
                .isInstanceOf(HubUnavailableException.class).hasMessageContaining("(hub /srv/omcp-no-such-hub)"));
    }

    @Test
    void theGatewaysStandInForNoHub_answersEveryReadWithTheReason() {
        UnavailableHub hub = new UnavailableHub("the connector hub is off (HUB_CATALOG_URL=off)");

        assertThatThrownBy(hub::catalog).isInstanceOf(HubUnavailableException.class)
                .hasMessage("the connector hub is off (HUB_CATALOG_URL=off)");
        assertThatThrownBy(() -> hub.fetchBundle(null)).isInstanceOf(HubUnavailableException.class)
                .hasMessage("the connector hub is off (HUB_CATALOG_URL=off)");
    }
}
