package dev.omcp.adapters.http.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.javalin.Javalin;
import io.javalin.http.HandlerType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Spec 5.5: every mutating route declares a permission, or it cannot be registered. */
class ApiRoutesRegistrationTest {
    private static List<ApiRoutes.Route> register(ApiGuard guard, java.util.function.Consumer<ApiRoutes> module) {
        AtomicReference<List<ApiRoutes.Route>> routes = new AtomicReference<>(List.of());
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        Javalin.create(config -> {
            ApiRoutes api = new ApiRoutes(config.routes, guard);
            try {
                module.accept(api);
            } catch (RuntimeException e) {
                failure.set(e);
            }
            routes.set(api.documented());
        });
        if (failure.get() != null) {
            throw failure.get();
        }
        return routes.get();
    }

    @Test
    void aMutatingRouteWithoutAPermissionCannotBeRegistered() {
        assertThatThrownBy(() -> register(ApiGuard.open(), api -> api.route(HandlerType.DELETE, "/api/sources/{name}")
                .summary("delete a source").handle(ctx -> {})))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("declares no permission")
                .hasMessageContaining(".permission(resource, action)");
    }

    @Test
    void aPublicRouteCannotDeclareAPermission() {
        assertThatThrownBy(() -> register(ApiGuard.open(), api -> api.route(HandlerType.GET, "/api/x").publicRoute()
                .permission("sources", "read").summary("x").handle(ctx -> {})))
                .hasMessageContaining("public but declares a permission");
    }

    @Test
    void onlyARouteThatChangesSomethingForACaller_canBeDeclaredGatewayWide() {
        // a public route has no caller whose tenant could be refused, and a read changes nothing
        assertThatThrownBy(() -> register(ApiGuard.open(), api -> api.route(HandlerType.POST, "/api/x").publicRoute().csrfExempt()
                .gatewayWide("OMCP_X_GATEWAY_WIDE", "x is gateway-wide", "change it").summary("x").handle(ctx -> {})))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("is public");
        assertThatThrownBy(() -> register(ApiGuard.open(), api -> api.route(HandlerType.GET, "/api/x").permission("x", "read")
                .gatewayWide("OMCP_X_GATEWAY_WIDE", "x is gateway-wide", "change it").summary("x").handle(ctx -> {})))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("changes nothing");
        // one code shape for every such refusal, so a client knows them all
        assertThatThrownBy(() -> new GatewayWideChange("OMCP_TENANT_REFUSED", "x is gateway-wide", "change it"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("OMCP_<AREA>_GATEWAY_WIDE");
        List<ApiRoutes.Route> routes = register(ApiGuard.open(), api -> api.route(HandlerType.PUT, "/api/x").permission("x", "write")
                .gatewayWide("OMCP_X_GATEWAY_WIDE", "x is gateway-wide", "change it").summary("x").handle(ctx -> {}));
        assertThat(routes.get(0).gatewayWide()).get().extracting(GatewayWideChange::code).isEqualTo("OMCP_X_GATEWAY_WIDE");
    }

    @Test
    void declaredPermissionsReachTheGuardAndTheDocument() {
        List<ApiRoutes.Route> validated = new ArrayList<>();
        ApiGuard guard = new ApiGuard() {
            @Override
            public void validate(ApiRoutes.Route route) {
                validated.add(route);
            }

            @Override
            public void handle(io.javalin.http.Context ctx, ApiRoutes.Route route, io.javalin.http.Handler handler) throws Exception {
                handler.handle(ctx);
            }
        };
        List<ApiRoutes.Route> routes = register(guard, api -> {
            api.route(HandlerType.PUT, "/api/sources/{name}").permission("sources", "write").summary("update").handle(ctx -> {});
            api.route(HandlerType.POST, "/api/csp-violations").publicRoute().csrfExempt().notAudited().summary("reports").handle(ctx -> {});
        });
        assertThat(validated).hasSize(2);
        assertThat(routes.get(0).permission().toString()).isEqualTo("sources:write");
        assertThat(routes.get(0).auditedResource()).isEqualTo("sources");
        assertThat(routes.get(0).reportsToAudit()).isTrue();
        assertThat(routes.get(1).csrfExempt()).isTrue();
        assertThat(routes.get(1).reportsToAudit()).isFalse();
    }

    @Test
    void aGuardCanRefuseARouteWhosePermissionThePolicyDoesNotKnow() {
        ApiGuard strict = new ApiGuard() {
            @Override
            public void validate(ApiRoutes.Route route) {
                throw new IllegalStateException("unknown permission " + route.permission());
            }

            @Override
            public void handle(io.javalin.http.Context ctx, ApiRoutes.Route route, io.javalin.http.Handler handler) {}
        };
        assertThatThrownBy(() -> register(strict, api -> api.route(HandlerType.POST, "/api/x").permission("spaceships", "launch")
                .summary("x").handle(ctx -> {}))).hasMessageContaining("spaceships:launch");
    }
}
