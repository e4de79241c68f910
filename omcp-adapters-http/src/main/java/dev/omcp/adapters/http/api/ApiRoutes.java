package dev.omcp.adapters.http.api;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Registers HTTP routes and remembers what each one is for, so the OpenAPI document is generated
 * from the very list Javalin serves. Register every {@code /api} route through this class.
 */
public final class ApiRoutes {
    private final RoutesConfig routes;
    private final List<Route> documented = new ArrayList<>();

    /**
     * One documented route.
     *
     * @param method HTTP method
     * @param path path template with {@code {param}} placeholders
     * @param summary one line for the OpenAPI document
     * @param tag the group it belongs to
     * @param publicRoute whether it answers without credentials in every mode
     * @param responses status code to description
     */
    public record Route(String method, String path, String summary, String tag, boolean publicRoute, List<Response> responses) {
        public Route {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(summary, "summary");
            Objects.requireNonNull(tag, "tag");
            responses = List.copyOf(responses);
        }
    }

    /** One documented response of a route. */
    public record Response(int status, String description, String mediaType) {}

    public ApiRoutes(RoutesConfig routes) {
        this.routes = routes;
    }

    /** Starts describing a route. */
    public RouteBuilder route(HandlerType method, String path) {
        return new RouteBuilder(method, path);
    }

    /** The documented routes, in registration order. */
    public List<Route> documented() {
        return List.copyOf(documented);
    }

    /** Fluent description of one route, ended by {@link #handle}. */
    public final class RouteBuilder {
        private final HandlerType method;
        private final String path;
        private String summary = "";
        private String tag = "management";
        private boolean publicRoute;
        private final List<Response> responses = new ArrayList<>();

        private RouteBuilder(HandlerType method, String path) {
            this.method = method;
            this.path = path;
        }

        public RouteBuilder summary(String text) {
            this.summary = text;
            return this;
        }

        public RouteBuilder tag(String name) {
            this.tag = name;
            return this;
        }

        /** Marks the route as answering without credentials (spec 4.2). */
        public RouteBuilder publicRoute() {
            this.publicRoute = true;
            return this;
        }

        public RouteBuilder response(int status, String description) {
            responses.add(new Response(status, description, "application/json"));
            return this;
        }

        public RouteBuilder response(int status, String description, String mediaType) {
            responses.add(new Response(status, description, mediaType));
            return this;
        }

        /** Registers the route with Javalin and in the document. */
        public void handle(Handler handler) {
            if (summary.isBlank()) {
                throw new IllegalStateException("route " + method + " " + path + " needs a summary for the OpenAPI document");
            }
            if (responses.isEmpty()) {
                responses.add(new Response(200, "OK", "application/json"));
            }
            routes.addHttpHandler(method, path, handler);
            documented.add(new Route(method.name(), path, summary, tag, publicRoute, responses));
        }
    }
}
