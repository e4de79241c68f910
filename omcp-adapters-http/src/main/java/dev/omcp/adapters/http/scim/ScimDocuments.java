package dev.omcp.adapters.http.scim;

import dev.omcp.ports.scim.ScimResourceType;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/** The discovery documents (RFC 7644 4): what this server supports, stated as it is, not as the RFC allows. */
final class ScimDocuments {
    private static final String LIST = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
    private static final String CONFIG = "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig";
    private static final String RESOURCE_TYPE = "urn:ietf:params:scim:schemas:core:2.0:ResourceType";
    private static final String SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Schema";

    private ScimDocuments() {}

    static JsonObject serviceProviderConfig() {
        return Jsonp.object()
                .add("schemas", Jsonp.array().add(CONFIG))
                .add("documentationUri", "docs/scim.md")
                .add("patch", supported(true))
                .add("bulk", Jsonp.object().add("supported", false).add("maxOperations", 0).add("maxPayloadSize", 0))
                .add("filter", Jsonp.object().add("supported", true).add("maxResults", 200))
                .add("changePassword", supported(false))
                .add("sort", supported(false))
                .add("etag", supported(true))
                .add("authenticationSchemes", Jsonp.array().add(Jsonp.object()
                        .add("type", "oauthbearertoken")
                        .add("name", "Bearer token")
                        .add("description", "Authorization: Bearer with the token of OMCP_SCIM_TOKEN")
                        .add("primary", true)))
                .add("meta", Jsonp.object().add("resourceType", "ServiceProviderConfig")
                        .add("location", "/scim/v2/ServiceProviderConfig"))
                .build();
    }

    static JsonObject resourceTypes() {
        JsonArrayBuilder types = Jsonp.array();
        for (ScimResourceType type : ScimResourceType.values()) {
            types.add(Jsonp.object()
                    .add("schemas", Jsonp.array().add(RESOURCE_TYPE))
                    .add("id", type.resourceName())
                    .add("name", type.resourceName())
                    .add("endpoint", "/" + type.endpoint())
                    .add("schema", type.schema())
                    .add("meta", Jsonp.object().add("resourceType", "ResourceType")
                            .add("location", "/scim/v2/ResourceTypes/" + type.resourceName())));
        }
        return list(types, ScimResourceType.values().length);
    }

    static JsonObject schemas() {
        JsonArrayBuilder schemas = Jsonp.array();
        for (ScimResourceType type : ScimResourceType.values()) {
            JsonArrayBuilder attributes = Jsonp.array();
            for (String name : type.attributes()) {
                attributes.add(attribute(type, name));
            }
            schemas.add(Jsonp.object()
                    .add("schemas", Jsonp.array().add(SCHEMA))
                    .add("id", type.schema())
                    .add("name", type.resourceName())
                    .add("attributes", attributes)
                    .add("meta", Jsonp.object().add("resourceType", "Schema").add("location", "/scim/v2/Schemas/" + type.schema())));
        }
        return list(schemas, ScimResourceType.values().length);
    }

    private static JsonObjectBuilder attribute(ScimResourceType type, String name) {
        boolean multi = type.multiValued(name);
        JsonObjectBuilder attribute = Jsonp.object()
                .add("name", name)
                .add("type", multi ? "complex" : name.equals("active") ? "boolean" : "string")
                .add("multiValued", multi)
                .add("required", name.equals(type.uniqueAttribute()))
                .add("caseExact", false)
                .add("mutability", "readWrite")
                .add("returned", "default")
                .add("uniqueness", name.equals(type.uniqueAttribute()) ? "server" : "none");
        if (multi) {
            attribute.add("subAttributes", Jsonp.array()
                    .add(Jsonp.object().add("name", "value").add("type", "string").add("required", true))
                    .add(Jsonp.object().add("name", "display").add("type", "string"))
                    .add(Jsonp.object().add("name", "type").add("type", "string"))
                    .add(Jsonp.object().add("name", "primary").add("type", "boolean")));
        }
        return attribute;
    }

    private static JsonObject list(JsonArrayBuilder resources, int total) {
        return Jsonp.object().add("schemas", Jsonp.array().add(LIST)).add("totalResults", total).add("itemsPerPage", total)
                .add("startIndex", 1).add("Resources", resources).build();
    }

    private static JsonObjectBuilder supported(boolean value) {
        return Jsonp.object().add("supported", value);
    }
}
