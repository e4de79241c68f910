package dev.omcp.adapters.storage.products;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.omcp.adapters.storage.files.OperatorTextFile;
import dev.omcp.adapters.storage.files.PrivateFiles;
import dev.omcp.adapters.storage.yaml.YamlExpansion;
import dev.omcp.adapters.storage.yaml.YamlProblem;
import dev.omcp.ports.products.Product;
import dev.omcp.ports.products.ProductStatus;
import dev.omcp.ports.products.ProductStore;
import dev.omcp.ports.products.ProductStoreException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.representer.Representer;

/**
 * The Products in a file ({@code OMCP_PRODUCTS_FILE}): YAML when its name ends in {@code .yaml} or {@code .yml}, JSON
 * when it ends in {@code .json}. Both hold one mapping, {@code products}, a list of
 * {@code {id, name, description?, status, tools, tenant?}}.
 *
 * <p>Read once, when opened: a file with any problem refuses the start, every problem listed, since serving some
 * Products of a file an operator believes whole would hide the others without a word. A missing file is an empty list,
 * created at the first change. Every change rewrites the file whole and atomically (temp file with mode 0600, fsync,
 * rename), so it is never half written; comments in a YAML file do not survive the first change made through the API.
 * YAML is read with SnakeYAML's safe constructor only: no tags, no classes, bounded aliases.
 */
public final class ProductsFile implements ProductStore {
    /** Largest file read: a few hundred Products of 200 tools each fit many times. */
    static final int MAX_BYTES = 4 * 1024 * 1024;
    private static final Set<String> FIELDS = Set.of("id", "name", "description", "status", "tools", "tenant");
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(SerializationFeature.INDENT_OUTPUT);

    private final Path file;
    private final boolean yaml;
    private final List<Product> loaded;

    private ProductsFile(Path file, boolean yaml, List<Product> loaded) {
        this.file = file;
        this.yaml = yaml;
        this.loaded = loaded;
    }

    /**
     * Opens {@code file} and reads it whole.
     *
     * @throws InvalidProductsFileException when its name has neither extension, or it exists and cannot be read, is
     *     not YAML or JSON, or holds anything but valid Products with unique ids; every problem is listed
     */
    public static ProductsFile open(Path file) throws InvalidProductsFileException {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        boolean yaml = name.endsWith(".yaml") || name.endsWith(".yml");
        if (!yaml && !name.endsWith(".json")) {
            throw new InvalidProductsFileException(List.of(file + ": the name must end in .yaml, .yml or .json, which says "
                    + "how the file is written"));
        }
        if (!PrivateFiles.exists(file)) {
            return new ProductsFile(file, yaml, List.of());
        }
        String text = switch (OperatorTextFile.read(file, MAX_BYTES)) {
            case OperatorTextFile.Read.Text read -> read.text();
            case OperatorTextFile.Read.Unusable unusable -> throw new InvalidProductsFileException(List.of(file + " "
                    + unusable.reason()));
        };
        Object root = text.isBlank() ? null : yaml ? parseYaml(text, file) : parseJson(text, file);
        return new ProductsFile(file, yaml, products(root, file.toString()));
    }

    @Override
    public List<Product> load() {
        return loaded;
    }

    @Override
    public void save(List<Product> products) throws ProductStoreException {
        List<Map<String, Object>> entries = products.stream().map(ProductsFile::entry).toList();
        Map<String, Object> root = Map.of("products", entries);
        String text;
        if (yaml) {
            DumperOptions options = new DumperOptions();
            options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
            options.setIndicatorIndent(2);
            options.setIndentWithIndicator(true);
            text = new Yaml(new Representer(options), options).dump(root);
        } else {
            try {
                text = JSON.writeValueAsString(root) + "\n";
            } catch (JsonProcessingException e) {
                throw new ProductStoreException("the Products could not be written as JSON: " + e.getOriginalMessage(), e);
            }
        }
        try {
            PrivateFiles.replace(file, text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new ProductStoreException("OMCP_PRODUCTS_FILE " + file + " cannot be written (" + e.getClass().getSimpleName()
                    + "); check that its directory exists and is writable by the gateway; nothing changed", e);
        }
    }

    @Override
    public String describe() {
        return "the file " + file + " (OMCP_PRODUCTS_FILE)";
    }

    private static Map<String, Object> entry(Product product) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("id", product.id());
        entry.put("name", product.name());
        product.description().ifPresent(text -> entry.put("description", text));
        entry.put("status", product.status().wireName());
        entry.put("tools", product.tools());
        product.tenant().ifPresent(tenant -> entry.put("tenant", tenant));
        return entry;
    }

    private static Object parseYaml(String text, Path file) throws InvalidProductsFileException {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setMaxAliasesForCollections(50);
        options.setAllowRecursiveKeys(false);
        options.setCodePointLimit(MAX_BYTES);
        Object root;
        try {
            root = new Yaml(new SafeConstructor(options)).load(text);
        } catch (YAMLException e) {
            throw new InvalidProductsFileException(List.of(file + " is not valid YAML " + YamlProblem.describe(e)));
        }
        if (!YamlExpansion.within(root, 4L * MAX_BYTES)) {
            throw new InvalidProductsFileException(List.of(file + " expands to more than " + (4 * MAX_BYTES >> 20) + " MiB through"
                    + " its aliases (*name); write the repeated values out"));
        }
        return root;
    }

    private static Object parseJson(String text, Path file) throws InvalidProductsFileException {
        try {
            return JSON.readValue(text, Object.class);
        } catch (JsonProcessingException e) {
            // only the location: the parser's message may quote the file's content
            String where = e.getLocation() == null ? ""
                    : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
            throw new InvalidProductsFileException(List.of(file + " is not valid JSON" + where));
        }
    }

    /** The Products of a parsed file, or every problem found in it. */
    static List<Product> products(Object root, String source) throws InvalidProductsFileException {
        if (root == null) {
            return List.of();
        }
        if (!(root instanceof Map<?, ?> top) || !(top.get("products") instanceof List<?> entries)) {
            throw new InvalidProductsFileException(List.of(source + " must hold a mapping with a 'products' list, such as"
                    + " products: [{id: payments, name: Payments, status: published, tools: [query_logs]}]"));
        }
        List<String> problems = new ArrayList<>();
        for (Object key : top.keySet()) {
            if (!"products".equals(key)) {
                problems.add(source + ": unknown top-level key " + printable(key) + "; the file holds only 'products'");
            }
        }
        List<Product> products = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < entries.size(); i++) {
            String where = source + ": products[" + i + "]";
            if (!(entries.get(i) instanceof Map<?, ?> entry)) {
                problems.add(where + " must be a mapping {id, name, description?, status, tools, tenant?}");
                continue;
            }
            List<String> found = new ArrayList<>();
            for (Object key : entry.keySet()) {
                if (!(key instanceof String field) || !FIELDS.contains(field)) {
                    found.add("unknown field " + printable(key) + "; the fields are " + String.join(", ", FIELDS.stream().sorted()
                            .toList()));
                }
            }
            String id = string(entry, "id", true, found);
            String name = string(entry, "name", true, found);
            Optional<String> description = Optional.ofNullable(string(entry, "description", false, found));
            Optional<String> tenant = Optional.ofNullable(string(entry, "tenant", false, found));
            String statusText = string(entry, "status", true, found);
            Optional<ProductStatus> status = Optional.ofNullable(statusText).flatMap(ProductStatus::fromWire);
            if (statusText != null && status.isEmpty()) {
                found.add("status: must be published or staging");
            }
            List<String> tools = new ArrayList<>();
            if (!(entry.get("tools") instanceof List<?> listed)) {
                found.add("tools: required, a list of tool names");
            } else {
                for (int t = 0; t < listed.size(); t++) {
                    if (listed.get(t) instanceof String tool) {
                        tools.add(tool);
                    } else {
                        found.add("tools[" + t + "]: must be a string, a tool name");
                    }
                }
            }
            // the value's own rules too, for each field not already reported: every problem of the entry at once
            Set<String> reported = found.stream().map(ProductsFile::field).collect(java.util.stream.Collectors.toSet());
            Product.problems(id, name, description, tools, tenant).stream()
                    .filter(problem -> !reported.contains(field(problem))).forEach(found::add);
            if (id != null && !ids.add(id)) {
                found.add("id: " + id + " is the id of an earlier Product too; ids must be unique");
            }
            if (!found.isEmpty()) {
                found.forEach(problem -> problems.add(where + " " + problem));
                continue;
            }
            products.add(new Product(id, name, description, status.orElseThrow(), tools, tenant));
        }
        if (!problems.isEmpty()) {
            throw new InvalidProductsFileException(problems);
        }
        return List.copyOf(products);
    }

    /** A string field; null when absent (a problem when required) or not a string (always a problem). */
    private static String string(Map<?, ?> entry, String field, boolean required, List<String> problems) {
        Object value = entry.get(field);
        if (value == null) {
            if (required || entry.containsKey(field)) {
                problems.add(field + ": " + (required ? "required, " : "") + "must be a string");
            }
            return null;
        }
        if (!(value instanceof String text)) {
            problems.add(field + ": must be a string (quote it if YAML read it as a number or a boolean)");
            return null;
        }
        return text;
    }

    /** The field a problem is about: its text before the first ':' or '['. */
    private static String field(String problem) {
        int end = problem.length();
        for (char stop : new char[] {':', '['}) {
            int at = problem.indexOf(stop);
            if (at >= 0 && at < end) {
                end = at;
            }
        }
        return problem.substring(0, end);
    }

    /** A key as a message may show it: short, one line. */
    private static String printable(Object key) {
        String text = String.valueOf(key).replaceAll("\\p{Cntrl}", "?");
        return "'" + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "'";
    }
}
