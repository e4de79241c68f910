package dev.omcp.adapters.http.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;

/** Writes management-API responses as JSON with Jackson; every error has a {@code code}. */
public final class JsonResponses {
    private static final ObjectMapper MAPPER = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    private JsonResponses() {}

    /** The mapper for DTOs of the HTTP adapter. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** Writes {@code body} as JSON with {@code status}. */
    public static void json(Context ctx, int status, Object body) {
        try {
            ctx.status(status).contentType("application/json").result(MAPPER.writeValueAsString(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a response DTO could not be serialized: " + e.getOriginalMessage(), e);
        }
    }

    /** Writes an error body {@code {code, error}}. */
    public static void error(Context ctx, int status, String code, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", code);
        body.put("error", message);
        json(ctx, status, body);
    }
}
