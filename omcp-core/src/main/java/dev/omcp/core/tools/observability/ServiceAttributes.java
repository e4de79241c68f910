package dev.omcp.core.tools.observability;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.text.BackendText;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * What the sources said about each service in their listings ({@link ServiceInfo#attributes()}: Prometheus' target
 * counts, the Kubernetes namespace and type, the label a name came from), source by source, for {@code list_services}'
 * {@code attributesBySource}: an agent sees that payments has 1 of 3 targets up without calling another tool.
 *
 * <p>A plugin's attributes are backend text nobody vouched for, and even a builtin connector's come from labels. So,
 * as {@link WarnedSources} treats a listing's warnings: each value is redacted as the tools redact what sources say
 * ({@link Toolkit#failureRedaction()}) and then made one line of at most {@value #MAX_VALUE_CHARS} characters, an
 * ellipsis marking a cut; a name must be a simple identifier ({@value #NAME_PATTERN}) that redaction leaves alone, or the
 * attribute is left out (a cut name could pass for another, and would no longer be an identifier); a listing shows at
 * most {@value #MAX_ATTRIBUTES} attributes, the first by name, and a source at most {@value #MAX_LISTINGS} distinct
 * listings of one name (Kubernetes lists a name once per namespace), the first by their attributes' names and values.
 * Every order is sorted, so one call's answer is the next's. What was shortened is said by {@link #note()}.
 *
 * <p>A value that is a plain count ({@code 0}, or up to 15 digits without a leading zero) is shown as a JSON number: an
 * agent compares {@code targetsUp} with {@code targets} as numbers, and such text reads back exactly as the number, so
 * nothing of what the source said is lost. Longer digit runs stay text, past what every JSON reader keeps exactly.
 *
 * <p>Only the services an answer shows have their attributes cleaned, so a listing of thousands costs the limit's work.
 * Not thread-safe: one per tool call.
 */
final class ServiceAttributes {
    /** Most attributes shown per listing: the builtin connectors give at most five. */
    static final int MAX_ATTRIBUTES = 16;
    /** Most characters of one value shown, before the ellipsis that marks a cut. */
    static final int MAX_VALUE_CHARS = 128;
    /** Most distinct listings of one name shown per source. */
    static final int MAX_LISTINGS = 5;
    /** An attribute name that is shown: a simple identifier of at most 64 characters. */
    static final String NAME_PATTERN = "^[A-Za-z_][A-Za-z0-9_]{0,63}$";

    private static final Pattern NAME = Pattern.compile(NAME_PATTERN);
    private static final Pattern COUNT = Pattern.compile("0|[1-9][0-9]{0,14}");
    /** How many shortened services the note names before it says how many more. */
    private static final int NAMED_IN_NOTE = 5;

    private final UnaryOperator<String> redaction;
    /** Per service name, per source (sorted), the attributes of each listing that gave any, as the source answered. */
    private final Map<String, TreeMap<String, List<Map<String, String>>>> listed = new HashMap<>();
    private final SortedSet<String> shortened = new TreeSet<>();
    /**
     * What one call already worked out, by the text the sources gave: listings repeat their attribute names and many
     * values (a label, a namespace, a count) service after service, and redacting and cleaning each again was most of
     * what the attributes cost a call.
     */
    private final Map<String, Boolean> namesShown = new HashMap<>();
    private final Map<String, Shown> valuesShown = new HashMap<>();

    /** A value as an answer shows it, and whether showing it cut it. */
    private record Shown(JsonValue value, boolean cut) {}

    /** Attributes whose values {@code redaction} redacts: the toolkit's {@link Toolkit#failureRedaction()}. */
    ServiceAttributes(UnaryOperator<String> redaction) {
        this.redaction = Objects.requireNonNull(redaction, "redaction");
    }

    /** Keeps what {@code source} said about {@code service}, if anything; nothing is cleaned until it is shown. */
    void add(String source, ServiceInfo service) {
        if (!service.attributes().isEmpty()) {
            listed.computeIfAbsent(service.name(), n -> new TreeMap<>()).computeIfAbsent(source, s -> new ArrayList<>())
                    .add(service.attributes());
        }
    }

    /**
     * What the sources said about {@code service}, cleaned and bounded: an object of source name to that source's
     * listings, each an object of attribute name to value; empty when no source said anything that can be shown.
     */
    Optional<JsonObject> of(String service) {
        TreeMap<String, List<Map<String, String>>> bySource = listed.get(service);
        if (bySource == null) {
            return Optional.empty();
        }
        JsonObjectBuilder out = Jsonp.object();
        boolean any = false;
        for (Map.Entry<String, List<Map<String, String>>> source : bySource.entrySet()) {
            // distinct and sorted before any is cleaned, whatever order the source listed them in: one answer every call,
            // and a source listing one name thousands of times costs the redaction of the few shown
            TreeSet<SortedMap<String, String>> distinct = new TreeSet<>(ServiceAttributes::compare);
            source.getValue().forEach(attributes -> distinct.add(new TreeMap<>(attributes)));
            Map<String, JsonObject> listings = new LinkedHashMap<>();
            Iterator<SortedMap<String, String>> next = distinct.iterator();
            while (next.hasNext() && listings.size() < MAX_LISTINGS) {
                JsonObject shown = shown(service, next.next());
                if (!shown.isEmpty()) {
                    // two listings that differ only in what is left out are shown once
                    listings.putIfAbsent(shown.toString(), shown);
                }
            }
            if (next.hasNext()) {
                shortened.add(service);
            }
            if (!listings.isEmpty()) {
                JsonArrayBuilder array = Jsonp.array();
                listings.values().forEach(array::add);
                out.add(source.getKey(), array);
                any = true;
            }
        }
        return any ? Optional.of(out.build()) : Optional.empty();
    }

    /**
     * What the answer says when some service's attributes were shortened, naming those services; empty otherwise. Only
     * the services {@link #of} was asked about count: the others are not shown.
     */
    Optional<String> note() {
        if (shortened.isEmpty()) {
            return Optional.empty();
        }
        List<String> named = shortened.stream().limit(NAMED_IN_NOTE).toList();
        String more = shortened.size() > named.size() ? " and " + (shortened.size() - named.size()) + " more" : "";
        return Optional.of("What the sources said about " + String.join(", ", named) + more + " was shortened (attributesBySource): a "
                + "value is cut after " + MAX_VALUE_CHARS + " characters and ends with '…', an attribute whose name is not a simple "
                + "identifier of at most 64 characters is left out, a listing shows at most " + MAX_ATTRIBUTES + " attributes "
                + "(the first by name), and a source at most " + MAX_LISTINGS + " listings of one name.");
    }

    /** The schema of {@code attributesBySource}, as {@link #of} writes it. */
    static JsonObjectBuilder schema() {
        // an anyOf, not "type": ["string", "integer"]: the official TypeScript SDK's strict validator refuses a type of two kinds
        JsonObjectBuilder value = Jsonp.object().add("anyOf", Jsonp.array()
                .add(Jsonp.object().add("type", "string").add("maxLength", MAX_VALUE_CHARS + 1))
                .add(Jsonp.object().add("type", "integer").add("minimum", 0).add("maximum", 999_999_999_999_999L)));
        JsonObjectBuilder listing = Jsonp.object().add("type", "object")
                .add("propertyNames", Jsonp.object().add("pattern", NAME_PATTERN))
                .add("additionalProperties", value).add("minProperties", 1).add("maxProperties", MAX_ATTRIBUTES);
        return Jsonp.object().add("type", "object")
                .add("propertyNames", Jsonp.object().add("pattern", Schemas.SOURCE_PATTERN))
                .add("additionalProperties", Jsonp.object().add("type", "array").add("items", listing).add("minItems", 1)
                        .add("maxItems", MAX_LISTINGS))
                .add("description", "What each source said about the service, by source name (only sources that said "
                        + "something): one object per time the source listed the name (Kubernetes: one per namespace), for "
                        + "example targets and targetsUp from Prometheus, namespace and type from Kubernetes. Counts are numbers; "
                        + "text is redacted and cut after " + MAX_VALUE_CHARS + " characters with '…'.");
    }

    /** One listing's attributes as shown; {@code service} is marked shortened when any was left out or cut. */
    private JsonObject shown(String service, Map<String, String> attributes) {
        // the first names in order, kept without sorting every name a hostile listing may hold
        TreeMap<String, String> kept = new TreeMap<>();
        for (Map.Entry<String, String> attribute : attributes.entrySet()) {
            if (!NAME.matcher(attribute.getKey()).matches()) {
                shortened.add(service);
                continue;
            }
            kept.put(attribute.getKey(), attribute.getValue());
            if (kept.size() > MAX_ATTRIBUTES) {
                kept.pollLastEntry();
                shortened.add(service);
            }
        }
        JsonObjectBuilder out = Jsonp.object();
        kept.forEach((name, value) -> {
            // an identifier can still be a token (ghp_...): a name redaction would change is left out, not shown changed
            if (!namesShown.computeIfAbsent(name, n -> redaction.apply(n).equals(n))) {
                shortened.add(service);
                return;
            }
            Shown shownValue = valuesShown.computeIfAbsent(value, this::shownValue);
            if (shownValue.cut()) {
                shortened.add(service);
            }
            out.add(name, shownValue.value());
        });
        return out.build();
    }

    /**
     * A value as shown: redacted whole before the cut, so the cut never leaves part of a secret redaction would no longer
     * recognise, then one clean line; a plain count as a number.
     */
    private Shown shownValue(String value) {
        String redacted = redaction.apply(value);
        String text = BackendText.clean(redacted, MAX_VALUE_CHARS);
        // the shared provider: Json.createValue looks the provider up anew on every call
        JsonValue shownValue = COUNT.matcher(text).matches() ? Jsonp.provider().createValue(Long.parseLong(text))
                : Jsonp.provider().createValue(text);
        return new Shown(shownValue, cut(redacted));
    }

    /** Listings in the order of their attributes' names, then values: a total order, so distinct maps never tie. */
    private static int compare(SortedMap<String, String> a, SortedMap<String, String> b) {
        Iterator<Map.Entry<String, String>> x = a.entrySet().iterator();
        Iterator<Map.Entry<String, String>> y = b.entrySet().iterator();
        while (x.hasNext() && y.hasNext()) {
            Map.Entry<String, String> left = x.next();
            Map.Entry<String, String> right = y.next();
            int byName = left.getKey().compareTo(right.getKey());
            if (byName != 0) {
                return byName;
            }
            int byValue = left.getValue().compareTo(right.getValue());
            if (byValue != 0) {
                return byValue;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    /** Whether {@link BackendText#clean} cuts {@code text} at {@value #MAX_VALUE_CHARS} characters. */
    private static boolean cut(String text) {
        if (text.length() <= MAX_VALUE_CHARS) {
            return false; // cleaning makes no text longer (a character becomes a space, a URL the shorter <url>)
        }
        // clean looks at most eight times the bound: a longer text is cut whatever it holds
        return text.length() > MAX_VALUE_CHARS * 8 || BackendText.clean(text, Math.max(1, text.length())).length() > MAX_VALUE_CHARS;
    }
}
