package dev.omcp.adapters.http.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ApiRoutesTest {
    @Test
    void auditNamesDefaultToTheAreaAndTheLastStaticSegment() {
        assertThat(ApiRoutes.defaultAuditResource("/api/auth/login")).isEqualTo("auth");
        assertThat(ApiRoutes.defaultAuditAction("POST", "/api/auth/login")).isEqualTo("login");
        assertThat(ApiRoutes.defaultAuditAction("DELETE", "/api/sources/{name}")).isEqualTo("delete");
        assertThat(ApiRoutes.defaultAuditAction("POST", "/api/sources/test")).isEqualTo("test");
    }

    @Test
    void pathParametersInOrder() {
        ApiRoutes.Route route = new ApiRoutes.Route("DELETE", "/api/products/{id}/tools/<tool>", "s", "t", false, List.of());
        assertThat(route.pathParameters()).containsExactly("id", "tool");
        assertThat(route.mutating()).isTrue();
        assertThat(route.reportsToAudit()).isTrue();
        assertThat(new ApiRoutes.Route("GET", "/api/x", "s", "t", false, List.of()).reportsToAudit()).isFalse();
    }
}
