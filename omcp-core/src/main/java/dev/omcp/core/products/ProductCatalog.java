package dev.omcp.core.products;

import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.products.ManageProducts;
import dev.omcp.ports.products.Product;
import dev.omcp.ports.products.ProductEndpoints;
import dev.omcp.ports.products.ProductOutcome;
import dev.omcp.ports.products.ProductStore;
import dev.omcp.ports.products.ProductStoreException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * The Products of the gateway: what the management API edits, what {@code /mcp/v/<id>} serves, and which tools a
 * caller limited to Products may use.
 *
 * <p>Thread-safe. Reads take no lock: they see one immutable snapshot, replaced whole. Changes run one at a time and
 * are written to the store before the new snapshot is published, so a change the store refused never takes effect and
 * a caller never sees one the store does not hold.
 */
public final class ProductCatalog implements ManageProducts, ProductEndpoints {
    private final ProductStore store;
    private final Predicate<String> registeredTool;
    private final ReentrantLock changing = new ReentrantLock();
    /** By id, sorted; never changed, only replaced. */
    private volatile Map<String, Product> byId;

    /**
     * @param store where the Products live; read once, now
     * @param registeredTool whether a tool of that name is registered now: a Product may list no other
     * @throws IllegalArgumentException when the store holds two Products of one id
     */
    public ProductCatalog(ProductStore store, Predicate<String> registeredTool) {
        this.store = Objects.requireNonNull(store, "store");
        this.registeredTool = Objects.requireNonNull(registeredTool, "registeredTool");
        Map<String, Product> loaded = new TreeMap<>();
        for (Product product : store.load()) {
            if (loaded.put(product.id(), product) != null) {
                throw new IllegalArgumentException("two Products have the id " + product.id() + " (" + store.describe()
                        + "); ids must be unique");
            }
        }
        this.byId = Collections.unmodifiableMap(loaded);
    }

    /** Every Product, whatever its status and tenant, by id: for the start's checks, not for callers. */
    public List<Product> all() {
        return List.copyOf(byId.values());
    }

    @Override
    public List<Product> list(Principal caller, boolean seesStaging) {
        return byId.values().stream().filter(product -> visibleToManager(product, caller, seesStaging)).toList();
    }

    @Override
    public Optional<Product> find(Principal caller, String id, boolean seesStaging) {
        return Optional.ofNullable(byId.get(id)).filter(product -> visibleToManager(product, caller, seesStaging));
    }

    @Override
    public ProductOutcome put(Principal caller, Product product, boolean seesStaging) {
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < product.tools().size(); i++) {
            String tool = product.tools().get(i);
            if (!registeredTool.test(tool)) {
                problems.add("tools[" + i + "]: no registered tool is named " + tool + "; a Product may list only tools the "
                        + "gateway serves (tools/list names them)");
            }
        }
        String tenant = caller.tenant();
        if (!tenant.isEmpty() && !product.tenant().equals(Optional.of(tenant))) {
            problems.add("tenant: you act for tenant " + tenant + ", so the Product must be bound to it (\"tenant\": \"" + tenant
                    + "\")");
        }
        if (!problems.isEmpty()) {
            return new ProductOutcome.Invalid(problems);
        }
        changing.lock();
        try {
            Product existing = byId.get(product.id());
            if (existing != null && !writableBy(existing, caller)) {
                // another tenant's Product, or one shared by all tenants: to this caller the id is taken by one it may not
                // change, which it learns without learning whose it is
                return new ProductOutcome.Invalid(List.of("id: a Product " + product.id() + " exists that you may not replace;"
                        + " choose another id"));
            }
            Map<String, Product> next = new TreeMap<>(byId);
            next.put(product.id(), product);
            ProductOutcome.StoreUnavailable refused = save(next);
            if (refused != null) {
                return refused;
            }
            return new ProductOutcome.Saved(product, existing == null);
        } finally {
            changing.unlock();
        }
    }

    @Override
    public ProductOutcome delete(Principal caller, String id, boolean seesStaging) {
        changing.lock();
        try {
            Product existing = byId.get(id);
            if (existing == null || !visibleToManager(existing, caller, seesStaging) || !writableBy(existing, caller)) {
                return new ProductOutcome.NotFound(id);
            }
            Map<String, Product> next = new TreeMap<>(byId);
            next.remove(id);
            ProductOutcome.StoreUnavailable refused = save(next);
            return refused != null ? refused : new ProductOutcome.Deleted(id);
        } finally {
            changing.unlock();
        }
    }

    @Override
    public String storage() {
        return store.describe();
    }

    @Override
    public Optional<Principal> serve(Principal caller, String id) {
        Product product = byId.get(id);
        if (product == null || !servable(product, caller) || !caller.allowLists().permitsProduct(id)) {
            return Optional.empty();
        }
        return Optional.of(new Principal(caller.id(), caller.name(), caller.authKind(), caller.tenant(), caller.roles(),
                caller.sessionId(), caller.allowLists().withProducts(List.of(id))));
    }

    /**
     * The tools {@code caller} may use through its Product list: those of the listed Products it may be served
     * (published, of no tenant or of its own). Empty when it has no Product list, which then limits nothing.
     */
    public Optional<Set<String>> toolsOfProducts(Principal caller) {
        Optional<Set<String>> listed = caller.allowLists().products();
        if (listed.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Product> snapshot = byId;
        Set<String> tools = new HashSet<>();
        for (String id : listed.get()) {
            Product product = snapshot.get(id);
            if (product != null && servable(product, caller)) {
                tools.addAll(product.tools());
            }
        }
        return Optional.of(tools);
    }

    /** Whether agents of {@code caller}'s tenant may be served {@code product}. */
    private static boolean servable(Product product, Principal caller) {
        return product.published() && product.servesTenant(caller.tenant());
    }

    /** Sources' rule: a manager without a tenant sees everything; one with a tenant, the unbound and its own. */
    private static boolean visibleToManager(Product product, Principal caller, boolean seesStaging) {
        if (!product.published() && !seesStaging) {
            return false;
        }
        return caller.tenant().isEmpty() || product.servesTenant(caller.tenant());
    }

    private static boolean writableBy(Product product, Principal caller) {
        return caller.tenant().isEmpty() || product.tenant().equals(Optional.of(caller.tenant()));
    }

    /** Writes {@code next} and publishes it; null when done, the refusal when the store could not be written. */
    private ProductOutcome.StoreUnavailable save(Map<String, Product> next) {
        try {
            store.save(List.copyOf(next.values()));
        } catch (ProductStoreException e) {
            return new ProductOutcome.StoreUnavailable(e.getMessage());
        }
        byId = Collections.unmodifiableMap(next);
        return null;
    }
}
