package dev.omcp.core.ipenrich;

import dev.omcp.sdk.json.Jsonp;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.Map;
import java.util.Objects;

/** What {@code enrich_ips} found for one input address. */
public sealed interface IpEnrichment permits IpEnrichment.Found, IpEnrichment.NotFound, IpEnrichment.Invalid, IpEnrichment.Unavailable {
    /** The text as given. */
    String input();

    /** The JSON of one result: {@code input}, {@code status} and the fields of that status. */
    JsonObject toJson();

    /**
     * A network covers the address.
     *
     * @param source {@code dataset} (the offline file) or {@code rdap}
     */
    record Found(String input, IpAddress address, IpScope scope, String network, Map<String, String> attributes, String source)
            implements IpEnrichment {
        public Found {
            Objects.requireNonNull(input, "input");
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(scope, "scope");
            Objects.requireNonNull(network, "network");
            attributes = Map.copyOf(attributes);
            Objects.requireNonNull(source, "source");
        }

        /** The same finding for another spelling of the address. */
        public Found withInput(String otherInput) {
            return new Found(otherInput, address, scope, network, attributes, source);
        }

        @Override
        public JsonObject toJson() {
            JsonObjectBuilder attrs = Jsonp.provider().createObjectBuilder();
            attributes.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> attrs.add(e.getKey(), e.getValue()));
            return Jsonp.provider().createObjectBuilder().add("input", input).add("status", "found").add("address", address.toString())
                    .add("scope", scope.wireName()).add("network", network).add("attributes", attrs).add("source", source).build();
        }
    }

    /**
     * Nothing covers the address.
     *
     * @param note why (for example "private address: not in public registries")
     */
    record NotFound(String input, IpAddress address, IpScope scope, String note) implements IpEnrichment {
        public NotFound {
            Objects.requireNonNull(input, "input");
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(scope, "scope");
            Objects.requireNonNull(note, "note");
        }

        @Override
        public JsonObject toJson() {
            return Jsonp.provider().createObjectBuilder().add("input", input).add("status", "not_found").add("address", address.toString())
                    .add("scope", scope.wireName()).add("note", note).build();
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
    record Unavailable(String input, IpAddress address, IpScope scope, String reason, boolean transientFailure) implements IpEnrichment {
        public Unavailable {
            Objects.requireNonNull(input, "input");
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(scope, "scope");
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public JsonObject toJson() {
            return Jsonp.provider().createObjectBuilder().add("input", input).add("status", "unavailable").add("address", address.toString())
                    .add("scope", scope.wireName()).add("reason", reason).add("transient", transientFailure).build();
        }
    }
}
