package dev.omcp.core.ipenrich;

import dev.omcp.sdk.json.Jsonp;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** What {@code enrich_ips} found for one input address. */
public sealed interface IpEnrichment permits IpEnrichment.Found, IpEnrichment.NotFound, IpEnrichment.Invalid, IpEnrichment.Unavailable {
    /** The text as given. */
    String input();

    /** The JSON of one result: {@code input}, {@code status} and the fields of that status. */
    JsonObject toJson();

    /**
     * A network covers the address.
     *
     * @param address the address classed and looked up (the IPv4 address an embedding carries)
     * @param source {@code dataset} (the offline file) or {@code rdap}
     * @param embedding how the input carried the IPv4 address looked up, when it did
     */
    record Found(String input, IpAddress address, IpScope scope, String network, Map<String, String> attributes, String source,
            Optional<Ipv4Embedding> embedding) implements IpEnrichment {
        public Found {
            Objects.requireNonNull(input, "input");
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(scope, "scope");
            Objects.requireNonNull(network, "network");
            attributes = Map.copyOf(attributes);
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(embedding, "embedding");
        }

        public Found(String input, IpAddress address, IpScope scope, String network, Map<String, String> attributes, String source) {
            this(input, address, scope, network, attributes, source, Optional.empty());
        }

        /** The same finding for another spelling of the address. */
        public Found withInput(String otherInput) {
            return new Found(otherInput, address, scope, network, attributes, source, embedding);
        }

        @Override
        public JsonObject toJson() {
            JsonObjectBuilder attrs = Jsonp.provider().createObjectBuilder();
            attributes.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> attrs.add(e.getKey(), e.getValue()));
            return addressed(input, "found", address, embedding)
                    .add("scope", scope.wireName()).add("network", network).add("attributes", attrs).add("source", source).build();
        }
    }

    /**
     * Nothing covers the address.
     *
     * @param note why (for example "private address: not in public registries")
     */
    record NotFound(String input, IpAddress address, IpScope scope, String note, Optional<Ipv4Embedding> embedding)
            implements IpEnrichment {
        public NotFound {
            Objects.requireNonNull(input, "input");
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(scope, "scope");
            Objects.requireNonNull(note, "note");
            Objects.requireNonNull(embedding, "embedding");
        }

        public NotFound(String input, IpAddress address, IpScope scope, String note) {
            this(input, address, scope, note, Optional.empty());
        }

        @Override
        public JsonObject toJson() {
            return addressed(input, "not_found", address, embedding).add("scope", scope.wireName()).add("note", note).build();
        }
    }

    /** The input is not an IP address; {@code reason} says why. */
    record Invalid(String input, String reason) implements IpEnrichment {
        public Invalid {
            Objects.requireNonNull(input, "input");
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public JsonObject toJson() {
            return Jsonp.provider().createObjectBuilder().add("input", input).add("status", "invalid").add("reason", reason).build();
        }
    }

    /**
     * The fallback could not answer.
     *
     * @param transientFailure whether trying again later may help
     */
    record Unavailable(String input, IpAddress address, IpScope scope, String reason, boolean transientFailure,
            Optional<Ipv4Embedding> embedding) implements IpEnrichment {
        public Unavailable {
            Objects.requireNonNull(input, "input");
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(scope, "scope");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(embedding, "embedding");
        }

        public Unavailable(String input, IpAddress address, IpScope scope, String reason, boolean transientFailure) {
            this(input, address, scope, reason, transientFailure, Optional.empty());
        }

        @Override
        public JsonObject toJson() {
            return addressed(input, "unavailable", address, embedding)
                    .add("scope", scope.wireName()).add("reason", reason).add("transient", transientFailure).build();
        }
    }

    /**
     * {@code input}, {@code status} and {@code address}: the address as asked (in canonical form), and
     * for an IPv6 address that carries an IPv4 one, {@code embedding}, the {@code ipv4} address
     * the rest of the answer is about, for NAT64 the {@code nat64Prefix} it lies under and, for Teredo, the
     * {@code teredoServer} address and the {@code teredoClientPort}.
     */
    private static JsonObjectBuilder addressed(String input, String status, IpAddress address, Optional<Ipv4Embedding> embedding) {
        JsonObjectBuilder b = Jsonp.provider().createObjectBuilder().add("input", input).add("status", status)
                .add("address", embedding.map(Ipv4Embedding::asked).orElseGet(address::toString));
        embedding.ifPresent(e -> {
            b.add("embedding", e.kind().wireName());
            e.ipv4().ifPresent(v4 -> b.add("ipv4", v4.toString()));
            e.nat64Prefix().ifPresent(prefix -> b.add("nat64Prefix", prefix.toString()));
            e.teredoServer().ifPresent(server -> b.add("teredoServer", server.toString()));
            e.teredoClientPort().ifPresent(port -> b.add("teredoClientPort", port));
        });
        return b;
    }
}
