package dev.omcp.core.products;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.identity.AllowLists;
import dev.omcp.ports.identity.AuthKind;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.products.Product;
import dev.omcp.ports.products.ProductOutcome;
import dev.omcp.ports.products.ProductStatus;
import dev.omcp.ports.products.ProductStore;
import dev.omcp.ports.products.ProductStoreException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** spec 2.16, 3.6; DECISIONS.md "Products": the value's rules, the catalog, and who is served what. */
class ProductCatalogTest {
    private static final Set<String> REGISTERED = Set.of("query_logs", "list_services", "get_service_health");
    private static final Principal ADMIN = new Principal("user:alice", "alice", AuthKind.SESSION, "", Set.of("admin"), Optional.empty());
    private static final Principal ACME_OPERATOR =
            new Principal("user:opal", "opal", AuthKind.SESSION, "acme", Set.of("operator"), Optional.empty());

    private static Product product(String id, ProductStatus status, Optional<String> tenant, String... tools) {
        return new Product(id, "Product " + id, Optional.empty(), status, List.of(tools), tenant);
    }

    private static ProductCatalog catalog(Product... products) {
        return new ProductCatalog(new InMemoryProductStore(List.of(products)), REGISTERED::contains);
    }

    @Test
    void aProductWithEveryFieldWrong_namesEveryProblem() {
        List<String> problems = Product.problems("Payments!", " ", Optional.of("x".repeat(Product.MAX_DESCRIPTION + 1)),
                List.of("query_logs", "query_logs", ""), Optional.of("bad\ntenant"));

        assertThat(problems).hasSize(6);
        assertThat(String.join("\n", problems)).contains("id:", "name:", "description:", "tools[1]", "tools[2]", "tenant:");
        assertThatThrownBy(() -> product("ok", ProductStatus.PUBLISHED, Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tools: must list at least one tool name");
        assertThat(Product.problems("a", "A", Optional.empty(), List.of("t"), Optional.empty())).isEmpty();
        assertThat(Product.problems("a".repeat(64), "A", Optional.empty(), List.of("t"), Optional.empty())).hasSize(1);
    }

    @Test
    void putRefusesAToolNoRegisteredToolHas_andStoresNothing() {
        ProductCatalog catalog = catalog();

        ProductOutcome outcome = catalog.put(ADMIN, product("payments", ProductStatus.PUBLISHED, Optional.empty(), "query_logs",
                "make_coffee"), true);

        assertThat(outcome).isInstanceOfSatisfying(ProductOutcome.Invalid.class, invalid -> assertThat(invalid.problems())
                .singleElement().asString().contains("tools[1]").contains("make_coffee"));
        assertThat(catalog.all()).isEmpty();
    }

    @Test
    void putCreatesThenReplaces_andDeleteRemoves() {
        ProductCatalog catalog = catalog();

        assertThat(catalog.put(ADMIN, product("payments", ProductStatus.PUBLISHED, Optional.empty(), "query_logs"), true))
                .isEqualTo(new ProductOutcome.Saved(product("payments", ProductStatus.PUBLISHED, Optional.empty(), "query_logs"), true));
        assertThat(catalog.put(ADMIN, product("payments", ProductStatus.PUBLISHED, Optional.empty(), "list_services"), true))
                .isInstanceOfSatisfying(ProductOutcome.Saved.class, saved -> assertThat(saved.created()).isFalse());
        assertThat(catalog.find(ADMIN, "payments", true)).get().extracting(Product::tools).isEqualTo(List.of("list_services"));
        assertThat(catalog.delete(ADMIN, "payments", true)).isEqualTo(new ProductOutcome.Deleted("payments"));
        assertThat(catalog.delete(ADMIN, "payments", true)).isEqualTo(new ProductOutcome.NotFound("payments"));
    }

    @Test
    void aStoreThatCannotWrite_leavesTheCatalogAsItWas() {
        ProductStore failing = new ProductStore() {
            @Override
            public List<Product> load() {
                return List.of(product("payments", ProductStatus.PUBLISHED, Optional.empty(), "query_logs"));
            }

            @Override
            public void save(List<Product> products) throws ProductStoreException {
                throw new ProductStoreException("disk full", null);
            }

            @Override
            public String describe() {
                return "a failing store";
            }
        };
        ProductCatalog catalog = new ProductCatalog(failing, REGISTERED::contains);

        assertThat(catalog.delete(ADMIN, "payments", true)).isEqualTo(new ProductOutcome.StoreUnavailable("disk full"));
        assertThat(catalog.all()).extracting(Product::id).containsExactly("payments");
    }

    @Test
    void stagingIsSeenOnlyByAdministrators_andNeverServed() {
        ProductCatalog catalog = catalog(product("preview", ProductStatus.STAGING, Optional.empty(), "query_logs"));

        assertThat(catalog.list(ADMIN, true)).extracting(Product::id).containsExactly("preview");
        assertThat(catalog.list(ADMIN, false)).isEmpty();
        assertThat(catalog.find(ADMIN, "preview", false)).isEmpty();
        assertThat(catalog.serve(Principal.apiKey("ci", ""), "preview")).isEmpty();
    }

    @Test
    void aTenantsProduct_isServedAndShownOnlyToThatTenant() {
        ProductCatalog catalog = catalog(product("acme-logs", ProductStatus.PUBLISHED, Optional.of("acme"), "query_logs"),
                product("shared", ProductStatus.PUBLISHED, Optional.empty(), "list_services"));

        assertThat(catalog.serve(Principal.apiKey("acme-bot", "acme"), "acme-logs")).isPresent();
        assertThat(catalog.serve(Principal.apiKey("globex-bot", "globex"), "acme-logs")).isEmpty();
        assertThat(catalog.serve(Principal.apiKey("ops", ""), "acme-logs")).as("an untenanted key").isEmpty();
        assertThat(catalog.serve(Principal.apiKey("globex-bot", "globex"), "shared")).isPresent();
        assertThat(catalog.list(ACME_OPERATOR, false)).extracting(Product::id).containsExactly("acme-logs", "shared");
        Principal globexOperator = new Principal("user:gus", "gus", AuthKind.SESSION, "globex", Set.of(), Optional.empty());
        assertThat(catalog.list(globexOperator, false)).extracting(Product::id).containsExactly("shared");
    }

    @Test
    void aTenantsOperator_writesOnlyProductsOfItsTenant() {
        ProductCatalog catalog = catalog(product("shared", ProductStatus.PUBLISHED, Optional.empty(), "list_services"));

        assertThat(catalog.put(ACME_OPERATOR, product("mine", ProductStatus.PUBLISHED, Optional.empty(), "query_logs"), false))
                .isInstanceOf(ProductOutcome.Invalid.class);
        assertThat(catalog.put(ACME_OPERATOR, product("shared", ProductStatus.PUBLISHED, Optional.of("acme"), "query_logs"), false))
                .as("replacing a Product shared by all tenants").isInstanceOf(ProductOutcome.Invalid.class);
        assertThat(catalog.put(ACME_OPERATOR, product("mine", ProductStatus.PUBLISHED, Optional.of("acme"), "query_logs"), false))
                .isInstanceOf(ProductOutcome.Saved.class);
        assertThat(catalog.delete(ACME_OPERATOR, "shared", true)).isEqualTo(new ProductOutcome.NotFound("shared"));
    }

    @Test
    void servingLimitsTheCallerToThatProduct_andAKeysListDecidesWhichItMayUse() {
        ProductCatalog catalog = catalog(product("payments", ProductStatus.PUBLISHED, Optional.empty(), "list_services"),
                product("logs", ProductStatus.PUBLISHED, Optional.empty(), "query_logs"));
        Principal bound = Principal.apiKey("bound", "", AllowLists.none().withProducts(List.of("payments")));

        assertThat(catalog.serve(bound, "logs")).isEmpty();
        Principal served = catalog.serve(bound, "payments").orElseThrow();
        assertThat(served.id()).as("the same credential: its rate and budget are shared").isEqualTo("key:bound");
        assertThat(served.allowLists().products()).contains(Set.of("payments"));
        assertThat(catalog.toolsOfProducts(served)).contains(Set.of("list_services"));
        Principal both = Principal.apiKey("both", "", AllowLists.none().withProducts(List.of("payments", "logs", "gone")));
        assertThat(catalog.toolsOfProducts(both)).contains(Set.of("list_services", "query_logs"));
        assertThat(catalog.toolsOfProducts(Principal.apiKey("free", ""))).isEmpty();
    }

    @Test
    void theVisibility_hidesToolsOutsideTheCallersProducts_andFollowsEdits() {
        ProductCatalog catalog = catalog(product("payments", ProductStatus.PUBLISHED, Optional.empty(), "list_services"));
        ProductToolVisibility visibility = new ProductToolVisibility(catalog);
        Principal served = catalog.serve(Principal.apiKey("ops", ""), "payments").orElseThrow();

        assertThat(visibility.isVisible(served, "list_services")).isTrue();
        assertThat(visibility.isVisible(served, "query_logs")).isFalse();
        assertThat(visibility.seesEverything(served)).isFalse();
        assertThat(visibility.seesEverything(Principal.apiKey("ops", ""))).isTrue();
        catalog.put(ADMIN, product("payments", ProductStatus.STAGING, Optional.empty(), "list_services"), true);
        assertThat(visibility.isVisible(served, "list_services")).as("a Product moved to staging serves nothing").isFalse();
    }

    @Test
    void aStoreWithTwoProductsOfOneId_isRefused() {
        assertThatThrownBy(() -> catalog(product("a", ProductStatus.PUBLISHED, Optional.empty(), "query_logs"),
                product("a", ProductStatus.STAGING, Optional.empty(), "query_logs")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two Products have the id a");
    }
}
