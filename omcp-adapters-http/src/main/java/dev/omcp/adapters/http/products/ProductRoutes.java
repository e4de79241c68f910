package dev.omcp.adapters.http.products;

import dev.omcp.adapters.http.api.ApiCaller;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.BodySchema;
import dev.omcp.adapters.http.api.JsonResponses;
import dev.omcp.adapters.http.api.JsonpExchange;
import dev.omcp.adapters.http.server.HttpModule;
import dev.omcp.ports.access.AccessDecision;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.products.ManageProducts;
import dev.omcp.ports.products.Product;
import dev.omcp.ports.products.ProductOutcome;
import dev.omcp.ports.products.ProductStatus;
import dev.omcp.sdk.json.Jsonp;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Products (spec 4.3, 2.16; DECISIONS.md "Products").
 *
 * <table>
 *   <caption>routes and the permission each needs</caption>
 *   <tr><td>GET /api/products</td><td>products:read</td></tr>
 *   <tr><td>GET /api/products/{id}</td><td>products:read</td></tr>
 *   <tr><td>PUT /api/products/{id}</td><td>products:write</td></tr>
 *   <tr><td>DELETE /api/products/{id}</td><td>products:delete (admin in the builtin roles)</td></tr>
 * </table>
 *
 * A {@code staging} Product is visible to administrators only: "administrator" is the holder of
 * {@code products:delete}, the permission only admins hold in the builtin roles, as post-mortems' admin-gated
 * DELETE is. To anyone else a staging Product answers 404, exactly like one that does not exist. Tenant scoping is
 * the core's ({@link ManageProducts}).
 */
public final class ProductRoutes implements HttpModule {
    /** Who sees staging Products. */
    private static final Permission ADMIN = new Permission("products", "delete");
    private static final Set<String> FIELDS = Set.of("id", "name", "description", "status", "tools", "tenant");
    private static final Map<String, Object> PRODUCT_BODY = BodySchema.object("the Product: create or replace it whole")
            .requiredProperty("id", BodySchema.string("the id, equal to the path's: " + Product.ID_RULE, Product.ID))
            .requiredProperty("name", BodySchema.string("what people call it", 1, Product.MAX_NAME))
            .property("description", BodySchema.string("what it is for", 0, Product.MAX_DESCRIPTION))
            .requiredProperty("status", BodySchema.string("published (served at /mcp/v/<id>) or staging (not served; "
                    + "visible to admins only)"))
            .requiredProperty("tools", BodySchema.strings("the tool names it serves: at least one, each once, each a "
                    + "registered tool", Product.MAX_TOOLS))
            .property("tenant", BodySchema.string("the only tenant whose callers it serves; left out: every tenant"))
            .build();

    private final ManageProducts products;
    private final AccessPolicy policy;

    public ProductRoutes(ManageProducts products, AccessPolicy policy) {
        this.products = Objects.requireNonNull(products, "products");
        this.policy = Objects.requireNonNull(policy, "policy");
    }

    @Override
    public void register(ApiRoutes routes) {
        routes.route(HandlerType.GET, "/api/products").permission("products", "read").tag("products").queryParameters()
                .summary("The Products the caller may see, by id (staging ones only to holders of products:delete, admins in "
                        + "the builtin roles); needs products:read")
                .response(200, "{products: [{id, name, description?, status, tools, tenant?, endpoint}], storage: where they "
                        + "are kept (a file, or memory only when OMCP_PRODUCTS_FILE is unset)}")
                .handle(this::list);
        routes.route(HandlerType.GET, "/api/products/{id}").permission("products", "read").tag("products").queryParameters()
                .summary("One Product the caller may see; needs products:read")
                .response(200, "{id, name, description?, status, tools, tenant?, endpoint}")
                .response(400, "not a Product id (OMCP_INVALID_PARAMETERS)")
                .response(404, "no such Product that the caller may see (OMCP_PRODUCT_NOT_FOUND)")
                .handle(this::find);
        routes.route(HandlerType.PUT, "/api/products/{id}").permission("products", "write").tag("products").queryParameters()
                .jsonBody(PRODUCT_BODY)
                .summary("Creates or replaces a Product; body {id, name, description?, status, tools[], tenant?}, id equal to "
                        + "the path's, every tool a registered one; written to OMCP_PRODUCTS_FILE when set; needs products:write")
                .response(200, "replaced; the Product")
                .response(201, "created; the Product")
                .response(400, "an invalid body, every problem listed (OMCP_INVALID_BODY), among them a tool no registered tool "
                        + "has, or an id that differs from the path's")
                .response(503, "the Products file cannot be written; nothing changed (OMCP_PRODUCTS_UNAVAILABLE)")
                .handle(this::put);
        routes.route(HandlerType.DELETE, "/api/products/{id}").permission("products", "delete").tag("products").queryParameters()
                .summary("Deletes a Product; its endpoint answers 404 from now on; needs products:delete, admins only in the "
                        + "builtin roles")
                .response(204, "deleted", "")
                .response(400, "not a Product id (OMCP_INVALID_PARAMETERS)")
                .response(404, "no such Product that the caller may see (OMCP_PRODUCT_NOT_FOUND)")
                .response(503, "the Products file cannot be written; nothing changed (OMCP_PRODUCTS_UNAVAILABLE)")
                .handle(this::delete);
    }

    private void list(Context ctx) {
        Principal caller = ApiCaller.principal(ctx).orElseThrow();
        JsonArrayBuilder items = Jsonp.array();
        products.list(caller, seesStaging(caller)).forEach(product -> items.add(json(product)));
        JsonpExchange.write(ctx, 200, Jsonp.object().add("products", items).add("storage", products.storage()).build());
    }

    private void find(Context ctx) {
        Optional<String> id = id(ctx);
        if (id.isEmpty()) {
            return;
        }
        Principal caller = ApiCaller.principal(ctx).orElseThrow();
        Optional<Product> product = products.find(caller, id.get(), seesStaging(caller));
        if (product.isEmpty()) {
            notFound(ctx, id.get());
            return;
        }
        JsonpExchange.write(ctx, 200, json(product.get()));
    }

    private void put(Context ctx) throws IOException {
        Optional<String> id = id(ctx);
        if (id.isEmpty()) {
            return;
        }
        Optional<JsonObject> body = JsonpExchange.object(ctx);
        if (body.isEmpty()) {
            return;
        }
        Optional<Product> product = product(ctx, id.get(), body.get());
        if (product.isEmpty()) {
            return;
        }
        Principal caller = ApiCaller.principal(ctx).orElseThrow();
        switch (products.put(caller, product.get(), seesStaging(caller))) {
            case ProductOutcome.Saved saved -> JsonpExchange.write(ctx, saved.created() ? 201 : 200, json(saved.product()));
            case ProductOutcome.Invalid invalid -> JsonpExchange.invalid(ctx, invalid.problems());
            case ProductOutcome.StoreUnavailable unavailable -> unavailable(ctx, unavailable.reason());
            case ProductOutcome other -> throw new IllegalStateException("put answered " + other.getClass().getSimpleName());
        }
    }

    private void delete(Context ctx) {
        Optional<String> id = id(ctx);
        if (id.isEmpty()) {
            return;
        }
        Principal caller = ApiCaller.principal(ctx).orElseThrow();
        switch (products.delete(caller, id.get(), seesStaging(caller))) {
            case ProductOutcome.Deleted deleted -> ctx.status(204);
            case ProductOutcome.NotFound notFound -> notFound(ctx, notFound.id());
            case ProductOutcome.StoreUnavailable unavailable -> unavailable(ctx, unavailable.reason());
            case ProductOutcome other -> throw new IllegalStateException("delete answered " + other.getClass().getSimpleName());
        }
    }

    /** The body as a Product, or empty after answering 400 with every problem of it. */
    private static Optional<Product> product(Context ctx, String pathId, JsonObject body) {
        List<String> problems = new ArrayList<>();
        JsonpExchange.unknownFields(body, FIELDS).ifPresent(problems::add);
        Optional<String> id = text(body, "id", problems, true);
        if (id.isPresent() && !id.get().equals(pathId)) {
            problems.add("id: must equal the id in the path (" + pathId + "); to rename a Product, PUT the new id and DELETE "
                    + "the old one");
        }
        Optional<String> name = text(body, "name", problems, true);
        Optional<String> description = text(body, "description", problems, false);
        Optional<String> statusText = text(body, "status", problems, true);
        Optional<ProductStatus> status = statusText.flatMap(ProductStatus::fromWire);
        if (statusText.isPresent() && status.isEmpty()) {
            problems.add("status: must be published or staging");
        }
        Optional<String> tenant = text(body, "tenant", problems, false);
        List<String> tools = new ArrayList<>();
        JsonValue toolsValue = body.get("tools");
        if (!(toolsValue instanceof JsonArray array)) {
            problems.add("tools: required, an array of tool names");
        } else {
            for (int i = 0; i < array.size(); i++) {
                if (array.get(i) instanceof JsonString tool) {
                    tools.add(tool.getString());
                } else {
                    problems.add("tools[" + i + "]: must be a string, a tool name");
                }
            }
        }
        if (problems.isEmpty()) {
            // the value's own rules, all at once: id form, name bounds, unique tools, tenant form
            problems.addAll(Product.problems(pathId, name.orElseThrow(), description, tools, tenant));
        }
        if (!problems.isEmpty()) {
            JsonpExchange.invalid(ctx, problems);
            return Optional.empty();
        }
        return Optional.of(new Product(pathId, name.orElseThrow(), description, status.orElseThrow(), tools, tenant));
    }

    private static Optional<String> text(JsonObject body, String field, List<String> problems, boolean required) {
        JsonValue value = body.get(field);
        if (value == null) {
            if (required) {
                problems.add(field + ": required, a string");
            }
            return Optional.empty();
        }
        if (!(value instanceof JsonString text)) {
            problems.add(field + ": must be a string");
            return Optional.empty();
        }
        return Optional.of(text.getString());
    }

    /** Whether {@code caller} is an administrator of Products, who alone sees staging ones. */
    private boolean seesStaging(Principal caller) {
        return policy.decide(caller, ADMIN) instanceof AccessDecision.Allowed;
    }

    private static Optional<String> id(Context ctx) {
        String id = ctx.pathParam("id");
        // the audit entry of a PUT or DELETE names the Product, printable and bounded, whatever the answer
        ApiCaller.auditTarget(ctx, JsonpExchange.printable(id));
        if (!Product.ID.matcher(id).matches()) {
            JsonpExchange.invalid(ctx, "OMCP_INVALID_PARAMETERS", List.of("id: '" + JsonpExchange.printable(id) + "' is not a "
                    + "Product id (" + Product.ID_RULE + ")"));
            return Optional.empty();
        }
        return Optional.of(id);
    }

    private static void notFound(Context ctx, String id) {
        JsonResponses.error(ctx, 404, "OMCP_PRODUCT_NOT_FOUND", "no Product " + JsonpExchange.printable(id) + " that you may see;"
                + " GET /api/products lists them");
    }

    private static void unavailable(Context ctx, String reason) {
        JsonResponses.error(ctx, 503, "OMCP_PRODUCTS_UNAVAILABLE", reason);
    }

    private static JsonObject json(Product product) {
        JsonObjectBuilder json = Jsonp.object()
                .add("id", product.id())
                .add("name", product.name());
        product.description().ifPresent(text -> json.add("description", text));
        json.add("status", product.status().wireName());
        JsonArrayBuilder tools = Jsonp.array();
        product.tools().forEach(tools::add);
        json.add("tools", tools);
        product.tenant().ifPresent(tenant -> json.add("tenant", tenant));
        return json.add("endpoint", "/mcp/v/" + product.id()).build();
    }
}
