package dev.omcp.adapters.storage.products;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.products.Product;
import dev.omcp.ports.products.ProductStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code OMCP_PRODUCTS_FILE} (DECISIONS.md "Products"): YAML or JSON by extension, atomic 0600 writes, all problems at once. */
class ProductsFileIT {
    private static final Product PAYMENTS = new Product("payments", "Payments", Optional.of("the payment services"),
            ProductStatus.PUBLISHED, List.of("query_logs", "get_service_health"), Optional.empty());
    private static final Product PREVIEW = new Product("preview", "Preview", Optional.empty(), ProductStatus.STAGING,
            List.of("list_services"), Optional.of("acme"));
    @TempDir
    Path dir;

    @Test
    void aYamlFile_isReadAsWritten() throws Exception {
        Path file = dir.resolve("products.yaml");
        Files.writeString(file, """
                # the operator's Products
                products:
                  - id: payments
                    name: Payments
                    description: the payment services
                    status: published
                    tools: [query_logs, get_service_health]
                  - id: preview
                    name: Preview
                    status: staging
                    tools:
                      - list_services
                    tenant: acme
                """);

        assertThat(ProductsFile.open(file).load()).containsExactly(PAYMENTS, PREVIEW);
    }

    @Test
    void aJsonFile_isReadAsWritten() throws Exception {
        Path file = dir.resolve("products.json");
        Files.writeString(file, """
                {"products": [{"id": "preview", "name": "Preview", "status": "staging", "tools": ["list_services"],
                               "tenant": "acme"}]}""");

        assertThat(ProductsFile.open(file).load()).containsExactly(PREVIEW);
    }

    @Test
    void aMissingFile_isEmpty_andTheFirstSaveCreatesItWithMode0600() throws Exception {
        for (String name : List.of("products.yml", "products.json")) {
            Path file = dir.resolve(name);
            ProductsFile store = ProductsFile.open(file);
            assertThat(store.load()).isEmpty();

            store.save(List.of(PAYMENTS, PREVIEW));

            assertThat(ProductsFile.open(file).load()).as(name).containsExactly(PAYMENTS, PREVIEW);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
            try (var left = Files.list(dir)) {
                assertThat(left.map(Path::getFileName).map(Path::toString)).as("no temp file left").noneMatch(n -> n.endsWith(".tmp"));
            }
        }
    }

    @Test
    void aSaveReplacesTheWholeFile() throws Exception {
        Path file = dir.resolve("products.yaml");
        ProductsFile store = ProductsFile.open(file);
        store.save(List.of(PAYMENTS, PREVIEW));

        store.save(List.of(PREVIEW));

        assertThat(ProductsFile.open(file).load()).containsExactly(PREVIEW);
        assertThat(Files.readString(file)).doesNotContain("payments");
    }

    @Test
    void anInvalidFile_isRefused_withEveryProblemListed() throws Exception {
        Path file = dir.resolve("products.yaml");
        Files.writeString(file, """
                products:
                  - id: Payments
                    name: Payments
                    status: live
                    tools: []
                  - id: ok
                    name: Ok
                    status: published
                    tools: [query_logs]
                    colour: blue
                  - id: ok
                    name: Again
                    status: published
                    tools: [query_logs]
                """);

        assertThatThrownBy(() -> ProductsFile.open(file)).isInstanceOfSatisfying(InvalidProductsFileException.class, e ->
                assertThat(e.problems()).hasSize(5)
                        .anySatisfy(p -> assertThat(p).contains("products[0] status: must be published or staging"))
                        .anySatisfy(p -> assertThat(p).contains("products[0] id: must be"))
                        .anySatisfy(p -> assertThat(p).contains("products[0] tools: must list at least one tool name"))
                        .anySatisfy(p -> assertThat(p).contains("products[1] unknown field 'colour'"))
                        .anySatisfy(p -> assertThat(p).contains("products[2] id: ok is the id of an earlier Product too")));
        assertThatThrownBy(() -> ProductsFile.open(file)).hasMessageStartingWith("OMCP_PRODUCTS_FILE is invalid");
    }

    @Test
    void theFirstEntrysValueProblems_areListedTogether() throws Exception {
        Path file = dir.resolve("products.json");
        Files.writeString(file, """
                {"products": [{"id": "Payments", "name": " ", "status": "published", "tools": []}]}""");

        assertThatThrownBy(() -> ProductsFile.open(file)).isInstanceOfSatisfying(InvalidProductsFileException.class, e ->
                assertThat(e.problems()).hasSize(3).anyMatch(p -> p.contains("id:")).anyMatch(p -> p.contains("name:"))
                        .anyMatch(p -> p.contains("tools:")));
    }

    @Test
    void yamlIsLoadedSafely_andJsonMustBeJson() throws Exception {
        Path yaml = dir.resolve("products.yaml");
        Files.writeString(yaml, "products: !!java.io.File [\"/etc/passwd\"]\n");
        Path json = dir.resolve("products.json");
        Files.writeString(json, "products: []\n");

        assertThatThrownBy(() -> ProductsFile.open(yaml)).isInstanceOf(InvalidProductsFileException.class)
                .hasMessageContaining("not valid YAML");
        assertThatThrownBy(() -> ProductsFile.open(json)).isInstanceOf(InvalidProductsFileException.class)
                .hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> ProductsFile.open(dir.resolve("products.txt"))).isInstanceOf(InvalidProductsFileException.class)
                .hasMessageContaining(".yaml, .yml or .json");
    }
}
