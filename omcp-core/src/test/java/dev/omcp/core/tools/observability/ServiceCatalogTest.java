package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

class ServiceCatalogTest {
    private static ServiceCatalog catalog(String json) {
        try (var reader = Jsonp.reader(json)) {
            return ((ServiceCatalog.Parsed.Loaded) ServiceCatalog.parse(reader.readObject())).catalog();
        }
    }

    private static String owner(ServiceCatalog catalog, String service) {
        return catalog.entry(service).map(e -> e.getString("owner")).orElse("(none)");
    }

    /**
     * Spec 2.10 catalogConfigured: an operator who set OMCP_SERVICE_CATALOG_FILE to a catalog that lists no service yet (in
     * either form) configured one, and the gateway read it; "false" would send them looking for a setting that took.
     */
    @Test
    void aCatalogThatWasReadIsConfigured_evenWhenItListsNoService_butNoCatalogIsNot() {
        assertThat(catalog("{\"services\":{}}").configured()).isTrue();
        assertThat(catalog("{\"services\":[]}").configured()).isTrue();
        assertThat(catalog("{\"services\":{}}").size()).isZero();
        assertThat(ServiceCatalog.empty().configured()).isFalse();
    }

    @Test
    void aNamespacedName_findsTheEntryOfItsBareName_andAnExactEntryWins() {
        ServiceCatalog c = catalog("{\"services\":{\"payments\":{\"owner\":\"team-payments\"},\"billing/payments\":{\"owner\":\"team-billing\"}}}");
        assertThat(owner(c, "payments")).isEqualTo("team-payments");
        assertThat(owner(c, "shop/payments")).isEqualTo("team-payments");
        assertThat(owner(c, "billing/payments")).isEqualTo("team-billing");
    }

    @Test
    void aBareName_findsTheOneNamespacedEntry_butNoGuessAmongSeveral() {
        assertThat(owner(catalog("{\"services\":{\"shop/cart\":{\"owner\":\"team-cart\"}}}"), "cart")).isEqualTo("team-cart");
        ServiceCatalog two = catalog("{\"services\":{\"shop/cart\":{\"owner\":\"a\"},\"outlet/cart\":{\"owner\":\"b\"}}}");
        assertThat(two.entry("cart")).isEmpty();
        assertThat(owner(two, "outlet/cart")).isEqualTo("b");
    }

    @Test
    void namesThatOnlyShareASuffix_doNotMatch() {
        ServiceCatalog c = catalog("{\"services\":{\"shop/xcart\":{\"owner\":\"x\"},\"payments-db\":{\"owner\":\"db\"}}}");
        assertThat(c.entry("cart")).isEmpty();
        assertThat(c.entry("shop/payments")).isEmpty();
        JsonObject entry = c.entry("shop/payments-db").orElseThrow();
        assertThat(entry.getString("owner")).isEqualTo("db");
    }

    @Test
    void anEntryWithAnEmptyName_isRejected_inBothForms() {
        try (var reader = Jsonp.reader("{\"services\": [{\"name\": \" \", \"owner\": \"a\"}, {\"name\": \"b\"}]}")) {
            assertThat(ServiceCatalog.parse(reader.readObject())).isEqualTo(new ServiceCatalog.Parsed.Rejected(
                    java.util.List.of("services[0] has an empty \"name\"; name the service it describes")));
        }
        try (var reader = Jsonp.reader("{\"services\": {\"\": {\"owner\": \"a\"}}}")) {
            assertThat(ServiceCatalog.parse(reader.readObject())).isEqualTo(new ServiceCatalog.Parsed.Rejected(
                    java.util.List.of("services has an entry with an empty name; name the service it describes")));
        }
    }

    @Test
    void aListThatNamesAServiceTwice_isRejected_namingBothPlaces() {
        // spec 2.11: one entry per service; the list form kept the last entry without a word
        try (var reader = Jsonp.reader("{\"services\":[{\"name\":\"cart\",\"owner\":\"a\"},{\"name\":\"cart\",\"owner\":\"b\"}]}")) {
            assertThat(ServiceCatalog.parse(reader.readObject())).isEqualTo(new ServiceCatalog.Parsed.Rejected(
                    java.util.List.of("services[1] names 'cart' again (first in services[0]); give each service one entry")));
        }
    }
}
