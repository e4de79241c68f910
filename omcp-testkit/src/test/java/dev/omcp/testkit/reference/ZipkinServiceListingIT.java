package dev.omcp.testkit.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.ServiceListing;
import dev.omcp.testkit.connector.PluginUnderTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The zipkin reference plugin's service list against answers a real Zipkin does not give: Zipkin's
 * {@code /api/v2/services} is a JSON array of names, so an entry that is not a string names no
 * service. It is left out, and the listing says how many, so an agent does not read the list as
 * every service Zipkin knows.
 */
class ZipkinServiceListingIT {
    @RegisterExtension
    static final PluginUnderTest ZIPKIN = CannedZipkin.plugin();

    @RegisterExtension
    final CannedZipkin zipkin = new CannedZipkin(ZIPKIN);

    @Test
    void aListOfNames_isListedSorted_withNothingLeftOut() throws Exception {
        zipkin.services("[\"payments\",\"checkout\"]");
        try (Connector connector = zipkin.connect()) {
            ServiceListing listing = ((ServiceListingCapability) connector).serviceListing();
            assertThat(listing.services()).extracting(ServiceInfo::name).containsExactly("checkout", "payments");
            assertThat(listing.warnings()).isEmpty();
        }
    }

    @Test
    void namesThatAreNotStrings_areLeftOut_countedInOneWarning_whileTheOthersAreListed() throws Exception {
        zipkin.services("[\"payments\",7,null,{\"serviceName\":\"cart\"},[\"search\"],false,\"checkout\"]");
        try (Connector connector = zipkin.connect()) {
            ServiceListingCapability services = (ServiceListingCapability) connector;
            ServiceListing listing = services.serviceListing();
            assertThat(listing.services()).extracting(ServiceInfo::name).containsExactly("checkout", "payments");
            assertThat(listing.warnings()).containsExactly("Zipkin answered service names that are not strings (5); they were left "
                    + "out of the listing (a broken answer, or something other than Zipkin's API at the source URL)");
            assertThat(services.listServices()).isEqualTo(listing.services());
        }
    }

    @Test
    void aServiceListThatIsNotAList_isABadResponse() throws Exception {
        zipkin.services("{\"services\":[\"checkout\"]}");
        try (Connector connector = zipkin.connect()) {
            assertThatThrownBy(((ServiceListingCapability) connector)::serviceListing)
                    .isInstanceOfSatisfying(ConnectorException.class,
                            e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE))
                    .hasMessage("Zipkin's service list is not a JSON array");
        }
    }
}
